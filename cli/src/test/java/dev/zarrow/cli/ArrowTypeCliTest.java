package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The CLI on arrays of the arrow data type: cat prints values and the arrow object, check finds no problem. */
@ExtendWith(AllocatorExtension.class)
class ArrowTypeCliTest {
  @TempDir Path dir;

  @Test
  void catAndCheckArrowTypedArrays(BufferAllocator allocator) {
    DictionaryEncoding dict = new DictionaryEncoding(0, false, new ArrowType.Int(8, true));
    Field field = new Field("s", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
        new Field("a", FieldType.nullable(new ArrowType.Int(32, true)), null),
        new Field("b", new FieldType(true, ArrowType.Utf8.INSTANCE, dict), null)));
    ArrowDataType type = ArrowDataType.of(field);
    try (FileSystemStore store = FileSystemStore.open(dir);
        StructVector values = (StructVector) type.field("s").createVector(allocator)) {
      values.allocateNew();
      IntVector a = (IntVector) values.getChild("a");
      VarCharVector b = (VarCharVector) values.getChild("b");
      for (int i = 0; i < 5; i++) {
        if (i == 3) {
          values.setNull(i);
          continue;
        }
        values.setIndexDefined(i);
        a.setSafe(i, 10 * i);
        b.setSafe(i, ("v" + i % 2).getBytes(StandardCharsets.UTF_8));
      }
      a.setValueCount(5);
      b.setValueCount(5);
      values.setValueCount(5);
      ZarrArray array = Zarr.createArray(store, "t", ArraySpec.of(type, 5).chunks(2)
          .codecs(List.of(NamedConfig.of("arrow", null), ArraySpec.zstd(1))));
      array.write(0, values);
    }
    Cli.Result cat = Cli.run("cat", dir, "t", "--json");
    assertEquals(0, cat.exit(), cat.toString());
    JsonNode out = Json.parse(cat.out(), "cat");
    assertEquals(type.toMetadata().toJson(), out.get("data_type"));
    assertEquals(Json.parse("[{\"a\":0,\"b\":\"v0\"},{\"a\":10,\"b\":\"v1\"},{\"a\":20,\"b\":\"v0\"},null,"
        + "{\"a\":40,\"b\":\"v0\"}]", "want"), out.get("values"));
    Cli.Result check = Cli.run("check", dir, "t");
    assertEquals(0, check.exit(), check.toString());
    assertEquals(0, Json.parse(check.out(), "check").get("problems").size(), check.toString());
  }

  @Test
  void copiesAnArrayOfTheNullType(BufferAllocator allocator) {
    // Null-typed vectors have no allocator of their own: copy passes its own for the temporaries.
    ArrowDataType type = ArrowDataType.of(new Field("n", FieldType.nullable(ArrowType.Null.INSTANCE), null));
    try (FileSystemStore store = FileSystemStore.open(dir);
        org.apache.arrow.vector.NullVector nulls = new org.apache.arrow.vector.NullVector("n")) {
      ZarrArray array = Zarr.createArray(store, "n", ArraySpec.of(type, 4).chunks(2));
      // zarrow stores no chunk that equals the fill value; other writers may: store one as they would.
      nulls.setValueCount(2);
      store.set(array.chunkKey(new long[] {1}), array.pipeline().encode(nulls, allocator));
    }
    Cli.Result copy = Cli.run("copy", dir, "n", dir.resolve("out"), "n", "--chunks", "3");
    assertEquals(0, copy.exit(), copy.toString());
    Cli.Result cat = Cli.run("cat", dir.resolve("out"), "n", "--json");
    assertEquals(0, cat.exit(), cat.toString());
    assertEquals(Json.parse("[null,null,null,null]", "want"), Json.parse(cat.out(), "cat").get("values"));
  }
}
