package dev.zarrow.cli;

import dev.zarrow.NodeWriter;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.error.ZarrException;
import dev.zarrow.ZarrOptions;
import dev.zarrow.NdVector;
import dev.zarrow.codec.ArrayToArrayCodec;
import dev.zarrow.codec.ArrayToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.DataType;
import dev.zarrow.grid.Box;
import dev.zarrow.grid.ChunkGrid;
import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.metadata.ArrayMetadata;
import dev.zarrow.metadata.ConsolidatedMetadata;
import dev.zarrow.metadata.GroupMetadata;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.metadata.V2Metadata;
import dev.zarrow.store.Stores;
import dev.zarrow.store.WritableStore;
import dev.zarrow.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow copy SRC SRC_PATH DST DST_PATH [--codec C]... [--chunks S] [--shards S|none] [--zarr-format 2|3]}:
 * rewrites an array, as Zarr v3 unless {@code --zarr-format 2} (a v2 source becomes v3 by default),
 * into another place (another store, or another path of the same one), with the same metadata unless
 * the options change the chunking or the codecs. An array at the destination is replaced; a group, the
 * root or anything else only with {@code --overwrite} ({@link Destination}). The copy is written
 * through {@link NodeWriter}: beside the old array, swapped in once complete, so that a copy that fails
 * or is killed leaves the old array (or nothing), never a part of the new one.
 *
 * <p>The copy runs block by block: a block is a whole number of destination chunks (shards when
 * sharded) that covers at least one source chunk along every dimension where that stays small, so that
 * every destination chunk is written once, whole (never read back and merged), memory stays at about a
 * block, and source chunks are decoded about once. Only blocks where the source stores a chunk are
 * visited, found from the store's listing (as {@code check} does), so a sparse array copies in the
 * time of its stored chunks, not of its grid; the others read as the fill value. A store that cannot
 * list (http) is asked for each chunk key, at most {@code --max-probes} (default
 * {@value #DEFAULT_MAX_PROBES}); a grid of more chunks is refused before anything is written (exit 2).
 * Prints the destination's {@code info} JSON.
 */
@Command(
    name = "copy",
    description = {
      "Rewrite an array, optionally with other codecs, chunks or shards.",
      "--codec takes one codec per option, in chain order: bytes[:little|big], zstd[:LEVEL], gzip[:LEVEL],"
          + " crc32c, transpose:ORDER (e.g. transpose:1,0), vlen-utf8, ...; NAME:{JSON configuration}; one"
          + " codec's JSON object; or the whole list as a JSON array. Without an array->bytes codec, the"
          + " data type's default serializer comes first; zep7 in its place means none: string and binary"
          + " chunks in the ZEP7 layout (e.g. --codec zep7 --codec zstd)."
    })
final class CopyCommand extends ZarrowCommand {
  /** Blocks grow to cover source chunks only while they stay at most this many elements. */
  static final long BLOCK_ELEMENTS = 1 << 22;

  @Parameters(index = "0", paramLabel = "SRC", description = "The source store: a directory, http(s)://, s3://BUCKET/PREFIX, a .zip archive.")
  String source;

  @Parameters(index = "1", paramLabel = "SRC_PATH", description = "The source array's path.")
  String sourcePath;

  @Parameters(index = "2", paramLabel = "DST", description = "The destination store (created when missing): a directory, s3://BUCKET/PREFIX, a .zip archive.")
  String destination;

  @Parameters(index = "3", paramLabel = "DST_PATH", description = "The destination array's path (an array there is replaced).")
  String destinationPath;

  @Option(names = "--overwrite", description = "Also replace a group, the root, or whatever else is at the destination.")
  boolean overwrite;

  @Option(names = "--codec", paramLabel = "CODEC", description = "A codec of the new chain (repeat, in order).")
  List<String> codecs = new ArrayList<>();

  @Option(names = "--chunks", paramLabel = "SHAPE", description = "The new chunk shape (inner chunks when sharded), e.g. 100,100.")
  String chunks;

  @Option(names = "--shards", paramLabel = "SHAPE", description = "Shard with this shard shape (a multiple of the chunk shape), or 'none' to unshard.")
  String shards;

  @Option(names = "--zarr-format", paramLabel = "N", defaultValue = "3",
      description = "The format to write: 3 (the default; a Zarr v2 source becomes v3) or 2 (.zarray, chunk keys 0.0).")
  int zarrFormat;

  /** The most chunk keys asked for one by one, by default, when the source store cannot list its keys. */
  static final long DEFAULT_MAX_PROBES = 1_000_000;

  @Option(names = "--max-probes", paramLabel = "N", defaultValue = "" + DEFAULT_MAX_PROBES,
      description = "When the source store cannot list its keys (http), ask for at most N chunk keys one by one"
          + " (default: ${DEFAULT-VALUE}); an array of more chunks is refused before anything is written.")
  long maxProbes;

  @Override
  public Integer call() throws IOException {
    if (zarrFormat != 2 && zarrFormat != 3) {
      throw usage("--zarr-format " + zarrFormat + ": expected 2 or 3");
    }
    String from = nodePath(sourcePath);
    String to = nodePath(destinationPath);
    refuseOverlap(from, to);
    ZarrOptions options = options();
    try (Store src = openExisting(source); BufferAllocator allocator = new RootAllocator()) {
      ZarrNode node = Zarr.open(src, from, options);
      List<Item> plan = plan(node, to, options); // bad options are refused before the destination is made
      boolean consolidate = node instanceof ZarrGroup && ConsolidatedMetadata.read(src, from).isPresent();
      try (WritableStore dst = openWritable(destination)) {
        Destination.check(this, dst, destination, to, overwrite, options);
        try (NodeWriter writer = NodeWriter.begin(dst, to, options)) {
          try {
            writer.commit(write(plan, writer, to, allocator), consolidate);
          } catch (ZarrException e) {
            throw destinationNamed(e, writer.writePath(), to);
          }
        }
        printJson(InfoCommand.describe(Zarr.open(dst, to, options)));
      }
    }
    return Main.OK;
  }

  /**
   * One node of the copy, at {@code relative} below the destination: an array ({@code array} its new
   * metadata) or a group ({@code group} its new metadata).
   */
  private record Item(String relative, ZarrNode source, ArrayMetadata array, GroupMetadata group, boolean codecsApplied) {}

  /**
   * The nodes to write, each group before what it holds: the array, or the group and everything below it
   * with their new metadata. Every option is checked against every array before anything is written.
   */
  private List<Item> plan(ZarrNode node, String to, ZarrOptions options) {
    if (node instanceof ZarrArray array) {
      checkProbes(array);
      return List.of(new Item("", array, newMetadata(array, to, options, true), null, true));
    }
    if (chunks != null || shards != null) {
      throw usage((chunks != null ? "--chunks" : "--shards") + ": '" + show(node.path()) + "' is a group, whose arrays keep"
          + " their own chunks and shards; copy an array alone to change them");
    }
    if (!codecs.isEmpty()) {
      try {
        CodecSpecs.parse(codecs);
      } catch (IllegalArgumentException e) {
        throw usage(e.getMessage());
      }
    }
    List<Item> plan = new ArrayList<>();
    List<String> unfit = new ArrayList<>();
    collect((ZarrGroup) node, "", to, options, plan, unfit);
    if (!codecs.isEmpty() && plan.stream().noneMatch(Item::codecsApplied)) {
      throw usage(given() + ": fits none of the arrays of '" + show(node.path()) + "'"
          + (unfit.isEmpty() ? " (it holds none)" : ": " + String.join("; ", unfit.subList(0, Math.min(3, unfit.size())))
              + (unfit.size() > 3 ? "; ..." : "")));
    }
    return plan;
  }

  /**
   * Adds {@code group} and everything below it to {@code plan}; --codec goes to every array it fits,
   * the others keep their codecs ({@code unfit} says why, for the message when it fits none).
   */
  private void collect(ZarrGroup group, String relative, String to, ZarrOptions options, List<Item> plan, List<String> unfit) {
    GroupMetadata metadata = group.metadata();
    Map<String, JsonNode> extensions = new LinkedHashMap<>(metadata.extensions());
    extensions.remove("consolidated_metadata"); // the source's: the copy is consolidated anew, or not at all
    plan.add(new Item(relative, group, null, new GroupMetadata(metadata.attributes(), extensions).withZarrFormat(zarrFormat), false));
    for (Map.Entry<String, ZarrNode> child : group.children().all().entrySet()) {
      String path = ZarrNode.join(relative, child.getKey());
      if (child.getValue() instanceof ZarrArray array) {
        checkProbes(array);
        String at = ZarrNode.join(to, path);
        ArrayMetadata withCodecs = null;
        if (!codecs.isEmpty()) {
          try {
            withCodecs = newMetadata(array, at, options, true);
          } catch (ParameterException e) {
            unfit.add(Main.oneLine(e.getMessage()));
          }
        }
        plan.add(new Item(path, array, withCodecs != null ? withCodecs : newMetadata(array, at, options, false), null,
            withCodecs != null));
      } else {
        collect((ZarrGroup) child.getValue(), path, to, options, plan, unfit);
      }
    }
  }

  /**
   * Writes the planned nodes below {@code writer}'s node, each node's metadata after its content (arrays
   * once their chunks are written, groups once everything below them is), and returns the top node for
   * the commit.
   */
  private ZarrNode write(List<Item> plan, NodeWriter writer, String to, BufferAllocator allocator) {
    ProgressLine progress = new ProgressLine(err());
    long blocks = 0;
    int arrays = 0;
    ZarrNode top = null;
    int arrayCount = (int) plan.stream().filter(i -> i.array() != null).count();
    List<ZarrGroup> groups = new ArrayList<>();
    for (Item item : plan) {
      ZarrNode made;
      if (item.array() != null) {
        ZarrArray out = writer.array(item.relative(), item.array());
        blocks += copy((ZarrArray) item.source(), out, progress, ++arrays, arrayCount, allocator);
        if (!item.relative().isEmpty()) {
          writer.claim(out);
        }
        made = out;
      } else {
        made = writer.group(item.relative(), item.group());
        if (!item.relative().isEmpty()) {
          groups.add((ZarrGroup) made);
        }
      }
      if (item.relative().isEmpty()) {
        top = made;
      }
    }
    for (int i = groups.size() - 1; i >= 0; i--) {
      writer.claim(groups.get(i)); // deepest first: a group's metadata after all it holds
    }
    err().println("copy: " + blocks + " blocks held data" + (top instanceof ZarrGroup ? " in " + arrays
        + (arrays == 1 ? " array" : " arrays") + " and " + (plan.size() - arrays) + (plan.size() - arrays == 1 ? " group" : " groups") : "")
        + "; wrote " + show(to) + " in " + destination);
    return top;
  }

  /**
   * Refuses, before the destination is made, a source whose store cannot list its keys when its grid has
   * more chunks than {@code --max-probes}: each would be asked for one by one, and a huge sparse grid
   * (a shape of 10^12 elements holds few chunks) would never end.
   */
  private void checkProbes(ZarrArray in) {
    if (maxProbes <= 0) {
      throw usage("--max-probes " + maxProbes + ": must be a positive number of chunk keys");
    }
    if (in.store().canList() || in.chunkCount() <= maxProbes) {
      return;
    }
    throw usage("--max-probes " + maxProbes + ": the source " + source + " cannot list its keys, so copy would ask for each of"
        + " the " + in.chunkCount() + " chunks of array '" + show(in.path()) + "' (shape " + Arrays.toString(in.shape())
        + ", chunks " + Arrays.toString(in.grid().chunkShape()) + ") one by one; copy from a store that lists its keys"
        + " (a directory, a zip archive, s3://) or raise --max-probes");
  }

  /** Refuses a destination inside the source array or the other way round (creating it would delete data). */
  private void refuseOverlap(String from, String to) throws IOException {
    boolean local = Stores.scheme(source).equals("file") && Stores.scheme(destination).equals("file");
    if (!local && !source.equals(destination)) {
      return; // different stores
    }
    Path a = local ? located(Stores.path(source), from) : Path.of("/", from);
    Path b = local ? located(Stores.path(destination), to) : Path.of("/", to);
    if (a.startsWith(b) || b.startsWith(a)) {
      throw usage("the destination " + destination + " " + show(to) + " overlaps the source " + source + " " + show(from));
    }
  }

  private static String show(String path) {
    return path.isEmpty() ? "/" : path;
  }

  private static Path located(Path root, String path) throws IOException {
    Path dir = Files.exists(root) ? root.toRealPath() : root.toAbsolutePath().normalize();
    return path.isEmpty() ? dir : dir.resolve(path).normalize();
  }

  /**
   * The metadata the copy of {@code in} gets: the options applied ({@code withCodecs}: --codec too), in the
   * format to write; options that do not fit are a usage error.
   */
  private ArrayMetadata newMetadata(ZarrArray in, String to, ZarrOptions options, boolean withCodecs) {
    Layout layout = Layout.of(in.metadata());
    if (chunks != null) {
      layout = layout.withChunks(shape("--chunks", chunks));
    }
    if (shards != null) {
      layout = layout.withShards(shards.equals("none") ? null : shape("--shards", shards));
    }
    if (withCodecs && !codecs.isEmpty()) {
      List<NamedConfig> list;
      try {
        list = CodecSpecs.parse(codecs);
      } catch (IllegalArgumentException e) {
        throw usage(e.getMessage());
      }
      layout = layout.withCodecs(withSerializer(list, in.dataType(), options));
    }
    String problem = layout.problem(in.rank());
    if (problem != null) {
      throw usage(problem);
    }
    ArrayMetadata metadata;
    try {
      metadata = layout.applyTo(in.metadata());
    } catch (ZarrException e) { // a limit of the format, e.g. a chunk of more than 2^31 - 1 elements
      throw usage(given() + ": " + Main.oneLine(e.getMessage()));
    }
    refuseUnfit(metadata, in, options);
    if (zarrFormat == 3) {
      return V2Metadata.asV3(metadata);
    }
    try {
      return V2Metadata.asV2(metadata);
    } catch (ZarrException e) {
      String hint = v2Options(metadata);
      throw usage("--zarr-format 2: " + Main.oneLine(e.getMessage()) + " in array '" + show(in.path()) + "'" + (hint == null
          ? " (choose codecs Zarr v2 can store with --codec, --shards none)"
          : "; Zarr v2 can store it copied with " + hint + (hint.contains("--shards") && !in.path().equals(nodePath(sourcePath))
              ? " (copy that array alone: --shards is for one array)" : "")));
    }
  }

  /**
   * The options with which {@code metadata}'s array can be stored as Zarr v2, keeping what of its codecs
   * v2 can store: {@code --shards none} for a sharded array, and a {@code --codec} for each of its (inner
   * chunk) codecs that v2 stores, a zstd with a checksum without it; null when that is not enough.
   */
  private static String v2Options(ArrayMetadata metadata) {
    Layout layout = Layout.of(metadata);
    List<NamedConfig> kept = new ArrayList<>();
    NamedConfig serializer = null;
    for (NamedConfig c : layout.codecs()) {
      if (c.name().equals("bytes") || c.name().startsWith("vlen-")) {
        serializer = c;
      }
    }
    for (NamedConfig c : layout.codecs()) {
      NamedConfig candidate = c.name().equals("zstd") && c.config().path("checksum").asBoolean(false)
          ? NamedConfig.of("zstd", c.config().deepCopy().put("checksum", false)) : c;
      if (c == serializer || storableInV2(metadata, layout, candidate, serializer)) {
        kept.add(candidate);
      }
    }
    Layout unsharded = layout.withShards(null).withCodecs(kept);
    try {
      V2Metadata.asV2(unsharded.applyTo(metadata));
    } catch (ZarrException e) {
      return null;
    }
    StringBuilder out = new StringBuilder(layout.shards() != null ? "--shards none" : "");
    kept.forEach(c -> out.append(out.length() == 0 ? "" : " ").append("--codec ").append(CodecSpecs.format(c)));
    return out.toString();
  }

  /** True when Zarr v2 stores {@code codec} with the array's serializer (before it if it works on arrays). */
  private static boolean storableInV2(ArrayMetadata metadata, Layout layout, NamedConfig codec, NamedConfig serializer) {
    if (serializer == null) {
      return false;
    }
    int at = layout.codecs().indexOf(serializer);
    int of = layout.codecs().indexOf(codec);
    List<NamedConfig> alone = of >= 0 && of < at ? List.of(codec, serializer) : List.of(serializer, codec);
    try {
      V2Metadata.asV2(layout.withShards(null).withCodecs(alone).applyTo(metadata));
      return true;
    } catch (ZarrException | IllegalArgumentException e) {
      return false;
    }
  }

  /** The options that change the layout, as given, for messages. */
  private String given() {
    StringBuilder given = new StringBuilder();
    codecs.forEach(c -> given.append(given.length() == 0 ? "" : " ").append("--codec ").append(c));
    if (chunks != null) {
      given.append(given.length() == 0 ? "" : " ").append("--chunks ").append(chunks);
    }
    if (shards != null) {
      given.append(given.length() == 0 ? "" : " ").append("--shards ").append(shards);
    }
    return given.toString();
  }

  /**
   * Refuses, as a usage error of the options that made it, new metadata whose codecs do not fit
   * together or the data type (vlen-utf8 on float32, zstd before bytes, ...): the same error as any
   * other bad option value, found before anything is written.
   */
  private void refuseUnfit(ArrayMetadata metadata, ZarrArray in, ZarrOptions options) {
    try {
      CodecContext context = options.registry().context(options.codecs());
      ChunkGrid grid = ChunkGrid.parse(metadata.chunkGrid(), metadata.rank());
      CodecPipeline.of(context.codecs(metadata.codecs()), new ChunkSpec(grid.chunkShape(), in.dataType(), in.fillValue()), context);
    } catch (ZarrException e) {
      throw usage(given() + ": not usable for " + in.dataType().name() + " [" + in.path() + "]: " + Main.oneLine(e.getMessage()));
    }
  }

  /**
   * {@code list} with the data type's default serializer after its array->array codecs when it names
   * none; {@link CodecSpecs#ZEP7} in that place instead means no serializer at all: the ZEP7 layout.
   */
  private List<NamedConfig> withSerializer(List<NamedConfig> list, DataType type, ZarrOptions options) {
    List<NamedConfig> codecs = new ArrayList<>();
    int zep7 = -1;
    int arrayCodecs = 0;
    boolean serializer = false;
    for (NamedConfig c : list) {
      if (c.name().equals(CodecSpecs.ZEP7)) {
        if (zep7 >= 0 || serializer || codecs.size() > arrayCodecs) {
          throw usage("--codec zep7 stands for the serializer: give it once, after the array->array codecs "
              + "(transpose) and before the bytes->bytes codecs (zstd, gzip, crc32c)");
        }
        zep7 = codecs.size();
        continue;
      }
      Codec codec;
      try {
        codec = options.registry().codec(c, options.codecs());
      } catch (ZarrException e) {
        throw usage("--codec " + CodecSpecs.format(c) + ": " + e.getMessage());
      }
      if (codec instanceof ArrayToBytesCodec) {
        if (zep7 >= 0) {
          throw usage("--codec zep7 means no array->bytes codec, but the list also has " + CodecSpecs.format(c));
        }
        serializer = true;
      } else if (codec instanceof ArrayToArrayCodec && !serializer && zep7 < 0) {
        arrayCodecs++;
      }
      codecs.add(c);
    }
    if (zep7 >= 0) {
      if (type.implicitSerializer().isEmpty()) {
        throw usage("--codec zep7: the ZEP7 layout is for the variable-length data types (string, bytes, "
            + "large_string, large_binary), not " + type.name());
      }
      return codecs;
    }
    Optional<NamedConfig> fallback = type.defaultSerializer();
    if (serializer || fallback.isEmpty()) {
      return codecs;
    }
    codecs.add(arrayCodecs, fallback.get());
    return codecs;
  }

  private int[] shape(String option, String text) {
    String[] parts = text.split(",", -1);
    int[] out = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      long size;
      try {
        size = Long.parseLong(parts[i].strip());
      } catch (NumberFormatException e) {
        throw usage(option + " " + text + ": '" + parts[i] + "' is not " + (parts[i].strip().matches("[+-]?\\d+")
            ? "in 1.." + Integer.MAX_VALUE + ", the sizes a chunk can have" : "an integer"));
      }
      if (size <= 0) {
        throw usage(option + " " + text + ": sizes must be positive, got " + size);
      }
      if (size > Integer.MAX_VALUE) {
        throw usage(option + " " + text + ": " + size + " is more than " + Integer.MAX_VALUE + ", the largest size a chunk can have");
      }
      out[i] = (int) size;
    }
    return out;
  }

  /** Copies the chunks of {@code in} (array {@code number} of {@code arrays}) into {@code out}; returns the blocks written. */
  private int copy(ZarrArray in, ZarrArray out, ProgressLine progress, int number, int arrays, BufferAllocator allocator) {
    int[] unit = Layout.of(out.metadata()).writeUnit();
    int[] srcChunk = in.grid().chunkShape();
    int rank = unit.length;
    int[] block = new int[rank];
    long size = 1;
    for (int i = 0; i < rank; i++) {
      block[i] = (int) Math.min(Integer.MAX_VALUE, ((long) srcChunk[i] + unit[i] - 1) / unit[i] * unit[i]);
      size = size > Long.MAX_VALUE / block[i] ? Long.MAX_VALUE : size * block[i];
    }
    if (size > Math.max(BLOCK_ELEMENTS, ChunkGrid.regular(unit).chunkSize())) {
      block = unit; // covering source chunks would cost too much memory: read them once per unit instead
    }
    ChunkGrid blocks = ChunkGrid.regular(block);
    Box whole = Box.of(in.shape());
    List<long[]> visit = blocksHoldingData(in, blocks);
    for (int b = 0; b < visit.size(); b++) {
      Box region = blocks.chunkBox(visit.get(b)).intersect(whole);
      try (NdVector values = in.read(region, allocator)) {
        out.write(region, values.vector(), allocator); // the allocator: null-typed data has none of its own
      }
      int done = b + 1;
      progress.update(() -> "copy: " + (arrays > 1 ? "array " + number + " of " + arrays + " (" + show(in.path()) + "), " : "")
          + done + " of " + visit.size() + " blocks");
    }
    return visit.size();
  }

  /**
   * {@code e} with the temporary path the copy is written at ({@code .NAME.new.zarrow-tmp}, a detail of
   * {@link NodeWriter}) replaced by the destination's; errors about the source pass unchanged.
   */
  private ZarrException destinationNamed(ZarrException e, String writePath, String to) {
    String message = e.getMessage();
    if (writePath.isEmpty() || writePath.equals(to) || !message.contains(writePath)) {
      return e;
    }
    return new ZarrException("copy to " + show(to) + " in " + destination + ": " + message.replace(writePath, show(to)), e);
  }

  /**
   * The blocks that hold a chunk the source stores, in C order: from the store's listing of the
   * source's keys, or, when the store cannot list, by asking for each chunk of each block.
   */
  private static List<long[]> blocksHoldingData(ZarrArray in, ChunkGrid blocks) {
    Box whole = Box.of(in.shape());
    if (!in.store().canList()) {
      List<long[]> out = new ArrayList<>();
      for (long[] b : blocks.allChunks(in.shape())) {
        Box region = blocks.chunkBox(b).intersect(whole);
        if (region.size() > 0 && storesAny(in, region)) {
          out.add(b);
        }
      }
      return out;
    }
    List<StoredKeys.Chunk> stored = StoredKeys.of(in).chunks();
    TreeSet<long[]> out = new TreeSet<>(Arrays::compare);
    for (StoredKeys.Chunk chunk : stored) {
      Box box = in.grid().chunkBox(chunk.coords()).intersect(whole);
      if (box.size() > 0) {
        blocks.chunksOf(box).forEach(out::add);
      }
    }
    return new ArrayList<>(out);
  }

  private static boolean storesAny(ZarrArray array, Box region) {
    for (long[] c : array.grid().chunksOf(region)) {
      if (array.store().exists(array.chunkKey(c))) {
        return true;
      }
    }
    return false;
  }
}
