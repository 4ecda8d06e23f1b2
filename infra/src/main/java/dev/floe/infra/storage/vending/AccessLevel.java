package dev.floe.infra.storage.vending;

/** What a vended credential may do under its table's prefix. */
public enum AccessLevel {
  /** List and read objects. */
  READ,
  /** List, read, write and delete objects. */
  READ_WRITE
}
