package dev.floe.infra.storage.signing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.config.StorageConfig;
import dev.floe.infra.storage.config.StorageProfile.S3Settings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class S3RequestScopeTest {
  private static final S3Settings PATH_STYLE =
      new S3Settings(
          "us-east-1", "http://127.0.0.1:9000", true, null, null, null, null, null, null);
  private static final S3Settings VIRTUAL_HOST =
      new S3Settings(
          "us-east-1", "http://minio.test:9000", false, null, null, null, null, null, null);
  private static final S3Settings AWS =
      new S3Settings("eu-west-1", null, false, null, null, null, null, null, null);
  private static final String TABLE = "s3://lake/warehouse/db/t-1";
  private static final String OBJECT = "http://127.0.0.1:9000/lake/warehouse/db/t-1/data/f.parquet";

  private final LocationAuthority authority = authority();

  private static LocationAuthority authority() {
    Properties props = new Properties();
    props.setProperty("floe.warehouse.lake.s3.endpoint", "http://127.0.0.1:9000");
    return new LocationAuthority(
        StorageConfig.fromProperties(props, Map.of("lake", "s3://lake/warehouse")));
  }

  private static S3RequestScope scope(String method, String uri) {
    return S3RequestScope.of(PATH_STYLE, "lake", method, uri, Map.of(), null);
  }

  private Optional<String> outside(S3RequestScope scope) {
    return scope.outside(authority, List.of(TABLE));
  }

  @Test
  void objectReadsAndWritesInsideTheTableAreScopedToTheirKey() {
    S3RequestScope get = scope("GET", OBJECT);
    assertThat(get.write()).isFalse();
    assertThat(get.objects()).containsExactly(TABLE + "/data/f.parquet");
    assertThat(outside(get)).isEmpty();
    assertThat(scope("HEAD", OBJECT).write()).isFalse();
    for (String method : List.of("PUT", "DELETE")) {
      S3RequestScope write = scope(method, OBJECT);
      assertThat(write.write()).isTrue();
      assertThat(outside(write)).isEmpty();
    }
  }

  @Test
  void multipartUploadStepsAreWritesOfTheirObject() {
    for (String[] step :
        List.of(
            new String[] {"POST", OBJECT + "?uploads"},
            new String[] {"PUT", OBJECT + "?partNumber=2&uploadId=abc"},
            new String[] {"POST", OBJECT + "?uploadId=abc"},
            new String[] {"DELETE", OBJECT + "?uploadId=abc"})) {
      S3RequestScope scope = scope(step[0], step[1]);
      assertThat(scope.write()).as(step[1]).isTrue();
      assertThat(outside(scope)).as(step[1]).isEmpty();
    }
  }

  @Test
  void virtualHostAndAwsHostsAddressTheBucketByName() {
    S3RequestScope virtual =
        S3RequestScope.of(
            VIRTUAL_HOST,
            "lake",
            "GET",
            "http://lake.minio.test:9000/warehouse/db/t-1/data/f.parquet",
            Map.of(),
            null);
    assertThat(virtual.objects()).containsExactly(TABLE + "/data/f.parquet");
    S3RequestScope aws =
        S3RequestScope.of(
            AWS,
            "lake",
            "GET",
            "https://lake.s3.eu-west-1.amazonaws.com/warehouse/db/t-1/data/f.parquet",
            Map.of(),
            null);
    assertThat(aws.objects()).containsExactly(TABLE + "/data/f.parquet");
    assertThatThrownBy(
            () ->
                S3RequestScope.of(
                    AWS,
                    "lake",
                    "GET",
                    "http://lake.s3.eu-west-1.amazonaws.com/warehouse/db/t-1/f",
                    Map.of(),
                    null))
        .isInstanceOf(S3RequestScope.Refused.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1:9001/lake/warehouse/db/t-1/f", // another port
        "https://127.0.0.1:9000/lake/warehouse/db/t-1/f", // another scheme
        "http://localhost:9000/lake/warehouse/db/t-1/f", // another host name
        "http://archive.127.0.0.1:9000/warehouse/db/t-1/f", // another bucket, virtual host
        "http://127.0.0.1:9000/archive/warehouse/db/t-1/f", // another bucket, path style
        "http://user@127.0.0.1:9000/lake/warehouse/db/t-1/f", // user information
        "http://127.0.0.1:9000/lake/warehouse/db/t-1/f#frag",
        "http://127.0.0.1:9000/lake/warehouse/db/t-1/f?X-Amz-Signature=abc", // presigned
        "http://127.0.0.1:9000/lake/warehouse/db/t-1/f?x-amz-credential=abc",
        "http://127.0.0.1:9000/lake/warehouse/db/t-1/f?partNumber=1&partNumber=2", // repeated
        "http://127.0.0.1:9000/lake/warehouse/db/t-1/f?tagging", // not S3FileIO's
        "http://127.0.0.1:9000/lake/warehouse/db/t-1/f?versionId=3",
        "http://127.0.0.1:9000/lake", // a bucket GET that is no listing
        "http://127.0.0.1:9000/lake?list-type=2", // a listing without a prefix
        "http://127.0.0.1:9000/lake?list-type=2&prefix=warehouse/db/t-1/&versions", // extra
        "not a uri at all",
      })
  void requestsOutsideWhatS3FileIoSendsAreRefused(String uri) {
    assertThatThrownBy(() -> scope("GET", uri)).isInstanceOf(S3RequestScope.Refused.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1:9000/lake/warehouse/db/t-2/data/f.parquet", // the table beside it
        "http://127.0.0.1:9000/lake/warehouse/db/t-1/../t-2/f", // climbing out
        "http://127.0.0.1:9000/lake/warehouse/db/t-1/%2E%2E/t-2/f", // climbing out, encoded
        "http://127.0.0.1:9000/lake/warehouse/db/t-1%2F..%2Ft-2/f", // encoded separators
        "http://127.0.0.1:9000/lake/warehouse/db/t-1//f", // an empty segment: another key
        "http://127.0.0.1:9000/lake/warehouse/db/t-10/f", // a name that starts the same
        "http://127.0.0.1:9000/lake/warehouse/db/t-1", // the location itself as an object
        "http://127.0.0.1:9000/lake?list-type=2&prefix=warehouse/db/t-1", // lists t-10 too
        "http://127.0.0.1:9000/lake?list-type=2&prefix=warehouse/db/", // the namespace
        "http://127.0.0.1:9000/lake?list-type=2&prefix=warehouse/db/t-1/../t-2/",
      })
  void placesOutsideTheTablesLocationAreOutside(String uri) {
    assertThat(outside(scope("GET", uri))).as(uri).isPresent();
    if (!uri.contains("list-type")) {
      assertThat(outside(scope("PUT", uri))).as(uri).isPresent();
    }
  }

  @Test
  void aListingOfThePrefixInsideTheTableIsARead() {
    S3RequestScope list =
        scope("GET", "http://127.0.0.1:9000/lake?list-type=2&prefix=warehouse/db/t-1/&max-keys=9");
    assertThat(list.write()).isFalse();
    assertThat(outside(list)).isEmpty();
    assertThat(
            outside(
                scope(
                    "GET",
                    "http://127.0.0.1:9000/lake/?list-type=2&prefix=warehouse/db/t-1/data/")))
        .isEmpty();
  }

  @Test
  void aCopyIsScopedToItsSourceToo() {
    Map<String, List<String>> inside =
        Map.of("x-amz-copy-source", List.of("lake/warehouse/db/t-1/data/old.parquet"));
    S3RequestScope copy = S3RequestScope.of(PATH_STYLE, "lake", "PUT", OBJECT, inside, null);
    assertThat(copy.objects()).hasSize(2);
    assertThat(outside(copy)).isEmpty();
    for (String source :
        List.of(
            "lake/warehouse/db/t-2/f",
            "/archive/warehouse/db/t-1/f",
            "lake/warehouse/db/t-1/%2E%2E/t-2/f")) {
      S3RequestScope foreign =
          S3RequestScope.of(
              PATH_STYLE,
              "lake",
              "PUT",
              OBJECT,
              Map.of("X-Amz-Copy-Source", List.of(source)),
              null);
      assertThat(outside(foreign)).as(source).isPresent();
    }
    assertThatThrownBy(
            () ->
                S3RequestScope.of(
                    PATH_STYLE,
                    "lake",
                    "PUT",
                    OBJECT,
                    Map.of("x-amz-copy-source", List.of("lake/warehouse/db/t-1/f?versionId=1")),
                    null))
        .isInstanceOf(S3RequestScope.Refused.class);
  }

  @Test
  void aBatchDeleteIsScopedToEveryKeyOfItsBodyAndSignsTheBodysHash() {
    String bucket = "http://127.0.0.1:9000/lake?delete";
    String body = deleteBody("warehouse/db/t-1/data/a.parquet", "warehouse/db/t-1/data/b.parquet");
    S3RequestScope delete = S3RequestScope.of(PATH_STYLE, "lake", "POST", bucket, Map.of(), body);
    assertThat(delete.write()).isTrue();
    assertThat(delete.objects()).hasSize(2);
    assertThat(outside(delete)).isEmpty();

    String foreign =
        deleteBody("warehouse/db/t-1/data/a.parquet", "warehouse/db/t-2/data/b.parquet");
    assertThat(outside(S3RequestScope.of(PATH_STYLE, "lake", "POST", bucket, Map.of(), foreign)))
        .contains("s3://lake/warehouse/db/t-2/data/b.parquet");
    String climbing = deleteBody("warehouse/db/t-1/../t-2/b.parquet");
    assertThat(outside(S3RequestScope.of(PATH_STYLE, "lake", "POST", bucket, Map.of(), climbing)))
        .isPresent();
    String percent = deleteBody("warehouse/db/t-1/%2E%2E/x");
    assertThat(outside(S3RequestScope.of(PATH_STYLE, "lake", "POST", bucket, Map.of(), percent)))
        .isEmpty(); // a literal '%' in a key is a character of the key, inside the table

    for (String bad :
        List.of(
            "",
            "<Delete></Delete>",
            "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<Delete><Object><Key>&x;</Key></Object></Delete>",
            "<Delete><Object><Key>warehouse/db/t-1/a</Key><VersionId>1</VersionId></Object></Delete>",
            "<Other/>")) {
      assertThatThrownBy(() -> S3RequestScope.of(PATH_STYLE, "lake", "POST", bucket, Map.of(), bad))
          .as(bad)
          .isInstanceOf(S3RequestScope.Refused.class);
    }
    Map<String, List<String>> otherHash = Map.of("x-amz-content-sha256", List.of("0".repeat(64)));
    assertThatThrownBy(() -> S3RequestScope.of(PATH_STYLE, "lake", "POST", bucket, otherHash, body))
        .isInstanceOf(S3RequestScope.Refused.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Host",
        "X-Amz-Grant-Read",
        "x-amz-object-lock-mode",
        "x-amz-bypass-governance-retention",
        "x-amz-website-redirect-location"
      })
  void headersThatRedirectOrWidenAccessAreRefused(String name) {
    Map<String, List<String>> owner = Map.of("x-amz-acl", List.of("bucket-owner-full-control"));
    assertThat(S3RequestScope.of(PATH_STYLE, "lake", "PUT", OBJECT, owner, null).write()).isTrue();
    Map<String, List<String>> publicRead = Map.of("x-amz-acl", List.of("public-read"));
    assertThatThrownBy(() -> S3RequestScope.of(PATH_STYLE, "lake", "PUT", OBJECT, publicRead, null))
        .isInstanceOf(S3RequestScope.Refused.class);
    assertThatThrownBy(
            () ->
                S3RequestScope.of(
                    PATH_STYLE, "lake", "PUT", OBJECT, Map.of(name, List.of("x")), null))
        .isInstanceOf(S3RequestScope.Refused.class);
  }

  @Test
  void aBatchDeleteWithElementsOutsideS3sGrammarIsRefused() {
    String bucket = "http://127.0.0.1:9000/lake?delete";
    for (String bad :
        List.of(
            "<Delete><Object><Key>warehouse/db/t-1/a</Key></Object>"
                + "<Foo><Object><Key>warehouse/db/t-2/b</Key></Object></Foo></Delete>",
            "<Delete><Object><Key>warehouse/db/t-1/a</Key><Key>warehouse/db/t-2/b</Key></Object>"
                + "</Delete>",
            "<Delete><Object><Key>warehouse/db/t-1/a</Key></Object><Key>warehouse/db/t-2/b</Key>"
                + "</Delete>",
            "<Delete><Object><Key>warehouse/db/t-1/a</Key></Object>"
                + "<Quiet><Object><Key>warehouse/db/t-2/b</Key></Object></Quiet></Delete>")) {
      assertThatThrownBy(() -> S3RequestScope.of(PATH_STYLE, "lake", "POST", bucket, Map.of(), bad))
          .as(bad)
          .isInstanceOf(S3RequestScope.Refused.class);
    }
  }

  @Test
  void onlyTheStoragesAddressingStyleIsSigned() {
    // A store without virtual hosts would read "lake.host/warehouse/…" as bucket "warehouse".
    assertThatThrownBy(
            () -> scope("GET", "http://lake.127.0.0.1:9000/warehouse/db/t-1/data/f.parquet"))
        .isInstanceOf(S3RequestScope.Refused.class);
    assertThatThrownBy(
            () ->
                S3RequestScope.of(
                    VIRTUAL_HOST,
                    "lake",
                    "GET",
                    "http://minio.test:9000/lake/warehouse/db/t-1/data/f.parquet",
                    Map.of(),
                    null))
        .isInstanceOf(S3RequestScope.Refused.class);
  }

  @Test
  void keysThatStoresReadDifferentlyAreRefused() {
    String bucket = "http://127.0.0.1:9000/lake?delete";
    String mine = "warehouse/db/t-1/";
    String theirs = "warehouse/db/t-2/data/secret";
    for (String key :
        List.of(
            mine + "<x/>" + theirs, // a store that keeps the text after the last child
            mine + "<b>x</b>" + theirs,
            mine + "<!-- -->" + theirs,
            mine + "<![CDATA[]]>" + theirs,
            mine + "<?pi x?>" + theirs)) {
      String body = "<Delete><Object><Key>" + key + "</Key></Object></Delete>";
      assertThatThrownBy(
              () -> S3RequestScope.of(PATH_STYLE, "lake", "POST", bucket, Map.of(), body))
          .as(body)
          .isInstanceOf(S3RequestScope.Refused.class);
    }
    String otherNamespace =
        "<Delete><Object><k:Key xmlns:k='urn:x'>" + mine + "a</k:Key></Object></Delete>";
    String twoKeys =
        "<Delete><Object><Key>" + mine + "a</Key><Key>" + mine + "b</Key></Object></Delete>";
    String deep = "<Delete>" + "<a>".repeat(50_000) + "</Delete>";
    for (String body : List.of(otherNamespace, twoKeys, deep)) {
      assertThatThrownBy(
              () -> S3RequestScope.of(PATH_STYLE, "lake", "POST", bucket, Map.of(), body))
          .isInstanceOf(S3RequestScope.Refused.class);
    }
    String s3 =
        "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Quiet>true</Quiet>"
            + "<Object><Key>"
            + mine
            + "a &amp; b</Key></Object></Delete>";
    assertThat(S3RequestScope.of(PATH_STYLE, "lake", "POST", bucket, Map.of(), s3).objects())
        .containsExactly("s3://lake/" + mine + "a & b");
  }

  @Test
  void pathParametersControlCharactersAndCapitalisedSourcesAreRefused() {
    assertThatThrownBy(() -> scope("GET", "http://127.0.0.1:9000/lake/warehouse/db/t-1/..;/t-2/f"))
        .isInstanceOf(S3RequestScope.Refused.class);
    for (Map<String, List<String>> headers :
        List.of(
            Map.of("x-amz-meta-a", List.of("a\r\nx-amz-copy-source: lake/x")),
            Map.of("bad name", List.of("x")),
            Map.of("x-amz-copy-source", List.of("LAKE/warehouse/db/t-1/f")))) {
      assertThatThrownBy(() -> S3RequestScope.of(PATH_STYLE, "lake", "PUT", OBJECT, headers, null))
          .as(headers.toString())
          .isInstanceOf(S3RequestScope.Refused.class);
    }
  }

  @Test
  void otherMethodsAndBodiesOnObjectRequestsAreRefused() {
    assertThatThrownBy(() -> scope("PATCH", OBJECT)).isInstanceOf(S3RequestScope.Refused.class);
    assertThatThrownBy(
            () -> S3RequestScope.of(PATH_STYLE, "lake", "PUT", OBJECT, Map.of(), "<Delete/>"))
        .isInstanceOf(S3RequestScope.Refused.class);
    assertThatThrownBy(
            () ->
                S3RequestScope.of(
                    PATH_STYLE,
                    "lake",
                    "GET",
                    OBJECT,
                    Map.of("x-amz-copy-source", List.of("lake/warehouse/db/t-1/f")),
                    null))
        .isInstanceOf(S3RequestScope.Refused.class);
  }

  private static String deleteBody(String... keys) {
    StringBuilder xml =
        new StringBuilder("<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
    for (String key : keys) {
      xml.append("<Object><Key>").append(key).append("</Key></Object>");
    }
    return xml.append("<Quiet>true</Quiet></Delete>").toString();
  }
}
