"""numcodecs' own codecs (zlib, lz4, bz2, shuffle, delta, ...) for the zarrow tests: see README.md."""
import json
import os
import sys

import numcodecs
import numpy as np
from numcodecs.compat import ensure_ndarray


def path(directory, case, suffix):
    return os.path.join(directory, case["id"] + suffix)


def as_bytes(x):
    return ensure_ndarray(x).tobytes()


def decode_to(codec, data, target, empty):
    # numcodecs 0.11's LZ4 and Zstd raise on a chunk of no bytes, even their own: then no file is written
    try:
        out = as_bytes(codec.decode(data))
    except RuntimeError:
        if codec.codec_id in ("lz4", "zstd") and empty:
            return
        raise
    with open(target, "wb") as f:
        f.write(out)


def run(directory):
    """Encodes each case's input with numcodecs (.enc), decodes that (.rt), and decodes zarrow's (.zenc -> .zdec)."""
    with open(os.path.join(directory, "manifest.json")) as f:
        cases = json.load(f)
    lists = {}
    for case in cases:
        codec = numcodecs.get_codec(dict(case["config"]))
        kind = case["kind"]
        out = {}
        if kind == "vlen":
            dtype = np.dtype(case["config"]["dtype"])
            items = np.empty(len(case["items"]), dtype=object)
            for i, item in enumerate(case["items"]):
                items[i] = np.array(item, dtype=dtype)
            enc = codec.encode(items)
            with open(path(directory, case, ".enc"), "wb") as f:
                f.write(as_bytes(enc))
            out["rt"] = [a.tolist() for a in codec.decode(enc)]
            if os.path.exists(path(directory, case, ".zenc")):
                with open(path(directory, case, ".zenc"), "rb") as f:
                    out["zdec"] = [a.tolist() for a in codec.decode(f.read())]
            lists[case["id"]] = out
            continue
        with open(path(directory, case, ".raw"), "rb") as f:
            raw = f.read()
        # a writable copy: numcodecs 0.11's BitRound rounds its input in place
        data = np.frombuffer(raw, dtype=np.dtype(case["dtype"])).copy() if kind == "array" else raw
        enc = codec.encode(data)
        with open(path(directory, case, ".enc"), "wb") as f:
            f.write(as_bytes(enc))
        decode_to(codec, enc, path(directory, case, ".rt"), len(raw) == 0)
        if os.path.exists(path(directory, case, ".zenc")):
            with open(path(directory, case, ".zenc"), "rb") as f:
                decode_to(codec, f.read(), path(directory, case, ".zdec"), len(raw) == 0)
    print(json.dumps({"numcodecs": numcodecs.__version__, "numpy": np.__version__, "lists": lists}))


def seeds(directory):
    """Seed chunks for the fuzz targets: each target's filter chain applied by numcodecs (see README.md)."""
    rng = np.random.default_rng(19)
    written = {}
    for name, chain, dtype, n in TARGETS:
        target_dir = os.path.join(directory, name)
        os.makedirs(target_dir, exist_ok=True)
        count = 0
        for k in range(6):
            if dtype == "vlen":
                items = np.empty(n, dtype=object)
                for i in range(n):
                    items[i] = rng.integers(-1000, 1000, size=int(rng.integers(0, 6))).astype("<i4")
                data = items
            elif k % 2 == 0:
                data = (np.cumsum(rng.normal(size=n)) * 3).astype(dtype)
            else:
                data = rng.integers(-50, 50, size=n).astype(dtype)
            for codec in chain:
                data = numcodecs.get_codec(dict(codec)).encode(data)
            with open(os.path.join(target_dir, "numcodecs-%02d" % k), "wb") as f:
                f.write(as_bytes(data))
            count += 1
        written[name] = count
    print(json.dumps(written))


# The fuzz targets of NumcodecsFuzzTest: name, v2 filters + compressor (in encoding order), dtype, elements.
TARGETS = [
    ("deltaScaleShuffleZlib", [{"id": "delta", "dtype": "<f8", "astype": "<f8"},
                               {"id": "fixedscaleoffset", "offset": 0, "scale": 10, "dtype": "<f8", "astype": "<i4"},
                               {"id": "shuffle", "elementsize": 4}, {"id": "zlib", "level": 1}], "<f8", 64),
    ("deltaLz4", [{"id": "delta", "dtype": "<i8", "astype": "<i2"}, {"id": "lz4", "acceleration": 1}], "<i8", 64),
    ("quantizeAstypeBz2", [{"id": "quantize", "digits": 2, "dtype": "<f8", "astype": "<f4"},
                           {"id": "astype", "encode_dtype": "<f4", "decode_dtype": "<f4"},
                           {"id": "bz2", "level": 1}], "<f8", 64),
    ("vlenArrayZlib", [{"id": "vlen-array", "dtype": "<i4"}, {"id": "zlib", "level": 1}], "vlen", 9),
]


if __name__ == "__main__":
    {"run": run, "seeds": seeds}[sys.argv[1]](sys.argv[2])
