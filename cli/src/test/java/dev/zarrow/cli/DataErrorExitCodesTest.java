package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.store.FileSystemStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every command that reads a store answers bad data with exit 3 and one line naming the problem,
 * never exit 1 (which would say zarrow itself is broken): a {@code zarr.json} that is not JSON, one
 * that is JSON but not Zarr metadata, a missing node and a missing store.
 */
class DataErrorExitCodesTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"info", "ls", "cat", "copy", "check"})
  void dataErrorsExitWithThree(String command) throws Exception {
    Path store = dir.resolve("store");
    Zarr.createArray(FileSystemStore.open(store), "good", ArraySpec.of(FixedType.INT8, 4).chunks(2));
    Files.createDirectories(store.resolve("notjson"));
    Files.writeString(store.resolve("notjson/zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"arr");
    Files.createDirectories(store.resolve("notzarr"));
    Files.writeString(store.resolve("notzarr/zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [-1]}");
    for (String path : List.of("notjson", "notzarr", "missing")) {
      expectDataError(command, store, path);
    }
    expectDataError(command, dir.resolve("no-store"), "good");
    if (command.equals("ls") || command.equals("check")) {
      expectDataError(command, store, ""); // the whole store: the good array listed, the bad nodes make it 3
    }
  }

  private void expectDataError(String command, Path store, String path) {
    Object[] args = switch (command) {
      case "cat" -> new Object[] {"cat", store, path, "--json"};
      case "copy" -> new Object[] {"copy", store, path, dir.resolve("out"), "copied"};
      default -> new Object[] {command, store, path};
    };
    Cli.Result r = Cli.run(args);
    assertEquals(3, r.exit(), command + " " + path + ": " + r);
    assertTrue(r.err().startsWith("zarrow: ") && !r.err().contains("internal error"), r.toString());
    assertFalse(r.err().contains("\tat "), "no stack trace without --verbose: " + r);
  }
}
