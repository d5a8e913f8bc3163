package dev.zarrow.reliability;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.store.FileSystemStore;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;

/**
 * The process {@link CrashSafetyTest} kills: rewrites every chunk of the arrays it is given, version
 * after version, for ever. Version {@code v} of chunk {@code c} holds {@link #value}{@code (v, c, i)};
 * after each version the array's attributes record it. Prints {@code ready} once its first chunk is
 * written, so that the kill lands in the steady loop, not in class loading.
 *
 * <p>Arguments: the store directory, then the array paths.
 */
public final class CrashWriter {
  private CrashWriter() {}

  /** Element {@code i} of version {@code v} of chunk {@code c}: 0 holds v, 1 holds c, the rest a mix. */
  static int value(int v, int c, int i) {
    if (i == 0) {
      return v;
    }
    if (i == 1) {
      return c;
    }
    int h = v * 0x9E3779B1 + c * 0x85EBCA77 + i * 0xC2B2AE3D;
    return (h ^ (h >>> 15)) | 1; // never 0, the fill value: an all-fill chunk would be deleted
  }

  /** The last version fully or partly written: what chunk 0 holds (chunks are written in order). */
  static int currentVersion(ZarrArray array, BufferAllocator allocator) {
    Optional<FieldVector> first = array.decodeChunk(new long[] {0}, allocator);
    if (first.isEmpty()) {
      return 0;
    }
    try (FieldVector v = first.get()) {
      return ((IntVector) v).get(0);
    }
  }

  public static void main(String[] args) {
    FileSystemStore store = FileSystemStore.open(Path.of(args[0]));
    try (BufferAllocator allocator = new RootAllocator()) {
      ZarrArray[] arrays = new ZarrArray[args.length - 1];
      int version = 0;
      for (int a = 0; a < arrays.length; a++) {
        arrays[a] = Zarr.openArray(store, args[a + 1]);
        version = Math.max(version, currentVersion(arrays[a], allocator));
      }
      boolean ready = false;
      while (true) {
        version++;
        for (int a = 0; a < arrays.length; a++) {
          ZarrArray array = arrays[a];
          int chunkSize = array.grid().chunkShape()[0];
          long chunks = array.shape()[0] / chunkSize;
          for (int c = 0; c < chunks; c++) {
            try (IntVector chunk = new IntVector(array.name(), allocator)) {
              chunk.allocateNew(chunkSize);
              for (int i = 0; i < chunkSize; i++) {
                chunk.set(i, value(version, c, i));
              }
              chunk.setValueCount(chunkSize);
              array.writeChunk(new long[] {c}, chunk);
            }
            if (!ready) {
              System.out.println("ready");
              System.out.flush();
              ready = true;
            }
          }
          arrays[a] = array.withAttributes(JsonNodeFactory.instance.objectNode().put("version", version));
        }
      }
    }
  }
}
