#!/usr/bin/env node
// arrow-write.mjs OUT.arrows
//
// Writes an Arrow IPC *stream* with apache-arrow (JS): one table covering many types, with nulls,
// field and schema metadata, a dictionary column and two record batches sharing one dictionary.
// Prints the table as JSON (the same form arrow-read.mjs prints, computed from the in-memory table,
// not from the file), so a reader's output can be compared with it.
import * as fs from "node:fs";
import * as A from "apache-arrow";
import { batchesToJson } from "./lib/arrow-values.mjs";
import { runMain } from "./lib/peer-json.mjs";

const N = 12; // rows; batches of 7 and 5
const rows = (f) => Array.from({ length: N }, (_, i) => f(i));
const nullEvery = (k, f) => rows((i) => (i % k === k - 1 ? null : f(i)));

/** A vector built by arrow JS's own builders from JS values (null -> null). */
function built(type, values) {
  let builder = A.makeBuilder({ type, nullValues: [null] });
  for (let v of values) builder.append(v);
  return builder.finish().toVector();
}

/** A vector from raw storage values (exact 64-bit temporal and decimal values) and validity. */
function raw(type, storage, valid = null) {
  let props = { type, length: N, data: storage };
  if (valid) {
    props.nullBitmap = A.util.packBools(valid);
    props.nullCount = valid.filter((v) => !v).length;
  }
  return A.makeVector(A.makeData(props));
}

const validEvery = (k) => rows((i) => i % k !== k - 1);

function decimalWords(values /* bigint unscaled */) {
  let out = new Uint32Array(4 * values.length);
  values.forEach((v, i) => {
    let u = BigInt.asUintN(128, v);
    for (let k = 0; k < 4; k++) out[4 * i + k] = Number((u >> BigInt(32 * k)) & 0xffffffffn);
  });
  return out;
}

function buildTable() {
  let f32 = [1.5, NaN, -0, Infinity, -Infinity, 1.401298464324817e-45, 3.4028234663852886e38, -2.25];
  let f64 = [0.1, NaN, -0, Infinity, -Infinity, 5e-324, 1.7976931348623157e308, -1e-300];
  let f16 = [1.5, NaN, -0, Infinity, -Infinity, 65504, 0.00006103515625, -2];
  let words = ["", "a", "zarr", "µ–✓", "日本語", "emoji 🦀", "quote\" and \\", "line\nbreak"];
  let cols = {
    i8: built(new A.Int8(), nullEvery(5, (i) => [-128, 127, 0, -1][i % 4] + (i % 4 === 2 ? i : 0))),
    i16: built(new A.Int16(), rows((i) => [-32768, 32767, i * 100 - 500][i % 3])),
    i32: built(new A.Int32(), nullEvery(4, (i) => [-2147483648, 2147483647, Math.imul(i + 1, 0x9e3779b1)][i % 3])),
    i32_required: built(new A.Int32(), rows((i) => i * i - 20)),
    i64: built(new A.Int64(), nullEvery(6, (i) =>
      [-(2n ** 63n), 2n ** 63n - 1n, BigInt.asIntN(64, BigInt(i + 1) * 0x9e3779b97f4a7c15n)][i % 3])),
    u8: built(new A.Uint8(), rows((i) => [0, 255, i * 20][i % 3])),
    u16: built(new A.Uint16(), rows((i) => [0, 65535, i * 1000][i % 3])),
    u32: built(new A.Uint32(), rows((i) => [0, 4294967295, Math.imul(i + 1, 0x9e3779b1) >>> 0][i % 3])),
    u64: built(new A.Uint64(), nullEvery(5, (i) =>
      [0n, 2n ** 64n - 1n, BigInt.asUintN(64, BigInt(i + 1) * 0x9e3779b97f4a7c15n)][i % 3])),
    f16: built(new A.Float16(), nullEvery(9, (i) => f16[i % f16.length])),
    f32: built(new A.Float32(), nullEvery(9, (i) => f32[i % f32.length])),
    f64: built(new A.Float64(), nullEvery(9, (i) => f64[i % f64.length])),
    bool: built(new A.Bool(), nullEvery(4, (i) => i % 3 === 0)),
    utf8: built(new A.Utf8(), nullEvery(5, (i) => words[i % words.length])),
    large_utf8: built(new A.LargeUtf8(), nullEvery(6, (i) => words[(i + 3) % words.length].repeat(2))),
    binary: built(new A.Binary(), nullEvery(5, (i) => Uint8Array.from({ length: i % 4 }, (_, k) => (k * 85 + i) & 255))),
    large_binary: built(new A.LargeBinary(), nullEvery(7, (i) => Uint8Array.from({ length: i % 3 }, (_, k) => 255 - k - i))),
    fixed_binary: built(new A.FixedSizeBinary(3), nullEvery(4, (i) => Uint8Array.of(i, 0, 255 - i))),
    decimal: raw(new A.Decimal(2, 10, 128),
      decimalWords(rows((i) => [12345n, -12345n, 0n, 9999999999n, -1n, BigInt(i * 7)][i % 6])), validEvery(5)),
    date32: raw(new A.DateDay(), Int32Array.from(rows((i) => [0, -1, 19723, -719162][i % 4] + i)), validEvery(6)),
    date64: raw(new A.DateMillisecond(), BigInt64Array.from(rows((i) => 1704067200000n + BigInt(i) * 86400000n))),
    time32_ms: raw(new A.TimeMillisecond(), Int32Array.from(rows((i) => i * 3600000 + 59999))),
    time64_us: raw(new A.TimeMicrosecond(), BigInt64Array.from(rows((i) => BigInt(i) * 3600000000n + 999999n)), validEvery(5)),
    ts_us_utc: raw(new A.TimestampMicrosecond("UTC"),
      BigInt64Array.from(rows((i) => 1700000000123456n + BigInt(i) * 1000001n - (i === 3 ? 2000000000000000n : 0n))),
      validEvery(7)),
    ts_ms_paris: raw(new A.TimestampMillisecond("Europe/Paris"), BigInt64Array.from(rows((i) => 1711846800000n + BigInt(i) * 1800000n))),
    ts_ns_naive: raw(new A.TimestampNanosecond(), BigInt64Array.from(rows((i) => 1700000000123456789n + BigInt(i)))),
    duration_us: raw(new A.DurationMicrosecond(), BigInt64Array.from(rows((i) => BigInt(i - 6) * 1000000007n))),
    list_i32: built(new A.List(new A.Field("item", new A.Int32(), true)),
      rows((i) => (i % 5 === 4 ? null : i % 5 === 3 ? [] : Array.from({ length: i % 3 + 1 }, (_, k) => (k === 1 && i % 2 ? null : i * 10 + k))))),
    large_list_utf8: built(new A.LargeList(new A.Field("item", new A.Utf8(), true)),
      rows((i) => (i % 6 === 5 ? null : Array.from({ length: i % 3 }, (_, k) => words[(i + k) % words.length])))),
    fsl_f32: built(new A.FixedSizeList(2, new A.Field("item", new A.Float32(), true)),
      nullEvery(6, (i) => [i * 0.5, i % 4 === 1 ? null : -i])),
    struct: built(new A.Struct([
      new A.Field("a", new A.Int32(), true),
      new A.Field("b", new A.Utf8(), true),
      new A.Field("c", new A.List(new A.Field("item", new A.Float64(), true)), true),
    ]), nullEvery(5, (i) => ({ a: i % 3 === 2 ? null : i - 3, b: words[i % words.length], c: i % 2 ? [i / 4] : [] }))),
    map: built(new A.Map_(new A.Field("entries", new A.Struct([
      new A.Field("key", new A.Utf8(), false),
      new A.Field("value", new A.Int32(), true),
    ]), false), false), rows((i) => (i % 6 === 5 ? null : new Map(Array.from({ length: i % 3 }, (_, k) => [`k${k}`, k === 1 ? null : i + k]))))),
    dict_utf8: built(new A.Dictionary(new A.Utf8(), new A.Int32(), 0, false),
      nullEvery(5, (i) => ["red", "green", "blue", "µ"][(i * 7) % 4])),
    null_col: A.makeVector(A.makeData({ type: new A.Null(), length: N })),
    "weird name/é:1": built(new A.Utf8(), rows((i) => `row ${i}`)),
  };

  let fieldMeta = {
    i32: new Map([["zarrow.test", "field metadata"], ["unit", "µs"]]),
  };
  let fields = Object.entries(cols).map(([name, v]) =>
    // null_col as apache-arrow makes fields by default: not nullable (its values are null all the same).
    new A.Field(name, v.type, name !== "i32_required" && name !== "null_col", fieldMeta[name] ?? null));
  let schema = new A.Schema(fields, new Map([
    ["producer", "zarrow src/test/node/arrow-write.mjs"],
    ["unicode", "µ–✓"],
  ]));
  let data = A.makeData({
    type: new A.Struct(fields),
    length: N,
    nullCount: 0,
    children: Object.values(cols).map((v) => v.data[0]),
  });
  let batch = new A.RecordBatch(schema, data);
  return new A.Table(schema, [batch.slice(0, 7), batch.slice(7, N)]);
}

await runMain("arrow-write.mjs", "OUT.arrows", 1, async ([out]) => {
  let table = buildTable();
  let writer = A.RecordBatchStreamWriter.writeAll(table);
  fs.writeFileSync(out, await writer.toUint8Array());
  return { format: "stream", ...batchesToJson(table.schema, table.batches) };
});
