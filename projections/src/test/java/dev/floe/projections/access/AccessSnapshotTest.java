package dev.floe.projections.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.access.AccessEntries.Action;
import dev.floe.events.access.AccessEntries.Entry;
import dev.floe.events.access.AccessEntries.GrantEntry;
import dev.floe.events.access.AccessEntries.Principal;
import dev.floe.events.access.AccessEntries.Role;
import dev.floe.events.access.AccessEntries.Visibility;
import dev.floe.events.access.AccessEntries.VisibilityEntry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How roles, grants and public namespaces combine. */
class AccessSnapshotTest {
  private static AccessSnapshot snapshot(Entry... entries) {
    Map<String, Entry> map = new HashMap<>();
    for (Entry entry : entries) {
      map.put(entry.key(), entry);
    }
    return new AccessSnapshot(map);
  }

  private static final List<String> DB = List.of("db");
  private static final List<String> SALES = List.of("db", "sales");

  @Test
  void rolesBypassGrantsInTheirWarehouseOnly() {
    AccessSnapshot access =
        snapshot(
            new Principal("r", "user", null, Map.of("wh", Role.READER)),
            new Principal("root", "user", null, Map.of("*", Role.ADMIN)));
    assertThat(access.level("r", "wh", SALES, "t")).isEqualTo(Action.READ);
    assertThat(access.level("r", "other", SALES, "t")).isNull();
    assertThat(access.level("root", "other", SALES, "t")).isEqualTo(Action.MANAGE);
    assertThat(access.isSuperuser("root")).isTrue();
    assertThat(access.isSuperuser("r")).isFalse();
  }

  @Test
  void aNamespaceGrantCoversItsTablesAndChildrenButNotSiblings() {
    AccessSnapshot access =
        snapshot(
            new Principal("p", "user", null, Map.of()),
            new GrantEntry("wh", "p", DB, null, Action.WRITE));
    assertThat(access.level("p", "wh", SALES, "t")).isEqualTo(Action.WRITE);
    assertThat(access.level("p", "wh", DB, null)).isEqualTo(Action.WRITE);
    assertThat(access.level("p", "wh", List.of("dbx"), null)).isNull();
    assertThat(access.level("p", "wh2", DB, null)).isNull();
  }

  @Test
  void aTableGrantShowsThePathToItButNothingElse() {
    AccessSnapshot access =
        snapshot(
            new Principal("p", "user", null, Map.of()),
            new GrantEntry("wh", "p", SALES, "orders", Action.READ));
    assertThat(access.level("p", "wh", SALES, "orders")).isEqualTo(Action.READ);
    assertThat(access.level("p", "wh", SALES, "orders2")).isNull();
    assertThat(access.level("p", "wh", SALES, null)).isNull();
    assertThat(access.canSee("p", "wh", SALES)).isTrue();
    assertThat(access.canSee("p", "wh", DB)).isTrue();
    assertThat(access.canSee("p", "wh", List.of("db", "hr"))).isFalse();
    assertThat(access.seesAnything("p", "wh")).isTrue();
    assertThat(access.seesAnything("p", "wh2")).isFalse();
  }

  @Test
  void aPublicNamespaceIsReadableByAnyoneButNeverWritable() {
    AccessSnapshot access =
        snapshot(new VisibilityEntry("wh", DB, Visibility.AUTHENTICATED_PUBLIC));
    assertThat(access.level("stranger", "wh", SALES, "t")).isEqualTo(Action.READ);
    assertThat(access.level("stranger", "wh", List.of("other"), null)).isNull();
    assertThat(access.seesAnything("stranger", "wh")).isTrue();
  }
}
