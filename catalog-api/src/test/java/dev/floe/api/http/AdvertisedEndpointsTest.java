package dev.floe.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.config.FloeConfig;
import dev.floe.infra.storage.MetadataFiles;
import dev.floe.infra.storage.vending.CredentialVendors;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.iceberg.rest.Endpoint;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /v1/config} advertises exactly the Iceberg endpoints the router serves: every route
 * outside Floe's own (management, health, metrics, internal, the config itself) is advertised, and
 * every advertised endpoint is routed, spelled as Iceberg's {@link Endpoint} constant.
 */
class AdvertisedEndpointsTest {
  /** Routes that are Floe's own, not Iceberg REST endpoints. */
  private static final List<String> NOT_ICEBERG =
      List.of("/management/", "/internal/", "/health/", "/metrics", "/v1/config");

  /**
   * Iceberg endpoints Floe does not serve here, so must neither route nor advertise: signing is
   * served only when a storage signs (none is configured in this test).
   */
  private static final Set<Endpoint> NOT_SERVED = Set.of(Endpoint.V1_TABLE_REMOTE_SIGN);

  /** Endpoints Floe serves beyond those of Iceberg's release. */
  private static final Set<Endpoint> FLOE_ADDITIONS =
      Set.of(EventsHandlers.V1_EVENTS, EventsHandlers.V1_EVENTS_STREAM);

  @TempDir Path dataDir;

  private RestRouter router;

  @BeforeEach
  void buildRoutes() {
    Properties props = new Properties();
    props.setProperty("floe.data-dir", dataDir.toString());
    FloeConfig config = FloeConfig.fromProperties(props);
    CatalogContext catalog =
        new CatalogContext(
            config,
            null,
            null,
            null,
            new MetadataFiles(),
            null,
            null,
            new CredentialVendors(config.storage(), Clock.systemUTC()));
    router =
        IcebergRoutes.router(
                catalog, AuditLog.NONE, null, null, null, null, () -> Future.succeededFuture())
            .addUnaudited(HttpMethod.GET, "/health/live", request -> null)
            .addUnaudited(HttpMethod.POST, "/internal/v1/access/sync", request -> null);
  }

  @Test
  void everyIcebergRouteIsAdvertised() {
    List<String> unadvertised = new ArrayList<>();
    for (RouteTable.Route route : router.routes()) {
      if (NOT_ICEBERG.stream().noneMatch(route.path()::startsWith)
          && !router.endpoints().contains(route.endpoint())) {
        unadvertised.add(route.method() + " " + route.path());
      }
    }

    assertThat(unadvertised).isEmpty();
    assertThat(router.routes()).filteredOn(route -> route.endpoint() == null).isNotEmpty();
  }

  @Test
  void everyAdvertisedEndpointIsRoutedAtItsMethodAndPath() {
    for (Endpoint endpoint : router.endpoints()) {
      HttpMethod method = HttpMethod.valueOf(endpoint.httpMethod());
      RouteTable.Route route = router.route(method, request(endpoint.path()));

      assertThat(route).as(endpoint.toString()).isNotNull();
      assertThat(route.endpoint()).as(endpoint.toString()).isEqualTo(endpoint);
    }
  }

  @Test
  void theAdvertisedEndpointsAreIcebergsSpellingOnceEach() throws Exception {
    List<Endpoint> advertised = new ArrayList<>(router.endpoints());
    List<Endpoint> iceberg = icebergEndpoints();

    assertThat(advertised).doesNotHaveDuplicates().hasSize(31);
    // The proposed Events endpoint (apache/iceberg#12584, in no Iceberg release yet) and Floe's
    // live stream of it: advertised in Iceberg's spelling, which clients that know neither ignore.
    assertThat(advertised)
        .extracting(Endpoint::toString)
        .contains("POST /v1/{prefix}/events", "GET /v1/{prefix}/events/stream");
    advertised.removeAll(FLOE_ADDITIONS);
    assertThat(iceberg).containsAll(advertised);
    assertThat(advertised.stream().map(Endpoint::toString))
        .contains("GET /v1/{prefix}/namespaces/{namespace}/views/{view}")
        .contains(
            "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan",
            "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}",
            "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}",
            "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks")
        .noneMatch(endpoint -> endpoint.contains("views/{table}"));
    assertThat(iceberg).containsAll(NOT_SERVED);
    assertThat(advertised).doesNotContainAnyElementsOf(NOT_SERVED);
    List<Endpoint> neither = new ArrayList<>(iceberg);
    neither.removeAll(advertised);
    neither.removeAll(NOT_SERVED);
    assertThat(neither).as("Iceberg endpoints neither served nor declared not served").isEmpty();
  }

  @Test
  void theEndpointsFloeDoesNotServeHaveNoRoute() {
    for (Endpoint endpoint : NOT_SERVED) {
      HttpMethod method = HttpMethod.valueOf(endpoint.httpMethod());
      assertThat(router.route(method, request(endpoint.path()))).as(endpoint.toString()).isNull();
    }
  }

  /** A request path for an endpoint: each parameter given a value. */
  private static String request(String path) {
    return path.replaceAll("\\{([^}]+)}", "$1-value");
  }

  private static List<Endpoint> icebergEndpoints() throws IllegalAccessException {
    List<Endpoint> endpoints = new ArrayList<>();
    for (Field field : Endpoint.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == Endpoint.class) {
        endpoints.add((Endpoint) field.get(null));
      }
    }
    return endpoints;
  }
}
