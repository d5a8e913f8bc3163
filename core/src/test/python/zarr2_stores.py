"""Zarr v2 stores written and read by zarr-python 2, for zarrow's v2 interop tests (see README.md).

write DIR   writes one array per case of CASES into the v2 group at DIR; prints the cases with the values
            zarrow must read (missing chunks as zarrow reads them: numeric fill null as zero, object
            arrays' fill as the empty value).
read DIR    reads every array of the v2 group at DIR; prints its dtype, order, separator, compressor,
            filters, fill value, attributes and values, and the group's attributes.
Values are flat in C order: numbers (NaN and the infinities as strings), complex as [re, im], bytes as
base64, strings as they are.
"""
import base64
import json
import math
import sys

import numcodecs
import numpy as np
import zarr

B = numcodecs.Blosc

# One line per case: name, dtype, shape, chunks, and options of zarr.create; "v3" is the v3 data type
# name zarrow maps the dtype to; "pending" names the branch whose codecs or data types the case needs;
CASES = [
    dict(name="bool", dtype="|b1", shape=[10], chunks=[4], v3="bool"),
    dict(name="i1", dtype="|i1", shape=[10], chunks=[4], v3="int8"),
    dict(name="i2le", dtype="<i2", shape=[10], chunks=[4], v3="int16"),
    dict(name="i2be", dtype=">i2", shape=[10], chunks=[4], v3="int16"),
    dict(name="i4le", dtype="<i4", shape=[10], chunks=[4], v3="int32"),
    dict(name="i4be", dtype=">i4", shape=[10], chunks=[4], v3="int32"),
    dict(name="i8le", dtype="<i8", shape=[10], chunks=[4], v3="int64"),
    dict(name="i8be", dtype=">i8", shape=[10], chunks=[4], v3="int64"),
    dict(name="u1", dtype="|u1", shape=[10], chunks=[4], v3="uint8"),
    dict(name="u2le", dtype="<u2", shape=[10], chunks=[4], v3="uint16"),
    dict(name="u2be", dtype=">u2", shape=[10], chunks=[4], v3="uint16"),
    dict(name="u4le", dtype="<u4", shape=[10], chunks=[4], v3="uint32"),
    dict(name="u4be", dtype=">u4", shape=[10], chunks=[4], v3="uint32"),
    dict(name="u8le", dtype="<u8", shape=[10], chunks=[4], v3="uint64"),
    dict(name="u8be", dtype=">u8", shape=[10], chunks=[4], v3="uint64"),
    dict(name="f2le", dtype="<f2", shape=[10], chunks=[4], v3="float16"),
    dict(name="f2be", dtype=">f2", shape=[10], chunks=[4], v3="float16"),
    dict(name="f4le", dtype="<f4", shape=[10], chunks=[4], v3="float32"),
    dict(name="f4be", dtype=">f4", shape=[10], chunks=[4], v3="float32"),
    dict(name="f8le", dtype="<f8", shape=[10], chunks=[4], v3="float64"),
    dict(name="f8be", dtype=">f8", shape=[10], chunks=[4], v3="float64"),
    dict(name="c8le", dtype="<c8", shape=[10], chunks=[4], v3="complex64"),
    dict(name="c8be", dtype=">c8", shape=[10], chunks=[4], v3="complex64"),
    dict(name="c16le", dtype="<c16", shape=[10], chunks=[4], v3="complex128"),
    dict(name="c16be", dtype=">c16", shape=[10], chunks=[4], v3="complex128"),
    dict(name="order_f_3d", dtype="<i4", shape=[5, 6, 7], chunks=[2, 4, 3], order="F", v3="int32"),
    dict(name="order_f_be", dtype=">f8", shape=[9, 4], chunks=[4, 3], order="F", v3="float64"),
    dict(name="order_c_2d", dtype="<u2", shape=[9, 4], chunks=[4, 3], order="C", v3="uint16"),
    dict(name="slash_sep", dtype="<i8", shape=[7, 5], chunks=[3, 2], dimension_separator="/", v3="int64"),
    dict(name="scalar", dtype="<f8", shape=[], chunks=[], v3="float64"),
    dict(name="fill_nan", dtype="<f4", shape=[12], chunks=[4], fill_value=float("nan"), v3="float32"),
    dict(name="fill_inf", dtype="<f8", shape=[12], chunks=[4], fill_value=float("inf"), v3="float64"),
    dict(name="fill_minf", dtype=">f8", shape=[12], chunks=[4], fill_value=float("-inf"), v3="float64"),
    dict(name="fill_int", dtype="<i4", shape=[12], chunks=[4], fill_value=42, v3="int32"),
    dict(name="fill_null", dtype="<i2", shape=[12], chunks=[4], fill_value=None, v3="int16"),
    dict(name="fill_null_float", dtype="<f8", shape=[12], chunks=[4], fill_value=None, v3="float64"),
    dict(name="fill_true", dtype="|b1", shape=[12], chunks=[4], fill_value=True, v3="bool"),
    dict(name="blosc_lz4", dtype="<i4", shape=[40], chunks=[16], compressor=B("lz4", 5, B.SHUFFLE), v3="int32"),
    dict(name="blosc_zstd_bit", dtype="<f8", shape=[40], chunks=[16], compressor=B("zstd", 3, B.BITSHUFFLE), v3="float64"),
    dict(name="blosc_auto", dtype="|u1", shape=[40], chunks=[16], compressor=B("lz4hc", 5, B.AUTOSHUFFLE), v3="uint8"),
    dict(name="blosc_blosclz", dtype="<i4", shape=[40], chunks=[16], compressor=B("blosclz", 5, B.SHUFFLE), v3="int32"),
    dict(name="blosc_none", dtype=">i8", shape=[40], chunks=[16], compressor=B("zlib", 1, B.NOSHUFFLE), v3="int64"),
    dict(name="gzip", dtype="<i4", shape=[40], chunks=[16], compressor=numcodecs.GZip(5), v3="int32"),
    dict(name="zstd", dtype="<f4", shape=[40], chunks=[16], compressor=numcodecs.Zstd(3), v3="float32"),
    dict(name="uncompressed", dtype="<i2", shape=[40], chunks=[16], compressor=None, v3="int16"),
    dict(name="vlen_utf8", dtype=object, object_codec=numcodecs.VLenUTF8(), shape=[11], chunks=[4], v3="string"),
    dict(name="vlen_utf8_2d", dtype=str, shape=[5, 3], chunks=[2, 2], order="F", v3="string"),
    dict(name="vlen_bytes", dtype=object, object_codec=numcodecs.VLenBytes(), shape=[11], chunks=[4], v3="bytes"),
    dict(name="vlen_bytes_gzip", dtype=bytes, shape=[11], chunks=[4], compressor=numcodecs.GZip(1), v3="bytes"),
    # numcodecs' codecs, resolved once the numcodecs branch lands
    dict(name="zlib", dtype="<i4", shape=[40], chunks=[16], compressor=numcodecs.Zlib(3), v3="int32", pending="numcodecs"),
    dict(name="lz4", dtype="<i4", shape=[40], chunks=[16], compressor=numcodecs.LZ4(1), v3="int32", pending="numcodecs"),
    dict(name="bz2", dtype="<i4", shape=[40], chunks=[16], compressor=numcodecs.BZ2(9), v3="int32", pending="numcodecs"),
    dict(name="delta", dtype="<i4", shape=[40], chunks=[16], filters=[numcodecs.Delta("<i4")], v3="int32", pending="numcodecs"),
    dict(name="shuffle", dtype="<i4", shape=[40], chunks=[16], filters=[numcodecs.Shuffle(4)], v3="int32", pending="numcodecs"),
    dict(name="vlen_array", dtype=object, object_codec=numcodecs.VLenArray("<i4"), shape=[6], chunks=[4], v3="arrow", pending="numcodecs"),
    # data types of the v2types branch
    dict(name="S5", dtype="|S5", shape=[10], chunks=[4], v3="null_terminated_bytes", pending="v2types"),
    dict(name="U3", dtype="<U3", shape=[10], chunks=[4], v3="fixed_length_utf32", pending="v2types"),
    dict(name="V4", dtype="|V4", shape=[10], chunks=[4], v3="raw_bytes", pending="v2types"),
    dict(name="M8ns", dtype="<M8[ns]", shape=[10], chunks=[4], v3="numpy.datetime64", pending="v2types"),
    dict(name="m8s", dtype="<m8[s]", shape=[10], chunks=[4], v3="numpy.timedelta64", pending="v2types"),
    dict(name="struct", dtype=[("a", "<i4"), ("b", "<f8")], shape=[10], chunks=[4], v3="struct", pending="v2types"),
    # the fill value is base64 of the big-endian record bytes
    dict(name="struct_be_fill", dtype=[("a", ">i4"), ("b", ">f8")], shape=[10], chunks=[4], fill_value=(-7, 2.5), v3="struct"),
]


def values_of(dtype, n):
    i = np.arange(n)
    kind = dtype.kind
    if kind == "b":
        return i % 3 == 0
    if kind in "iu":
        info = np.iinfo(dtype)
        base = (i * 7919) % 251 - (120 if kind == "i" else 0)
        if dtype.itemsize == 8:
            return (base + i * (1 << 33)).astype(dtype)
        return np.clip(base, info.min, info.max).astype(dtype)
    if kind == "f":
        return ((i % 97) * 0.25 - 3).astype(dtype)
    if kind == "c":
        return ((i % 13) * 0.5 - 1j * (i % 7) * 0.25).astype(dtype)
    if kind == "S":
        return np.array([("b%d" % k).encode()[: dtype.itemsize] for k in i], dtype=dtype)
    if kind == "U":
        return np.array([("é%d" % k)[: dtype.itemsize // 4] for k in i], dtype=dtype)
    if kind == "V":
        return np.frombuffer(bytes((k * 3) % 256 for k in range(n * dtype.itemsize)), dtype=dtype)
    if kind == "M" or kind == "m":
        return (i * 1000 - 3000).astype("<i8").view(dtype)
    if kind == "O" or kind == "U":
        raise AssertionError
    if dtype.fields:
        out = np.zeros(n, dtype=dtype)
        out["a"] = i - 5
        out["b"] = i * 0.5
        return out
    raise AssertionError(dtype)


def object_values(codec, n):
    out = np.empty(n, dtype=object)
    for k in range(n):
        if isinstance(codec, numcodecs.VLenUTF8) or codec is str:
            out[k] = "" if k % 5 == 4 else "s%d%s" % (k, "é" * (k % 3))
        elif isinstance(codec, numcodecs.VLenBytes) or codec is bytes:
            out[k] = bytes([k % 256]) * (k % 4)
        else:
            out[k] = np.arange(k % 4, dtype="<i4") - 1
    return out


def json_value(v):
    if isinstance(v, (bytes, np.bytes_)):
        return base64.b64encode(bytes(v)).decode()
    if isinstance(v, np.void):
        if v.dtype.fields:
            return {name: json_value(v[name]) for name in v.dtype.names}
        return base64.b64encode(v.tobytes()).decode()
    if isinstance(v, np.ndarray):
        return [json_value(x) for x in v]
    if isinstance(v, (np.datetime64, np.timedelta64)):
        return int(v.astype("<i8"))
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (np.integer, int)):
        return int(v)
    if isinstance(v, (np.complexfloating, complex)):
        return [json_value(v.real), json_value(v.imag)]
    if isinstance(v, (np.floating, float)):
        f = float(v)
        if math.isnan(f):
            return "NaN"
        if math.isinf(f):
            return "Infinity" if f > 0 else "-Infinity"
        return f
    if isinstance(v, str):
        return v
    raise AssertionError(type(v))


def write(directory):
    group = zarr.open_group(directory, mode="w")
    out = []
    for case in CASES:
        options = {k: v for k, v in case.items() if k not in ("name", "v3", "pending", "shape", "chunks")}
        shape, chunks = tuple(case["shape"]), tuple(case["chunks"])
        array = group.create(case["name"], shape=shape, chunks=chunks or True, **options)
        n = int(np.prod(shape))
        dtype = array.dtype
        if dtype.kind == "O":
            codec = case.get("object_codec", case["dtype"])
            data = object_values(codec, n)
            blank = "" if codec is str or isinstance(codec, numcodecs.VLenUTF8) else b"" if codec is bytes or isinstance(codec, numcodecs.VLenBytes) else np.zeros(0, "<i4")
        else:
            data = values_of(dtype, n)
            blank = None
        data = data.reshape(shape)
        # The last chunk row stays unwritten, so that it reads as the fill value.
        region = (slice(0, chunks[0] * ((shape[0] - 1) // chunks[0])),) if len(shape) > 0 else ()
        if len(shape) == 0:
            array[...] = data
            expected = array[...]
        else:
            array[region] = data[region]
            expected = array[...]
            if blank is not None or case.get("fill_value", 0) is None:
                fixed = np.empty(shape, dtype=object) if blank is not None else np.zeros(shape, dtype=dtype)
                for index in np.ndindex(shape):
                    fixed[index] = blank if blank is not None else 0
                fixed[region] = data[region]
                expected = fixed
        flat = np.asarray(expected, dtype=expected.dtype).reshape(-1, order="C") if len(shape) else [expected[()]]
        if dtype.kind == "S":  # zarrow reads |Sn as n bytes (Arrow FixedSizeBinary), the NUL padding kept
            flat = [bytes(v).ljust(dtype.itemsize, b"\0") for v in flat]
        out.append({"name": case["name"], "v3": case["v3"], "pending": case.get("pending"),
                    "shape": list(shape), "values": [json_value(v) for v in flat]})
    print(json.dumps({"cases": out}))


def values_of_array(name, flat):
    try:
        # None: a missing element of an object array whose fill is null (vlen-array: v2 has no empty-list fill)
        return [None if v is None else json_value(v) for v in flat]
    except AssertionError as e:
        raise AssertionError("%s: %s in %s" % (name, e, list(flat)[:8]))


def read(directory):
    group = zarr.open_group(directory, mode="r")
    out = {}
    for name, array in group.arrays():
        data = array[...]
        if array.fill_value is None and array.dtype.kind != "O" and array.ndim:
            # no defined fill (zarr-python 2 returns uninitialised memory): missing chunks as zero, as zarrow reads them
            data = data.copy()
            for index in np.ndindex(*array.cdata_shape):
                if array._chunk_key(index) not in array.store:
                    data[tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(index, array.chunks, array.shape))] = 0
        flat = data.reshape(-1, order="C") if array.ndim else [data[()]]
        if array.dtype.kind == "S":  # as written: n bytes, the NUL padding kept
            flat = [bytes(v).ljust(array.dtype.itemsize, b"\0") for v in flat]
        out[name] = {
            "dtype": str(array.dtype) if not array.dtype.fields else "structured",
            "order": array.order,
            "shape": list(array.shape),
            "chunks": list(array.chunks),
            "compressor": None if array.compressor is None else array.compressor.get_config(),
            "filters": None if array.filters is None else [f.get_config() for f in array.filters],
            "fill_value": json_value(array.fill_value) if array.fill_value is not None else None,
            "separator": array._dimension_separator,
            "attributes": dict(array.attrs),
            "values": values_of_array(name, flat),
        }
    print(json.dumps({"arrays": out, "groups": sorted(n for n, _ in group.groups()), "attributes": dict(group.attrs)}))


if __name__ == "__main__":
    {"write": write, "read": read}[sys.argv[1]](sys.argv[2])
