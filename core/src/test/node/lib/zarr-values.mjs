// Turn what zarrita returns into the manifest's value form: a flat list in C order.
import * as zarr from "zarrita";

/** Element i of a zarrita chunk's data (TypedArray, BoolArray or plain Array). */
function elementAt(data, i) {
  if (data instanceof zarr.BoolArray) return data.get(i);
  return data[i];
}

/**
 * Flattens the result of zarr.get / Array.getChunk (data + shape + stride, any order, e.g. the
 * F or permuted order zarrita hands back for a `transpose` codec) into C order.
 */
export function flattenC(result, shape) {
  if (result === null || typeof result !== "object" || !("data" in result)) {
    return [result]; // zarr.get of a 0-d array gives the scalar itself
  }
  let { data, stride } = result;
  shape = result.shape ?? shape;
  let size = shape.reduce((a, b) => a * b, 1);
  let out = new Array(size);
  let index = new Array(shape.length).fill(0);
  for (let n = 0; n < size; n++) {
    let pos = 0;
    for (let d = 0; d < shape.length; d++) pos += index[d] * stride[d];
    out[n] = elementAt(data, pos);
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

/** Reads a whole array with zarrita: {shape, data_type, fill_value, values}. */
export async function readArray(store, path) {
  let arr = await zarr.open.v3(zarr.root(store).resolve(path), { kind: "array" });
  return arrayJson(arr);
}

async function arrayJson(arr) {
  let result = await zarr.get(arr);
  return {
    shape: arr.shape,
    data_type: arr.dtype,
    fill_value: arr.fillValue,
    values: flattenC(result, arr.shape),
  };
}

/**
 * Opens the node at `path` with zarrita: a group gives {node_type: "group", attributes}, an array
 * {node_type: "array", shape, data_type, fill_value, values, attributes, dimension_names} (the last
 * only when zarr.json has them).
 */
export async function readNode(store, path) {
  let node = await zarr.open.v3(zarr.root(store).resolve(path));
  if (node instanceof zarr.Group) {
    return { node_type: "group", attributes: node.attrs };
  }
  let out = { node_type: "array", ...(await arrayJson(node)), attributes: node.attrs };
  if (node.dimensionNames !== undefined) out.dimension_names = node.dimensionNames;
  return out;
}
