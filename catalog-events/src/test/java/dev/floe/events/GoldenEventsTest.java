package dev.floe.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventEnvelope;
import dev.floe.events.event.EventTypes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The log of record is kept forever, so every event type has a golden example in {@code
 * docs/events/examples} and a JSON Schema in {@code docs/events/schemas}, and every example must
 * keep deserialising into its record without losing a field. The examples are fixed inputs: never
 * regenerate one to make this test pass; a change that breaks one is an incompatible change
 * (docs/events.md, Compatibility).
 */
class GoldenEventsTest {
  private static final String AUDIT_RECORD = "audit-record";
  private static final Path EVENTS_DOCS = locate(Path.of("docs", "events"));
  private static final Path EXAMPLES = EVENTS_DOCS.resolve("examples");
  private static final Path SCHEMAS = EVENTS_DOCS.resolve("schemas");
  private static final ObjectMapper MAPPER = FloeJson.mapper();

  // Draft 2020-12 treats "format" as an annotation only; assert it, so "time" must be RFC 3339.
  private static final SchemaRegistry SCHEMAS_REGISTRY =
      SchemaRegistry.withDefaultDialect(
          SpecificationVersion.DRAFT_2020_12,
          builder ->
              builder.schemaRegistryConfig(
                  SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));

  /** Every event type: every record of the sealed hierarchy, by its CloudEvents type. */
  static Stream<String> eventTypes() {
    return records(CatalogEvent.class).map(EventTypes::typeOf).sorted();
  }

  private static Stream<Class<?>> records(Class<?> type) {
    return type.isSealed()
        ? Arrays.stream(type.getPermittedSubclasses()).flatMap(GoldenEventsTest::records)
        : Stream.of(type);
  }

  @Test
  void everyEventTypeHasAGoldenExampleAndASchema() {
    List<String> missing = new ArrayList<>();
    Stream.concat(eventTypes(), Stream.of(AUDIT_RECORD))
        .forEach(
            type -> {
              if (!Files.isRegularFile(example(type))) {
                missing.add(EVENTS_DOCS.relativize(example(type)).toString());
              }
              if (!Files.isRegularFile(schemaFile(type))) {
                missing.add(EVENTS_DOCS.relativize(schemaFile(type)).toString());
              }
            });
    assertThat(missing).as("golden examples and schemas missing under docs/events").isEmpty();
  }

  @Test
  void everyGoldenExampleAndSchemaNamesAKnownType() throws IOException {
    Set<String> known = eventTypes().collect(Collectors.toCollection(TreeSet::new));
    known.add(AUDIT_RECORD);
    assertThat(typesIn(EXAMPLES, ".json")).isSubsetOf(known);
    assertThat(typesIn(SCHEMAS, ".schema.json")).isSubsetOf(known);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("eventTypes")
  void goldenExampleDeserialisesIntoItsRecord(String type) {
    byte[] golden = read(example(type));
    JsonNode json = tree(golden);

    EventEnvelope envelope = EventEnvelope.fromBytes(golden);

    assertThat(envelope.data()).isInstanceOf(EventTypes.classOf(type));
    assertThat(envelope.type()).isEqualTo(type).isEqualTo(json.get("type").asText());
    assertThat(envelope.subject()).isEqualTo(json.get("subject").asText());
    assertThat(envelope.id()).isEqualTo(json.get("id").asText());
    assertThat(envelope.time()).isEqualTo(json.get("time").asText());
    assertThat(envelope.source())
        .isEqualTo(json.get("source").asText())
        .isEqualTo("/floe/warehouses/" + envelope.data().warehouse());
    assertThat(envelope.id()).startsWith(envelope.data().commandId() + ":");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("eventTypes")
  void goldenExampleSurvivesARoundTrip(String type) {
    byte[] golden = read(example(type));

    EventEnvelope first = EventEnvelope.fromBytes(golden);
    byte[] rewritten = first.toBytes();
    EventEnvelope second = EventEnvelope.fromBytes(rewritten);

    assertThat(second.id()).isEqualTo(first.id());
    assertThat(second.source()).isEqualTo(first.source());
    assertThat(second.time()).isEqualTo(first.time());
    assertSameEvent(first.data(), second.data());
    assertThat(tree(second.toBytes())).isEqualTo(tree(rewritten));
    // Nothing the log holds may be lost on the way through the record; new fields may be added.
    assertContains(tree(golden), tree(rewritten), "$");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("eventTypes")
  void goldenExampleMatchesItsSchema(String type) {
    Schema schema = schema(type);
    byte[] golden = read(example(type));

    assertThat(schema.validate(tree(golden))).as("golden example").isEmpty();
    assertThat(schema.validate(tree(EventEnvelope.fromBytes(golden).toBytes())))
        .as("golden example as written again")
        .isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("eventTypes")
  void schemaDescribesEveryFieldOfTheRecord(String type) {
    JsonNode data = tree(read(schemaFile(type))).at("/properties/data");

    assertThat(fieldNames(data.get("properties")))
        .containsExactlyInAnyOrderElementsOf(componentNames(EventTypes.classOf(type)));
    assertThat(fieldNames(data.get("properties"))).containsAll(textValues(data.get("required")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("eventTypes")
  void schemaRejectsAnEventWithoutItsCommandOrWithABadTime(String type) {
    Schema schema = schema(type);
    ObjectNode withoutCommand = (ObjectNode) tree(read(example(type)));
    ((ObjectNode) withoutCommand.get("data")).remove("commandId");
    ObjectNode badTime = (ObjectNode) tree(read(example(type)));
    badTime.put("time", "2 March 2026, 09:14");

    assertThat(schema.validate(withoutCommand))
        .extracting(com.networknt.schema.Error::getKeyword)
        .contains("required");
    assertThat(schema.validate(badTime))
        .extracting(com.networknt.schema.Error::getKeyword)
        .contains("format");
  }

  @Test
  void goldenAuditRecordDeserialisesAndMatchesItsSchema() {
    byte[] golden = read(example(AUDIT_RECORD));

    AuditRecord record = AuditRecord.fromBytes(golden);

    assertThat(record.status()).isEqualTo(409);
    assertThat(record.errorType()).isEqualTo("CommitFailedException");
    assertThat(AuditRecord.fromBytes(record.toBytes())).isEqualTo(record);
    assertContains(tree(golden), tree(record.toBytes()), "$");
    assertThat(schema(AUDIT_RECORD).validate(tree(golden))).isEmpty();
    JsonNode properties = tree(read(schemaFile(AUDIT_RECORD))).get("properties");
    assertThat(fieldNames(properties))
        .containsExactlyInAnyOrderElementsOf(componentNames(AuditRecord.class));
  }

  /**
   * Records compare by value, but Iceberg's {@link TableMetadata}, {@link MetadataUpdate} and
   * {@link UpdateRequirement} do not implement equals: those components compare by their JSON.
   */
  private static void assertSameEvent(CatalogEvent expected, CatalogEvent actual) {
    assertThat(actual).hasSameClassAs(expected);
    for (RecordComponent component : expected.getClass().getRecordComponents()) {
      Object want = value(component, expected);
      Object got = value(component, actual);
      if (comparesByJson(want)) {
        JsonNode wantJson = MAPPER.valueToTree(want);
        JsonNode gotJson = MAPPER.valueToTree(got);
        assertThat(gotJson).as(component.getName()).isEqualTo(wantJson);
      } else {
        assertThat(got).as(component.getName()).isEqualTo(want);
      }
    }
  }

  private static boolean comparesByJson(Object value) {
    if (value instanceof TableMetadata) {
      return true;
    }
    return value instanceof List<?> list
        && list.stream()
            .anyMatch(e -> e instanceof MetadataUpdate || e instanceof UpdateRequirement);
  }

  /** Every field and value of {@code expected} is in {@code actual}; objects may have more. */
  private static void assertContains(JsonNode expected, JsonNode actual, String path) {
    assertThat(actual).as(path).isNotNull();
    if (expected.isObject()) {
      assertThat(actual.isObject()).as(path + " is an object").isTrue();
      Iterator<Map.Entry<String, JsonNode>> fields = expected.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        String at = path + "." + field.getKey();
        assertThat(actual.has(field.getKey())).as(at + " is kept").isTrue();
        assertContains(field.getValue(), actual.get(field.getKey()), at);
      }
    } else if (expected.isArray()) {
      assertThat(actual.size()).as(path + " size").isEqualTo(expected.size());
      for (int i = 0; i < expected.size(); i++) {
        assertContains(expected.get(i), actual.get(i), path + "[" + i + "]");
      }
    } else {
      assertThat(actual).as(path).isEqualTo(expected);
    }
  }

  private static Object value(RecordComponent component, Object record) {
    try {
      return component.getAccessor().invoke(record);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot read " + component.getName(), e);
    }
  }

  private static List<String> componentNames(Class<?> recordClass) {
    return Arrays.stream(recordClass.getRecordComponents()).map(RecordComponent::getName).toList();
  }

  private static List<String> fieldNames(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static List<String> textValues(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asText()));
    return values;
  }

  private static Set<String> typesIn(Path dir, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(suffix))
          .map(name -> name.substring(0, name.length() - suffix.length()))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static Schema schema(String type) {
    return SCHEMAS_REGISTRY.getSchema(tree(read(schemaFile(type))));
  }

  private static Path example(String type) {
    return EXAMPLES.resolve(type + ".json");
  }

  private static Path schemaFile(String type) {
    return SCHEMAS.resolve(type + ".schema.json");
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode tree(byte[] json) {
    try {
      return MAPPER.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The docs folder of the repository: tests run in the module's directory, below it. */
  private static Path locate(Path relative) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve(relative))) {
        return dir.resolve(relative);
      }
    }
    throw new IllegalStateException("No " + relative + " above " + Path.of("").toAbsolutePath());
  }
}
