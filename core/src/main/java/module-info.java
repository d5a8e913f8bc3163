/**
 * zarrow: Zarr v3 storage as Apache Arrow memory. The exported packages are the API (see
 * docs/architecture.md for the layers); {@code dev.zarrow.internal} and the codec implementations
 * ({@code dev.zarrow.codec.core}, {@code .sharding}, {@code .vlen}, {@code .arrow}, {@code .blosc}, {@code .numcodecs}) are not: codecs are
 * reached by name through the {@link dev.zarrow.spi.Registry}.
 */
module dev.zarrow {
  requires transitive org.apache.arrow.vector;
  requires transitive org.apache.arrow.memory.core;
  requires transitive com.fasterxml.jackson.databind;
  requires org.apache.arrow.format;
  requires com.github.luben.zstd_jni;
  requires org.lz4.java;
  requires org.apache.commons.compress;
  requires java.net.http;
  // s3:// only: the AWS SDK is optional (S3Provider checks for it before S3Store is loaded).
  requires static software.amazon.awssdk.services.s3;
  requires static software.amazon.awssdk.core;
  requires static software.amazon.awssdk.regions;
  requires static software.amazon.awssdk.auth;
  requires static software.amazon.awssdk.awscore;
  requires static software.amazon.awssdk.http;
  requires static software.amazon.awssdk.utils;
  requires static software.amazon.awssdk.identity.spi;

  exports dev.zarrow;
  exports dev.zarrow.error;
  exports dev.zarrow.spi;
  exports dev.zarrow.store;
  exports dev.zarrow.metadata;
  exports dev.zarrow.grid;
  exports dev.zarrow.memory;
  exports dev.zarrow.vector;
  exports dev.zarrow.ipc;
  exports dev.zarrow.dtype;
  exports dev.zarrow.codec;
  exports dev.zarrow.table;
  exports dev.zarrow.dataset;

  uses dev.zarrow.spi.ZarrPlugin;
  uses dev.zarrow.store.StoreProvider;

  provides dev.zarrow.spi.ZarrPlugin with
      dev.zarrow.codec.core.CorePlugin,
      dev.zarrow.codec.sharding.ShardingPlugin,
      dev.zarrow.codec.vlen.VlenPlugin,
      dev.zarrow.codec.arrow.ArrowPlugin,
      dev.zarrow.codec.blosc.BloscPlugin,
      dev.zarrow.codec.numcodecs.NumcodecsPlugin;

  provides dev.zarrow.store.StoreProvider with
      dev.zarrow.store.http.HttpProvider,
      dev.zarrow.store.zip.ZipProvider,
      dev.zarrow.store.s3.S3Provider,
      dev.zarrow.store.gcs.GcsProvider;
}
