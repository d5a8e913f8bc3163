package dev.zarrow.codec.core;

import dev.zarrow.memory.Buffers;
import dev.zarrow.vector.Fields;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.vector.Regions;
import dev.zarrow.codec.ArrayToArrayCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.metadata.NamedConfig;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;

/**
 * {@code transpose}: permutes the dimensions of a chunk. Encoded dimension {@code k} is decoded
 * dimension {@code order[k]}.
 *
 * <p>Spec: zarr-specs v3 codecs/transpose. Configuration: {@code {"order": [2, 0, 1]}}; the early
 * spellings {@code "C"} (identity) and {@code "F"} (reversed) are read too.
 */
public final class TransposeCodec implements ArrayToArrayCodec {
  private final int[] order; // null for "C"/"F", resolved per rank
  private final String named;
  private final NamedConfig metadata;

  private TransposeCodec(int[] order, String named, NamedConfig metadata) {
    this.order = order;
    this.named = named;
    this.metadata = metadata;
  }

  /** Transpose by {@code order} (a permutation of 0..rank-1). */
  public static TransposeCodec of(int... order) {
    checkPermutation(order);
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    ArrayNode o = config.putArray("order");
    for (int i : order) {
      o.add(i);
    }
    return new TransposeCodec(order.clone(), null, NamedConfig.of("transpose", config));
  }

  private static void checkPermutation(int[] order) {
    boolean[] seen = new boolean[order.length];
    for (int i : order) {
      if (i < 0 || i >= order.length || seen[i]) {
        throw new MetadataException("/configuration/order: " + Arrays.toString(order) + " is not a permutation");
      }
      seen[i] = true;
    }
  }

  @Override
  public NamedConfig toMetadata() {
    return metadata;
  }

  private int[] order(int rank) {
    if (order != null) {
      if (order.length != rank) {
        throw new CodecException("codec transpose: order " + Arrays.toString(order) + " does not fit a " + rank + "-d chunk");
      }
      return order;
    }
    int[] out = new int[rank];
    for (int i = 0; i < rank; i++) {
      out[i] = named.equals("F") ? rank - 1 - i : i;
    }
    return out;
  }

  @Override
  public ChunkSpec encodedSpec(ChunkSpec decoded) {
    return decoded.withShape(permuteShape(decoded.shape(), order(decoded.rank())));
  }

  @Override
  public FieldVector encode(FieldVector chunk, ChunkSpec decoded, BufferAllocator allocator) {
    return permute(chunk, decoded.shape(), order(decoded.rank()), allocator);
  }

  @Override
  public FieldVector decode(FieldVector chunk, ChunkSpec decoded, BufferAllocator allocator) {
    int[] o = order(decoded.rank());
    int[] inverse = new int[o.length];
    for (int k = 0; k < o.length; k++) {
      inverse[o[k]] = k;
    }
    return permute(chunk, permuteShape(decoded.shape(), o), inverse, allocator);
  }

  private static int[] permuteShape(int[] shape, int[] perm) {
    int[] out = new int[shape.length];
    for (int k = 0; k < shape.length; k++) {
      out[k] = shape[perm[k]];
    }
    return out;
  }

  /**
   * {@code dst[i] = src[j]} where {@code j[perm[k]] = i[k]}: the output has shape
   * {@code srcShape[perm[k]]}. Fixed-width vectors move bytes; others copy element by element.
   */
  static FieldVector permute(FieldVector src, int[] srcShape, int[] perm, BufferAllocator allocator) {
    int rank = srcShape.length;
    int count = src.getValueCount();
    long[] srcStrides = Regions.strides(Regions.toLong(srcShape));
    int[] dstShape = permuteShape(srcShape, perm);
    long[] step = new long[rank]; // source stride of each output dimension
    for (int k = 0; k < rank; k++) {
      step[k] = srcStrides[perm[k]];
    }
    // Fixed-width elements (complex numbers too) move as bytes; the rest element by element.
    int width = !Buffers.hasNulls(src) ? Regions.flatWidth(src) : 0;
    if (src instanceof FixedSizeListVector list && Buffers.hasNulls(list.getDataVector())) {
      width = 0;
    }
    boolean flat = width > 0;
    FieldVector out = Fields.createVector(src.getField(), allocator);
    try {
      if (flat) {
        Regions.allocateFlat(out, count);
      } else {
        out.setInitialCapacity(count);
        out.allocateNew();
      }
      ArrowBuf from = flat ? Regions.flatData(src) : null;
      ArrowBuf to = flat ? Regions.flatData(out) : null;
      int[] index = new int[rank];
      long source = 0;
      for (int i = 0; i < count; i++) {
        if (flat) {
          switch (width) {
            case 1 -> to.setByte(i, from.getByte(source));
            case 2 -> to.setShort(2L * i, from.getShort(2 * source));
            case 4 -> to.setInt(4L * i, from.getInt(4 * source));
            case 8 -> to.setLong(8L * i, from.getLong(8 * source));
            default -> to.setBytes((long) i * width, from, source * width, width);
          }
        } else {
          out.copyFromSafe((int) source, i, src);
        }
        for (int k = rank - 1; k >= 0; k--) {
          if (++index[k] < dstShape[k]) {
            source += step[k];
            break;
          }
          index[k] = 0;
          source -= step[k] * (dstShape[k] - 1);
        }
      }
      if (!flat) {
        out.setValueCount(count);
      }
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  /** Makes {@code transpose} codecs. */
  public static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of("transpose");
    }

    @Override
    public TransposeCodec create(NamedConfig metadata, CodecContext context) {
      JsonNode order = metadata.config().get("order");
      if (order != null && order.isTextual() && (order.textValue().equals("C") || order.textValue().equals("F"))) {
        return new TransposeCodec(null, order.textValue(), metadata);
      }
      if (order == null || !order.isArray()) {
        throw new MetadataException("/configuration/order: expected an array of dimension indices");
      }
      int[] o = new int[order.size()];
      for (int i = 0; i < o.length; i++) {
        JsonNode n = order.get(i);
        if (!n.isInt()) {
          throw new MetadataException("/configuration/order/" + i + ": expected an integer");
        }
        o[i] = n.intValue();
      }
      checkPermutation(o);
      return new TransposeCodec(o, null, metadata);
    }
  }
}
