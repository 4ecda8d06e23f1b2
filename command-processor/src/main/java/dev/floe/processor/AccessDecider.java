package dev.floe.processor;

import static dev.floe.events.RejectionCode.GRANT_NOT_FOUND;
import static dev.floe.events.RejectionCode.PRINCIPAL_ALREADY_EXISTS;
import static dev.floe.events.RejectionCode.PRINCIPAL_NOT_FOUND;
import static dev.floe.events.RejectionCode.TOKEN_NOT_FOUND;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.access.AccessChange;
import dev.floe.events.access.AccessEntries;
import dev.floe.events.access.AccessEntries.Entry;
import dev.floe.events.access.AccessEntries.GrantEntry;
import dev.floe.events.access.AccessEntries.Principal;
import dev.floe.events.access.AccessEntries.Token;
import dev.floe.events.access.AccessEntries.VisibilityEntry;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.event.AccessChangedEvent;
import java.text.Normalizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Decides changes to the access-control state. Pure: given the entries it reads and a change, it
 * returns the entries to write (null: delete), the event and the reply.
 */
public final class AccessDecider {
  private AccessDecider() {}

  /** What the decider reads. */
  public interface State {
    Optional<Entry> get(String key);

    /** Every entry whose key starts with {@code prefix}. */
    List<Entry> withPrefix(String prefix);

    /** How many access events there have been. */
    long sequence();
  }

  /**
   * @param writes key → new entry, or null to delete it
   */
  public record Outcome(Map<String, Entry> writes, Decision decision) {
    static Outcome rejected(String commandId, Rejection rejection) {
      return new Outcome(Map.of(), Decision.rejected(commandId, rejection));
    }
  }

  public static Outcome decide(State state, CommandHeader header, AccessChange change) {
    String id = header.commandId();
    Apply apply = new Apply(state);
    Optional<Rejection> refused = change.accept(apply);
    if (refused.isPresent()) {
      return Outcome.rejected(id, refused.get());
    }
    Optional<AccessChange> logged = change.asEvent();
    if (apply.writes.isEmpty() || logged.isEmpty()) {
      // Nothing changed, or nothing a principal may do: no event (a secret never goes in one).
      return new Outcome(apply.writes, Decision.reply(List.of(), CommandReply.done(id)));
    }
    AccessChangedEvent event =
        new AccessChangedEvent(
            change.warehouse(), logged.get(), id, header.principal(), state.sequence() + 1);
    CommandReply reply =
        apply.issuedTokenId == null
            ? CommandReply.done(id)
            : CommandReply.tokenIssued(id, apply.issuedTokenId);
    return new Outcome(apply.writes, Decision.reply(List.of(event), reply));
  }

  /**
   * Applies one change to the access state: the entries it writes (null deletes one), or why it is
   * refused.
   */
  private static final class Apply implements AccessChange.Visitor<Optional<Rejection>> {
    private final State state;
    private final Map<String, Entry> writes = new LinkedHashMap<>();
    private String issuedTokenId;

    Apply(State state) {
      this.state = state;
    }

    @Override
    public Optional<Rejection> createPrincipal(AccessChange.CreatePrincipal c) {
      if (state.get(AccessEntries.principalKey(c.name())).isPresent()) {
        return Optional.of(
            Rejection.of(PRINCIPAL_ALREADY_EXISTS, "Principal already exists: %s", c.name()));
      }
      Optional<String> alike = sameButForCase(state, c.name());
      if (alike.isPresent()) {
        return Optional.of(
            Rejection.of(
                PRINCIPAL_ALREADY_EXISTS,
                "Principal already exists: %s differs from %s only by case or character form",
                c.name(),
                alike.get()));
      }
      Principal principal = new Principal(c.name(), c.kind(), c.email(), Map.of());
      writes.put(principal.key(), principal);
      return Optional.empty();
    }

    @Override
    public Optional<Rejection> deletePrincipal(AccessChange.DeletePrincipal c) {
      if (state.get(AccessEntries.principalKey(c.name())).isEmpty()) {
        return Optional.of(missingPrincipal(c.name()));
      }
      writes.put(AccessEntries.principalKey(c.name()), null);
      for (Entry entry : state.withPrefix("token/")) {
        if (entry instanceof Token token && token.principal().equals(c.name())) {
          writes.put(token.key(), null);
        }
      }
      for (Entry entry : state.withPrefix("grant/")) {
        if (entry instanceof GrantEntry grant && grant.principal().equals(c.name())) {
          writes.put(grant.key(), null);
        }
      }
      return Optional.empty();
    }

    @Override
    public Optional<Rejection> setRole(AccessChange.SetRole c) {
      Optional<Entry> existing = state.get(AccessEntries.principalKey(c.principal()));
      if (existing.isEmpty()) {
        return Optional.of(missingPrincipal(c.principal()));
      }
      Principal principal = ((Principal) existing.get()).withRole(c.warehouse(), c.role());
      writes.put(principal.key(), principal);
      return Optional.empty();
    }

    @Override
    public Optional<Rejection> issueToken(AccessChange.IssueToken c) {
      if (state.get(AccessEntries.principalKey(c.principal())).isEmpty()) {
        return Optional.of(missingPrincipal(c.principal()));
      }
      Token token = new Token(c.tokenId(), c.principal(), c.tokenHash(), c.expiresAtMillis());
      writes.put(token.key(), token);
      issuedTokenId = c.tokenId();
      return Optional.empty();
    }

    @Override
    public Optional<Rejection> revokeToken(AccessChange.RevokeToken c) {
      if (state.get(AccessEntries.tokenKey(c.tokenId())).isEmpty()) {
        return Optional.of(Rejection.of(TOKEN_NOT_FOUND, "No such token: %s", c.tokenId()));
      }
      writes.put(AccessEntries.tokenKey(c.tokenId()), null);
      return Optional.empty();
    }

    @Override
    public Optional<Rejection> createInstanceSecret(AccessChange.CreateInstanceSecret c) {
      if (state.get(AccessEntries.InstanceSecret.KEY).isEmpty()) {
        writes.put(AccessEntries.InstanceSecret.KEY, new AccessEntries.InstanceSecret(c.secret()));
      }
      return Optional.empty();
    }

    @Override
    public Optional<Rejection> grant(AccessChange.Grant c) {
      if (state.get(AccessEntries.principalKey(c.principal())).isEmpty()) {
        return Optional.of(missingPrincipal(c.principal()));
      }
      GrantEntry grant =
          new GrantEntry(c.warehouse(), c.principal(), c.namespace(), c.table(), c.action());
      writes.put(grant.key(), grant);
      return Optional.empty();
    }

    @Override
    public Optional<Rejection> revoke(AccessChange.Revoke c) {
      String key = AccessEntries.grantKey(c.warehouse(), c.namespace(), c.table(), c.principal());
      if (state.get(key).isEmpty()) {
        return Optional.of(
            Rejection.of(
                GRANT_NOT_FOUND,
                "No grant to %s on %s",
                c.principal(),
                AccessEntries.target(c.namespace(), c.table())));
      }
      writes.put(key, null);
      return Optional.empty();
    }

    @Override
    public Optional<Rejection> setVisibility(AccessChange.SetVisibility c) {
      VisibilityEntry entry = new VisibilityEntry(c.warehouse(), c.namespace(), c.visibility());
      writes.put(entry.key(), c.visibility() == AccessEntries.Visibility.PRIVATE ? null : entry);
      return Optional.empty();
    }

    @Override
    public Optional<Rejection> moveTableGrants(AccessChange.MoveTableGrants c) {
      carryGrants(state, c, false, writes);
      return Optional.empty();
    }

    @Override
    public Optional<Rejection> copyTableGrants(AccessChange.CopyTableGrants c) {
      carryGrants(state, c, true, writes);
      return Optional.empty();
    }
  }

  /**
   * Each grant on the old name goes to the new one, and leaves the old name unless {@code
   * keepSource}; where both names have one, the wider action stays.
   */
  private static void carryGrants(
      State state, AccessChange.TableGrants c, boolean keepSource, Map<String, Entry> writes) {
    String from = AccessEntries.grantTargetPrefix(c.warehouse(), c.fromNamespace(), c.fromName());
    for (Entry entry : state.withPrefix(from)) {
      if (!(entry instanceof GrantEntry grant)) {
        continue;
      }
      if (!keepSource) {
        writes.put(grant.key(), null);
      }
      String target =
          AccessEntries.grantKey(c.warehouse(), c.toNamespace(), c.toName(), grant.principal());
      if (state.get(target).orElse(null) instanceof GrantEntry there
          && there.action().covers(grant.action())) {
        continue; // the new name's grant is as wide already
      }
      writes.put(
          target,
          new GrantEntry(
              c.warehouse(), grant.principal(), c.toNamespace(), c.toName(), grant.action()));
    }
  }

  /**
   * An existing principal whose name differs from this one only by case or NFKC form: two such
   * names would be told apart by some readers (audit, grants by name) and not by others (people,
   * case-insensitive identity providers), so the second one is refused.
   */
  private static Optional<String> sameButForCase(State state, String name) {
    String folded = fold(name);
    return state.withPrefix("principal/").stream()
        .filter(Principal.class::isInstance)
        .map(entry -> ((Principal) entry).name())
        .filter(existing -> fold(existing).equals(folded))
        .findFirst();
  }

  /** Case folded after NFKC: {@code ａｄｍｉｎ}, {@code ADMIN} and {@code admin} fold alike. */
  private static String fold(String name) {
    return Normalizer.normalize(name, Normalizer.Form.NFKC)
        .toUpperCase(Locale.ROOT)
        .toLowerCase(Locale.ROOT);
  }

  private static Rejection missingPrincipal(String name) {
    return Rejection.of(PRINCIPAL_NOT_FOUND, "No such principal: %s", name);
  }
}
