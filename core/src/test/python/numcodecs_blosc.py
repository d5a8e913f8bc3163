"""Blosc through numcodecs (Debian's c-blosc) for the zarrow tests: see README.md."""
import json
import os
import sys
import time

import numcodecs
import numpy as np
from numcodecs import blosc


def dtype_of(typesize):
    # numcodecs takes the typesize from the buffer's item size
    return np.dtype({1: "u1", 2: "<u2", 4: "<u4", 8: "<u8"}.get(typesize, "V%d" % typesize))


def cases(directory):
    with open(os.path.join(directory, "manifest.json")) as f:
        return json.load(f)


def compress(directory):
    for case in cases(directory):
        raw = np.fromfile(os.path.join(directory, case["id"] + ".raw"), dtype=np.uint8)
        ts = case["typesize"]
        # numcodecs takes the typesize from the buffer's items: sizes are whole elements here
        view = raw.view(dtype_of(ts))
        out = blosc.compress(view, case["cname"].encode(), case["clevel"], case["shuffle"], case["blocksize"])
        with open(os.path.join(directory, case["id"] + ".blosc"), "wb") as f:
            f.write(out)


def decompress(directory):
    for case in cases(directory):
        with open(os.path.join(directory, case["id"] + ".blosc"), "rb") as f:
            data = f.read()
        # numcodecs 0.11 raises on a chunk of 0 bytes, even on its own: c-blosc returns 0 for it
        nbytes = int.from_bytes(data[4:8], "little") if len(data) >= 16 else -1
        with open(os.path.join(directory, case["id"] + ".out"), "wb") as f:
            f.write(b"" if nbytes == 0 else blosc.decompress(data))


def values(shape, dtype, seed):
    n = int(np.prod(shape))
    i = np.arange(n, dtype=np.float64)
    v = 250 + 40 * np.sin(i / 997.0 + seed) + (i % 13) / 8.0
    return v.astype(dtype).reshape(shape)


def zarr2(directory, spec):
    import zarr

    compressor = numcodecs.Blosc(cname=spec["cname"], clevel=spec["clevel"], shuffle=spec["shuffle"])
    a = zarr.open_array(directory, mode="w", shape=spec["shape"], chunks=spec["chunks"], dtype=spec["dtype"],
                        compressor=compressor, fill_value=0)
    v = values(spec["shape"], np.dtype(spec["dtype"]), spec["seed"])
    a[...] = v
    out = {"numcodecs": numcodecs.__version__, "cblosc": blosc.VERSION_STRING}
    if spec.get("print_values", True):
        out["values"] = v.ravel().tolist()
    return out


def temperatures(directory, spec):
    """A float32 field of temperatures in kelvin (smooth, half a degree of noise, full float precision)."""
    import zarr

    rows, cols = spec["shape"]
    compressor = numcodecs.Blosc(cname=spec["cname"], clevel=spec["clevel"], shuffle=spec["shuffle"])
    a = zarr.open_array(directory, mode="w", shape=(rows, cols), chunks=spec["chunks"], dtype="<f4",
                        compressor=compressor, fill_value=0)
    rng = np.random.default_rng(42)
    lon = np.linspace(0, 2 * np.pi, cols, dtype=np.float32)
    step = spec["chunks"][0]
    for r in range(0, rows, step):
        lat = np.linspace(-np.pi / 2, np.pi / 2, rows, dtype=np.float32)[r:r + step, None]
        t = 288 - 30 * np.sin(lat) ** 2 + 5 * np.sin(3 * lon)[None, :] + rng.normal(0, spec.get("noise", 0.5), (len(lat), cols))
        a[r:r + step, :] = t.astype(np.float32)
    return {"nbytes": a.nbytes, "nbytes_stored": a.nbytes_stored}


def v3_metadata(directory):
    """A zarr.json over the chunks of the zarr-python 2 array at DIR (v2 chunk keys, blosc as stored)."""
    with open(os.path.join(directory, ".zarray")) as f:
        z = json.load(f)
    c = z["compressor"]
    names = {0: "noshuffle", 1: "shuffle", 2: "bitshuffle"}
    dtype = np.dtype(z["dtype"])
    meta = {
        "zarr_format": 3, "node_type": "array", "shape": z["shape"], "data_type": dtype.name,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": z["chunks"]}},
        "chunk_key_encoding": {"name": "v2", "configuration": {"separator": z.get("dimension_separator", ".")}},
        "fill_value": z["fill_value"],
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                   {"name": "blosc", "configuration": {"typesize": dtype.itemsize, "cname": c["cname"],
                                                        "clevel": c["clevel"], "shuffle": names[c["shuffle"]],
                                                        "blocksize": c["blocksize"]}}],
        "attributes": {},
    }
    with open(os.path.join(directory, "zarr.json"), "w") as f:
        json.dump(meta, f)
    return meta


def zarr2_read(directory):
    import zarr

    start = time.perf_counter()
    a = zarr.open_array(directory, mode="r")
    v = a[...]
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "sum": float(np.sum(v, dtype=np.float64)), "shape": list(v.shape)}


def main(argv):
    command = argv[1]
    if command == "compress":
        compress(argv[2])
    elif command == "decompress":
        decompress(argv[2])
    elif command == "zarr2":
        print(json.dumps(zarr2(argv[2], json.loads(argv[3]))))
        return
    elif command == "temperatures":
        print(json.dumps(temperatures(argv[2], json.loads(argv[3]))))
        return
    elif command == "v3-metadata":
        print(json.dumps(v3_metadata(argv[2])))
        return
    elif command == "zarr2-read":
        print(json.dumps(zarr2_read(argv[2])))
        return
    else:
        raise SystemExit("unknown command " + command)
    print(json.dumps({"version": blosc.VERSION_STRING}))


if __name__ == "__main__":
    main(sys.argv)
