// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as the Zarr v3 `crc32c` codec uses it.
// zarrita 0.7.5 cannot encode crc32c (and does not verify it on decode), so the peer scripts
// compute it here. Check value: crc32c("123456789") == 0xE3069283.

const TABLE = (() => {
  let t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32c(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** bytes followed by their CRC-32C as 4 little-endian bytes (the Zarr `crc32c` codec's encoding). */
export function appendCrc32c(bytes) {
  let out = new Uint8Array(bytes.length + 4);
  out.set(bytes, 0);
  new DataView(out.buffer).setUint32(bytes.length, crc32c(bytes), true);
  return out;
}

if (crc32c(new TextEncoder().encode("123456789")) !== 0xe3069283) {
  throw new Error("crc32c self-check failed");
}
