package dev.floe.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.Rejection;
import dev.floe.events.RejectionCode;
import dev.floe.projections.StoreUnavailableException;
import java.util.Arrays;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;

/**
 * Failures get the status and type Iceberg's clients expect; a write whose outcome is unknown is
 * never answered 4xx, which a client would take as "certainly not applied".
 */
class HttpErrorsTest {
  @Test
  void processorRejectionsKeepTheirStatusTypeAndMessage() {
    assertRejection(RejectionCode.TABLE_NOT_FOUND, 404, "NoSuchTableException");
    assertRejection(RejectionCode.NAMESPACE_NOT_FOUND, 404, "NoSuchNamespaceException");
    assertRejection(RejectionCode.VIEW_NOT_FOUND, 404, "NoSuchViewException");
    assertRejection(RejectionCode.WAREHOUSE_NOT_FOUND, 404, "NoSuchWarehouseException");
    assertRejection(RejectionCode.TABLE_ALREADY_EXISTS, 409, "AlreadyExistsException");
    assertRejection(RejectionCode.PRINCIPAL_ALREADY_EXISTS, 409, "AlreadyExistsException");
    assertRejection(RejectionCode.NAMESPACE_NOT_EMPTY, 409, "NamespaceNotEmptyException");
    assertRejection(RejectionCode.REQUIREMENT_FAILED, 409, "CommitFailedException");
    assertRejection(RejectionCode.INVALID_REQUEST, 400, "BadRequestException");
    assertRejection(RejectionCode.INVALID_ARGUMENT, 400, "IllegalArgumentException");
    assertRejection(RejectionCode.IDEMPOTENCY_KEY_REUSED, 422, "UnprocessableEntityException");
    assertRejection(RejectionCode.STORAGE_FAILED, 503, "ServiceUnavailableException");
    assertRejection(RejectionCode.TOO_LARGE, 413, "RequestTooLargeException");
    assertRejection(RejectionCode.GRANT_NOT_FOUND, 404, "NotFoundException");
    assertRejection(RejectionCode.INTERNAL_ERROR, 500, "InternalServerError");
  }

  @Test
  void unknownOutcomesAreServerErrors() {
    ApiException timedOut = HttpErrors.from(new CompletionException(new TimeoutException("5s")));
    ApiException logDown = HttpErrors.from(new NetworkException("broker gone"));

    assertThat(timedOut.status()).isEqualTo(504);
    assertThat(timedOut.type()).isEqualTo("CommitStateUnknownException");
    assertThat(timedOut.getMessage())
        .isEqualTo("No decision arrived in time; the change may or may not have been applied: 5s");
    assertThat(logDown.status()).isEqualTo(503);
    assertThat(logDown.type()).isEqualTo("CommitStateUnknownException");
    assertThat(Arrays.stream(ErrorType.values()))
        .filteredOn(type -> type.typeName().equals("CommitStateUnknownException"))
        .isNotEmpty()
        .allSatisfy(type -> assertThat(type.status()).isGreaterThanOrEqualTo(500));
  }

  @Test
  void failuresBeforeTheLogAreClientErrorsAndTheRestKeepTheirTypes() {
    ApiException tooLarge = HttpErrors.from(new RecordTooLargeException("2 MB"));
    ApiException invalid = HttpErrors.from(new IllegalArgumentException("bad name"));
    ApiException store = HttpErrors.from(new StoreUnavailableException("restoring", null));
    ApiException bug = HttpErrors.from(new NullPointerException());

    assertThat(tooLarge.status()).isEqualTo(413);
    assertThat(tooLarge.type()).isEqualTo("RequestTooLargeException");
    assertThat(invalid.status()).isEqualTo(400);
    assertThat(invalid.getMessage()).isEqualTo("bad name");
    assertThat(store.status()).isEqualTo(503);
    assertThat(store.type()).isEqualTo("ServiceUnavailableException");
    assertThat(bug.status()).isEqualTo(500);
    assertThat(bug.getMessage()).isEqualTo("Internal error: NullPointerException");
  }

  private static void assertRejection(RejectionCode code, int status, String type) {
    ApiException error = HttpErrors.fromRejection(new Rejection(code, "why"));
    assertThat(error).isInstanceOf(CommandRejectedException.class);
    assertThat(error.status()).as(code.name()).isEqualTo(status);
    assertThat(error.type()).as(code.name()).isEqualTo(type);
    assertThat(error.getMessage()).isEqualTo("why");
  }
}
