// Arrow JS tables -> the JSON both arrow scripts print (see ../README.md, "arrow-read.mjs output").
//
// Schema: fields in the Arrow JSON integration format (name, nullable, type, children, optional
// dictionary and metadata as [{key, value}]), plus "type_string", arrow JS's own spelling of the type.
// Values: per column, one JSON value per row; conventions in ../README.md.
import * as A from "apache-arrow";

const T = A.Type;

export function schemaToJson(schema) {
  let out = { fields: schema.fields.map(fieldToJson) };
  if (schema.metadata?.size) out.metadata = metadataToJson(schema.metadata);
  return out;
}

function metadataToJson(map) {
  return [...map].map(([key, value]) => ({ key, value }));
}

export function fieldToJson(field) {
  let type = field.type;
  let out = { name: field.name, nullable: field.nullable };
  if (type.typeId === T.Dictionary) {
    out.type = typeToJson(type.dictionary);
    out.children = childFields(type.dictionary).map(fieldToJson);
    out.dictionary = {
      id: type.id,
      indexType: typeToJson(type.indices),
      isOrdered: type.isOrdered,
    };
  } else {
    out.type = typeToJson(type);
    out.children = childFields(type).map(fieldToJson);
  }
  if (field.metadata?.size) out.metadata = metadataToJson(field.metadata);
  out.type_string = type.toString();
  return out;
}

function childFields(type) {
  return type.children ?? [];
}

export function typeToJson(type) {
  switch (type.typeId) {
    case T.Null: return { name: "null" };
    case T.Int: return { name: "int", bitWidth: type.bitWidth, isSigned: type.isSigned };
    case T.Float: return { name: "floatingpoint", precision: A.Precision[type.precision] };
    case T.Binary: return { name: "binary" };
    case T.LargeBinary: return { name: "largebinary" };
    case T.Utf8: return { name: "utf8" };
    case T.LargeUtf8: return { name: "largeutf8" };
    case T.BinaryView: return { name: "binaryview" };
    case T.Utf8View: return { name: "utf8view" };
    case T.Bool: return { name: "bool" };
    case T.Decimal:
      return { name: "decimal", precision: type.precision, scale: type.scale, bitWidth: type.bitWidth };
    case T.Date: return { name: "date", unit: A.DateUnit[type.unit] };
    case T.Time: return { name: "time", unit: A.TimeUnit[type.unit], bitWidth: type.bitWidth };
    case T.Timestamp: {
      let out = { name: "timestamp", unit: A.TimeUnit[type.unit] };
      if (type.timezone != null) out.timezone = type.timezone;
      return out;
    }
    case T.Interval: return { name: "interval", unit: A.IntervalUnit[type.unit] };
    case T.Duration: return { name: "duration", unit: A.TimeUnit[type.unit] };
    case T.List: return { name: "list" };
    case T.LargeList: return { name: "largelist" };
    case T.FixedSizeList: return { name: "fixedsizelist", listSize: type.listSize };
    case T.FixedSizeBinary: return { name: "fixedsizebinary", byteWidth: type.byteWidth };
    case T.Struct: return { name: "struct" };
    case T.Map: return { name: "map", keysSorted: type.keysSorted };
    case T.Union:
      return { name: "union", mode: A.UnionMode[type.mode], typeIds: Array.from(type.typeIds) };
    default: throw new Error(`no JSON form for arrow type ${type}`);
  }
}

// -------------------------------------------------------------------------------------- values
// Arrow JS keeps value buffers already sliced to the Data (index i), but validity and bool bitmaps
// are addressed at data.offset + i.

function isValid(data, i) {
  if (data.type.typeId === T.Null) return false;
  if (data.type.typeId === T.Union) return true;
  let bitmap = data.nullBitmap;
  if (!bitmap || bitmap.length === 0 || data.nullCount === 0) return true;
  let bit = data.offset + i;
  return (bitmap[bit >> 3] & (1 << (bit & 7))) !== 0;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function bytesAt(data, i) {
  let o = data.valueOffsets;
  return data.values.subarray(Number(o[i]), Number(o[i + 1]));
}

/** Signed integer of `words` little-endian 32-bit words (two's complement). */
function wordsToBigInt(words) {
  let v = 0n;
  for (let k = words.length - 1; k >= 0; k--) v = (v << 32n) | BigInt(words[k] >>> 0);
  return BigInt.asIntN(32 * words.length, v);
}

function decimalString(unscaled, scale) {
  if (scale <= 0) return (unscaled * 10n ** BigInt(-scale)).toString();
  let neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString().padStart(scale + 1, "0");
  return `${neg ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** The JSON value of row i of an arrow JS Data (one chunk of a column). */
export function valueAt(data, i) {
  let type = data.type;
  if (!isValid(data, i)) return null;
  switch (type.typeId) {
    case T.Dictionary: {
      let index = Number(data.values[i]);
      return vectorValue(data.dictionary, index);
    }
    case T.Int:
    case T.Date:
    case T.Time:
    case T.Timestamp:
    case T.Duration:
      return data.values[i]; // bigint for every 64-bit storage -> decimal string in toJson
    case T.Float:
      return type.precision === A.Precision.HALF ? A.util.uint16ToFloat64(data.values[i]) : data.values[i];
    case T.Bool: {
      let bit = data.offset + i;
      return (data.values[bit >> 3] & (1 << (bit & 7))) !== 0;
    }
    case T.Decimal: {
      let stride = type.bitWidth / 32;
      return decimalString(wordsToBigInt(data.values.subarray(i * stride, (i + 1) * stride)), type.scale);
    }
    case T.Utf8:
    case T.LargeUtf8:
      return utf8.decode(bytesAt(data, i));
    case T.Binary:
    case T.LargeBinary:
      return bytesAt(data, i).slice();
    case T.FixedSizeBinary:
      return data.values.slice(i * type.byteWidth, (i + 1) * type.byteWidth);
    case T.List:
    case T.LargeList:
    case T.Map: {
      let o = data.valueOffsets;
      let child = data.children[0];
      let out = [];
      for (let j = Number(o[i]); j < Number(o[i + 1]); j++) out.push(valueAt(child, j));
      return out;
    }
    case T.FixedSizeList: {
      let child = data.children[0];
      let out = [];
      for (let j = i * type.listSize; j < (i + 1) * type.listSize; j++) out.push(valueAt(child, j));
      return out;
    }
    case T.Struct: {
      let out = {};
      type.children.forEach((f, k) => { out[f.name] = valueAt(data.children[k], i); });
      return out;
    }
    case T.Union: {
      // {"type_id": id, "value": the member's value}; a dense union's member value is at its offset.
      let id = data.typeIds[i];
      let child = data.children[type.typeIdToChildIndex[id]];
      return { type_id: id, value: valueAt(child, type.mode === A.UnionMode.Dense ? data.valueOffsets[i] : i) };
    }
    case T.Interval: {
      let stride = data.stride;
      return Array.from(data.values.subarray(i * stride, (i + 1) * stride));
    }
    default:
      throw new Error(`no JSON value form for arrow type ${type}`);
  }
}

function vectorValue(vector, index) {
  let seen = 0;
  for (let data of vector.data) {
    if (index < seen + data.length) return valueAt(data, index - seen);
    seen += data.length;
  }
  throw new Error(`index ${index} outside a vector of ${seen}`);
}

/** {schema, num_rows, batches: [rows per batch], columns: [{name, values}]} of record batches. */
export function batchesToJson(schema, batches) {
  let columns = schema.fields.map((f) => ({ name: f.name, values: [] }));
  for (let batch of batches) {
    batch.data.children.forEach((child, k) => {
      for (let i = 0; i < batch.numRows; i++) columns[k].values.push(valueAt(child, i));
    });
  }
  return {
    schema: schemaToJson(schema),
    num_rows: batches.reduce((n, b) => n + b.numRows, 0),
    batches: batches.map((b) => b.numRows),
    columns,
  };
}
