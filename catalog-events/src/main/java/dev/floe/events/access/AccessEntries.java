package dev.floe.events.access;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.floe.events.FloeJson;
import dev.floe.events.Keys;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The access-control state, entry by entry, as the processor keeps it in the {@code floe-access}
 * store (whose changelog every instance follows to authorise requests). A token is kept only as its
 * SHA-256 hash.
 */
public final class AccessEntries {
  /** The warehouse name that stands for every warehouse (a role there applies everywhere). */
  public static final String ALL_WAREHOUSES = "*";

  private AccessEntries() {}

  /** A warehouse role; roles bypass grants. */
  public enum Role {
    READER(Action.READ),
    WRITER(Action.WRITE),
    ADMIN(Action.MANAGE);

    private final Action action;

    Role(Action action) {
      this.action = action;
    }

    /** What the role allows on every namespace and table of its warehouse. */
    public Action action() {
      return action;
    }

    @JsonValue
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Role parse(String value) {
      for (Role role : values()) {
        if (role.label().equals(value)) {
          return role;
        }
      }
      throw new IllegalArgumentException(
          "Unknown role: " + value + " (expected reader, writer or admin)");
    }
  }

  /**
   * What a grant allows: {@code read} ⊂ {@code write} ⊂ {@code manage}. Read: list, load, exists,
   * report metrics. Write: also create, commit, drop, rename, register, update properties. Manage:
   * also grant and revoke others (up to manage) and set visibility.
   */
  public enum Action {
    READ,
    WRITE,
    MANAGE;

    public boolean covers(Action other) {
      return compareTo(other) >= 0;
    }

    @JsonValue
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Action parse(String value) {
      for (Action action : values()) {
        if (action.label().equals(value)) {
          return action;
        }
      }
      throw new IllegalArgumentException(
          "Unknown action: " + value + " (expected read, write or manage)");
    }
  }

  /**
   * {@code PRIVATE} (the default): only principals with a role or grant see the namespace. {@code
   * AUTHENTICATED_PUBLIC}: every authenticated principal may list and read it and everything in it,
   * never write.
   */
  public enum Visibility {
    PRIVATE,
    AUTHENTICATED_PUBLIC;

    @JsonCreator
    public static Visibility parse(String value) {
      for (Visibility visibility : values()) {
        if (visibility.name().equalsIgnoreCase(value)) {
          return visibility;
        }
      }
      throw new IllegalArgumentException(
          "Unknown visibility: " + value + " (expected PRIVATE or AUTHENTICATED_PUBLIC)");
    }
  }

  /** One stored entry. */
  @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "entry")
  @JsonSubTypes({
    @JsonSubTypes.Type(value = Principal.class, name = "principal"),
    @JsonSubTypes.Type(value = Token.class, name = "token"),
    @JsonSubTypes.Type(value = GrantEntry.class, name = "grant"),
    @JsonSubTypes.Type(value = VisibilityEntry.class, name = "visibility"),
    @JsonSubTypes.Type(value = InstanceSecret.class, name = "instance-secret")
  })
  public sealed interface Entry
      permits Principal, Token, GrantEntry, VisibilityEntry, InstanceSecret {
    String key();

    default byte[] toBytes() {
      return FloeJson.toBytes(this);
    }

    static Entry fromBytes(byte[] bytes) {
      return FloeJson.fromBytes(bytes, Entry.class);
    }
  }

  /**
   * @param roles warehouse (or {@code *}) → role
   */
  public record Principal(String name, String kind, String email, Map<String, Role> roles)
      implements Entry {
    public Principal {
      roles = roles == null ? Map.of() : Map.copyOf(roles);
    }

    @Override
    public String key() {
      return principalKey(name);
    }

    public Principal withRole(String warehouse, Role role) {
      Map<String, Role> next = new HashMap<>(roles);
      if (role == null) {
        next.remove(warehouse);
      } else {
        next.put(warehouse, role);
      }
      return new Principal(name, kind, email, next);
    }
  }

  /**
   * @param hash hex SHA-256 of the token: the token itself is never stored
   * @param expiresAtMillis 0 when it never expires
   */
  public record Token(String id, String principal, String hash, long expiresAtMillis)
      implements Entry {
    @Override
    public String key() {
      return tokenKey(id);
    }

    public boolean expiredAt(long nowMillis) {
      return expiresAtMillis > 0 && nowMillis >= expiresAtMillis;
    }
  }

  /** A grant to a principal on a namespace (table null) or one table by name. */
  public record GrantEntry(
      String warehouse, String principal, List<String> namespace, String table, Action action)
      implements Entry {
    public GrantEntry {
      namespace = List.copyOf(namespace);
    }

    @Override
    public String key() {
      return grantKey(warehouse, namespace, table, principal);
    }
  }

  public record VisibilityEntry(String warehouse, List<String> namespace, Visibility visibility)
      implements Entry {
    public VisibilityEntry {
      namespace = List.copyOf(namespace);
    }

    @Override
    public String key() {
      return visibilityKey(warehouse, namespace);
    }
  }

  /**
   * The secret Floe's instances show each other on their internal routes ({@code /internal/v1/…}),
   * created once by the first instance to start: random, not a user's token, never in an event or a
   * log. Every instance reads it from this store's changelog, like the rest of the access state.
   */
  public record InstanceSecret(String secret) implements Entry {
    public static final String KEY = "instance/secret";

    @Override
    public String key() {
      return KEY;
    }

    @Override
    public String toString() {
      return "InstanceSecret[secret=…]";
    }
  }

  public static String principalKey(String name) {
    return "principal/" + Keys.part(name);
  }

  public static String tokenKey(String id) {
    return "token/" + Keys.part(id);
  }

  /** All grants on one target (namespace, or table when not null) share this key prefix. */
  public static String grantTargetPrefix(String warehouse, List<String> namespace, String table) {
    return "grant/"
        + Keys.part(warehouse)
        + "/"
        + namespaceKey(namespace)
        + "/"
        + (table == null ? "" : Keys.part(table))
        + "/";
  }

  public static String grantKey(
      String warehouse, List<String> namespace, String table, String principal) {
    return grantTargetPrefix(warehouse, namespace, table) + Keys.part(principal);
  }

  public static String visibilityKey(String warehouse, List<String> namespace) {
    return "visibility/" + Keys.part(warehouse) + "/" + namespaceKey(namespace);
  }

  /** The key under which the processor counts the access entity's events. */
  public static final String SEQUENCE_KEY = "sequence";

  private static String namespaceKey(List<String> namespace) {
    return namespace.stream().map(Keys::part).collect(Collectors.joining("."));
  }

  /** Readable target: {@code db.sales} or {@code db.sales.orders}. */
  public static String target(List<String> namespace, String table) {
    String ns = String.join(".", namespace);
    return table == null ? ns : ns + "." + table;
  }
}
