package dev.floe.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ErrorReporterTest {
  @Test
  void aMessageThatAddsContextIsKeptAndBareWrappersAreLookedThrough() {
    IOException root = new IOException("connection reset");
    IllegalStateException context =
        new IllegalStateException("Storage self-check of lake (s3://lake) failed: reset", root);

    assertThat(ErrorReporter.telling(context)).isSameAs(context);
    assertThat(ErrorReporter.telling(new CompletionException(context))).isSameAs(context);
    assertThat(ErrorReporter.telling(new UncheckedIOException(root))).isSameAs(root);
    assertThat(ErrorReporter.telling(new RuntimeException((String) null))).isNotNull();
  }
}
