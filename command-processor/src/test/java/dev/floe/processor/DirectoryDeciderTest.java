package dev.floe.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import dev.floe.events.Rejection;
import dev.floe.events.RejectionCode;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CommitTableCommand;
import dev.floe.events.command.CompletePurgeCommand;
import dev.floe.events.command.CreateNamespaceCommand;
import dev.floe.events.command.CreateTableCommand;
import dev.floe.events.command.CreateViewCommand;
import dev.floe.events.command.DropNamespaceCommand;
import dev.floe.events.command.DropTableCommand;
import dev.floe.events.command.RegisterTableCommand;
import dev.floe.events.command.RelocateCommand;
import dev.floe.events.command.RenameTableCommand;
import dev.floe.events.command.RenameViewCommand;
import dev.floe.events.command.UpdateNamespacePropertiesCommand;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableFilesPurgedEvent;
import dev.floe.events.event.TablePurgeRefusedEvent;
import dev.floe.events.state.DeletedEntity;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.TableEntry;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.authority.Claims;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.config.StorageConfig;
import dev.floe.infra.storage.location.Location;
import dev.floe.processor.step.CommitRelocatedStep;
import dev.floe.processor.step.CreateTableStep;
import dev.floe.processor.step.DropTableStep;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.MoveOutStep;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UnboundPartitionSpec;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.ImmutableCreateViewRequest;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.ImmutableSQLViewRepresentation;
import org.apache.iceberg.view.ImmutableViewVersion;
import org.apache.iceberg.view.ViewVersion;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Given a warehouse's directory, when a membership command is decided, then these follow. */
class DirectoryDeciderTest {
  private static final String WAREHOUSE = "wh";
  private static final String ROOT = "file:///warehouses/wh";
  private static final Namespace DB = Namespace.of("db");
  private static final TableIdentifier ORDERS = TableIdentifier.of(DB, "orders");
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "data", Types.StringType.get()));

  private static final LocationAuthority LOCATIONS =
      new LocationAuthority(StorageConfig.local(Map.of(WAREHOUSE, ROOT)));

  private final FakeDirectory directory = new FakeDirectory();

  @Nested
  class CreateNamespace {
    @Test
    void createsNamespaceWithItsProperties() {
      Map<String, String> properties = Map.of("owner", "alice");

      Decision decision =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new CreateNamespaceCommand(header("c-1"), WAREHOUSE, DB, properties));

      assertThat(decision.events())
          .containsExactly(new NamespaceCreatedEvent(WAREHOUSE, DB, properties, "c-1", "alice", 1));
      assertThat(decision.reply()).isEqualTo(CommandReply.namespace("c-1", properties));
      assertThat(decision.steps()).isEmpty();
      assertThat(decision.tableState()).isNull();
    }

    @Test
    void rejectsNamespaceThatAlreadyExists() {
      directory.givenNamespace(DB, Map.of(), 1);

      Decision decision =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new CreateNamespaceCommand(header("c-2"), WAREHOUSE, DB, Map.of()));

      assertRejected(
          decision, "c-2", RejectionCode.NAMESPACE_ALREADY_EXISTS, "Namespace already exists: db");
    }

    @Test
    void rejectsNestedNamespaceWhoseParentIsMissing() {
      Decision decision =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new CreateNamespaceCommand(
                  header("c-3"), WAREHOUSE, Namespace.of("db", "sales"), Map.of()));

      assertRejected(
          decision, "c-3", RejectionCode.NAMESPACE_NOT_FOUND, "Namespace does not exist: db");
    }

    @Test
    void createsNestedNamespaceUnderExistingParent() {
      directory.givenNamespace(DB, Map.of(), 1);
      Namespace sales = Namespace.of("db", "sales");

      Decision decision =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new CreateNamespaceCommand(header("c-4"), WAREHOUSE, sales, Map.of()));

      assertThat(decision.events())
          .containsExactly(
              new NamespaceCreatedEvent(WAREHOUSE, sales, Map.of(), "c-4", "alice", 1));
      assertThat(decision.reply().accepted()).isTrue();
    }
  }

  @Nested
  class DropNamespace {
    @Test
    void dropsEmptyNamespace() {
      directory.givenNamespace(DB, Map.of(), 3);

      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, new DropNamespaceCommand(header("c-5"), WAREHOUSE, DB));

      assertThat(decision.events())
          .containsExactly(new NamespaceDroppedEvent(WAREHOUSE, DB, "c-5", "alice", 4));
      assertThat(decision.reply()).isEqualTo(CommandReply.done("c-5"));
    }

    @Test
    void rejectsDropOfMissingNamespace() {
      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, new DropNamespaceCommand(header("c-6"), WAREHOUSE, DB));

      assertRejected(
          decision, "c-6", RejectionCode.NAMESPACE_NOT_FOUND, "Namespace does not exist: db");
    }

    @Test
    void rejectsDropOfNamespaceWithTables() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenTable(ORDERS);

      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, new DropNamespaceCommand(header("c-7"), WAREHOUSE, DB));

      assertRejected(
          decision,
          "c-7",
          RejectionCode.NAMESPACE_NOT_EMPTY,
          "Namespace db is not empty. Contains tables.");
    }

    @Test
    void rejectsDropOfNamespaceWithChildNamespaces() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenNamespace(Namespace.of("db", "sales"), Map.of(), 1);

      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, new DropNamespaceCommand(header("c-8"), WAREHOUSE, DB));

      assertRejected(
          decision,
          "c-8",
          RejectionCode.NAMESPACE_NOT_EMPTY,
          "Namespace db is not empty. Contains namespaces.");
    }

    @Test
    void dropsNamespaceWhoseSiblingHasTables() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenNamespace(Namespace.of("dbx"), Map.of(), 1);
      directory.givenTable(TableIdentifier.of(Namespace.of("dbx"), "orders"));

      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, new DropNamespaceCommand(header("c-9"), WAREHOUSE, DB));

      assertThat(decision.reply().accepted()).isTrue();
      assertThat(decision.events()).hasSize(1);
    }
  }

  @Nested
  class UpdateProperties {
    @Test
    void reportsUpdatedRemovedAndMissingKeys() {
      directory.givenNamespace(DB, Map.of("a", "1", "b", "2"), 2);

      Decision decision =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new UpdateNamespacePropertiesCommand(
                  header("c-10"), WAREHOUSE, DB, Map.of("a", "9", "c", "3"), List.of("b", "zz")));

      assertThat(decision.events())
          .containsExactly(
              new NamespacePropertiesUpdatedEvent(
                  WAREHOUSE, DB, Map.of("a", "9", "c", "3"), List.of("b"), "c-10", "alice", 3));
      CommandReply reply = decision.reply();
      assertThat(reply.accepted()).isTrue();
      assertThat(reply.updated()).containsExactlyInAnyOrder("a", "c");
      assertThat(reply.removed()).containsExactly("b");
      assertThat(reply.missing()).containsExactly("zz");
    }

    @Test
    void rejectsKeyBothSetAndRemoved() {
      directory.givenNamespace(DB, Map.of("a", "1"), 1);

      Decision decision =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new UpdateNamespacePropertiesCommand(
                  header("c-11"), WAREHOUSE, DB, Map.of("a", "2", "b", "2"), List.of("a")));

      assertRejected(
          decision,
          "c-11",
          RejectionCode.UNPROCESSABLE,
          "Cannot set and remove the same keys: [a]");
    }

    @Test
    void rejectsUpdateOfMissingNamespace() {
      Decision decision =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new UpdateNamespacePropertiesCommand(
                  header("c-12"), WAREHOUSE, DB, Map.of("a", "1"), List.of()));

      assertRejected(
          decision, "c-12", RejectionCode.NAMESPACE_NOT_FOUND, "Namespace does not exist: db");
    }
  }

  @Nested
  class CreateTable {
    @Test
    void honoursRequestedLocationInsideWarehouse() {
      directory.givenNamespace(DB, Map.of(), 1);

      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, createOrders("c-40", ROOT + "/db/custom/orders/"));

      assertThat(decision.isRejected()).isFalse();
      assertThat(((CreateTableStep) decision.steps().get(0)).metadata().location())
          .isEqualTo(ROOT + "/db/custom/orders");
    }

    @Test
    void rejectsRequestedLocationOutsideWarehouse() {
      directory.givenNamespace(DB, Map.of(), 1);

      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, createOrders("c-41", "file:///elsewhere/orders"));

      assertThat(decision.reply().rejection().code()).isEqualTo(RejectionCode.INVALID_REQUEST);
      assertThat(decision.reply().rejection().message()).contains("outside the namespace");
      assertThat(decision.steps()).isEmpty();
    }

    @Test
    void rejectsLocationWithRelativeSegments() {
      directory.givenNamespace(DB, Map.of(), 1);

      Decision decision =
          DirectoryDecider.decide(directory, LOCATIONS, createOrders("c-42", ROOT + "/a/../b"));

      assertThat(decision.reply().rejection().code()).isEqualTo(RejectionCode.INVALID_REQUEST);
    }

    @Test
    void rejectsLocationEqualToParentOfOrInsideAnotherTables() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenLocation(ROOT + "/db/shared/t", "db.other");

      for (String requested :
          List.of(ROOT + "/db/shared/t", ROOT + "/db/shared", ROOT + "/db/shared/t/inner")) {
        Decision decision =
            DirectoryDecider.decide(directory, LOCATIONS, createOrders("c-43", requested));
        assertThat(decision.reply().rejection().code())
            .as(requested)
            .isEqualTo(RejectionCode.INVALID_REQUEST);
        assertThat(decision.reply().rejection().message()).as(requested).contains("overlaps");
      }
    }

    @Test
    void siblingWithCommonNamePrefixDoesNotOverlap() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenLocation(ROOT + "/db/shared/t", "db.other");

      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, createOrders("c-44", ROOT + "/db/shared/t2"));

      assertThat(decision.isRejected()).isFalse();
    }

    @Test
    void rejectsLocationOfDroppedTableAwaitingPurge() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenPurge(ROOT + "/db/gone");

      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, createOrders("c-45", ROOT + "/db/gone/sub"));

      assertThat(decision.reply().rejection().code()).isEqualTo(RejectionCode.INVALID_REQUEST);
    }

    @Test
    void aCreateOfTheSameNameTakesTheLocationOfTheKeptTableOverAndRetainsItsFiles() {
      directory.givenNamespace(DB, Map.of(), 1);
      DeletedEntity kept = directory.givenKept(ORDERS, ROOT + "/db/orders");

      Decision decision =
          DirectoryDecider.decide(directory, LOCATIONS, createOrders("c-46", ROOT + "/db/orders"));

      assertThat(decision.isRejected()).as("%s", decision.reply()).isFalse();
      assertThat(decision.events())
          .singleElement()
          .isInstanceOfSatisfying(
              TableExpungedEvent.class,
              expunged -> {
                assertThat(expunged.identifier()).isEqualTo(ORDERS);
                assertThat(expunged.dropCommandId()).isEqualTo(kept.dropCommandId());
                assertThat(expunged.purge()).as("its files are retained").isFalse();
                assertThat(expunged.principal()).isEqualTo("alice");
              });
      assertThat(decision.steps()).singleElement().isInstanceOf(CreateTableStep.class);
    }

    @Test
    void aKeptTableOfAnotherNameStillHoldsItsLocation() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenKept(TableIdentifier.of(DB, "other"), ROOT + "/db/orders");

      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, createOrders("c-47", ROOT + "/db/orders/inner"));

      assertThat(decision.reply().rejection().code()).isEqualTo(RejectionCode.INVALID_REQUEST);
      assertThat(decision.reply().rejection().message()).contains("kept for the recovery period");
      assertThat(decision.events()).isEmpty();
    }

    @Test
    void aCreateElsewhereLeavesTheKeptTableOfItsNameKept() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenKept(ORDERS, ROOT + "/db/orders");

      Decision decision =
          DirectoryDecider.decide(directory, LOCATIONS, createOrders("c-48", ROOT + "/db/new"));

      assertThat(decision.isRejected()).isFalse();
      assertThat(decision.events()).isEmpty();
    }

    @Test
    void completingAPurgeTwiceRecordsOneEvent() {
      directory.givenPurge(ROOT + "/db/gone");

      Decision first =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new CompletePurgeCommand(header("c-46"), WAREHOUSE, ROOT + "/db/gone"));
      directory.purges.clear();
      Decision second =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new CompletePurgeCommand(header("c-47"), WAREHOUSE, ROOT + "/db/gone"));

      assertThat(first.events()).hasSize(1).first().isInstanceOf(TableFilesPurgedEvent.class);
      assertThat(second.events()).isEmpty();
      assertThat(second.reply().accepted()).isTrue();
    }

    @Test
    void claimsNameAndSendsOneCreateStep() {
      directory.givenNamespace(DB, Map.of(), 1);
      CreateTableCommand command = createOrders("c-13", null);

      Decision decision = DirectoryDecider.decide(directory, LOCATIONS, command);

      assertThat(decision.events()).isEmpty();
      assertThat(decision.reply()).as("the table's partition replies").isNull();
      assertThat(decision.steps()).hasSize(1).first().isInstanceOf(CreateTableStep.class);
      CreateTableStep step = (CreateTableStep) decision.steps().get(0);
      assertThat(step.header()).isEqualTo(command.header());
      assertThat(step.warehouse()).isEqualTo(WAREHOUSE);
      assertThat(step.identifier()).isEqualTo(ORDERS);
      assertThat(step.key()).isEqualTo(command.tableKey());
      TableMetadata metadata = step.metadata();
      assertThat(metadata.schema().asStruct()).isEqualTo(SCHEMA.asStruct());
      assertThat(metadata.location()).startsWith(ROOT + "/db/orders-");
      assertThat(metadata.location()).contains(metadata.uuid().replace("-", ""));
      assertThat(metadata.properties()).containsEntry("owner", "alice");
      assertThat(step.metadataLocation())
          .startsWith(metadata.location() + "/metadata/")
          .contains("c-13")
          .endsWith(".metadata.json");
    }

    @Test
    void derivesUuidAndLocationFromCommandId() {
      directory.givenNamespace(DB, Map.of(), 1);

      CreateTableStep first = createStep(createOrders("c-14", null));
      CreateTableStep again = createStep(createOrders("c-14", null));
      CreateTableStep other = createStep(createOrders("c-15", null));

      assertThat(again.metadata().uuid()).isEqualTo(first.metadata().uuid());
      assertThat(again.metadata().location()).isEqualTo(first.metadata().location());
      assertThat(again.metadataLocation()).isEqualTo(first.metadataLocation());
      assertThat(other.metadata().uuid()).isNotEqualTo(first.metadata().uuid());
      assertThat(other.metadata().location()).isNotEqualTo(first.metadata().location());
    }

    @Test
    void usesRequestedLocationWithoutTrailingSlash() {
      directory.givenNamespace(DB, Map.of(), 1);

      CreateTableStep step = createStep(createOrders("c-16", ROOT + "/db/elsewhere/orders/"));

      assertThat(step.metadata().location()).isEqualTo(ROOT + "/db/elsewhere/orders");
      assertThat(step.metadataLocation())
          .isEqualTo(ROOT + "/db/elsewhere/orders/metadata/00000-c-16.metadata.json");
    }

    @Test
    void rejectsTableInMissingNamespace() {
      Decision decision = DirectoryDecider.decide(directory, LOCATIONS, createOrders("c-17", null));

      assertRejected(
          decision, "c-17", RejectionCode.NAMESPACE_NOT_FOUND, "Namespace does not exist: db");
    }

    @Test
    void rejectsTableWhoseNameIsTaken() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenTable(ORDERS);

      Decision decision = DirectoryDecider.decide(directory, LOCATIONS, createOrders("c-18", null));

      assertRejected(
          decision, "c-18", RejectionCode.TABLE_ALREADY_EXISTS, "Table already exists: db.orders");
    }

    @Test
    void rejectsPartitionSpecOnUnknownSourceColumn() throws Exception {
      directory.givenNamespace(DB, Map.of(), 1);
      JsonNode json =
          FloeJson.mapper()
              .readTree(
                  "{\"spec-id\":0,\"fields\":[{\"name\":\"nope\",\"transform\":\"identity\","
                      + "\"source-id\":99,\"field-id\":1000}]}");
      UnboundPartitionSpec spec = PartitionSpecParser.fromJson(json);
      CreateTableCommand command =
          new CreateTableCommand(
              header("c-19"), WAREHOUSE, ROOT, ORDERS, null, SCHEMA, spec, null, Map.of(), false);

      Decision decision = DirectoryDecider.decide(directory, LOCATIONS, command);

      assertThat(decision.isRejected()).isTrue();
      assertThat(decision.reply().rejection().code()).isEqualTo(RejectionCode.INVALID_REQUEST);
      assertThat(decision.reply().rejection().message()).contains("99");
      assertThat(decision.steps()).isEmpty();
      assertThat(decision.events()).isEmpty();
    }
  }

  @Nested
  class DropTable {
    @Test
    void releasesNameAndSendsDropStep() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenTable(ORDERS);
      DropTableCommand command = new DropTableCommand(header("c-20"), WAREHOUSE, ORDERS, true);

      Decision decision = DirectoryDecider.decide(directory, LOCATIONS, command);

      assertThat(decision.steps())
          .containsExactly(new DropTableStep(command.header(), WAREHOUSE, ORDERS, true));
      assertThat(decision.events()).isEmpty();
      assertThat(decision.reply()).as("the table's partition replies").isNull();
    }

    @Test
    void rejectsDropOfMissingTable() {
      directory.givenNamespace(DB, Map.of(), 1);

      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, new DropTableCommand(header("c-21"), WAREHOUSE, ORDERS, false));

      assertRejected(
          decision, "c-21", RejectionCode.TABLE_NOT_FOUND, "Table does not exist: db.orders");
    }
  }

  @Test
  void refusesToDecideCommitsWhichBelongToTheTableKey() {
    CatalogCommand commit =
        new CommitTableCommand(header("c-22"), WAREHOUSE, ORDERS, List.of(), List.of());

    assertThatThrownBy(() -> DirectoryDecider.decide(directory, LOCATIONS, commit))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Not a directory command");
  }

  private CreateTableStep createStep(CreateTableCommand command) {
    Decision decision = DirectoryDecider.decide(directory, LOCATIONS, command);
    assertThat(decision.steps()).hasSize(1);
    return (CreateTableStep) decision.steps().get(0);
  }

  /** Tables and views share one name space: a rename or a create is refused onto either. */
  @Nested
  class Names {
    private final TableIdentifier taken = TableIdentifier.of(DB, "taken");

    @Test
    void aRenameOntoATableOrAViewOfEitherKindIsRefusedNamingWhatHoldsTheName() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenTable(ORDERS);
      TableIdentifier view = TableIdentifier.of(DB, "v");
      directory.givenView(view);
      for (TableIdentifier holder : List.of(ORDERS, view)) {
        String what = holder.equals(ORDERS) ? "Table" : "View";
        directory.givenTable(taken);
        assertRejected(
            DirectoryDecider.decide(
                directory,
                LOCATIONS,
                new RenameViewCommand(header("c-1"), WAREHOUSE, view, holder)),
            "c-1",
            RejectionCode.TABLE_ALREADY_EXISTS,
            "Cannot rename db.v to " + holder + ". " + what + " already exists");
        assertRejected(
            DirectoryDecider.decide(
                directory,
                LOCATIONS,
                new RenameTableCommand(header("c-2"), WAREHOUSE, taken, holder)),
            "c-2",
            RejectionCode.TABLE_ALREADY_EXISTS,
            "Cannot rename db.taken to " + holder + ". " + what + " already exists");
      }
    }

    @Test
    void aRenameOfAMissingViewIsNoSuchViewAndIntoAMissingNamespaceNoSuchNamespace() {
      directory.givenNamespace(DB, Map.of(), 1);
      TableIdentifier view = TableIdentifier.of(DB, "v");
      assertRejected(
          DirectoryDecider.decide(
              directory, LOCATIONS, new RenameViewCommand(header("c-1"), WAREHOUSE, view, taken)),
          "c-1",
          RejectionCode.VIEW_NOT_FOUND,
          "View does not exist: db.v");
      directory.givenView(view);
      Decision moved =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new RenameViewCommand(
                  header("c-2"),
                  WAREHOUSE,
                  view,
                  TableIdentifier.of(Namespace.of("nowhere"), "v")));
      assertRejected(
          moved, "c-2", RejectionCode.NAMESPACE_NOT_FOUND, "Namespace does not exist: nowhere");
      assertThat(
              DirectoryDecider.decide(
                      directory,
                      LOCATIONS,
                      new RenameViewCommand(header("c-3"), WAREHOUSE, view, taken))
                  .steps())
          .containsExactly(new MoveOutStep(EntityKind.VIEW, header("c-3"), WAREHOUSE, view, taken));
    }
  }

  @Nested
  class StorageBoundary {
    private final TableIdentifier other = TableIdentifier.of(DB, "other");

    @Test
    void refusesASpellingOfAnotherTablesDirectoryWithoutNamingIt() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenTable(other);
      directory.givenLocation(ROOT + "/db/other-1234", other.toString());

      for (String requested :
          List.of(
              ROOT + "/db//other-1234",
              "file:/warehouses/wh/db/other-1234/x",
              ROOT + "/db/%6fther-1234",
              ROOT + "/db")) {
        Decision decision =
            DirectoryDecider.decide(directory, LOCATIONS, createOrders("c-60", requested));
        assertThat(decision.reply().rejection().code())
            .as(requested)
            .isEqualTo(RejectionCode.INVALID_REQUEST);
        assertThat(decision.reply().rejection().message())
            .as(requested)
            .containsAnyOf(
                "overlaps the location of another table or view", "outside the namespace")
            .startsWith("Location " + requested + " ")
            .doesNotContain("db.other");
      }
    }

    @Test
    void keepsTheClientsSpellingOfItsLocation() {
      directory.givenNamespace(DB, Map.of(), 1);

      Decision decision =
          DirectoryDecider.decide(
              directory, LOCATIONS, createOrders("c-61", "file:/warehouses/wh/db/x/orders"));

      assertThat(((CreateTableStep) decision.steps().get(0)).metadata().location())
          .isEqualTo("file:/warehouses/wh/db/x/orders");
    }

    @Test
    void refusesAViewOutsideTheRootOrOverAnotherTable() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenLocation(ROOT + "/db/other-1234", other.toString());

      for (String requested : List.of("file:///elsewhere/v", ROOT + "/db/other-1234/v", "file:/")) {
        Decision decision =
            DirectoryDecider.decide(directory, LOCATIONS, createView("c-62", requested));
        assertThat(decision.reply().rejection().code())
            .as(requested)
            .isEqualTo(RejectionCode.INVALID_REQUEST);
      }
      assertThat(
              DirectoryDecider.decide(
                      directory, LOCATIONS, createView("c-63", ROOT + "/db/views/v"))
                  .isRejected())
          .isFalse();
    }

    @Test
    void aRegisterReadsNoFileOutsideTheRootAndNoneOutsideTheTablesLocation() {
      directory.givenNamespace(DB, Map.of(), 1);
      TableMetadata metadata =
          TableMetadata.newTableMetadata(
              SCHEMA, PartitionSpec.unpartitioned(), ROOT + "/db/reg", Map.of());

      Decision outside =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              register("c-64", "file:///elsewhere/m.metadata.json", metadata));
      Decision elsewhereInRoot =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              register("c-65", ROOT + "/db/another/m.metadata.json", metadata));
      Decision inside =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              register("c-66", ROOT + "/db/reg/metadata/m.metadata.json", metadata));

      assertThat(outside.reply().rejection().message())
          .contains("outside the namespace's storage area");
      assertThat(elsewhereInRoot.reply().rejection().message())
          .contains("outside the table's location");
      assertThat(inside.isRejected()).isFalse();
    }

    @Test
    void aRegisterTakesAKeptTableOverUnderItsNameOrForAManagerAndOnlyAtItsLocation() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenNamespace(Namespace.of("other"), Map.of(), 1);
      TableMetadata metadata =
          TableMetadata.newTableMetadata(
              SCHEMA, PartitionSpec.unpartitioned(), ROOT + "/db/kept", Map.of());
      DeletedEntity kept =
          directory.givenKept(TableIdentifier.of(DB, "kept"), ROOT + "/db/kept", metadata.uuid());
      String file = ROOT + "/db/kept/metadata/m.metadata.json";

      Decision byWriter =
          DirectoryDecider.decide(directory, LOCATIONS, register("c-67", file, metadata));
      Decision byOtherManager =
          DirectoryDecider.decide(
              directory, LOCATIONS, register("c-68", file, metadata, List.of(List.of("other"))));
      Decision elsewhere =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              register(
                  "c-69",
                  ROOT + "/db/reg/metadata/m.metadata.json",
                  TableMetadata.buildFrom(metadata).setLocation(ROOT + "/db/reg").build(),
                  List.of(List.of())));
      Decision byManager =
          DirectoryDecider.decide(
              directory, LOCATIONS, register("c-70", file, metadata, List.of(List.of("db"))));

      assertThat(byWriter.reply().rejection().code()).isEqualTo(RejectionCode.TABLE_ALREADY_EXISTS);
      assertThat(byWriter.reply().rejection().message())
          .contains("manage")
          .doesNotContain("db.kept");
      assertThat(byOtherManager.reply().rejection().code())
          .isEqualTo(RejectionCode.TABLE_ALREADY_EXISTS);
      assertThat(elsewhere.reply().rejection().message()).contains("never given to two");
      Decision underItsOwnName =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new RegisterTableCommand(
                  header("c-71"),
                  WAREHOUSE,
                  TableIdentifier.of(DB, "kept"),
                  file,
                  metadata,
                  false,
                  List.of()));
      assertThat(underItsOwnName.isRejected())
          .as("a writer's drop and register of the same name: %s", underItsOwnName.reply())
          .isFalse();
      assertThat(byManager.isRejected()).as("%s", byManager.reply()).isFalse();
      assertThat(byManager.events())
          .singleElement()
          .isInstanceOfSatisfying(
              TableExpungedEvent.class,
              e -> assertThat(e.dropCommandId()).isEqualTo(kept.dropCommandId()));
    }

    @Test
    void aMoveIsCheckedAndHeldOnTheWarehouseKeyBeforeTheTableDecidesIt() {
      directory.givenNamespace(DB, Map.of(), 1);
      directory.givenTable(ORDERS);
      directory.givenLocation(ROOT + "/db/orders-1", ORDERS.toString());
      directory.givenLocation(ROOT + "/db/other-1234", other.toString());

      Decision moved =
          DirectoryDecider.decide(
              directory, LOCATIONS, relocate("c-67", ROOT + "/db/moved/orders"));
      Decision inside =
          DirectoryDecider.decide(
              directory, LOCATIONS, relocate("c-68", ROOT + "/db/orders-1/sub"));
      Decision over =
          DirectoryDecider.decide(directory, LOCATIONS, relocate("c-69", ROOT + "/db//other-1234"));
      Decision away =
          DirectoryDecider.decide(
              directory, LOCATIONS, relocate("c-70", "file:///elsewhere/orders"));

      assertThat(((CommitRelocatedStep) moved.steps().get(0)).held())
          .containsExactly(ROOT + "/db/orders-1", ROOT + "/db/moved/orders");
      assertThat(((CommitRelocatedStep) inside.steps().get(0)).held())
          .containsExactly(ROOT + "/db/orders-1");
      assertThat(over.reply().rejection().message()).contains("overlaps");
      assertThat(away.reply().rejection().message())
          .contains("outside the namespace's storage areas");
    }

    @Test
    void aPurgeTheAuthorityRefusedIsRecordedAndForgotten() {
      directory.givenPurge(ROOT + "/db/gone");

      Decision decision =
          DirectoryDecider.decide(
              directory,
              LOCATIONS,
              new CompletePurgeCommand(
                  header("c-71"),
                  WAREHOUSE,
                  ROOT + "/db/gone",
                  "a live table or view holds part of it"));

      assertThat(decision.events())
          .containsExactly(
              new TablePurgeRefusedEvent(
                  WAREHOUSE,
                  ROOT + "/db/gone",
                  "a live table or view holds part of it",
                  "c-71",
                  "alice",
                  1));
    }

    private RelocateCommand relocate(String id, String location) {
      return new RelocateCommand(
          header(id),
          WAREHOUSE,
          new CommitTableCommand(
              header(id),
              WAREHOUSE,
              ORDERS,
              List.of(),
              List.of(new MetadataUpdate.SetLocation(location))));
    }

    private RegisterTableCommand register(String id, String file, TableMetadata metadata) {
      return register(id, file, metadata, List.of());
    }

    private RegisterTableCommand register(
        String id, String file, TableMetadata metadata, List<List<String>> managed) {
      return new RegisterTableCommand(
          header(id), WAREHOUSE, TableIdentifier.of(DB, "reg"), file, metadata, false, managed);
    }

    private CreateViewCommand createView(String id, String location) {
      ViewVersion version =
          ImmutableViewVersion.builder()
              .versionId(1)
              .timestampMillis(1L)
              .schemaId(0)
              .defaultNamespace(DB)
              .addRepresentations(
                  ImmutableSQLViewRepresentation.builder().sql("select 1").dialect("spark").build())
              .build();
      return new CreateViewCommand(
          header(id),
          WAREHOUSE,
          ROOT,
          TableIdentifier.of(DB, "v"),
          ImmutableCreateViewRequest.builder()
              .name("v")
              .location(location)
              .schema(SCHEMA)
              .viewVersion(version)
              .build());
    }
  }

  private static CreateTableCommand createOrders(String commandId, String location) {
    return new CreateTableCommand(
        header(commandId),
        WAREHOUSE,
        ROOT,
        ORDERS,
        location,
        SCHEMA,
        null,
        null,
        Map.of("owner", "alice"),
        false);
  }

  private static void assertRejected(
      Decision decision, String commandId, RejectionCode code, String message) {
    assertThat(decision.events()).isEmpty();
    assertThat(decision.steps()).isEmpty();
    assertThat(decision.reply())
        .isEqualTo(CommandReply.rejected(commandId, new Rejection(code, message)));
  }

  private static CommandHeader header(String commandId) {
    return new CommandHeader(commandId, 1_700_000_000_000L, "alice", "api-1", null);
  }

  /** An in-memory directory: namespaces sorted by their levels, and the claimed table names. */
  private static final class FakeDirectory implements Directory {
    private static final String SEPARATOR = "\u0000";

    private final TreeMap<String, NamespaceState> namespaces = new TreeMap<>();
    private final Set<TableIdentifier> tables = new HashSet<>();
    private final Map<String, String> locations = new HashMap<>();
    private final Set<String> purges = new HashSet<>();

    void givenLocation(String location, String owner) {
      locations.put(location, owner);
    }

    void givenPurge(String location) {
      purges.add(location);
    }

    private final List<DeletedEntity> kept = new ArrayList<>();

    /** A table of this name dropped and kept, holding this location. */
    DeletedEntity givenKept(TableIdentifier identifier, String location) {
      return givenKept(identifier, location, null);
    }

    /** A table of this name and uuid dropped and kept, holding this location. */
    DeletedEntity givenKept(TableIdentifier identifier, String location, String uuid) {
      DeletedEntity entity =
          new DeletedEntity(
              WAREHOUSE,
              DeletedEntity.TABLE,
              identifier,
              new TableEntry("c-0", location),
              uuid == null
                  ? null
                  : new TableState(uuid, location + "/metadata/m.json", "{}", 1, 3).pointerAt(3),
              1_000,
              9_000,
              "bob",
              false,
              "drop-" + kept.size());
      kept.add(entity);
      locations.put(location, entity.key());
      return entity;
    }

    @Override
    public List<DeletedEntity> deleted(TableIdentifier identifier) {
      return kept.stream().filter(e -> e.identifier().equals(identifier)).toList();
    }

    @Override
    public List<DeletedEntity> deleted() {
      return List.copyOf(kept);
    }

    void givenNamespace(Namespace namespace, Map<String, String> properties, long sequence) {
      namespaces.put(key(namespace), new NamespaceState(properties, sequence));
    }

    void givenTable(TableIdentifier identifier) {
      tables.add(identifier);
    }

    @Override
    public Optional<NamespaceState> namespace(Namespace namespace) {
      return Optional.ofNullable(namespaces.get(key(namespace)));
    }

    @Override
    public boolean hasChildNamespaces(Namespace namespace) {
      String prefix = key(namespace) + SEPARATOR;
      String next = namespaces.ceilingKey(prefix);
      return next != null && next.startsWith(prefix);
    }

    @Override
    public boolean hasTables(Namespace namespace) {
      return tables.stream().anyMatch(t -> t.namespace().equals(namespace));
    }

    @Override
    public boolean tableExists(TableIdentifier identifier) {
      return tables.contains(identifier);
    }

    @Override
    public Optional<TableEntry> table(TableIdentifier identifier) {
      return tables.contains(identifier)
          ? Optional.of(
              new TableEntry(
                  "c-0",
                  locations.entrySet().stream()
                      .filter(e -> e.getValue().equals(tableHolder(identifier)))
                      .map(Map.Entry::getKey)
                      .findFirst()
                      .orElse(null)))
          : Optional.empty();
    }

    @Override
    public Optional<TableEntry> view(TableIdentifier identifier) {
      return views.contains(identifier)
          ? Optional.of(new TableEntry("c-0", null))
          : Optional.empty();
    }

    @Override
    public String tableHolder(TableIdentifier identifier) {
      return identifier.toString();
    }

    @Override
    public String viewHolder(TableIdentifier identifier) {
      return "view:" + identifier;
    }

    /** Claims as the store keeps them: by canonical location, found by lookups and a scan. */
    @Override
    public Claims claims() {
      TreeMap<String, String> index = new TreeMap<>();
      locations.forEach(
          (location, owner) -> index.put(Location.parse(location).canonical(), owner));
      purges.forEach(
          location -> index.put(Location.parse(location).canonical(), "purge:" + location));
      return new Claims() {
        @Override
        public Optional<String> holderAt(String canonical) {
          return Optional.ofNullable(index.get(canonical));
        }

        @Override
        public Optional<String> holderUnder(String canonical, Predicate<String> counts) {
          String prefix = Claims.below(canonical);
          return index.tailMap(prefix, false).entrySet().stream()
              .takeWhile(e -> e.getKey().startsWith(prefix))
              .map(Map.Entry::getValue)
              .filter(counts)
              .findFirst();
        }
      };
    }

    private final Set<TableIdentifier> views = new HashSet<>();

    void givenView(TableIdentifier identifier) {
      views.add(identifier);
    }

    @Override
    public boolean viewExists(TableIdentifier identifier) {
      return views.contains(identifier);
    }

    @Override
    public boolean hasViews(Namespace namespace) {
      return views.stream().anyMatch(v -> v.namespace().equals(namespace));
    }

    @Override
    public boolean purgePending(String location) {
      return purges.contains(location);
    }

    private static String key(Namespace namespace) {
      return String.join(SEPARATOR, namespace.levels());
    }
  }
}
