package dev.floe.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

class KeysTest {
  @Test
  void aTableKeyReadsBackAsItsTableWhateverItsNameHolds() {
    for (TableIdentifier table :
        new TableIdentifier[] {
          TableIdentifier.of("db", "t"),
          TableIdentifier.of(Namespace.of("a.b", "c/d", "e f"), "t.x/y%z#"),
          TableIdentifier.of(Namespace.of("ünï"), "+plus")
        }) {
      String key = Keys.table("w.h", table);
      assertThat(Keys.tableOf("w.h", key)).contains(table);
      assertThat(key).isBetween(Keys.tableRange("w.h")[0], Keys.tableRange("w.h")[1]);
      assertThat(Keys.tableOf("w", key)).as("another warehouse's").isEmpty();
    }
  }

  @Test
  void otherKeysOfTheTablesStoreAreNoTable() {
    String key = Keys.table("default", TableIdentifier.of("db", "t"));
    assertThat(Keys.tableOf("default", Keys.prepared(key))).isEmpty();
    assertThat(Keys.tableOf("default", "default")).isEmpty();
    assertThat(Keys.tableOf("default", "default/db")).isEmpty();
    assertThat(Keys.tableOf("default", "default/db/t/u")).isEmpty();
    assertThat(Keys.tableOf("default", "default/a.b/t"))
        .contains(TableIdentifier.of("a", "b", "t"));
  }
}
