package dev.zarrow.codec.core;

import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FillValue;
import dev.zarrow.dtype.FixedType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Chunk specs of the core data types in a spread of shapes, for codec contracts. */
public final class CoreSpecs {
  private CoreSpecs() {}

  /** Every core type (and r24) with its default fill value. */
  static final List<FixedType> TYPES;

  static {
    List<FixedType> types = new ArrayList<>(FixedType.CORE);
    types.add(FixedType.raw(24));
    TYPES = List.copyOf(types);
  }

  /** 0-d, 1-d, 2-d, 3-d and empty shapes. */
  static final List<int[]> SHAPES =
      List.of(new int[] {}, new int[] {7}, new int[] {3, 5}, new int[] {2, 3, 4}, new int[] {0}, new int[] {4, 0});

  static List<ChunkSpec> of(Predicate<FixedType> types, List<int[]> shapes) {
    List<ChunkSpec> out = new ArrayList<>();
    for (FixedType type : TYPES) {
      if (types.test(type)) {
        for (int[] shape : shapes) {
          out.add(new ChunkSpec(shape, type, fill(type)));
        }
      }
    }
    return out;
  }

  /** Every type in every shape of {@link #SHAPES}, plus a few larger chunks. */
  public static List<ChunkSpec> all() {
    List<ChunkSpec> out = of(t -> true, SHAPES);
    out.add(new ChunkSpec(new int[] {64, 33}, FixedType.FLOAT32, fill(FixedType.FLOAT32)));
    out.add(new ChunkSpec(new int[] {5000}, FixedType.INT64, fill(FixedType.INT64)));
    out.add(new ChunkSpec(new int[] {9, 10, 11}, FixedType.COMPLEX128, fill(FixedType.COMPLEX128)));
    out.add(new ChunkSpec(new int[] {333}, FixedType.BOOL, fill(FixedType.BOOL)));
    return out;
  }

  /** A fill value that is not all zero bytes, so that fill handling is visible. */
  public static FillValue fill(DataType type) {
    byte[] bytes = new byte[type.byteWidth()];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (0x11 * (i + 1));
    }
    if (type.equals(FixedType.BOOL)) {
      bytes[0] = 1;
    }
    return FillValue.of(bytes);
  }
}
