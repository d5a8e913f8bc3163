package dev.zarrow.store.s3;

import dev.zarrow.store.Stores;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * Where and how an {@link S3Store} talks to S3.
 *
 * @param endpoint the S3-compatible endpoint, or empty for AWS; addressing is path-style when set
 * @param region the signing region
 * @param credentials the credentials (the SDK's default chain unless a test gives its own)
 * @param multipartThreshold values at least this long are uploaded in parts
 * @param partSize the size of each part but the last (S3 wants at least 5 MiB)
 * @param concurrency the most ranged GETs of one read in flight at once
 */
record S3Settings(Optional<URI> endpoint, String region, AwsCredentialsProvider credentials, long multipartThreshold,
    long partSize, int concurrency, Duration timeout) {
  static final Set<String> OPTIONS = Set.of("s3.endpoint", "s3.region", "s3.anonymous");

  /**
   * The settings of the environment: endpoint from option {@code s3.endpoint}, {@code AWS_ENDPOINT_URL_S3},
   * {@code AWS_ENDPOINT_URL} (or the system properties {@code aws.endpointUrlS3}, {@code aws.endpointUrl});
   * region from {@code s3.region}, {@code AWS_REGION} ({@code aws.region}), else {@code us-east-1};
   * credentials from the SDK's default chain, or none (requests are not signed: public buckets) with
   * {@code s3.anonymous=true}, else {@code AWS_NO_SIGN_REQUEST=YES} (the AWS CLI's {@code --no-sign-request}).
   */
  static S3Settings of(String location, Map<String, String> options, Map<String, String> env) {
    Stores.checkOptions(location, options, OPTIONS);
    Optional<String> endpoint = first(options.get("s3.endpoint"), env.get("AWS_ENDPOINT_URL_S3"), System.getProperty("aws.endpointUrlS3"),
        env.get("AWS_ENDPOINT_URL"), System.getProperty("aws.endpointUrl"));
    String region = first(options.get("s3.region"), env.get("AWS_REGION"), System.getProperty("aws.region")).orElse("us-east-1");
    URI uri = null;
    if (endpoint.isPresent()) {
      try {
        uri = URI.create(endpoint.get());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("S3 endpoint '" + endpoint.get() + "' is not a URL", e);
      }
    }
    String anonymous = first(options.get("s3.anonymous")).orElse(null);
    boolean unsigned;
    if (anonymous != null) {
      if (!anonymous.equalsIgnoreCase("true") && !anonymous.equalsIgnoreCase("false")) {
        throw new IllegalArgumentException("option s3.anonymous: true or false, not '" + anonymous + "'");
      }
      unsigned = anonymous.equalsIgnoreCase("true");
    } else {
      String variable = first(env.get("AWS_NO_SIGN_REQUEST")).orElse("");
      unsigned = variable.equalsIgnoreCase("yes") || variable.equalsIgnoreCase("true");
    }
    AwsCredentialsProvider credentials = unsigned ? AnonymousCredentialsProvider.create() : DefaultCredentialsProvider.builder().build();
    return new S3Settings(Optional.ofNullable(uri), region, credentials,
        16L << 20, 8L << 20, 16, Duration.ofSeconds(30));
  }

  /** Whether requests go unsigned (a public bucket read without credentials). */
  boolean anonymous() {
    return credentials instanceof AnonymousCredentialsProvider;
  }

  private static Optional<String> first(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return Optional.of(v.strip());
      }
    }
    return Optional.empty();
  }
}
