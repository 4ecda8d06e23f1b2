package dev.floe.infra.storage.signing;

import dev.floe.infra.storage.config.S3Clients;
import dev.floe.infra.storage.config.StorageProfile.S3Settings;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.signer.AwsS3V4Signer;
import software.amazon.awssdk.auth.signer.params.AwsS3V4SignerParams;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.regions.Region;

/**
 * Signs an S3 request with the storage's own credentials (AWS Signature Version 4, the AWS SDK's S3
 * signer, as Iceberg's reference signer does): the URI exactly as the client sent it (no double
 * encoding, no path normalisation), every header the client sent except those that change between
 * retries or reads of one object ({@code Range}, the SDK's invocation and retry headers), and an
 * unsigned payload unless the request's scope names a payload hash (a batch delete's body, or the
 * client's own streaming mode).
 */
public final class S3RequestSigner {
  private static final Set<String> UNSIGNED =
      Set.of("range", "x-amz-date", "amz-sdk-invocation-id", "amz-sdk-retry", "amz-sdk-request");

  private final AwsCredentialsProvider credentials;
  private final Region region;

  public S3RequestSigner(S3Settings s3) {
    this.credentials = S3Clients.catalogCredentials(s3);
    this.region = Region.of(s3.region() == null ? "us-east-1" : s3.region());
  }

  /** The region the storage signs for; a request for another is not signed. */
  public String region() {
    return region.id();
  }

  /**
   * The headers the client sends with the request: its own, and the signature's ({@code
   * Authorization}, {@code X-Amz-Date}, {@code x-amz-content-sha256}, {@code Host}, and {@code
   * X-Amz-Security-Token} for temporary credentials).
   *
   * @param body the body whose hash is signed (a batch delete's), or empty for an unsigned payload
   */
  @SuppressWarnings("deprecation") // Iceberg's reference signer uses it; it keeps streaming modes
  public Map<String, List<String>> sign(
      String method, String uri, Map<String, List<String>> headers, Optional<String> body) {
    SdkHttpFullRequest.Builder request =
        SdkHttpFullRequest.builder().uri(URI.create(uri)).method(SdkHttpMethod.fromValue(method));
    Map<String, List<String>> unsigned = new LinkedHashMap<>();
    headers.forEach(
        (name, values) -> {
          if (UNSIGNED.contains(name.toLowerCase(Locale.ROOT))) {
            unsigned.put(name, values);
          } else {
            request.putHeader(name, values);
          }
        });
    body.ifPresent(
        b -> {
          byte[] bytes = b.getBytes(StandardCharsets.UTF_8);
          request.contentStreamProvider(() -> new ByteArrayInputStream(bytes));
        });
    AwsS3V4SignerParams params =
        AwsS3V4SignerParams.builder()
            .awsCredentials(credentials.resolveCredentials())
            .signingName("s3")
            .signingRegion(region)
            .doubleUrlEncode(false)
            .normalizePath(false)
            .enablePayloadSigning(body.isPresent())
            .enableChunkedEncoding(false)
            .build();
    SdkHttpFullRequest signed = AwsS3V4Signer.create().sign(request.build(), params);
    Map<String, List<String>> answer = new LinkedHashMap<>(signed.headers());
    answer.putAll(unsigned);
    return answer;
  }
}
