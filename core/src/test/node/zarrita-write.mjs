#!/usr/bin/env node
// zarrita-write.mjs DIR
//
// Writes a Zarr v3 hierarchy into the directory store DIR with zarrita (the JS Zarr implementation)
// and prints a manifest JSON on stdout: every array with its expected values, every group with its
// attributes. zarrow's tests read DIR back and compare with the manifest.
//
// Two kinds of arrays (each array's "writer" says which; see README.md):
//  - "zarrita": metadata and chunks written by zarrita itself (zarr.create + zarr.set), every codec
//    encoded by zarrita. The bulk of the fixture.
//  - "zarrita+hand": things zarrita 0.7.5 cannot encode. zarrita still creates the metadata and runs
//    its own codec pipeline, but the encoders named in "hand_encoded" are ours: gzip (node:zlib),
//    crc32c (lib/crc32c.mjs), vlen-utf8 (ours, below); sharding_indexed shards are assembled here from
//    inner chunks that zarrita encoded. Decoding is always zarrita's own.
// Before printing, every array is read back with an unmodified zarrita and compared with the expected
// values; "zarrita_read" in the manifest records the outcome ("ok", or the mismatch or error). A
// zarrita-written array that zarrita cannot read back is a failure of this script.
import * as fs from "node:fs";
import * as nodePath from "node:path";
import * as zlib from "node:zlib";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { appendCrc32c } from "./lib/crc32c.mjs";
import { runMain, toJson } from "./lib/peer-json.mjs";
import { readArray } from "./lib/zarr-values.mjs";

const ZARRITA_VERSION = JSON.parse(
  fs.readFileSync(new URL("./node_modules/zarrita/package.json", import.meta.url)),
).version;

// ---------------------------------------------------------------- deterministic values

const F32 = new Float32Array(1);
const f32 = (x) => ((F32[0] = x), F32[0]);

/** Value number i of a data type: deterministic, covering negatives, extremes and float specials. */
function valueOf(dtype, i) {
  switch (dtype) {
    case "bool": return i % 3 === 0;
    case "int8": return ((i * 37 + 5) % 256) - 128;
    case "uint8": return (i * 37 + 5) % 256;
    case "int16": return ((i * 7919 + 11) % 65536) - 32768;
    case "uint16": return (i * 7919 + 11) % 65536;
    case "int32": return Math.imul(i + 1, 0x9e3779b1);
    case "uint32": return Math.imul(i + 1, 0x9e3779b1) >>> 0;
    case "int64": return BigInt.asIntN(64, BigInt(i + 1) * 0x9e3779b97f4a7c15n);
    case "uint64": return BigInt.asUintN(64, BigInt(i + 1) * 0x9e3779b97f4a7c15n);
    case "float32": {
      let special = [NaN, Infinity, -Infinity, -0, 3.4028234663852886e38, 1.401298464324817e-45];
      return i >= 1 && i <= special.length ? f32(special[i - 1]) : f32((i - 10) * 0.375);
    }
    case "float64": {
      let special = [NaN, Infinity, -Infinity, -0, 1.7976931348623157e308, 5e-324];
      return i >= 1 && i <= special.length ? special[i - 1] : (i - 10) * 0.1;
    }
    case "string": {
      let words = ["", "a", "zarr", "µ–✓", "日本語", "with space", "emoji 🦀", "tab\tquote\""];
      return i < words.length ? words[i] : `s${i}`;
    }
    default: throw new Error(`no values for ${dtype}`);
  }
}

const TYPED = {
  int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array,
  uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array,
  float32: Float32Array, float64: Float64Array,
};

/** A zarrita chunk (data + shape + C strides) holding the given flat C-order values. */
function chunkOf(dtype, shape, values) {
  let data;
  if (dtype === "bool") data = new zarr.BoolArray(values);
  else if (dtype === "string") data = values.slice();
  else data = TYPED[dtype].from(values);
  let stride = new Array(shape.length);
  for (let d = shape.length - 1, s = 1; d >= 0; d--) { stride[d] = s; s *= shape[d]; }
  return { data, shape, stride };
}

const size = (shape) => shape.reduce((a, b) => a * b, 1);
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));

/** Manifest value form of a fill value (bigint/specials are handled by toJson). */
function manifestFill(dtype, fill) {
  return dtype === "int64" || dtype === "uint64" ? BigInt(fill) : fill;
}

// ---------------------------------------------------------------- codec helpers

const bytes = (endian = "little") => ({ name: "bytes", configuration: { endian } });
const zstd = (level = 3) => ({ name: "zstd", configuration: { level, checksum: false } });
const gzip = (level = 5) => ({ name: "gzip", configuration: { level } });
const crc32cCodec = () => ({ name: "crc32c", configuration: {} });
const transpose = (order) => ({ name: "transpose", configuration: { order } });
const vlenUtf8 = () => ({ name: "vlen-utf8", configuration: {} });

// Our encoders for what zarrita cannot encode. Installed into zarrita's codec registry only while the
// hand-encoded arrays are written (decode stays zarrita's own), then the registry is restored.
const HAND_ENCODERS = {
  gzip: (config) => (data) => new Uint8Array(zlib.gzipSync(data, { level: config?.level ?? 5 })),
  crc32c: () => (data) => appendCrc32c(data),
  "vlen-utf8": () => (chunk) => encodeVlenUtf8(chunk),
};

function encodeVlenUtf8(chunk) {
  // Layout: u32 LE item count, then per item a u32 LE byte length and the UTF-8 bytes (C order).
  let c = [...chunk.stride].every((s, d) => s === size(chunk.shape.slice(d + 1)));
  if (!c) throw new Error("vlen-utf8 hand encoder expects a C-order chunk");
  let items = Array.from(chunk.data, (s) => new TextEncoder().encode(s ?? ""));
  let out = new Uint8Array(4 + items.reduce((n, b) => n + 4 + b.length, 0));
  let view = new DataView(out.buffer);
  view.setUint32(0, items.length, true);
  let pos = 4;
  for (let b of items) {
    view.setUint32(pos, b.length, true);
    out.set(b, pos + 4);
    pos += 4 + b.length;
  }
  return out;
}

async function withHandEncoders(names, body) {
  let saved = new Map(zarr.registry);
  try {
    for (let name of names) {
      let original = saved.get(name);
      zarr.registry.set(name, async () => {
        let Codec = await original();
        return {
          fromConfig(config, meta) {
            let codec = Codec.fromConfig(config, meta);
            codec.encode = HAND_ENCODERS[name](config, meta);
            return codec;
          },
        };
      });
    }
    return await body();
  } finally {
    zarr.registry.clear();
    for (let [k, v] of saved) zarr.registry.set(k, v);
  }
}

// ---------------------------------------------------------------- the fixture

const manifest = { writer: { zarrita: ZARRITA_VERSION, node: process.version }, groups: [], arrays: [], skipped: [] };

async function group(root, path, attributes) {
  await zarr.create(path === "" ? root : root.resolve(path), { attributes });
  manifest.groups.push({ path, attributes });
}

/**
 * Creates an array with zarrita and writes `writes` (a list of {selection, shape, values} regions,
 * or {selection: null} for the whole array) with zarr.set. Expected values are computed here:
 * fill value where nothing was written.
 */
async function array(root, path, spec, writes, extra = {}) {
  let { dtype, shape, chunks, codecs, fill, separator, dimensionNames, attributes } = spec;
  let arr = await zarr.create(root.resolve(path), {
    shape, chunkShape: chunks, dtype, codecs, fillValue: fill,
    chunkSeparator: separator, dimensionNames, attributes,
  });
  let expected = new Array(size(shape)).fill(manifestFill(dtype, fill));
  for (let w of writes) {
    if (w.selection === null) {
      let values = w.values ?? range(size(shape), (i) => valueOf(dtype, i));
      await zarr.set(arr, null, shape.length === 0 ? values[0] : chunkOf(dtype, shape, values));
      expected = values.slice();
    } else {
      // selection: [[start, stop], ...]; values C order over the region
      let regionShape = w.selection.map(([a, b]) => b - a);
      let values = w.values ?? range(size(regionShape), (i) => valueOf(dtype, i + 100));
      await zarr.set(arr, w.selection.map(([a, b]) => zarr.slice(a, b)), chunkOf(dtype, regionShape, values));
      let idx = new Array(shape.length).fill(0);
      for (let n = 0; n < values.length; n++) {
        let flat = 0;
        for (let d = 0; d < shape.length; d++) flat = flat * shape[d] + w.selection[d][0] + idx[d];
        expected[flat] = values[n];
        for (let d = shape.length - 1; d >= 0; d--) {
          if (++idx[d] < regionShape[d]) break;
          idx[d] = 0;
        }
      }
    }
  }
  manifest.arrays.push({
    path, writer: "zarrita", hand_encoded: [], shape, chunk_shape: chunks, data_type: dtype,
    fill_value: manifestFill(dtype, fill), codecs: (codecs ?? []).map((c) => c.name),
    ...extra, values: expected,
  });
}

async function handArray(root, path, spec, handEncoded) {
  await withHandEncoders(handEncoded, () => array(root, path, spec, [{ selection: null }]));
  let entry = manifest.arrays.at(-1);
  entry.writer = "zarrita+hand";
  entry.hand_encoded = handEncoded;
}

/**
 * A sharded array (sharding_indexed). zarrita cannot write shards, so: zarrita encodes the inner
 * chunks (an unsharded copy with the inner chunk shape and inner codecs, in memory), and this
 * function assembles each shard: the inner chunks in C order of their coordinates, then (or before,
 * for index_location "start") the index of (offset, nbytes) uint64 LE pairs, empty = 2^64-1 both,
 * encoded with [bytes little, crc32c]. Inner chunks whose values are all the fill value are left out
 * (empty), as are shards with no inner chunk at all.
 */
async function shardedArray(store, root, path, spec) {
  let { dtype, shape, shardShape, innerChunks, innerCodecs, fill, indexLocation, values } = spec;
  let mem = new Map();
  let inner = await zarr.create(zarr.root(mem).resolve("inner"), {
    shape, chunkShape: innerChunks, dtype, codecs: innerCodecs, fillValue: fill,
  });
  let hand = ["sharding_indexed", "crc32c"];
  let innerNeedsHand = innerCodecs.map((c) => c.name).filter((n) => n in HAND_ENCODERS);
  await withHandEncoders(innerNeedsHand, () => zarr.set(inner, null, chunkOf(dtype, shape, values)));
  hand.push(...innerNeedsHand.filter((n) => !hand.includes(n)));

  let perShard = shardShape.map((s, d) => s / innerChunks[d]);
  let nShards = shape.map((s, d) => Math.ceil(s / shardShape[d]));
  let nInner = size(perShard);
  let isFill = (flatIndices) => flatIndices.every((i) => Object.is(values[i], fill) || values[i] === fill);
  let missingShards = [];
  let emptyInner = [];
  for (let s = 0; s < size(nShards); s++) {
    let shardCoord = unflatten(s, nShards);
    let parts = [];
    let index = new BigUint64Array(2 * nInner).fill(0xffffffffffffffffn);
    let offset = indexLocation === "start" ? 16 * nInner + 4 : 0;
    for (let k = 0; k < nInner; k++) {
      let innerCoord = unflatten(k, perShard).map((c, d) => shardCoord[d] * perShard[d] + c);
      let key = `/inner/c/${innerCoord.join("/")}`;
      let bytes = mem.get(key);
      if (!bytes || isFill(elementsOfChunk(innerCoord, innerChunks, shape))) {
        emptyInner.push(innerCoord);
        continue;
      }
      index[2 * k] = BigInt(offset);
      index[2 * k + 1] = BigInt(bytes.length);
      parts.push(bytes);
      offset += bytes.length;
    }
    if (parts.length === 0) {
      missingShards.push(`c/${shardCoord.join("/")}`);
      emptyInner.splice(emptyInner.length - nInner, nInner);
      continue;
    }
    let encodedIndex = appendCrc32c(new Uint8Array(index.buffer)); // bytes little (LE host) + crc32c
    let shard = indexLocation === "start" ? [encodedIndex, ...parts] : [...parts, encodedIndex];
    await store.set(`/${path}/c/${shardCoord.join("/")}`, concat(shard));
  }
  let configuration = {
    chunk_shape: innerChunks,
    codecs: innerCodecs,
    index_codecs: [bytes("little"), crc32cCodec()],
  };
  if (indexLocation) configuration.index_location = indexLocation;
  await zarr.create(root.resolve(path), {
    shape, chunkShape: shardShape, dtype, fillValue: fill,
    codecs: [{ name: "sharding_indexed", configuration }],
  }).catch((err) => {
    // zarrita (0.7.5) validates nothing about shards on create; keep any error visible.
    throw new Error(`create ${path}: ${err.message}`, { cause: err });
  });
  manifest.arrays.push({
    path, writer: "zarrita+hand", hand_encoded: hand, shape, chunk_shape: shardShape,
    inner_chunk_shape: innerChunks, index_location: indexLocation ?? "end", data_type: dtype,
    fill_value: manifestFill(dtype, fill),
    codecs: ["sharding_indexed"], inner_codecs: innerCodecs.map((c) => c.name),
    missing_chunks: missingShards, empty_inner_chunks: emptyInner, values,
  });
}

function unflatten(n, dims) {
  let out = new Array(dims.length);
  for (let d = dims.length - 1; d >= 0; d--) { out[d] = n % dims[d]; n = Math.floor(n / dims[d]); }
  return out;
}

/** Flat C-order indices of the in-bounds elements of the chunk at `coord`. */
function elementsOfChunk(coord, chunks, shape) {
  let lo = coord.map((c, d) => c * chunks[d]);
  let hi = lo.map((l, d) => Math.min(l + chunks[d], shape[d]));
  let ext = hi.map((h, d) => Math.max(0, h - lo[d]));
  return range(size(ext), (k) => unflatten(k, ext).reduce((f, x, d) => f * shape[d] + lo[d] + x, 0));
}

function concat(parts) {
  let out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (let p of parts) { out.set(p, pos); pos += p.length; }
  return out;
}

const NUMERIC = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"];

async function writeFixture(dir) {
  let store = new FileSystemStore(dir);
  let root = zarr.root(store);

  await group(root, "", {
    title: "zarrita peer fixture",
    nested: { list: [1, 2.5, "x", null, true], unicode: "µ–✓ 日本語", empty: {} },
  });

  // Every numeric data type x {little, big, little+zstd}; 2-d with edge chunks in both dimensions.
  await group(root, "dtypes", { description: "every numeric data type zarrita writes" });
  for (let dtype of NUMERIC) {
    let base = { dtype, shape: [5, 7], chunks: [2, 3], fill: dtype === "bool" ? false : 0 };
    await array(root, `dtypes/${dtype}_le`, { ...base, codecs: [bytes("little")] }, [{ selection: null }]);
    if (dtype === "bool") {
      // zarrita 0.7.5 bug: BoolArray has no static BYTES_PER_ELEMENT, so the bytes codec with
      // endian "big" byte-swaps bool chunks in groups of 4 and cannot read its own output back.
      manifest.skipped.push({ path: `dtypes/${dtype}_be`, reason: "zarrita 0.7.5 corrupts bool with bytes endian big" });
    } else {
      await array(root, `dtypes/${dtype}_be`, { ...base, codecs: [bytes("big")] }, [{ selection: null }]);
    }
    await array(root, `dtypes/${dtype}_zstd`, { ...base, codecs: [bytes("little"), zstd(3)] }, [{ selection: null }]);
  }

  // Ranks 0..3, edge chunks, transpose, chunk key separators, dimension names.
  await group(root, "shapes", {});
  await array(root, "shapes/d0", { dtype: "float64", shape: [], chunks: [], fill: 0, codecs: [bytes()] },
    [{ selection: null, values: [3.25] }]);
  await array(root, "shapes/d1", { dtype: "int32", shape: [10], chunks: [4], fill: 0, codecs: [bytes()] },
    [{ selection: null }]);
  await array(root, "shapes/d3", { dtype: "float64", shape: [4, 5, 6], chunks: [3, 2, 4], fill: 0,
    codecs: [bytes("little"), zstd(5)] }, [{ selection: null }]);
  await array(root, "shapes/d3_transpose_big_zstd", { dtype: "int16", shape: [3, 4, 5], chunks: [2, 3, 2],
    fill: 0, codecs: [transpose([2, 0, 1]), bytes("big"), zstd(1)] }, [{ selection: null }]);
  await array(root, "shapes/transpose_2d", { dtype: "uint32", shape: [5, 7], chunks: [2, 3], fill: 0,
    codecs: [transpose([1, 0]), bytes()] }, [{ selection: null }]);
  await array(root, "shapes/dot_separator", { dtype: "int32", shape: [4, 4], chunks: [2, 2], fill: 0,
    codecs: [bytes()], separator: "." }, [{ selection: null }]);
  await array(root, "shapes/dimension_names", { dtype: "float32", shape: [3, 4], chunks: [3, 4], fill: 0,
    codecs: [bytes()], dimensionNames: ["y", "x"], attributes: { units: "m", scale: 0.5 } },
    [{ selection: null }], { dimension_names: ["y", "x"], attributes: { units: "m", scale: 0.5 } });
  // zarrita writes "codecs": [] when none are given (its reader then assumes bytes little).
  await array(root, "shapes/empty_codec_list", { dtype: "uint16", shape: [3], chunks: [2], fill: 0 },
    [{ selection: null }]);

  // Fill values, missing chunks and partial (read-modify-write) chunk updates.
  await group(root, "fill", { about: "chunks left unwritten read as the fill value" });
  await array(root, "fill/nan_missing", { dtype: "float32", shape: [10], chunks: [3], fill: NaN,
    codecs: [bytes()] }, [{ selection: [[0, 3]] }, { selection: [[6, 8]] }],
    { missing_chunks: ["c/1", "c/3"] });
  await array(root, "fill/int16_42", { dtype: "int16", shape: [4, 5], chunks: [2, 2], fill: 42,
    codecs: [bytes("big")] }, [{ selection: [[0, 2], [0, 2]] }],
    { missing_chunks: ["c/0/1", "c/0/2", "c/1/0", "c/1/1", "c/1/2"] });
  await array(root, "fill/float64_neg_inf_all_missing", { dtype: "float64", shape: [6], chunks: [4],
    fill: -Infinity, codecs: [bytes(), zstd()] }, [], { missing_chunks: ["c/0", "c/1"] });
  await array(root, "fill/bool_true", { dtype: "bool", shape: [7], chunks: [3], fill: true,
    codecs: [bytes()] }, [{ selection: [[4, 6]], values: [false, false] }], { missing_chunks: ["c/0"] });
  await array(root, "fill/int64_neg7", { dtype: "int64", shape: [5], chunks: [2], fill: -7,
    codecs: [bytes("big"), zstd()] }, [{ selection: [[0, 2]] }], { missing_chunks: ["c/1", "c/2"] });
  await array(root, "fill/uint8_255_one_element", { dtype: "uint8", shape: [3, 3], chunks: [2, 2], fill: 255,
    codecs: [bytes()] }, [{ selection: [[1, 2], [1, 2]], values: [7] }],
    { missing_chunks: ["c/0/1", "c/1/0", "c/1/1"] });
  await array(root, "fill/float32_1.5", { dtype: "float32", shape: [2, 3], chunks: [1, 3], fill: 1.5,
    codecs: [transpose([1, 0]), bytes("big")] }, [{ selection: [[1, 2], [0, 3]] }], { missing_chunks: ["c/0/0"] });

  // Nested groups with attributes, arrays inside them.
  await group(root, "g1", { level: 1, tags: ["a", "b"] });
  await group(root, "g1/g2", { level: 2, nested: { deeper: { pi: 3.14159, ok: false } } });
  await array(root, "g1/g2/leaf", { dtype: "uint16", shape: [6], chunks: [4], fill: 0, codecs: [bytes()] },
    [{ selection: null }]);
  await array(root, "g1/sibling", { dtype: "float64", shape: [2, 2], chunks: [1, 1], fill: 0,
    codecs: [bytes("big")] }, [{ selection: null }]);

  // What zarrita cannot encode: our encoders inside zarrita's pipeline (see the header).
  await group(root, "hand", { about: "zarrita cannot encode these; hand-encoded parts are listed per array" });
  await handArray(root, "hand/gzip", { dtype: "int32", shape: [5, 7], chunks: [2, 3], fill: 0,
    codecs: [bytes(), gzip(5)] }, ["gzip"]);
  await handArray(root, "hand/crc32c", { dtype: "float64", shape: [9], chunks: [4], fill: 0,
    codecs: [bytes(), crc32cCodec()] }, ["crc32c"]);
  await handArray(root, "hand/big_zstd_crc32c", { dtype: "uint64", shape: [3, 4], chunks: [2, 2], fill: 0,
    codecs: [bytes("big"), zstd(), crc32cCodec()] }, ["crc32c"]);
  await handArray(root, "hand/gzip_crc32c", { dtype: "int8", shape: [11], chunks: [5], fill: 0,
    codecs: [bytes(), gzip(9), crc32cCodec()] }, ["gzip", "crc32c"]);
  await handArray(root, "hand/string", { dtype: "string", shape: [9], chunks: [4], fill: "",
    codecs: [vlenUtf8()] }, ["vlen-utf8"]);
  await handArray(root, "hand/string_2d_zstd", { dtype: "string", shape: [3, 4], chunks: [2, 3], fill: "",
    codecs: [vlenUtf8(), zstd()] }, ["vlen-utf8"]);

  let shardValues = (shape, fill, blank) => range(size(shape), (i) => {
    let [r, c] = unflatten(i, shape);
    return blank(r, c) ? fill : valueOf("int32", i);
  });
  // [8, 9] in shards [4, 6] of inner chunks [2, 3]: edge shards, an inner chunk of all fill values
  // (rows 0-1, cols 3-5: left empty), inner chunks wholly outside the array (cols 9-11: empty).
  let sharded = {
    dtype: "int32", shape: [8, 9], shardShape: [4, 6], innerChunks: [2, 3], fill: -1,
    values: shardValues([8, 9], -1, (r, c) => r < 2 && c >= 3 && c < 6),
  };
  await shardedArray(store, root, "hand/sharded", { ...sharded, innerCodecs: [bytes()] });
  await shardedArray(store, root, "hand/sharded_zstd_crc32c", {
    ...sharded, innerCodecs: [bytes("big"), zstd(), crc32cCodec()],
  });
  await shardedArray(store, root, "hand/sharded_index_start", {
    ...sharded, innerCodecs: [bytes()], indexLocation: "start",
  });
  // A whole shard missing: rows 4-7 all fill.
  await shardedArray(store, root, "hand/sharded_missing_shard", {
    ...sharded, innerCodecs: [bytes()], values: shardValues([8, 9], -1, (r, c) => r >= 4 || (r < 2 && c < 3)),
  });
}

/** Reads every array back with an unmodified zarrita and records the outcome. */
async function verify(dir) {
  let store = new FileSystemStore(dir);
  let failures = [];
  for (let entry of manifest.arrays) {
    entry.stored_chunks = listChunkKeys(dir, entry.path);
    for (let key of entry.missing_chunks ?? []) {
      if (entry.stored_chunks.includes(key)) failures.push(`${entry.path}: chunk ${key} should be missing`);
    }
    try {
      let got = await readArray(store, entry.path);
      let problem = compare(entry, got);
      entry.zarrita_read = problem ?? "ok";
    } catch (err) {
      entry.zarrita_read = `error: ${err.message}${err.cause ? ` (${err.cause.message})` : ""}`;
    }
    if (entry.writer === "zarrita" && entry.zarrita_read !== "ok") {
      failures.push(`${entry.path}: ${entry.zarrita_read}`);
    }
  }
  for (let g of manifest.groups) {
    let node = await zarr.open.v3(g.path === "" ? zarr.root(store) : zarr.root(store).resolve(g.path), { kind: "group" });
    if (toJson(node.attrs) !== toJson(g.attributes)) failures.push(`group ${g.path}: attributes differ`);
  }
  if (failures.length) throw new Error(`zarrita cannot read back what it wrote:\n${failures.join("\n")}`);
}

/** Keys (relative to the array, "/"-separated, sorted) of every stored chunk or shard. */
function listChunkKeys(dir, arrayPath) {
  let base = nodePath.join(dir, ...arrayPath.split("/"));
  let keys = [];
  let walk = (rel) => {
    for (let e of fs.readdirSync(nodePath.join(base, rel), { withFileTypes: true })) {
      let r = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) walk(r);
      else if (r !== "zarr.json") keys.push(r);
    }
  };
  walk("");
  return keys.sort();
}

function compare(entry, got) {
  if (toJson(got.shape) !== toJson(entry.shape)) return `mismatch: shape ${toJson(got.shape)}`;
  for (let i = 0; i < entry.values.length; i++) {
    let want = toJson(entry.values[i]);
    let have = toJson(got.values[i]);
    if (want !== have) return `mismatch: element ${i} is ${have}, expected ${want}`;
  }
  return null;
}

await runMain("zarrita-write.mjs", "DIR", 1, async ([dir]) => {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new Error(`${dir} exists and is not empty`);
  fs.mkdirSync(dir, { recursive: true });
  await writeFixture(dir);
  await verify(dir);
  return manifest;
});
