package dev.zarrow.store.s3;

import dev.zarrow.error.StoreException;
import dev.zarrow.store.Store;
import dev.zarrow.store.StoreProvider;
import dev.zarrow.store.WritableStore;
import java.util.Map;
import java.util.Set;

/**
 * {@code s3://BUCKET/PREFIX} locations: {@link S3Store}s on the AWS SDK for Java v2, an optional
 * dependency. This class names no SDK type, so it loads without the SDK and says what to add.
 */
public final class S3Provider implements StoreProvider {
  static final String NEEDS = "s3:// locations need the AWS SDK for Java v2 on the class path: add "
      + "software.amazon.awssdk:s3 (the zarrow CLI has it)";

  @Override
  public Set<String> schemes() {
    return Set.of("s3");
  }

  @Override
  public Store open(String location, Map<String, String> options) {
    return openWritable(location, options);
  }

  @Override
  public WritableStore openWritable(String location, Map<String, String> options) {
    try {
      Class.forName("software.amazon.awssdk.services.s3.S3Client", false, S3Provider.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new StoreException(NEEDS + " (" + e + ")");
    }
    try {
      return S3Store.open(location, S3Settings.of(location, options, System.getenv()));
    } catch (NoClassDefFoundError e) {
      throw new StoreException(NEEDS + " (" + e + ")");
    }
  }
}
