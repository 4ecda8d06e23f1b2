package dev.floe.infra.storage.config;

import dev.floe.infra.storage.config.StorageProfile.S3Settings;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sts.StsClient;

/** The catalog's own AWS clients for one storage, each call bounded in time. */
public final class S3Clients {
  private S3Clients() {}

  /** The catalog's own credentials: static keys if configured, else the default chain. */
  public static AwsCredentialsProvider catalogCredentials(S3Settings s3) {
    if (s3.accessKeyId() != null) {
      return StaticCredentialsProvider.create(
          AwsBasicCredentials.create(s3.accessKeyId(), s3.secretAccessKey()));
    }
    return DefaultCredentialsProvider.builder().build();
  }

  public static S3Client s3(S3Settings s3, Duration timeout, AwsCredentialsProvider credentials) {
    var builder =
        S3Client.builder()
            .httpClientBuilder(httpClient(timeout))
            .overrideConfiguration(
                o -> o.apiCallTimeout(timeout).apiCallAttemptTimeout(attemptTimeout(timeout)))
            .region(region(s3))
            .forcePathStyle(s3.pathStyleAccess())
            .credentialsProvider(credentials);
    if (s3.endpoint() != null) {
      // S3-compatible stores (MinIO, S3Proxy, …) often reject the checksums the SDK adds by
      // default since 2.30; ask for them only where the operation requires one.
      builder
          .endpointOverride(URI.create(s3.endpoint()))
          .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
          .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    }
    return builder.build();
  }

  public static StsClient sts(S3Settings s3, Duration timeout) {
    var builder =
        StsClient.builder()
            .httpClientBuilder(httpClient(timeout))
            .overrideConfiguration(
                o -> o.apiCallTimeout(timeout).apiCallAttemptTimeout(attemptTimeout(timeout)))
            .region(region(s3))
            .credentialsProvider(catalogCredentials(s3));
    if (s3.stsEndpoint() != null) {
      builder.endpointOverride(URI.create(s3.stsEndpoint()));
    }
    return builder.build();
  }

  static Region region(S3Settings s3) {
    return Region.of(s3.region() == null ? "us-east-1" : s3.region());
  }

  private static UrlConnectionHttpClient.Builder httpClient(Duration timeout) {
    Duration connect =
        timeout.compareTo(Duration.ofSeconds(2)) < 0 ? timeout : Duration.ofSeconds(2);
    return UrlConnectionHttpClient.builder().connectionTimeout(connect).socketTimeout(timeout);
  }

  /** Leaves room for one retry inside the call's bound. */
  private static Duration attemptTimeout(Duration timeout) {
    return timeout.dividedBy(2).isZero() ? timeout : timeout.dividedBy(2);
  }
}
