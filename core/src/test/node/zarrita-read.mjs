#!/usr/bin/env node
// zarrita-read.mjs [--keep-going] DIR PATH [PATH...]
//
// Opens each node PATH (relative to the directory store DIR, e.g. "g1/g2/leaf") with zarrita. An
// array is read whole: {PATH: {node_type: "array", shape, data_type, fill_value, values, attributes,
// dimension_names}}, values flattened in C order with the conventions of README.md (64-bit integers
// as decimal strings, "NaN"/"Infinity"/"-Infinity", -0.0 kept, strings as strings); dimension_names
// only when the array has them. A group gives {PATH: {node_type: "group", attributes}}.
// Any failure exits 1 with the message on stderr; with --keep-going a failing PATH is reported as
// {PATH: {"error": message}} instead and the exit code stays 0 (used to probe zarrita's support).
import FileSystemStore from "@zarrita/storage/fs";
import { runMain } from "./lib/peer-json.mjs";
import { readNode } from "./lib/zarr-values.mjs";

await runMain("zarrita-read.mjs", "[--keep-going] DIR PATH [PATH...]", 2, async (args) => {
  let keepGoing = args[0] === "--keep-going";
  if (keepGoing) args = args.slice(1);
  let [dir, ...paths] = args;
  if (paths.length === 0) throw new Error("no array PATH given");
  let store = new FileSystemStore(dir);
  let out = {};
  for (let path of paths) {
    try {
      out[path] = await readNode(store, path.replace(/^\/+/, ""));
    } catch (err) {
      let message = `${err.message}${err.cause ? ` (${err.cause.message})` : ""}`;
      if (!keepGoing) throw new Error(`${path}: ${message}`, { cause: err });
      out[path] = { error: message };
    }
  }
  return out;
});
