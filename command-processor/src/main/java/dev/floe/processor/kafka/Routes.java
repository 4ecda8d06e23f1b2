package dev.floe.processor.kafka;

import dev.floe.events.command.CatalogCommand;
import dev.floe.processor.Decision;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The one table of how the processor handles each type of command and step. A command of a type
 * with no entry of its own goes to the handler of the other commands (the directory's).
 */
final class Routes {
  /** How a command or step of one type is handled: decided, queued, or answered at once. */
  @FunctionalInterface
  interface Handler<T> {
    void accept(Record<String, byte[]> record, T value);
  }

  /** What a command or step decides on its key. */
  @FunctionalInterface
  interface Decide<T> {
    Decision decide(String key, T value);
  }

  private final Map<Class<?>, Handler<?>> handlers = new HashMap<>();
  private final Handler<CatalogCommand> otherCommand;

  Routes(Handler<CatalogCommand> otherCommand) {
    this.otherCommand = otherCommand;
  }

  <T> Routes add(Class<T> type, Handler<T> handler) {
    handlers.put(type, handler);
    return this;
  }

  /**
   * Fails unless every record type of the sealed hierarchy {@code root} has an entry, or is one
   * {@code handledOtherwise} accepts: a type without a route fails at start, not at its first
   * record.
   */
  Routes requireEvery(Class<?> root, Predicate<Class<?>> handledOtherwise) {
    List<String> missing =
        leaves(root).stream()
            .filter(type -> !handlers.containsKey(type) && !handledOtherwise.test(type))
            .map(Class::getSimpleName)
            .sorted()
            .toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "No route for " + String.join(", ", missing) + " (" + root.getSimpleName() + ")");
    }
    return this;
  }

  /** The concrete types of a sealed hierarchy. */
  static List<Class<?>> leaves(Class<?> type) {
    if (!type.isSealed()) {
      return List.of(type);
    }
    return Arrays.stream(type.getPermittedSubclasses())
        .flatMap(subtype -> leaves(subtype).stream())
        .toList();
  }

  /** Whether values of this type have an entry of their own. */
  boolean handles(Class<?> type) {
    return handlers.containsKey(type);
  }

  @SuppressWarnings("unchecked")
  Handler<Object> route(Object value) {
    Handler<?> handler = handlers.get(value.getClass());
    if (handler == null && value instanceof CatalogCommand) {
      handler = otherCommand;
    }
    if (handler == null) {
      throw new IllegalArgumentException("No handler for " + value.getClass().getSimpleName());
    }
    return (Handler<Object>) handler;
  }
}
