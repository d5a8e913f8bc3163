package dev.zarrow.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.error.CodecException;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Tables written in parts (units from pieces, in any order) and claimed once; row ranges read back. */
@ExtendWith(AllocatorExtension.class)
class TablePartsTest {
  private static final Schema SCHEMA = new Schema(List.of(
      new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null),
      new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));

  private static VectorSchemaRoot rows(long from, long to, BufferAllocator allocator) {
    BigIntVector n = new BigIntVector("n", allocator);
    String[] words = new String[(int) (to - from)];
    for (long r = from; r < to; r++) {
      n.setSafe((int) (r - from), r);
      words[(int) (r - from)] = r % 4 == 0 ? null : "w" + r;
    }
    n.setValueCount(words.length);
    VarCharVector s = Vectors.utf8(allocator, "s", words);
    return VectorSchemaRoot.of(n, s);
  }

  @Test
  void unitsFromPiecesInAnyOrderThenClaimed(BufferAllocator allocator) throws Exception {
    MemoryStore store = new MemoryStore();
    ZarrGroup group = Zarr.createGroup(store, "t");
    TableParts parts = TableParts.create(group, SCHEMA, 23, TableOptions.defaults().withChunkRows(5), new boolean[] {false, true});
    assertEquals(5, parts.units());
    assertTrue(TableLayout.fromAttributes(Zarr.openGroup(store, "t").attributes()).isEmpty(), "nothing claimed yet");
    TableParts writer = TableParts.open(Zarr.openGroup(store, "t"), parts.layout());
    assertEquals("int64", Zarr.openGroup(store, "t").array("n").dataType().name(), "no nulls: native");
    assertEquals("arrow", Zarr.openGroup(store, "t").array("s").dataType().name(), "nulls: the arrow type");
    // the short last unit first, then a unit from two pieces, then the rest whole
    try (VectorSchemaRoot last = rows(20, 23, allocator); VectorSchemaRoot a = rows(5, 7, allocator); VectorSchemaRoot b = rows(7, 10, allocator)) {
      writer.writeUnit(4, List.of(last), allocator);
      writer.writeUnit(1, List.of(a, b), allocator);
      assertThrows(IllegalArgumentException.class, () -> writer.writeUnit(2, List.of(a), allocator), "too few rows for a unit");
    }
    for (long u : new long[] {3, 0, 2}) {
      try (VectorSchemaRoot whole = rows(u * 5, u * 5 + 5, allocator)) {
        writer.writeUnit(u, List.of(whole), allocator);
      }
    }
    parts.claim();
    ZarrGroup claimed = Zarr.openGroup(store, "t");
    try (TableReader reader = TableReader.of(claimed, allocator, null, 0, 3, 17)) {
      assertEquals(23, reader.rows());
      assertEquals(5, reader.chunkRows());
      List<Long> seen = new ArrayList<>();
      List<Integer> batches = new ArrayList<>();
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        batches.add(root.getRowCount());
        for (int i = 0; i < root.getRowCount(); i++) {
          long r = ((BigIntVector) root.getVector(0)).get(i);
          seen.add(r);
          Object s = root.getVector(1).getObject(i);
          assertEquals(r % 4 == 0 ? null : "w" + r, s == null ? null : s.toString());
        }
      }
      assertEquals(List.of(2, 5, 5, 2), batches, "batches cut at the chunk boundaries");
      assertEquals(java.util.stream.LongStream.range(3, 17).boxed().toList(), seen);
    }
    assertThrows(IllegalArgumentException.class, () -> TableReader.of(claimed, allocator, null, 0, 5, 24));
    parts.delete();
    assertFalse(store.list("t/n/").stream().anyMatch(k -> k.contains("/c/")), "delete removes the columns");
  }

  @Test
  void aNativeColumnRefusesNulls(BufferAllocator allocator) throws Exception {
    ZarrGroup group = Zarr.createGroup(new MemoryStore(), "");
    TableParts parts = TableParts.create(group, SCHEMA, 5, TableOptions.defaults().withChunkRows(5), new boolean[] {false, false});
    try (VectorSchemaRoot piece = rows(0, 5, allocator)) {
      CodecException e = assertThrows(CodecException.class, () -> parts.writeUnit(0, List.of(piece), allocator));
      assertTrue(e.getMessage().contains("'s'"), e.getMessage());
    }
  }
}
