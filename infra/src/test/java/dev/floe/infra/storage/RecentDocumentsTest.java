package dev.floe.infra.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentDocumentsTest {
  private final AtomicLong now = new AtomicLong();

  @Test
  void keepsEveryNewDocumentAndDropsTheOldestBeyondTheBound() {
    RecentDocuments documents = new RecentDocuments(1_000, Duration.ofMinutes(1), now::get);
    String large = "x".repeat(246); // 250 characters with a 4-character location
    for (int i = 0; i < 100; i++) {
      String location = "l" + String.format("%03d", i);
      documents.put(location, large + i % 10);
      // Each is there right after it is written, however full the cache was.
      assertThat(documents.get(location)).isEqualTo(large + i % 10);
      assertThat(documents.chars()).isLessThanOrEqualTo(1_000);
    }
    // The three newest fit in 1,000 characters (251 each); older ones are gone.
    assertThat(documents.get("l099")).isNotNull();
    assertThat(documents.get("l097")).isNotNull();
    assertThat(documents.get("l096")).isNull();
    assertThat(documents.get("l000")).isNull();
  }

  @Test
  void forgetsDocumentsOlderThanTheAgeBound() {
    RecentDocuments documents = new RecentDocuments(1_000, Duration.ofSeconds(60), now::get);
    documents.put("a", "{}");
    now.addAndGet(Duration.ofSeconds(30).toNanos());
    documents.put("b", "{}");
    assertThat(documents.get("a")).isEqualTo("{}");
    now.addAndGet(Duration.ofSeconds(31).toNanos());
    assertThat(documents.get("a")).isNull();
    assertThat(documents.get("b")).isEqualTo("{}");
    documents.put("c", "{}");
    // Writing drops what has aged out.
    assertThat(documents.chars()).isEqualTo(6);
  }

  @Test
  void aDocumentLargerThanTheBoundIsNotKeptAndAReWriteReplaces() {
    RecentDocuments documents = new RecentDocuments(10, Duration.ofMinutes(1), now::get);
    documents.put("a", "{\"k\":1}");
    documents.put("big", "x".repeat(20));
    assertThat(documents.get("big")).isNull();
    assertThat(documents.get("a")).isEqualTo("{\"k\":1}");
    documents.put("a", "{\"k\":22}");
    assertThat(documents.get("a")).isEqualTo("{\"k\":22}");
    assertThat(documents.chars()).isEqualTo(9);
  }
}
