package dev.floe.processor.kafka;

import dev.floe.events.CommandReply;
import dev.floe.events.Keys;
import dev.floe.events.Rejection;
import dev.floe.events.RejectionCode;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.state.IdempotencyRecord;
import dev.floe.processor.Decision;
import dev.floe.processor.step.IdempotencyOutcomeStep;
import dev.floe.processor.step.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Idempotency-Key semantics, kept in the processor's store beside the state it protects and written
 * in the same Kafka transaction as the change: a retry with the same key and request gets the first
 * final answer (2xx or a deterministic 4xx) and has no second effect; the same key with another
 * request is refused (422); retries that arrive while the first is in flight wait for its answer.
 * Outcomes that are not final (storage failure, internal error) are forgotten, so a retry tries
 * again. Keys are scoped to the principal and forgotten after the advertised lifetime.
 */
final class IdempotencyLedger {
  private final KeyValueStore<String, byte[]> store;
  private final Duration lifetime;
  private final LongConsumer remembered;

  /**
   * @param remembered told the expiry of every record the ledger writes for a new key, so the
   *     records can be purged when they expire
   */
  IdempotencyLedger(
      KeyValueStore<String, byte[]> store, Duration lifetime, LongConsumer remembered) {
    this.store = store;
    this.lifetime = lifetime;
    this.remembered = remembered;
  }

  /** The decision for a keyed retry (replay, refusal, or wait), or empty to decide it anew. */
  Optional<Decision> before(CommandHeader header) {
    if (header.idempotencyKey() == null) {
      return Optional.empty();
    }
    String key = IdempotencyRecord.key(header.principal(), header.idempotencyKey());
    byte[] value = store.get(key);
    if (value == null) {
      return Optional.empty();
    }
    IdempotencyRecord record = IdempotencyRecord.fromBytes(value);
    if (record.expiresAtMillis() < header.timestampMillis()) {
      store.delete(key);
      return Optional.empty();
    }
    if (!Objects.equals(record.fingerprint(), header.requestFingerprint())) {
      return Optional.of(
          Decision.rejected(
              header.commandId(),
              Rejection.of(
                  RejectionCode.IDEMPOTENCY_KEY_REUSED,
                  "Idempotency-Key %s was already used for a different request",
                  header.idempotencyKey())));
    }
    if (record.reply() != null) {
      return Optional.of(Decision.reply(List.of(), as(record.reply(), header.commandId())));
    }
    List<IdempotencyRecord.Waiter> waiters = new ArrayList<>(record.waiters());
    waiters.add(new IdempotencyRecord.Waiter(header.replyTo(), header.commandId()));
    store.put(
        key,
        new IdempotencyRecord(record.fingerprint(), null, waiters, record.expiresAtMillis())
            .toBytes());
    return Optional.of(new Decision(List.of(), List.of(), null, null, false, false));
  }

  /** Remembers a keyed command's outcome, or that it is in flight when a later step will answer. */
  Decision after(CommandHeader header, Decision decision) {
    if (header.idempotencyKey() == null) {
      return decision;
    }
    String key = IdempotencyRecord.key(header.principal(), header.idempotencyKey());
    long expires = header.timestampMillis() + lifetime.toMillis();
    CommandReply reply = decision.reply();
    if (reply != null && !isFinal(reply)) {
      return decision; // not remembered: a retry decides again
    }
    // A null reply: in flight, a later step answers.
    store.put(
        key,
        new IdempotencyRecord(header.requestFingerprint(), reply, List.of(), expires).toBytes());
    remembered.accept(expires);
    return decision;
  }

  /**
   * A step that answers a keyed multi-step command also reports the answer to the record's
   * partition.
   */
  static Decision reportOutcome(Step step, Decision decision) {
    if (step.header().idempotencyKey() == null
        || decision.reply() == null
        || step.reportsOutcome()) {
      return decision;
    }
    List<Step> steps = new ArrayList<>(decision.steps());
    steps.add(
        new IdempotencyOutcomeStep(
            step.header(), step.warehouse(), Keys.warehouse(step.warehouse()), decision.reply()));
    return new Decision(
        decision.events(),
        steps,
        decision.reply(),
        decision.tableState(),
        decision.tableRemoved(),
        decision.writeMetadata());
  }

  /** Records the final answer and returns the replies owed to the retries that waited. */
  List<KeyValue<String, CommandReply>> complete(IdempotencyOutcomeStep step) {
    CommandHeader header = step.header();
    String key = IdempotencyRecord.key(header.principal(), header.idempotencyKey());
    byte[] value = store.get(key);
    if (value == null) {
      return List.of();
    }
    IdempotencyRecord record = IdempotencyRecord.fromBytes(value);
    if (isFinal(step.reply())) {
      store.put(
          key,
          new IdempotencyRecord(
                  record.fingerprint(), step.reply(), List.of(), record.expiresAtMillis())
              .toBytes());
    } else {
      store.delete(key);
    }
    List<KeyValue<String, CommandReply>> replies = new ArrayList<>();
    for (IdempotencyRecord.Waiter waiter : record.waiters()) {
      replies.add(KeyValue.pair(waiter.replyTo(), as(step.reply(), waiter.commandId())));
    }
    return replies;
  }

  /**
   * Forgets keys past their lifetime; returns the earliest expiry of those it keeps ({@code
   * Long.MAX_VALUE} when it keeps none).
   */
  long purgeExpired(long nowMillis) {
    List<String> expired = new ArrayList<>();
    long next = Long.MAX_VALUE;
    try (KeyValueIterator<String, byte[]> it = store.all()) {
      while (it.hasNext()) {
        var entry = it.next();
        long expiresAt = IdempotencyRecord.fromBytes(entry.value).expiresAtMillis();
        if (expiresAt < nowMillis) {
          expired.add(entry.key);
        } else {
          next = Math.min(next, expiresAt);
        }
      }
    }
    expired.forEach(store::delete);
    return next;
  }

  private static boolean isFinal(CommandReply reply) {
    return reply.accepted()
        || (reply.rejection().code() != RejectionCode.STORAGE_FAILED
            && reply.rejection().code() != RejectionCode.INTERNAL_ERROR);
  }

  private static CommandReply as(CommandReply reply, String commandId) {
    return new CommandReply(
        commandId,
        reply.rejection(),
        reply.metadataLocation(),
        reply.metadata(),
        reply.properties(),
        reply.updated(),
        reply.removed(),
        reply.missing());
  }
}
