package dev.floe.events;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.rest.RESTSerializers;

/**
 * The two JSON mappers of Floe. {@link #mapper()} writes Floe's own records (commands, events,
 * replies); {@link #rest()} reads and writes the Iceberg REST protocol's request and response
 * classes exactly as Iceberg's own server does. Both know Iceberg's types (schemas, partition
 * specs, {@code MetadataUpdate}, {@code UpdateRequirement}) through {@link RESTSerializers}, so a
 * change to a table is carried in Iceberg's own JSON, never in a parallel schema.
 *
 * <p>{@link #rest()} reads what clients send, so its reads are bounded ({@link RestRequestLimits}):
 * nesting depth, string and number length, document size, and the changes in one commit.
 */
public final class FloeJson {
  private static final ObjectMapper MAPPER = newMapper();
  private static final ObjectMapper REST = newRestMapper();

  private FloeJson() {}

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static ObjectMapper rest() {
    return REST;
  }

  public static byte[] toBytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot serialise " + value.getClass().getSimpleName(), e);
    }
  }

  public static <T> T fromBytes(byte[] bytes, Class<T> type) {
    try {
      return MAPPER.readValue(bytes, type);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + type.getSimpleName(), e);
    }
  }

  private static ObjectMapper newMapper() {
    // Floe's own records carry whole metadata documents as strings (RecordLimits).
    ObjectMapper mapper =
        new ObjectMapper(
            new JsonFactoryBuilder()
                .streamReadConstraints(
                    StreamReadConstraints.builder()
                        .maxStringLength(RecordLimits.MAX_RECORD_BYTES)
                        .build())
                .build());
    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    mapper.setSerializationInclusion(JsonInclude.Include.NON_NULL);
    RESTSerializers.registerAll(mapper);
    return mapper;
  }

  /**
   * The same configuration as Iceberg's package-private {@code RESTObjectMapper}, with the read
   * bounds of {@link RestRequestLimits}.
   */
  private static ObjectMapper newRestMapper() {
    ObjectMapper mapper =
        new ObjectMapper(
            new JsonFactoryBuilder()
                .configure(JsonFactory.Feature.INTERN_FIELD_NAMES, false)
                .configure(JsonFactory.Feature.FAIL_ON_SYMBOL_HASH_OVERFLOW, false)
                .streamReadConstraints(RestRequestLimits.readConstraints())
                .build());
    mapper.setPropertyNamingStrategy(new PropertyNamingStrategies.KebabCaseStrategy());
    mapper.setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY);
    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    RESTSerializers.registerAll(mapper);
    // Registered after Iceberg's serialisers, so the bounded deserialiser takes precedence.
    mapper.registerModule(RestRequestLimits.module());
    return mapper;
  }
}
