// JSON conventions shared by every peer script (see ../README.md, "Value conventions").
//
//  - bigint (every value stored as a 64-bit integer)  -> decimal string, e.g. "-9223372036854775808"
//  - NaN, Infinity, -Infinity                         -> "NaN", "Infinity", "-Infinity"
//  - -0 (negative zero)                               -> -0.0 (a JSON number, sign kept)
//  - Uint8Array (binary values)                       -> base64 string
//  - undefined                                        -> null
// JSON.stringify cannot do the last four, hence this small serializer.

export function toJson(value) {
  let out = [];
  write(value, out);
  return out.join("");
}

function write(v, out) {
  if (v === null || v === undefined) {
    out.push("null");
  } else if (typeof v === "bigint") {
    out.push('"', v.toString(), '"');
  } else if (typeof v === "number") {
    out.push(number(v));
  } else if (typeof v === "string") {
    out.push(JSON.stringify(v));
  } else if (typeof v === "boolean") {
    out.push(v ? "true" : "false");
  } else if (v instanceof Uint8Array) {
    out.push('"', Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64"), '"');
  } else if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    out.push("[");
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(",");
      write(v[i], out);
    }
    out.push("]");
  } else if (typeof v === "object") {
    out.push("{");
    let first = true;
    for (let [k, x] of Object.entries(v)) {
      if (!first) out.push(",");
      first = false;
      out.push(JSON.stringify(k), ":");
      write(x, out);
    }
    out.push("}");
  } else {
    throw new TypeError(`cannot serialize ${typeof v}`);
  }
}

function number(n) {
  if (Number.isNaN(n)) return '"NaN"';
  if (n === Infinity) return '"Infinity"';
  if (n === -Infinity) return '"-Infinity"';
  if (Object.is(n, -0)) return "-0.0";
  return JSON.stringify(n);
}

/** Runs an async main, prints its result as one JSON line on stdout; on error: message on stderr, exit 1. */
export async function runMain(name, usage, minArgs, main) {
  let args = process.argv.slice(2);
  if (args.length < minArgs || args.includes("--help")) {
    process.stderr.write(`usage: node ${name} ${usage}\n`);
    process.exit(2);
  }
  try {
    let result = await main(args);
    process.stdout.write(toJson(result) + "\n");
  } catch (err) {
    process.stderr.write(`${name}: ${err?.stack ?? err}\n`);
    if (err?.cause) process.stderr.write(`caused by: ${err.cause?.stack ?? err.cause}\n`);
    process.exitCode = 1;
  }
}
