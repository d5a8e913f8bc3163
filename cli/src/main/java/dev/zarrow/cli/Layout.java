package dev.zarrow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.error.MetadataException;
import dev.zarrow.grid.ChunkGrid;
import dev.zarrow.metadata.ArrayMetadata;
import dev.zarrow.metadata.NamedConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How an array's elements are cut and encoded, seen the way {@code copy}'s options speak of it: the
 * (inner) chunk shape, the shard shape when the codecs are one {@code sharding_indexed} (else null),
 * and the codecs of each chunk. Sharding metadata comes from {@link ArraySpec#shardingIndexed}.
 *
 * @param chunks the chunk shape (the inner chunk shape when sharded)
 * @param shards the shard shape, or null when not sharded
 * @param codecs the codecs of each (inner) chunk
 * @param indexCodecs the shard index codecs (sharded only)
 * @param indexLocation {@code start} or {@code end} (sharded only)
 */
record Layout(int[] chunks, int[] shards, List<NamedConfig> codecs, List<NamedConfig> indexCodecs, String indexLocation) {
  static final String SHARDING = "sharding_indexed";

  /** The layout of {@code metadata}. */
  static Layout of(ArrayMetadata metadata) {
    int[] grid = ChunkGrid.parse(metadata.chunkGrid(), metadata.rank()).chunkShape();
    List<NamedConfig> codecs = metadata.codecs();
    if (codecs.size() == 1 && codecs.get(0).name().equals(SHARDING)) {
      ObjectNode c = codecs.get(0).config();
      long[] inner = ArrayMetadata.parseShape(c.path("chunk_shape"), "/codecs/0/configuration/chunk_shape");
      int[] chunks = new int[inner.length];
      for (int i = 0; i < inner.length; i++) {
        if (inner[i] < 1 || inner[i] > Integer.MAX_VALUE) {
          throw new MetadataException("/codecs/0/configuration/chunk_shape/" + i + ": must be in 1..2^31-1, got " + inner[i]);
        }
        chunks[i] = (int) inner[i];
      }
      return new Layout(
          chunks,
          grid,
          codecList(c.path("codecs"), "/codecs/0/configuration/codecs"),
          codecList(c.path("index_codecs"), "/codecs/0/configuration/index_codecs"),
          c.path("index_location").asText("end"));
    }
    return new Layout(grid, null, codecs, null, null);
  }

  static List<NamedConfig> codecList(JsonNode node, String pointer) {
    if (!node.isArray()) {
      throw new MetadataException(pointer + ": expected an array of codecs");
    }
    List<NamedConfig> out = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      out.add(NamedConfig.parse(node.get(i), pointer + "/" + i));
    }
    return out;
  }

  Layout withChunks(int[] newChunks) {
    return new Layout(newChunks, shards, codecs, indexCodecs, indexLocation);
  }

  Layout withCodecs(List<NamedConfig> newCodecs) {
    return new Layout(chunks, shards, newCodecs, indexCodecs, indexLocation);
  }

  /** Sharded in shards of {@code shape} (keeping an existing index layout), or not sharded when null. */
  Layout withShards(int[] shape) {
    if (shape == null) {
      return new Layout(chunks, null, codecs, null, null);
    }
    return new Layout(chunks, shape, codecs,
        indexCodecs != null ? indexCodecs : ArraySpec.defaultIndexCodecs(), indexLocation != null ? indexLocation : "end");
  }

  /** The unit a writer should write whole: the shard when sharded, else the chunk. */
  int[] writeUnit() {
    return shards != null ? shards : chunks;
  }

  /** A problem that makes this layout invalid for {@code rank} dimensions, or null. */
  String problem(int rank) {
    if (chunks.length != rank) {
      return "the chunk shape " + Arrays.toString(chunks) + " has " + chunks.length + " dimensions, the array " + rank;
    }
    if (shards != null) {
      if (shards.length != rank) {
        return "the shard shape " + Arrays.toString(shards) + " has " + shards.length + " dimensions, the array " + rank;
      }
      for (int i = 0; i < rank; i++) {
        if (chunks[i] <= 0 || shards[i] % chunks[i] != 0) {
          return "the shard shape " + Arrays.toString(shards) + " is not a multiple of the chunk shape " + Arrays.toString(chunks);
        }
      }
    }
    return null;
  }

  /** {@code metadata} with this layout's chunk grid and codecs. */
  ArrayMetadata applyTo(ArrayMetadata metadata) {
    if (shards == null) {
      return metadata.withChunkGrid(ChunkGrid.regular(chunks).toMetadata()).withCodecs(codecs);
    }
    return metadata.withChunkGrid(ChunkGrid.regular(shards).toMetadata())
        .withCodecs(List.of(ArraySpec.shardingIndexed(chunks, codecs, indexCodecs, indexLocation)));
  }
}
