package dev.floe.infra.storage.vending;

import java.util.List;

/** Issues temporary credentials that reach a table's storage locations and nothing else. */
public interface CredentialVendor {
  /**
   * @param locations the table's location first, then any other prefix its data or metadata is
   *     written to; each already validated to lie inside this vendor's storage
   * @param access what the credentials may do there
   */
  VendedCredentials vend(List<String> locations, AccessLevel access);
}
