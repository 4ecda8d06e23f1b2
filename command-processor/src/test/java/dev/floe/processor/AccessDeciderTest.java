package dev.floe.processor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import dev.floe.events.RejectionCode;
import dev.floe.events.access.AccessChange;
import dev.floe.events.access.AccessEntries;
import dev.floe.events.access.AccessEntries.Action;
import dev.floe.events.access.AccessEntries.Entry;
import dev.floe.events.access.AccessEntries.GrantEntry;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.event.AccessChangedEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Given the access entries, when a change, then the writes, the event or the rejection. */
class AccessDeciderTest {
  private final TreeMap<String, Entry> store = new TreeMap<>();
  private long sequence;

  private final AccessDecider.State state =
      new AccessDecider.State() {
        @Override
        public Optional<Entry> get(String key) {
          return Optional.ofNullable(store.get(key));
        }

        @Override
        public List<Entry> withPrefix(String prefix) {
          return store.subMap(prefix, prefix + Character.MAX_VALUE).values().stream().toList();
        }

        @Override
        public long sequence() {
          return sequence;
        }
      };

  private AccessDecider.Outcome apply(AccessChange change) {
    AccessDecider.Outcome outcome =
        AccessDecider.decide(
            state, new CommandHeader("c" + sequence, 1L, "admin", "i", null), change);
    outcome
        .writes()
        .forEach(
            (key, entry) -> {
              if (entry == null) {
                store.remove(key);
              } else {
                store.put(key, entry);
              }
            });
    sequence += outcome.decision().events().size();
    return outcome;
  }

  @Test
  void principalsTokensAndGrantsNeedAnExistingPrincipal() {
    assertThat(
            apply(new AccessChange.IssueToken("t1", "alice", "h", 0))
                .decision()
                .reply()
                .rejection()
                .code())
        .isEqualTo(RejectionCode.PRINCIPAL_NOT_FOUND);
    assertThat(
            apply(new AccessChange.CreatePrincipal("alice", "user", null)).decision().isRejected())
        .isFalse();
    assertThat(
            apply(new AccessChange.CreatePrincipal("alice", "user", null))
                .decision()
                .reply()
                .rejection()
                .code())
        .isEqualTo(RejectionCode.PRINCIPAL_ALREADY_EXISTS);
    assertThat(store).doesNotContainKey(AccessEntries.tokenKey("t1"));
  }

  @Test
  void theEventNeverCarriesTheTokenHashAndSequencesAreDense() {
    apply(new AccessChange.CreatePrincipal("alice", "user", null));
    AccessDecider.Outcome issued =
        apply(new AccessChange.IssueToken("t1", "alice", "secret-hash", 0));
    AccessChangedEvent event = (AccessChangedEvent) issued.decision().events().get(0);
    assertThat(((AccessChange.IssueToken) event.change()).tokenHash()).isNull();
    assertThat(event.sequence()).isEqualTo(2);
    assertThat(((AccessEntries.Token) store.get(AccessEntries.tokenKey("t1"))).hash())
        .isEqualTo("secret-hash");
    apply(new AccessChange.RevokeToken("t1"));
    assertThat(store).doesNotContainKey(AccessEntries.tokenKey("t1"));
    assertThat(apply(new AccessChange.RevokeToken("t1")).decision().reply().rejection().code())
        .isEqualTo(RejectionCode.TOKEN_NOT_FOUND);
    assertThat(sequence).isEqualTo(3);
  }

  @Test
  void aPrincipalWhoseNameDiffersFromAnExistingOneOnlyByCaseIsRefused() {
    apply(new AccessChange.CreatePrincipal("alice", "user", null));
    apply(new AccessChange.CreatePrincipal("strasse", "user", null));
    for (String alike :
        List.of("Alice", "ALICE", "aLiCe", "STRASSE", "Straße", "\uff41lice", "\uff21LICE")) {
      AccessDecider.Outcome outcome = apply(new AccessChange.CreatePrincipal(alike, "user", null));
      assertThat(outcome.decision().reply().rejection().code())
          .as(alike)
          .isEqualTo(RejectionCode.PRINCIPAL_ALREADY_EXISTS);
      assertThat(outcome.decision().reply().rejection().message()).contains("only by case");
      assertThat(outcome.writes()).isEmpty();
    }
    assertThat(
            apply(new AccessChange.CreatePrincipal("alicia", "user", null)).decision().isRejected())
        .isFalse();
  }

  @Test
  void theFirstInstanceSecretIsKeptWithoutAnEvent() {
    AccessDecider.Outcome first = apply(new AccessChange.CreateInstanceSecret("s1"));
    AccessDecider.Outcome second = apply(new AccessChange.CreateInstanceSecret("s2"));

    assertThat(first.decision().isRejected()).isFalse();
    assertThat(first.decision().events()).isEmpty();
    assertThat(second.decision().isRejected()).isFalse();
    assertThat(second.writes()).isEmpty();
    assertThat(store.get(AccessEntries.InstanceSecret.KEY))
        .isEqualTo(new AccessEntries.InstanceSecret("s1"));
    assertThat(sequence).isZero();
    assertThat(new AccessChange.CreateInstanceSecret("s1").toString()).doesNotContain("s1");
  }

  @Test
  void theReplyToAnIssueNamesTheTokenItCreatedAndNothingElse() {
    apply(new AccessChange.CreatePrincipal("alice", "user", null));
    CommandReply reply =
        apply(new AccessChange.IssueToken("t1", "alice", "secret-hash", 0)).decision().reply();
    assertThat(reply.issuedTokenId()).isEqualTo("t1");
    assertThat(new String(FloeJson.toBytes(reply), StandardCharsets.UTF_8))
        .doesNotContain("secret-hash");
    assertThat(apply(new AccessChange.RevokeToken("t1")).decision().reply().issuedTokenId())
        .isNull();
  }

  @Test
  void deletingAPrincipalTakesItsTokensAndGrantsButNoOneElses() {
    apply(new AccessChange.CreatePrincipal("alice", "user", null));
    apply(new AccessChange.CreatePrincipal("bob", "user", null));
    apply(new AccessChange.IssueToken("ta", "alice", "ha", 0));
    apply(new AccessChange.IssueToken("tb", "bob", "hb", 0));
    apply(new AccessChange.Grant("wh", "alice", List.of("db"), null, Action.READ));
    apply(new AccessChange.Grant("wh", "bob", List.of("db"), null, Action.READ));
    apply(new AccessChange.DeletePrincipal("alice"));
    assertThat(store.keySet())
        .containsExactlyInAnyOrder(
            AccessEntries.principalKey("bob"),
            AccessEntries.tokenKey("tb"),
            AccessEntries.grantKey("wh", List.of("db"), null, "bob"));
  }

  @Test
  void aRenameCarriesGrantsToTheNewNameAndTheWiderActionWins() {
    apply(new AccessChange.CreatePrincipal("alice", "user", null));
    apply(new AccessChange.CreatePrincipal("bob", "user", null));
    apply(new AccessChange.Grant("wh", "alice", List.of("db"), "t", Action.WRITE));
    apply(new AccessChange.Grant("wh", "bob", List.of("db"), "t", Action.READ));
    apply(new AccessChange.Grant("wh", "bob", List.of("other"), "u", Action.MANAGE));
    // A sibling whose name starts like the moved one keeps its grants.
    apply(new AccessChange.Grant("wh", "alice", List.of("db"), "t2", Action.READ));
    apply(new AccessChange.MoveTableGrants("wh", List.of("db"), "t", List.of("other"), "u"));
    assertThat(grants())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "alice other.u", Action.WRITE,
                "bob other.u", Action.MANAGE,
                "alice db.t2", Action.READ));
  }

  @Test
  void aRestoreUnderAnotherNameCopiesTheGrantsAndTheOldNameKeepsItsOwn() {
    apply(new AccessChange.CreatePrincipal("alice", "user", null));
    apply(new AccessChange.CreatePrincipal("bob", "user", null));
    apply(new AccessChange.Grant("wh", "alice", List.of("db"), "t", Action.READ));
    apply(new AccessChange.Grant("wh", "bob", List.of("db"), "t", Action.WRITE));
    apply(new AccessChange.Grant("wh", "bob", List.of("db"), "u", Action.MANAGE));

    AccessDecider.Outcome outcome =
        apply(new AccessChange.CopyTableGrants("wh", List.of("db"), "t", List.of("db"), "u"));

    assertThat(grants())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "alice db.t", Action.READ,
                "bob db.t", Action.WRITE,
                "alice db.u", Action.READ,
                "bob db.u", Action.MANAGE));
    assertThat(outcome.decision().events())
        .singleElement()
        .satisfies(e -> assertThat(e.type()).isEqualTo("floe.access.changed"));
  }

  private Map<String, Action> grants() {
    Map<String, Action> grants = new TreeMap<>();
    store.values().stream()
        .filter(GrantEntry.class::isInstance)
        .map(GrantEntry.class::cast)
        .forEach(
            g ->
                grants.put(
                    g.principal() + " " + AccessEntries.target(g.namespace(), g.table()),
                    g.action()));
    return grants;
  }

  @Test
  void aRenameWithoutGrantsWritesNoEventButStillAnswers() {
    AccessDecider.Outcome outcome =
        apply(new AccessChange.MoveTableGrants("wh", List.of("db"), "t", List.of("db"), "u"));
    assertThat(outcome.decision().events()).isEmpty();
    assertThat(outcome.decision().reply().accepted()).isTrue();
  }

  @Test
  void revokingAMissingGrantIsRefusedAndPrivateVisibilityRemovesTheEntry() {
    apply(new AccessChange.CreatePrincipal("alice", "user", null));
    assertThat(
            apply(new AccessChange.Revoke("wh", "alice", List.of("db"), null))
                .decision()
                .reply()
                .rejection()
                .code())
        .isEqualTo(RejectionCode.GRANT_NOT_FOUND);
    apply(
        new AccessChange.SetVisibility(
            "wh", List.of("db"), AccessEntries.Visibility.AUTHENTICATED_PUBLIC));
    assertThat(store).containsKey(AccessEntries.visibilityKey("wh", List.of("db")));
    apply(new AccessChange.SetVisibility("wh", List.of("db"), AccessEntries.Visibility.PRIVATE));
    assertThat(store).doesNotContainKey(AccessEntries.visibilityKey("wh", List.of("db")));
  }
}
