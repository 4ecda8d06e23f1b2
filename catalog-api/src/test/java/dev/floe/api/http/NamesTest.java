package dev.floe.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Names of namespaces, tables and views, in paths and bodies: what could forge a line, climb a
 * path, be spelt by two byte strings, or overflow a file name is refused; dots, slashes and any
 * other character Iceberg allows are kept.
 */
class NamesTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        ".",
        "..",
        "a\rb",
        "a\nb",
        "a\u0000b",
        "a\u001fb",
        "a\u007fb",
        "a\u0080b",
        "a\u009fb",
        "a\ufffdb",
        "a\ud800b",
        "\udc00"
      })
  void refusesNamesThatAreNotNames(String name) {
    assertThat(Names.problem(name)).as("[%s]", name).isNotNull();
    assertThatThrownBy(() -> Names.requireValidName(name))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"a.b", "a/b", "...", ".hidden", "x..y", "ü", "a b", "%2e", "\ud83d\ude00"})
  void keepsNamesIcebergAllows(String name) {
    assertThat(Names.problem(name)).as(name).isNull();
  }

  @Test
  void aNameIsAtMost255BytesOfUtf8() {
    assertThat(Names.problem("a".repeat(255))).isNull();
    assertThat(Names.problem("a".repeat(256))).contains("255 bytes");
    assertThat(Names.problem("€".repeat(85))).isNull();
    assertThat(Names.problem("€".repeat(86))).contains("255 bytes");
  }

  @Test
  void pathSegmentsThatDecodeToDotsOrInvalidUtf8AreRefused() {
    String[] segments = PathPatterns.segments("/v1/default/namespaces/%2e%2e/tables/%C0%AE");
    assertThat(segments[3]).isEqualTo("..");
    assertThat(Names.problem(segments[3])).isNotNull();
    assertThat(segments[5]).contains("\ufffd");
    assertThat(Names.problem(segments[5])).isNotNull();
  }

  @Test
  void everyLevelOfANamespaceInAPathIsChecked() {
    assertThat(RequestContext.parseNamespace("db\u001fa.b\u001fc%2Fd").levels())
        .containsExactly("db", "a.b", "c%2Fd");
    for (String path : new String[] {"db\u001f..", "db\u001f", "db\u001fx\ry", "a".repeat(256)}) {
      assertThatThrownBy(() -> RequestContext.parseNamespace(path))
          .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
    }
  }

  @Test
  void namesInBodiesAreCheckedLikeNamesInPaths() {
    assertThatThrownBy(
            () ->
                Names.requireValidNames(
                    CreateNamespaceRequest.builder()
                        .withNamespace(Namespace.of("ok", ".."))
                        .build()))
        .isInstanceOf(ApiException.class);
    assertThatThrownBy(
            () ->
                Names.requireValidNames(
                    RenameTableRequest.builder()
                        .withSource(TableIdentifier.of("db", "t"))
                        .withDestination(TableIdentifier.of("db", "t\r\nx"))
                        .build()))
        .isInstanceOf(ApiException.class);
    Names.requireValidNames(
        RenameTableRequest.builder()
            .withSource(TableIdentifier.of("db", "t"))
            .withDestination(TableIdentifier.of(Namespace.of("a.b"), "c/d"))
            .build());
  }
}
