package dev.zarrow.internal;

import java.util.Optional;

/** The bucket and the path of an object-store location {@code SCHEME://BUCKET/PATH}. */
public record BucketPaths(String bucket, String path) {
  /**
   * {@code location} split after {@code scheme} (compared ignoring case, e.g. {@code "s3://"}), the path
   * without its trailing slashes; empty when {@code location} does not start with the scheme.
   */
  public static Optional<BucketPaths> parse(String scheme, String location) {
    if (!location.regionMatches(true, 0, scheme, 0, scheme.length())) {
      return Optional.empty();
    }
    String rest = location.substring(scheme.length());
    int slash = rest.indexOf('/');
    String path = slash < 0 ? "" : rest.substring(slash + 1);
    int end = path.length();
    while (end > 0 && path.charAt(end - 1) == '/') {
      end--;
    }
    return Optional.of(new BucketPaths(slash < 0 ? rest : rest.substring(0, slash), path.substring(0, end)));
  }
}
