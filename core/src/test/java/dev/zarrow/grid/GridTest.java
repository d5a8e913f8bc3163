package dev.zarrow.grid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Chunk keys, the regular grid and boxes. */
class GridTest {
  private static ChunkKeyEncoding encoding(String json) {
    return ChunkKeyEncoding.parse(NamedConfig.parse(Json.parse(json, "t"), "/chunk_key_encoding"));
  }

  private static final long[] ZERO_D = {};
  private static final long[] ONE_D = {5};
  private static final long[] THREE_D = {1, 23, 0};

  @Test
  void chunkKeysInBothEncodingsAndBothSeparators() {
    ChunkKeyEncoding slash = encoding("{\"name\": \"default\", \"configuration\": {\"separator\": \"/\"}}");
    ChunkKeyEncoding dot = encoding("{\"name\": \"default\", \"configuration\": {\"separator\": \".\"}}");
    ChunkKeyEncoding v2dot = encoding("{\"name\": \"v2\", \"configuration\": {\"separator\": \".\"}}");
    ChunkKeyEncoding v2slash = encoding("{\"name\": \"v2\", \"configuration\": {\"separator\": \"/\"}}");
    assertEquals(List.of("c", "c/5", "c/1/23/0"), keys(slash));
    assertEquals(List.of("c", "c.5", "c.1.23.0"), keys(dot));
    assertEquals(List.of("0", "5", "1.23.0"), keys(v2dot));
    assertEquals(List.of("0", "5", "1/23/0"), keys(v2slash));
    // Separators default by encoding: "/" for default, "." for v2.
    assertEquals(slash, encoding("{\"name\": \"default\"}"));
    assertEquals(slash, encoding("\"default\""));
    assertEquals(v2dot, encoding("{\"name\": \"v2\"}"));
    assertEquals("{\"name\":\"v2\",\"configuration\":{\"separator\":\".\"}}", Json.compact(v2dot.toMetadata().toJson()));
    assertEquals(dot, ChunkKeyEncoding.parse(dot.toMetadata()));
    assertEquals("c/18446744073709551/0", slash.key(new long[] {18446744073709551L, 0}));
  }

  private static List<String> keys(ChunkKeyEncoding e) {
    return List.of(e.key(ZERO_D), e.key(ONE_D), e.key(THREE_D));
  }

  @Test
  void refusesUnknownEncodingsAndSeparators() {
    var e = assertThrows(UnsupportedExtensionException.class, () -> encoding("{\"name\": \"v4\"}"));
    assertTrue(e.getMessage().contains("v4"), e.getMessage());
    for (String sep : List.of("\":\"", "\"//\"", "\"\"", "1", "null")) {
      var m = assertThrows(MetadataException.class,
          () -> encoding("{\"name\": \"default\", \"configuration\": {\"separator\": " + sep + "}}"), sep);
      assertTrue(m.getMessage().contains("/chunk_key_encoding/configuration/separator"), m.getMessage());
    }
  }

  private static List<String> chunks(ChunkGrid grid, Box region) {
    List<String> out = new ArrayList<>();
    grid.chunksOf(region).forEach(c -> out.add(Arrays.toString(c)));
    return out;
  }

  @Test
  void chunkBoxesClippedAtTheArraysEnd() {
    ChunkGrid grid = ChunkGrid.regular(3, 4);
    long[] shape = {7, 8};
    assertEquals(new Box(new long[] {3, 4}, new long[] {3, 4}), grid.chunkBox(new long[] {1, 1}, shape));
    assertEquals(new Box(new long[] {6, 4}, new long[] {1, 4}), grid.chunkBox(new long[] {2, 1}, shape));
    assertEquals(new Box(new long[] {6, 4}, new long[] {3, 4}), grid.chunkBox(new long[] {2, 1}));
  }

  @Test
  void chunksOfARegionInCOrder() {
    ChunkGrid grid = ChunkGrid.regular(3, 4);
    // Rows 2..6 touch chunk rows 0..2, columns 3..4 touch chunk columns 0..1.
    assertEquals(List.of("[0, 0]", "[0, 1]", "[1, 0]", "[1, 1]", "[2, 0]", "[2, 1]"),
        chunks(grid, new Box(new long[] {2, 3}, new long[] {5, 2})));
    assertEquals(List.of("[1, 1]"), chunks(grid, new Box(new long[] {3, 4}, new long[] {3, 4})));
    assertEquals(List.of(), chunks(grid, new Box(new long[] {3, 4}, new long[] {0, 4})));
    assertEquals(List.of("[]"), chunks(ChunkGrid.regular(), Box.of()));
    assertEquals(List.of("[3]", "[4]"), chunks(ChunkGrid.regular(10), new Box(new long[] {39}, new long[] {2})));
    assertEquals(9, grid.chunkCount(new long[] {7, 11}));
    assertEquals(9, java.util.stream.StreamSupport.stream(grid.allChunks(new long[] {7, 11}).spliterator(), false).count());
    // Sizes near 2^63 - 1: (shape + chunk - 1) / chunk would wrap negative.
    assertArrayEquals(new long[] {Long.MAX_VALUE / 3 + 1, 1}, grid.gridShape(new long[] {Long.MAX_VALUE, 4}));
    // Resizing [7, 11] to [4, 5] drops chunk rows 2 (all columns) and chunk column 2 of rows 0..1.
    List<String> dropped = new java.util.ArrayList<>();
    grid.chunksOutside(new long[] {7, 11}, new long[] {4, 5}).forEach(c -> dropped.add(java.util.Arrays.toString(c)));
    assertEquals(List.of("[2, 0]", "[2, 1]", "[2, 2]", "[0, 2]", "[1, 2]"), dropped);
    assertEquals(List.of(), chunks(grid, Box.of(0, 0)));
    assertFalse(grid.chunksOutside(new long[] {7, 11}, new long[] {9, 12}).iterator().hasNext());
    assertArrayEquals(new long[] {3, 3}, grid.gridShape(new long[] {7, 11}));
    assertArrayEquals(new long[] {0, 3}, grid.gridShape(new long[] {0, 12}));
    assertEquals(new Box(new long[] {6, 8}, new long[] {3, 4}), grid.chunkBox(new long[] {2, 2}));
    assertEquals(12, grid.chunkSize());
  }

  @Test
  void parsesTheRegularGrid() {
    NamedConfig config = NamedConfig.parse(Json.parse(
        "{\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [10, 20]}}", "t"), "/chunk_grid");
    assertEquals(ChunkGrid.regular(10, 20), ChunkGrid.parse(config, 2));
    assertEquals(Json.compact(config.toJson()), Json.compact(ChunkGrid.regular(10, 20).toMetadata().toJson()));
    assertThrows(MetadataException.class, () -> ChunkGrid.parse(config, 3));
    for (String shape : List.of("[0, 1]", "[-1, 1]", "[4294967296, 1]", "\"x\"", "[1.5, 1]")) {
      NamedConfig bad = NamedConfig.parse(Json.parse(
          "{\"name\": \"regular\", \"configuration\": {\"chunk_shape\": " + shape + "}}", "t"), "/chunk_grid");
      var e = assertThrows(MetadataException.class, () -> ChunkGrid.parse(bad, 2), shape);
      assertTrue(e.getMessage().contains("/chunk_grid/configuration/chunk_shape"), e.getMessage());
    }
    var big = assertThrows(UnsupportedExtensionException.class, () -> ChunkGrid.regular(65536, 65536));
    assertTrue(big.getMessage().contains("2^31"), big.getMessage());
    var other = assertThrows(UnsupportedExtensionException.class,
        () -> ChunkGrid.parse(NamedConfig.plain("rectilinear"), 1));
    assertTrue(other.getMessage().contains("rectilinear"), other.getMessage());
  }

  @Test
  void boxes() {
    Box b = new Box(new long[] {1, 2}, new long[] {3, 4});
    assertEquals(12, b.size());
    assertEquals(4, b.end(0));
    assertEquals("[1:4, 2:6]", b.toString());
    assertTrue(b.within(new long[] {4, 6}));
    assertFalse(b.within(new long[] {4, 5}));
    assertFalse(b.within(new long[] {4}));
    assertEquals(new Box(new long[] {2, 2}, new long[] {2, 1}), b.intersect(new Box(new long[] {2, 0}, new long[] {5, 3})));
    assertEquals(0, b.intersect(new Box(new long[] {10, 10}, new long[] {1, 1})).size());
    assertEquals(new Box(new long[] {0, 1}, new long[] {3, 4}), b.relativeTo(new long[] {1, 1}));
    assertTrue(Box.of(3, 4).covers(new int[] {3, 4}));
    assertFalse(b.covers(new int[] {3, 4}));
    assertEquals(1, Box.of().size());
    assertThrows(IllegalArgumentException.class, () -> new Box(new long[] {-1}, new long[] {1}));
    assertThrows(IllegalArgumentException.class, () -> new Box(new long[] {1}, new long[] {1, 2}));
    // Ends past Long.MAX_VALUE are outside every array, not wrapped around into it.
    assertFalse(new Box(new long[] {Long.MAX_VALUE - 1}, new long[] {10}).within(new long[] {100}));
    assertFalse(new Box(new long[] {Long.MAX_VALUE}, new long[] {Long.MAX_VALUE}).within(new long[] {Long.MAX_VALUE}));
  }

  @Test
  void parsesRegions() {
    long[] shape = {10, 20, 30};
    assertEquals(new Box(new long[] {0, 0, 0}, shape), Box.parse("", shape));
    assertEquals(new Box(new long[] {0, 0, 0}, shape), Box.parse(":,:,:", shape));
    assertEquals(new Box(new long[] {2, 0, 0}, new long[] {3, 20, 30}), Box.parse("2:5", shape));
    assertEquals(new Box(new long[] {2, 5, 0}, new long[] {3, 1, 30}), Box.parse("2:5, 5", shape));
    assertEquals(new Box(new long[] {0, 15, 29}, new long[] {10, 5, 1}), Box.parse(" : , 15: , 29 ", shape));
    assertEquals(new Box(new long[] {4, 0, 0}, new long[] {0, 20, 30}), Box.parse("4:4", shape));
    for (String bad : List.of("0:11", "5:4", "-1:2", "a:b", "1,2,3,4", "10", "1:2:3", "0:99999999999999999999")) {
      assertThrows(IllegalArgumentException.class, () -> Box.parse(bad, shape), bad);
    }
  }
}
