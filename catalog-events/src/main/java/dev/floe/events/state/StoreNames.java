package dev.floe.events.state;

/** The processor's RocksDB stores, which the read side queries by name. */
public final class StoreNames {
  /** Per warehouse: namespaces and table-name membership. Keys: {@link DirectoryKeys}. */
  public static final String DIRECTORY = "floe-directory";

  /** Per table key: {@link TableState}. */
  public static final String TABLES = "floe-tables";

  /**
   * Per view key (same key format as tables: tables and views share one name space): the view's
   * state.
   */
  public static final String VIEWS = "floe-views";

  /** Per principal and Idempotency-Key, on the partition of the keyed command: its outcome. */
  public static final String IDEMPOTENCY = "floe-idempotency";

  /**
   * On the partition of {@code ~access}: principals, token hashes, roles, grants and visibility
   * ({@code dev.floe.events.access.AccessEntries}). Every instance follows its changelog.
   */
  public static final String ACCESS = "floe-access";

  private StoreNames() {}
}
