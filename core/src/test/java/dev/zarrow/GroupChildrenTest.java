package dev.zarrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.MetadataException;
import dev.zarrow.store.MemoryStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A group with one child whose {@code zarr.json} cannot be read (issue 14): {@link ZarrGroup#children()}
 * gives every readable child and the reason for each other one, instead of throwing for all of them.
 */
class GroupChildrenTest {

  private static MemoryStore hierarchy() {
    MemoryStore store = new MemoryStore();
    ZarrGroup root = Zarr.createGroup(store, "");
    root.createArray("a", ArraySpec.of(FixedType.INT8, 4).chunks(2));
    root.createGroup("g");
    store.set("bad/zarr.json", ByteBuffer.wrap("{\"zarr_format\": 3, \"node_type\": \"arr".getBytes(StandardCharsets.UTF_8)));
    store.set("huge/zarr.json", ByteBuffer.wrap(("{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [4611686018427387904, 4611686018427387904],"
        + " \"data_type\": \"int8\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [1, 1]}},"
        + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0, \"codecs\": [{\"name\": \"bytes\"}]}")
        .getBytes(StandardCharsets.UTF_8)));
    return store;
  }

  @Test
  void readableChildrenAndTheReasonsForTheOthers() {
    ZarrGroup.Children children = Zarr.openGroup(hierarchy(), "").children();
    assertEquals(List.of("a", "g"), List.copyOf(children.nodes().keySet()));
    assertInstanceOf(ZarrArray.class, children.nodes().get("a"));
    assertInstanceOf(ZarrGroup.class, children.nodes().get("g"));
    assertEquals(List.of("bad", "huge"), List.copyOf(children.failures().keySet()));
    assertInstanceOf(MetadataException.class, children.failures().get("huge"));
    assertTrue(children.failures().get("huge").getMessage().contains("huge"), children.failures().get("huge").getMessage());
    assertTrue(!children.complete());
  }

  @Test
  void allOrThrowGivesTheFirstFailure() {
    ZarrGroup.Children children = Zarr.openGroup(hierarchy(), "").children();
    MetadataException e = assertThrows(MetadataException.class, children::all);
    assertTrue(e.getMessage().contains("bad"), e.getMessage());
  }

  @Test
  void aHealthyGroupIsComplete() {
    MemoryStore store = new MemoryStore();
    ZarrGroup root = Zarr.createGroup(store, "");
    root.createArray("x", ArraySpec.of(FixedType.INT8, 4).chunks(2));
    ZarrGroup.Children children = root.children();
    assertTrue(children.complete());
    assertEquals(List.of("x"), List.copyOf(children.all().keySet()));
  }
}
