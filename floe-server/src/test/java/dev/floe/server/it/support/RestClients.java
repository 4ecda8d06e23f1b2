package dev.floe.server.it.support;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.rest.RESTCatalog;

/** Iceberg's own Java REST client, configured as an engine would be. */
public final class RestClients {
  private RestClients() {}

  public static RESTCatalog connect(String uri, Map<String, String> extra) {
    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, uri);
    props.put(CatalogProperties.WAREHOUSE_LOCATION, "default");
    props.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.hadoop.HadoopFileIO");
    props.putAll(extra);
    RESTCatalog catalog = new RESTCatalog();
    catalog.setConf(new Configuration());
    catalog.initialize("floe", props);
    return catalog;
  }
}
