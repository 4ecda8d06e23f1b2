package dev.floe.events.access;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One change to who may do what: the payload of a {@code change-access} command and, as applied, of
 * a {@code floe.access.changed} event. Never carries a token; a token's hash travels only in the
 * command that issues it and in the access store, never in the event.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "op")
@JsonSubTypes({
  @JsonSubTypes.Type(value = AccessChange.CreatePrincipal.class, name = "create-principal"),
  @JsonSubTypes.Type(value = AccessChange.DeletePrincipal.class, name = "delete-principal"),
  @JsonSubTypes.Type(value = AccessChange.SetRole.class, name = "set-role"),
  @JsonSubTypes.Type(value = AccessChange.IssueToken.class, name = "issue-token"),
  @JsonSubTypes.Type(value = AccessChange.RevokeToken.class, name = "revoke-token"),
  @JsonSubTypes.Type(value = AccessChange.Grant.class, name = "grant"),
  @JsonSubTypes.Type(value = AccessChange.Revoke.class, name = "revoke"),
  @JsonSubTypes.Type(value = AccessChange.SetVisibility.class, name = "set-visibility"),
  @JsonSubTypes.Type(value = AccessChange.MoveTableGrants.class, name = "move-table-grants"),
  @JsonSubTypes.Type(value = AccessChange.CopyTableGrants.class, name = "copy-table-grants"),
  @JsonSubTypes.Type(
      value = AccessChange.CreateInstanceSecret.class,
      name = "create-instance-secret")
})
public sealed interface AccessChange {
  /** The warehouse the change is about, or {@code *} for principals and tokens. */
  String warehouse();

  /** Readable: the CloudEvents subject of the event. */
  @JsonIgnore
  String describe();

  /** What {@code visitor} gives for this change: its method for this change's type. */
  <R> R accept(Visitor<R> visitor);

  /**
   * One function over every kind of access change, by kind: a new kind does not compile until each
   * implementation says what it does with it.
   *
   * @param <R> what the function gives for a change
   */
  interface Visitor<R> {
    R createPrincipal(CreatePrincipal change);

    R deletePrincipal(DeletePrincipal change);

    R setRole(SetRole change);

    R issueToken(IssueToken change);

    R revokeToken(RevokeToken change);

    R createInstanceSecret(CreateInstanceSecret change);

    R grant(Grant change);

    R revoke(Revoke change);

    R setVisibility(SetVisibility change);

    R moveTableGrants(MoveTableGrants change);

    R copyTableGrants(CopyTableGrants change);
  }

  /**
   * The change as its {@code floe.access.changed} event carries it, or empty when it makes no
   * event: a token's issue without its hash; the instances' secret never.
   */
  @JsonIgnore
  default Optional<AccessChange> asEvent() {
    return Optional.of(this);
  }

  /** A change to principals or tokens, which belong to no one warehouse. */
  sealed interface Global extends AccessChange
      permits CreatePrincipal, DeletePrincipal, IssueToken, RevokeToken, CreateInstanceSecret {
    @Override
    @JsonIgnore
    default String warehouse() {
      return AccessEntries.ALL_WAREHOUSES;
    }
  }

  /** A user or a service client; {@code kind} is {@code user} or {@code service}. */
  record CreatePrincipal(String name, String kind, String email) implements Global {
    public CreatePrincipal {
      Objects.requireNonNull(name, "name");
      kind = kind == null ? "user" : kind;
    }

    @Override
    public String describe() {
      return "principal " + name;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.createPrincipal(this);
    }
  }

  /** Removes a principal with its roles, tokens and grants. */
  record DeletePrincipal(String name) implements Global {
    @Override
    public String describe() {
      return "principal " + name;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.deletePrincipal(this);
    }
  }

  /** A principal's role in a warehouse ({@code *}: every warehouse); a null role removes it. */
  record SetRole(String principal, String warehouse, AccessEntries.Role role)
      implements AccessChange {
    @Override
    public String describe() {
      return "role of " + principal + " in " + warehouse;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.setRole(this);
    }
  }

  /**
   * @param tokenHash SHA-256 of the token, hex; null in the event (only the store keeps it)
   * @param expiresAtMillis 0 when the token does not expire
   */
  record IssueToken(String tokenId, String principal, String tokenHash, long expiresAtMillis)
      implements Global {
    @Override
    public String describe() {
      return "token " + tokenId + " of " + principal;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.issueToken(this);
    }

    /** The change as the event carries it: without the hash. */
    public IssueToken withoutHash() {
      return new IssueToken(tokenId, principal, null, expiresAtMillis);
    }

    @Override
    public Optional<AccessChange> asEvent() {
      return Optional.of(withoutHash());
    }
  }

  record RevokeToken(String tokenId) implements Global {
    @Override
    public String describe() {
      return "token " + tokenId;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.revokeToken(this);
    }
  }

  /**
   * The instances' shared secret ({@link AccessEntries.InstanceSecret}), sent by an instance as it
   * starts; kept only if there is none yet. Never an event: it is not a change to what a principal
   * may do, and the secret must not reach {@code floe.events}.
   */
  record CreateInstanceSecret(String secret) implements Global {
    public CreateInstanceSecret {
      Objects.requireNonNull(secret, "secret");
    }

    @Override
    public String describe() {
      return "the instances' secret";
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.createInstanceSecret(this);
    }

    @Override
    public String toString() {
      return "CreateInstanceSecret[secret=…]";
    }

    @Override
    public Optional<AccessChange> asEvent() {
      return Optional.empty();
    }
  }

  /**
   * A grant on a namespace (table null) or on one table (or view) by name; granting again replaces
   * the action.
   */
  record Grant(
      String warehouse,
      String principal,
      List<String> namespace,
      String table,
      AccessEntries.Action action)
      implements AccessChange {
    public Grant {
      namespace = List.copyOf(namespace);
      Objects.requireNonNull(action, "action");
    }

    @Override
    public String describe() {
      return action.label() + " on " + AccessEntries.target(namespace, table) + " to " + principal;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.grant(this);
    }
  }

  record Revoke(String warehouse, String principal, List<String> namespace, String table)
      implements AccessChange {
    public Revoke {
      namespace = List.copyOf(namespace);
    }

    @Override
    public String describe() {
      return "grant on " + AccessEntries.target(namespace, table) + " of " + principal;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.revoke(this);
    }
  }

  record SetVisibility(
      String warehouse, List<String> namespace, AccessEntries.Visibility visibility)
      implements AccessChange {
    public SetVisibility {
      namespace = List.copyOf(namespace);
      Objects.requireNonNull(visibility, "visibility");
    }

    @Override
    public String describe() {
      return "visibility of " + String.join(".", namespace);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.setVisibility(this);
    }
  }

  /**
   * A change that carries the grants on one table (or view) name to another: a rename moves them, a
   * restore under another name copies them.
   */
  sealed interface TableGrants extends AccessChange permits MoveTableGrants, CopyTableGrants {
    List<String> fromNamespace();

    String fromName();

    List<String> toNamespace();

    String toName();
  }

  /**
   * A rename carries the table's grants to its new name, merging with any grant there (the wider
   * action wins). Sent by the processor itself as the rename's last step.
   */
  record MoveTableGrants(
      String warehouse,
      List<String> fromNamespace,
      String fromName,
      List<String> toNamespace,
      String toName)
      implements TableGrants {
    public MoveTableGrants {
      fromNamespace = List.copyOf(fromNamespace);
      toNamespace = List.copyOf(toNamespace);
    }

    @Override
    public String describe() {
      return "grants of "
          + AccessEntries.target(fromNamespace, fromName)
          + " to "
          + AccessEntries.target(toNamespace, toName);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.moveTableGrants(this);
    }
  }

  /**
   * A restore under another name ({@code as}) carries the table's grants to that name, merging with
   * any grant there (the wider action wins); the old name keeps its own, since a table may hold it
   * again. Sent by the processor itself as the restore's last step.
   */
  record CopyTableGrants(
      String warehouse,
      List<String> fromNamespace,
      String fromName,
      List<String> toNamespace,
      String toName)
      implements TableGrants {
    public CopyTableGrants {
      fromNamespace = List.copyOf(fromNamespace);
      toNamespace = List.copyOf(toNamespace);
    }

    @Override
    public String describe() {
      return "grants of "
          + AccessEntries.target(fromNamespace, fromName)
          + " copied to "
          + AccessEntries.target(toNamespace, toName);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.copyTableGrants(this);
    }
  }
}
