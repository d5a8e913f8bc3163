/**
 * zarrow: Zarr v3 storage as Apache Arrow memory. The exported packages are the API (see
 * docs/architecture.md for the layers); {@code dev.zarrow.internal} and the codec implementations
 * ({@code dev.zarrow.codec.core}, {@code .sharding}, {@code .vlen}, {@code .arrow}, {@code .blosc}) are not: codecs are
 * reached by name through the {@link dev.zarrow.spi.Registry}.
 */
module dev.zarrow {
  requires transitive org.apache.arrow.vector;
  requires transitive org.apache.arrow.memory.core;
  requires transitive com.fasterxml.jackson.databind;
  requires org.apache.arrow.format;
  requires com.github.luben.zstd_jni;
  requires org.lz4.java;

  exports dev.zarrow;
  exports dev.zarrow.error;
  exports dev.zarrow.spi;
  exports dev.zarrow.store;
  exports dev.zarrow.metadata;
  exports dev.zarrow.grid;
  exports dev.zarrow.memory;
  exports dev.zarrow.vector;
  exports dev.zarrow.dtype;
  exports dev.zarrow.codec;
  exports dev.zarrow.table;

  uses dev.zarrow.spi.ZarrPlugin;

  provides dev.zarrow.spi.ZarrPlugin with
      dev.zarrow.codec.core.CorePlugin,
      dev.zarrow.codec.sharding.ShardingPlugin,
      dev.zarrow.codec.vlen.VlenPlugin,
      dev.zarrow.codec.arrow.ArrowPlugin,
      dev.zarrow.codec.blosc.BloscPlugin;
}
