package dev.floe.projections.access;

import dev.floe.events.access.AccessEntries;
import dev.floe.events.access.AccessEntries.Action;
import dev.floe.events.access.AccessEntries.Entry;
import dev.floe.events.access.AccessEntries.GrantEntry;
import dev.floe.events.access.AccessEntries.Principal;
import dev.floe.events.access.AccessEntries.Token;
import dev.floe.events.access.AccessEntries.Visibility;
import dev.floe.events.access.AccessEntries.VisibilityEntry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable view of the access-control state at one position of its log, with the questions
 * authorisation asks of it. Roles bypass grants; a namespace grant covers the namespace, its tables
 * and its child namespaces; a table grant covers that name only; a public namespace gives every
 * authenticated principal {@code read} on it and everything under it.
 */
public final class AccessSnapshot {
  public static final AccessSnapshot EMPTY = new AccessSnapshot(Map.of());

  private final Map<String, Entry> entries;
  private final Map<String, Token> tokensByHash = new HashMap<>();
  private final Map<String, List<GrantEntry>> grantsByPrincipal = new HashMap<>();
  private final Map<String, List<List<String>>> publicNamespaces = new HashMap<>();

  AccessSnapshot(Map<String, Entry> entries) {
    this.entries = Map.copyOf(entries);
    for (Entry entry : this.entries.values()) {
      if (entry instanceof Token token) {
        tokensByHash.put(token.hash(), token);
      } else if (entry instanceof GrantEntry grant) {
        grantsByPrincipal.computeIfAbsent(grant.principal(), p -> new ArrayList<>()).add(grant);
      } else if (entry instanceof VisibilityEntry visibility
          && visibility.visibility() == Visibility.AUTHENTICATED_PUBLIC) {
        publicNamespaces
            .computeIfAbsent(visibility.warehouse(), w -> new ArrayList<>())
            .add(visibility.namespace());
      }
    }
  }

  /** The secret Floe's instances show each other on internal routes, once one was created. */
  public Optional<String> instanceSecret() {
    return Optional.ofNullable(entries.get(AccessEntries.InstanceSecret.KEY))
        .map(entry -> ((AccessEntries.InstanceSecret) entry).secret());
  }

  /** The token with this hash, whatever its expiry. */
  public Optional<Token> tokenByHash(String hash) {
    return Optional.ofNullable(tokensByHash.get(hash));
  }

  public Optional<Principal> principal(String name) {
    return Optional.ofNullable((Principal) entries.get(AccessEntries.principalKey(name)));
  }

  /** The principal's role in the warehouse, or in every warehouse; the wider one. */
  public Optional<Action> roleAction(String principal, String warehouse) {
    return principal(principal)
        .flatMap(
            p -> {
              Action here = roleOf(p, warehouse);
              Action everywhere = roleOf(p, AccessEntries.ALL_WAREHOUSES);
              return Optional.ofNullable(wider(here, everywhere));
            });
  }

  /** Holds the admin role on every warehouse: may manage principals and tokens. */
  public boolean isSuperuser(String principal) {
    return principal(principal)
        .map(p -> roleOf(p, AccessEntries.ALL_WAREHOUSES) == Action.MANAGE)
        .orElse(false);
  }

  /**
   * What the principal may do on a namespace ({@code table} null) or one table in it, or null for
   * nothing. On a namespace only roles, namespace grants and visibility count (never a table
   * grant).
   */
  public Action level(String principal, String warehouse, List<String> namespace, String table) {
    Action level = roleAction(principal, warehouse).orElse(null);
    for (GrantEntry grant : grantsByPrincipal.getOrDefault(principal, List.of())) {
      if (!grant.warehouse().equals(warehouse)) {
        continue;
      }
      boolean covers =
          grant.table() == null
              ? isPrefix(grant.namespace(), namespace)
              : table != null && grant.table().equals(table) && grant.namespace().equals(namespace);
      if (covers) {
        level = wider(level, grant.action());
      }
    }
    if (isPublic(warehouse, namespace)) {
      level = wider(level, Action.READ);
    }
    return level;
  }

  /**
   * Where the principal holds {@code manage} in a warehouse: each namespace (with those below it)
   * it holds a {@code manage} grant on, or one empty namespace (all of them) for the warehouse's
   * {@code admin} role.
   */
  public List<List<String>> managedNamespaces(String principal, String warehouse) {
    if (roleAction(principal, warehouse).orElse(null) == Action.MANAGE) {
      return List.of(List.of());
    }
    List<List<String>> managed = new ArrayList<>();
    for (GrantEntry grant : grantsByPrincipal.getOrDefault(principal, List.of())) {
      if (grant.warehouse().equals(warehouse)
          && grant.table() == null
          && grant.action() == Action.MANAGE) {
        managed.add(grant.namespace());
      }
    }
    return managed;
  }

  /** The namespace or one of its ancestors is {@code AUTHENTICATED_PUBLIC}. */
  public boolean isPublic(String warehouse, List<String> namespace) {
    return publicNamespaces.getOrDefault(warehouse, List.of()).stream()
        .anyMatch(p -> isPrefix(p, namespace));
  }

  /**
   * The namespace is visible to the principal: it may read it, or something inside it is granted to
   * it or public (the path to what it may use is visible, nothing else in it).
   */
  public boolean canSee(String principal, String warehouse, List<String> namespace) {
    if (level(principal, warehouse, namespace, null) != null) {
      return true;
    }
    for (GrantEntry grant : grantsByPrincipal.getOrDefault(principal, List.of())) {
      if (grant.warehouse().equals(warehouse) && isPrefix(namespace, grant.namespace())) {
        return true;
      }
    }
    return publicNamespaces.getOrDefault(warehouse, List.of()).stream()
        .anyMatch(p -> isPrefix(namespace, p));
  }

  /** The principal may see at least something in the warehouse. */
  public boolean seesAnything(String principal, String warehouse) {
    return roleAction(principal, warehouse).isPresent()
        || grantsByPrincipal.getOrDefault(principal, List.of()).stream()
            .anyMatch(g -> g.warehouse().equals(warehouse))
        || !publicNamespaces.getOrDefault(warehouse, List.of()).isEmpty();
  }

  public List<Principal> principals() {
    return sorted(Principal.class, Comparator.comparing(Principal::name));
  }

  /** Every token, by id (the hash is for lookups only; callers must not show it). */
  public List<Token> tokens() {
    return sorted(Token.class, Comparator.comparing(Token::id));
  }

  public Optional<Token> token(String id) {
    return Optional.ofNullable((Token) entries.get(AccessEntries.tokenKey(id)));
  }

  public List<GrantEntry> grants(String warehouse) {
    return sorted(GrantEntry.class, Comparator.comparing(GrantEntry::key)).stream()
        .filter(g -> g.warehouse().equals(warehouse))
        .toList();
  }

  public List<VisibilityEntry> publicNamespaces(String warehouse) {
    return sorted(VisibilityEntry.class, Comparator.comparing(VisibilityEntry::key)).stream()
        .filter(v -> v.warehouse().equals(warehouse))
        .toList();
  }

  private <T extends Entry> List<T> sorted(Class<T> type, Comparator<T> order) {
    Collection<Entry> all = entries.values();
    return all.stream().filter(type::isInstance).map(type::cast).sorted(order).toList();
  }

  private static Action roleOf(Principal principal, String warehouse) {
    AccessEntries.Role role = principal.roles().get(warehouse);
    return role == null ? null : role.action();
  }

  private static Action wider(Action a, Action b) {
    if (a == null) {
      return b;
    }
    return b == null || a.covers(b) ? a : b;
  }

  /** {@code prefix} is {@code namespace} or one of its ancestors. */
  static boolean isPrefix(List<String> prefix, List<String> namespace) {
    return prefix.size() <= namespace.size() && namespace.subList(0, prefix.size()).equals(prefix);
  }
}
