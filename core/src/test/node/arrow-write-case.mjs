#!/usr/bin/env node
// arrow-write-case.mjs CASE FORMAT OUT
//
// Writes one focused table with apache-arrow (JS) as an IPC "stream" or "file" (FORMAT) to OUT, the
// way apache-arrow builds such data itself, and prints the table as JSON (the form arrow-read.mjs
// prints, computed from the in-memory table, not from the file). CASE:
//
//   unions        sparse and dense unions built by arrow JS's union builders (whose sparse children
//                 can be shorter than the union), 12 rows in batches of 7 and 5
//   dictionaries  dictionaries nested two and three deep, a flat one, over four batches: deltas (a
//                 dictionary that grew since the last batch) and replacements (a new dictionary); a
//                 file holds the first two batches only (the file format has no replacements)
import * as fs from "node:fs";
import * as A from "apache-arrow";
import { batchesToJson } from "./lib/arrow-values.mjs";
import { runMain } from "./lib/peer-json.mjs";

/** A vector built by arrow JS's own builders from JS values (null -> null). */
function built(type, values, options = {}) {
  let builder = A.makeBuilder({ type, nullValues: [null], ...options });
  for (let v of values) builder.append(v);
  return builder.finish().toVector();
}

/** Data chunks of `values` in batches of `sizes` rows, built by one arrow JS builder (flushed per batch). */
function builtChunks(type, values, sizes, options = {}) {
  let builder = A.makeBuilder({ type, nullValues: [null], ...options });
  let chunks = [];
  let at = 0;
  for (let n of sizes) {
    for (let v of values.slice(at, at + n)) builder.append(v);
    chunks.push(builder.flush());
    at += n;
  }
  return chunks;
}

function unions(_format) {
  let sizes = [7, 5];
  let pick = (ids) => (_builder, v) => (typeof v === "number" ? ids[0] : ids[1]);
  let sparse = new A.SparseUnion([5, 7], [new A.Field("i", new A.Int32(), true), new A.Field("s", new A.Utf8(), true)]);
  let dense = new A.DenseUnion([0, 1], [new A.Field("f", new A.Float64(), true), new A.Field("s", new A.Utf8(), true)]);
  // Each batch ends with strings: the builder leaves the sparse int child shorter than the union.
  let mixed = [1, "a", -2, null, "bb", 2147483647, "c", 7, "µ", 4, "d", "e"];
  let columns = [
    ["sparse", builtChunks(sparse, mixed, sizes, { valueToChildTypeId: pick([5, 7]) })],
    ["dense", builtChunks(dense, mixed.map((v) => (typeof v === "number" ? v / 4 : v)), sizes, { valueToChildTypeId: pick([0, 1]) })],
    ["id", builtChunks(new A.Int32(), mixed.map((_, i) => i), sizes)],
  ];
  let schema = new A.Schema(columns.map(([name, chunks]) => new A.Field(name, chunks[0].type, true)));
  return new A.Table(schema, sizes.map((n, b) => new A.RecordBatch(schema, A.makeData({
    type: new A.Struct(schema.fields), length: n, nullCount: 0, children: columns.map(([, chunks]) => chunks[b]),
  }))));
}

/** Dictionary indices (null -> null) into `dictionary`, of type `type`. */
function indices(type, values, dictionary) {
  let valid = values.map((v) => v !== null);
  let Ints = { 8: Int8Array, 16: Int16Array, 32: Int32Array }[type.indices.bitWidth];
  return A.makeData({
    type,
    length: values.length,
    data: Ints.from(values.map((v) => v ?? 0)),
    nullBitmap: A.util.packBools(valid),
    nullCount: valid.filter((v) => !v).length,
    dictionary,
  });
}

/** List data of `lists` (arrays of child positions, or null) over `child`. */
function lists(type, lists, child) {
  let offsets = [0];
  let valid = lists.map((l) => l !== null);
  for (let l of lists) offsets.push(offsets[offsets.length - 1] + (l ?? []).length);
  return A.makeData({
    type,
    length: lists.length,
    valueOffsets: Int32Array.from(offsets),
    nullBitmap: A.util.packBools(valid),
    nullCount: valid.filter((v) => !v).length,
    child,
  });
}

function dictionaries(format) {
  let words = (list) => built(new A.Utf8(), list);
  // list_dict: dictionary 10 of lists of dictionary 11 (strings).
  let str11 = new A.Dictionary(new A.Utf8(), new A.Int16(), 11, false);
  let list10 = new A.Dictionary(new A.List(new A.Field("item", str11, true)), new A.Int8(), 10, false);
  // deep: dictionary 20 of lists of dictionary 21 of structs of dictionary 22 (strings).
  let str22 = new A.Dictionary(new A.Utf8(), new A.Int8(), 22, false);
  let struct21 = new A.Dictionary(new A.Struct([new A.Field("word", str22, true), new A.Field("n", new A.Int32(), true)]),
    new A.Int8(), 21, false);
  let list20 = new A.Dictionary(new A.List(new A.Field("item", struct21, true)), new A.Int32(), 20, false);
  // flat: dictionary 30 of strings.
  let flat30 = new A.Dictionary(new A.Utf8(), new A.Int32(), 30, false);

  let words11 = words(["red", "green", null, "blue", "µ–✓"]);
  let listChunk = (ls, idx) => lists(list10.dictionary, ls, indices(str11, idx, words11));
  let lists10a = listChunk([[0, 1], null, [], [2, 3, 4]], [0, 1, 3, 2, null]);
  let lists10b = listChunk([[0], [1, 2]], [4, 4, 0]); // a delta: two more lists
  let words11r = words(["uno", "dos", null]);
  let lists10r = lists(list10.dictionary, [[0, 1, 2], [1]], indices(str11, [1, 0, 2, 0], words11r)); // a replacement

  let words22 = words(["x", "y", "zz"]);
  let structs21 = A.makeData({
    type: struct21.dictionary, length: 4, nullCount: 0,
    children: [indices(str22, [0, 2, null, 1], words22), built(new A.Int32(), [1, null, 3, 4]).data[0]],
  });
  let dict21 = new A.Vector([structs21]);
  let lists20 = new A.Vector([lists(list20.dictionary, [[0, 1], [3, 3, 2], null, []], indices(struct21, [0, 1, 3, 3, 2], dict21))]);

  let flat30a = words(["one", "two"]);
  let flat30b = words(["three"]);
  let flat30r = words(["eins", null, "drei"]);

  let dict10 = [new A.Vector([lists10a]), new A.Vector([lists10a, lists10b.data?.[0] ?? lists10b])];
  let dict10r = new A.Vector([lists10r]);
  let flat = [new A.Vector([flat30a.data[0]]), new A.Vector([flat30a.data[0], flat30b.data[0]])];
  let dict30r = new A.Vector([flat30r.data[0]]);

  let schema = new A.Schema([
    new A.Field("list_dict", list10, true),
    new A.Field("deep", list20, true),
    new A.Field("flat", flat30, true),
  ]);
  let batch = (listIdx, list, deepIdx, flatIdx, flatDict) => new A.RecordBatch(schema, A.makeData({
    type: new A.Struct(schema.fields), length: listIdx.length, nullCount: 0,
    children: [indices(list10, listIdx, list), indices(list20, deepIdx, lists20), indices(flat30, flatIdx, flatDict)],
  }));
  let batches = [
    batch([0, 1, null, 3], dict10[0], [0, 1, 2, null], [0, 1, null, 0], flat[0]),
    batch([4, 5, 0, null, 5], dict10[1], [3, 3, 0, 1, 2], [2, 1, 0, 2, null], flat[1]), // deltas of 10 and 30
    batch([1, 0, null], dict10r, [1, null, 0], [2, 0, 1], dict30r), // replacements of 10, 11 and 30
    batch([0, 0, 1], dict10r, [2, 2, 2], [null, 2, 2], dict30r), // the same dictionaries again
  ];
  // The file format has no replacement dictionaries: a file holds the first two batches.
  return new A.Table(schema, format === "file" ? batches.slice(0, 2) : batches);
}

const CASES = { unions, dictionaries };

await runMain("arrow-write-case.mjs", "CASE FORMAT OUT", 3, async ([name, format, out]) => {
  let make = CASES[name];
  if (!make) throw new Error(`unknown case ${name}; known: ${Object.keys(CASES).join(", ")}`);
  if (format !== "stream" && format !== "file") throw new Error(`FORMAT must be stream or file, not ${format}`);
  let table = make(format);
  let writer = (format === "stream" ? A.RecordBatchStreamWriter : A.RecordBatchFileWriter).writeAll(table);
  fs.writeFileSync(out, await writer.toUint8Array());
  return { format, ...batchesToJson(table.schema, table.batches) };
});
