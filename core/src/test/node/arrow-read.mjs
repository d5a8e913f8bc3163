#!/usr/bin/env node
// arrow-read.mjs FILE
//
// Reads an Arrow IPC stream or IPC file (told apart by the "ARROW1" magic) with apache-arrow (JS)
// and prints {format, schema, num_rows, batches, columns} as JSON: the schema's fields in the Arrow
// JSON integration format (plus "type_string"), and every column's values with the conventions of
// README.md.
import * as fs from "node:fs";
import * as A from "apache-arrow";
import { batchesToJson } from "./lib/arrow-values.mjs";
import { runMain } from "./lib/peer-json.mjs";

await runMain("arrow-read.mjs", "FILE", 1, async ([file]) => {
  let bytes = fs.readFileSync(file);
  let isFile = bytes.length >= 6 && bytes.subarray(0, 6).toString("latin1") === "ARROW1";
  // tableFromIPC tells stream from file itself; it keeps the record batches as they were written.
  let table = A.tableFromIPC(bytes);
  if (!table.schema) throw new Error(`${file}: no Arrow schema found (not an IPC stream or file?)`);
  return { format: isFile ? "file" : "stream", ...batchesToJson(table.schema, table.batches) };
});
