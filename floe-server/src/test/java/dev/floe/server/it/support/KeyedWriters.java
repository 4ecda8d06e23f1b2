package dev.floe.server.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.client.Uuid7;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.projections.replay.EventLogReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * One writer thread per table, committing set-properties one after the other through a set of
 * instances, and the checks of what they were told. Each commit has its own idempotency key and a
 * property of its own; it goes first to the next instance in turn (so every instance keeps getting
 * commits), and a commit without an answer (timeout, 5xx, connection refused) is retried with the
 * same key on the other instance until it is answered: every commit sent is acknowledged once,
 * whatever reached the log. A 4xx answer is a failure.
 */
public final class KeyedWriters {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);
  private static final Duration GIVE_UP = Duration.ofSeconds(120);

  /** An acknowledged commit: its table, the property it set, and when its answer came. */
  public record Ack(String table, String property, long atNanos) {}

  private final Namespace namespace;
  private final List<String> tables;
  private final List<String> uris;
  private final ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicInteger retries = new AtomicInteger();
  private final List<Thread> threads = new ArrayList<>();

  public KeyedWriters(Namespace namespace, List<String> tables, List<String> uris) {
    this.namespace = namespace;
    this.tables = List.copyOf(tables);
    this.uris = List.copyOf(uris);
  }

  public KeyedWriters start() {
    for (int t = 0; t < tables.size(); t++) {
      String table = tables.get(t);
      int offset = t;
      Thread writer = new Thread(() -> write(table, offset), "writer-" + table);
      writer.start();
      threads.add(writer);
    }
    return this;
  }

  /** Lets every writer finish the commit it is on, and waits for them. */
  public void stop() throws InterruptedException {
    running.set(false);
    for (Thread writer : threads) {
      writer.join(GIVE_UP.toMillis() + 30_000);
    }
  }

  public List<Ack> acks() {
    return new ArrayList<>(acks);
  }

  public List<String> failures() {
    return new ArrayList<>(failures);
  }

  public int retries() {
    return retries.get();
  }

  /**
   * The longest time a table went without an acknowledged commit because of what happened in {@code
   * [from, to]} (System.nanoTime()): the longest interval between a table's consecutive
   * acknowledgements that ends in the window (one that ends later belongs to what follows); an open
   * interval (no acknowledgement since) counts up to {@code to}.
   */
  public Duration longestGap(long from, long to) {
    long longest = 0;
    for (String table : tables) {
      List<Long> times = times(table);
      for (int i = 1; i <= times.size(); i++) {
        long start = times.get(i - 1);
        long end = i < times.size() ? times.get(i) : to;
        if (end > from && end <= to) {
          longest = Math.max(longest, end - start);
        }
      }
    }
    return Duration.ofNanos(longest);
  }

  /** How long after {@code at} the last of the tables had its first acknowledged commit. */
  public Duration everyTableCommittedAfter(long at) {
    long latest = at;
    for (String table : tables) {
      long first = times(table).stream().filter(time -> time > at).findFirst().orElse(-1L);
      if (first < 0) {
        return Duration.ofDays(1);
      }
      latest = Math.max(latest, first);
    }
    return Duration.ofNanos(latest - at);
  }

  /** Acknowledged commits between {@code from} and {@code to}. */
  public long acknowledgedBetween(long from, long to) {
    return acks.stream().filter(ack -> ack.atNanos() > from && ack.atNanos() <= to).count();
  }

  /** Waits until every table has had a commit acknowledged after {@code at}. */
  public boolean awaitEveryTableCommittedAfter(long at, Duration within)
      throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      if (everyTableCommittedAfter(at).compareTo(Duration.ofDays(1)) < 0) {
        return true;
      }
      Thread.sleep(200);
    }
    return false;
  }

  private List<Long> times(String table) {
    return acks.stream()
        .filter(ack -> ack.table().equals(table))
        .map(Ack::atNanos)
        .sorted()
        .toList();
  }

  /** Every acknowledged commit is in its table's metadata, as the instance at {@code uri} reads. */
  public void assertEveryAckInMetadata(String uri) {
    try (RESTCatalog catalog = RestClients.connect(uri, Map.of())) {
      for (String table : tables) {
        Map<String, String> props =
            catalog.loadTable(TableIdentifier.of(namespace, table)).properties();
        for (Ack ack : acks) {
          if (ack.table().equals(table)) {
            assertThat(props).as("%s's properties at %s", table, uri).containsKey(ack.property());
          }
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * {@code floe.events} (read_committed) holds exactly one set-properties event for each
   * acknowledged commit of the namespace, and nothing else for it.
   */
  public void assertExactlyOneEventPerAck(String bootstrap) throws Exception {
    Map<String, Integer> events = new HashMap<>();
    List<String> otherEvents = new ArrayList<>();
    EventLogReader.read(
        bootstrap,
        "floe.events",
        EventLogReader.Until.END,
        envelope -> {
          if (envelope.data() instanceof TableCommittedEvent commit
              && commit.identifier().namespace().equals(namespace)) {
            for (MetadataUpdate update : commit.updates()) {
              if (update instanceof MetadataUpdate.SetProperties set) {
                set.updated()
                    .keySet()
                    .forEach(
                        key ->
                            events.merge(commit.identifier().name() + "/" + key, 1, Integer::sum));
              } else {
                otherEvents.add(update.getClass().getSimpleName());
              }
            }
          }
        },
        (done, total) -> {});
    Map<String, Integer> expected = new HashMap<>();
    acks.forEach(ack -> expected.put(ack.table() + "/" + ack.property(), 1));
    assertThat(otherEvents).as("updates other than set-properties").isEmpty();
    assertThat(events).as("events per acknowledged commit").isEqualTo(expected);
  }

  private void write(String table, int offset) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    for (int n = 0; running.get(); n++) {
      String property = "c" + n;
      String body =
          "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\""
              + property
              + "\":\""
              + n
              + "\"}}]}";
      String key = Uuid7.next().toString();
      long deadline = System.nanoTime() + GIVE_UP.toNanos();
      int instance = n + offset;
      while (true) {
        String uri =
            uris.get(instance % uris.size())
                + "/v1/default/namespaces/"
                + namespace.level(0)
                + "/tables/"
                + table;
        int status;
        String answer;
        try {
          HttpResponse<String> response =
              http.send(
                  HttpRequest.newBuilder(URI.create(uri))
                      .timeout(REQUEST_TIMEOUT)
                      .header("Content-Type", "application/json")
                      .header("Idempotency-Key", key)
                      .POST(HttpRequest.BodyPublishers.ofString(body))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
          status = response.statusCode();
          answer = response.body();
        } catch (Exception e) {
          status = -1;
          answer = e.toString();
        }
        if (status == 200) {
          acks.add(new Ack(table, property, System.nanoTime()));
          break;
        }
        if (status >= 400 && status < 500 && status != 408 && status != 429) {
          failures.add(table + "/" + property + ": " + status + " " + answer);
          return;
        }
        if (System.nanoTime() > deadline) {
          failures.add(
              table + "/" + property + ": no answer within " + GIVE_UP + ", last " + answer);
          return;
        }
        retries.incrementAndGet();
        instance++;
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          failures.add(table + "/" + property + ": interrupted");
          return;
        }
      }
    }
  }
}
