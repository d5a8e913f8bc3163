"""The Zarr v2 interop matrix of issue 19 against zarr-python 2 (Debian's python3-zarr 2.13, numcodecs 0.11).

write DIR   writes one array per case of matrix() into the v2 group at DIR, consolidates DIR (.zmetadata),
            and prints the manifest: {"cases": [{"name", "dtype", "order", "separator", "compressor",
            "filters", "fill_value", "shape", "chunks", "missing", "attributes", "values"}]} where "values" are the
            elements zarrow must read, flat in C order (see canonical()); missing chunks hold the
            fill value as zarrow reads it: a numeric fill of null as zero, an object array's fill as the
            empty value.
check DIR MANIFEST
            reads every array MANIFEST (a file of the same form, "values" as zarrow wrote them) names from
            the v2 group at DIR and prints {"arrays": {name: {"problems": [...], "dtype", "order",
            "separator", "compressor", "filters", "fill_value", "attributes"}}}: one report per array, an empty list
            when zarr-python 2 reads it equal. With --consolidated, each report also has
            "consolidated_problems": the same comparison through zarr.open_consolidated (DIR's .zmetadata).

Canonical values (zarrow's JsonValueWriter writes the same): numbers (NaN and the infinities as strings,
unsigned 64-bit numbers beyond 2^63 as decimal strings), complex as [re, im], NaT as null, |Sn as base64
of all n bytes (NUL-padded), |Vn and vlen bytes as base64, structured as {field: value}, a sub-array field
as nested lists (its shape), vlen-array as lists.
"""
import base64
import json
import math
import sys

import numcodecs
import numpy as np
import zarr

B = numcodecs.Blosc
STRUCT = [("a", "<i4"), ("b", "<f8"), ("c", "|S3")]
STRUCT_BE = [("x", ">u2"), ("y", ">f4")]
# sub-array fields (issue 27): one and two dimensions, of a nested struct, big-endian
SUBARRAY = [("a", "<f8"), ("v", "<i2", (2,)), ("m", "<i4", (2, 3))]
SUBARRAY_BE = [("m", ">i4", (2, 3)), ("n", ">f8"), ("v", ">u2", (2,))]
SUBARRAY_NESTED = [("p", [("x", "<f4"), ("y", "|u1")], (2,)), ("s", "|S2", (3,)), ("t", "<M8[s]", (2,))]


def case(name, dtype, shape=(11,), chunks=(4,), missing=None, **options):
    """One array. missing: chunk indices left unwritten (default: the second chunk of the first axis)."""
    return dict(name=name, dtype=dtype, shape=tuple(shape), chunks=tuple(chunks), missing=missing, options=options)


def matrix():
    cases = []
    # Every dtype, each with a partial edge chunk and a missing chunk (11 elements in chunks of 4).
    for code in ["|b1", "|i1", "|u1"]:
        cases.append(case("dtype_" + code[1:], code))
    for code in ["i2", "i4", "i8", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]:
        cases.append(case("dtype_%s_le" % code, "<" + code))
        cases.append(case("dtype_%s_be" % code, ">" + code))
    for code in ["M8[ns]", "M8[us]", "M8[ms]", "M8[s]", "M8[D]", "m8[s]", "m8[ns]", "m8[h]"]:
        cases.append(case("dtype_%s_le" % code.replace("[", "_").rstrip("]"), "<" + code))
    cases.append(case("dtype_M8_ns_be", ">M8[ns]"))
    cases.append(case("dtype_m8_ms_be", ">m8[ms]"))
    cases.append(case("dtype_S5", "|S5"))
    cases.append(case("dtype_U7_le", "<U7"))
    cases.append(case("dtype_U7_be", ">U7"))
    cases.append(case("dtype_V4", "|V4"))
    cases.append(case("dtype_struct", STRUCT))
    cases.append(case("dtype_struct_be", STRUCT_BE))
    cases.append(case("dtype_struct_subarray", SUBARRAY))
    cases.append(case("dtype_struct_subarray_be", SUBARRAY_BE))
    cases.append(case("dtype_struct_subarray_nested", SUBARRAY_NESTED))
    cases.append(case("object_vlen_utf8", object, object_codec=numcodecs.VLenUTF8()))
    cases.append(case("object_vlen_bytes", object, object_codec=numcodecs.VLenBytes()))
    cases.append(case("object_vlen_array", object, object_codec=numcodecs.VLenArray("<i4")))
    cases.append(case("object_vlen_array_f8", object, object_codec=numcodecs.VLenArray(">f8")))
    # Every compressor.
    for cname in ["lz4", "lz4hc", "zstd", "zlib", "blosclz"]:
        for shuffle, sname in [(B.NOSHUFFLE, "noshuffle"), (B.SHUFFLE, "shuffle"), (B.BITSHUFFLE, "bitshuffle")]:
            cases.append(case("blosc_%s_%s" % (cname, sname), "<f8", (40,), (16,), compressor=B(cname, 5, shuffle)))
    cases.append(case("blosc_autoshuffle_u1", "|u1", (40,), (16,), compressor=B("lz4", 5, B.AUTOSHUFFLE)))
    cases.append(case("blosc_autoshuffle_i4be", ">i4", (40,), (16,), compressor=B("zstd", 3, B.AUTOSHUFFLE)))
    cases.append(case("blosc_blocksize", "<i2", (400,), (160,), compressor=B("lz4", 5, B.SHUFFLE, blocksize=64)))
    cases.append(case("zlib", "<i4", (40,), (16,), compressor=numcodecs.Zlib(3)))
    cases.append(case("gzip", ">i8", (40,), (16,), compressor=numcodecs.GZip(5)))
    cases.append(case("zstd", "<f4", (40,), (16,), compressor=numcodecs.Zstd(3)))
    cases.append(case("lz4", "<u2", (40,), (16,), compressor=numcodecs.LZ4(1)))
    cases.append(case("bz2", "<c16", (40,), (16,), compressor=numcodecs.BZ2(9)))
    cases.append(case("none", "<i2", (40,), (16,), compressor=None))
    cases.append(case("zlib_vlen_utf8", object, (11,), (4,), object_codec=numcodecs.VLenUTF8(), compressor=numcodecs.Zlib(1)))
    cases.append(case("bz2_struct", STRUCT, (11,), (4,), compressor=numcodecs.BZ2(1)))
    cases.append(case("blosc_struct_subarray_be", SUBARRAY_BE, (11,), (4,), compressor=B("zstd", 3, B.SHUFFLE)))
    # Every filter, alone and in chains.
    cases.append(case("filter_delta", "<i4", (40,), (16,), filters=[numcodecs.Delta("<i4")]))
    cases.append(case("filter_delta_astype", "<i8", (40,), (16,), filters=[numcodecs.Delta("<i8", astype="<i2")]))
    cases.append(case("filter_fixedscaleoffset", "<f8", (40,), (16,),
                      filters=[numcodecs.FixedScaleOffset(offset=2, scale=10, dtype="<f8", astype="<i4")]))
    cases.append(case("filter_fixedscaleoffset_u1", "<f4", (40,), (16,),
                      filters=[numcodecs.FixedScaleOffset(offset=-4, scale=4, dtype="<f4", astype="|u1")]))
    cases.append(case("filter_quantize", "<f8", (40,), (16,), filters=[numcodecs.Quantize(digits=2, dtype="<f8")]))
    cases.append(case("filter_quantize_astype", "<f8", (40,), (16,),
                      filters=[numcodecs.Quantize(digits=1, dtype="<f8", astype="<f4")]))
    cases.append(case("filter_shuffle", "<f8", (40,), (16,), filters=[numcodecs.Shuffle(8)]))
    cases.append(case("filter_astype", "<i4", (40,), (16,), filters=[numcodecs.AsType(encode_dtype="<i2", decode_dtype="<i4")]))
    cases.append(case("filter_astype_f8_f4", "<f8", (40,), (16,), filters=[numcodecs.AsType(encode_dtype="<f4", decode_dtype="<f8")]))
    cases.append(case("filter_bitround_f4", "<f4", (40,), (16,), filters=[numcodecs.BitRound(keepbits=7)]))
    cases.append(case("filter_bitround_f8", "<f8", (40,), (16,), filters=[numcodecs.BitRound(keepbits=20)], compressor=B("blosclz", 9, B.BITSHUFFLE)))
    cases.append(case("chain_delta_zlib", "<i4", (40,), (16,), filters=[numcodecs.Delta("<i4")], compressor=numcodecs.Zlib(1)))
    cases.append(case("chain_scale_shuffle_blosc", "<f8", (40,), (16,),
                      filters=[numcodecs.FixedScaleOffset(offset=0, scale=100, dtype="<f8", astype="<i4"), numcodecs.Shuffle(4)],
                      compressor=B("zstd", 1, B.NOSHUFFLE)))
    cases.append(case("chain_quantize_bz2", "<f4", (40,), (16,), filters=[numcodecs.Quantize(digits=3, dtype="<f4")],
                      compressor=numcodecs.BZ2(5)))
    cases.append(case("chain_delta_lz4_be", ">i8", (40,), (16,), filters=[numcodecs.Delta(">i8")], compressor=numcodecs.LZ4(1)))
    # Order C and F, both separators, partial chunks at every edge, missing chunks.
    cases.append(case("order_c_2d", "<i4", (7, 5), (3, 2), order="C", missing=[(1, 1), (2, 0)]))
    cases.append(case("order_f_2d", "<i4", (7, 5), (3, 2), order="F", missing=[(1, 1), (2, 0)]))
    cases.append(case("order_f_3d_be", ">f8", (5, 6, 7), (2, 4, 3), order="F", missing=[(0, 1, 2), (2, 0, 0)]))
    cases.append(case("order_f_u1", "|u1", (6, 5), (4, 3), order="F", missing=[(1, 0)]))
    cases.append(case("order_f_c8", "<c8", (5, 4), (2, 3), order="F", missing=[(0, 1)]))
    cases.append(case("order_f_U7", "<U7", (5, 4), (2, 3), order="F", missing=[(1, 1)]))
    cases.append(case("order_f_struct", STRUCT, (5, 4), (2, 3), order="F", missing=[(1, 0)]))
    cases.append(case("order_f_struct_subarray", SUBARRAY, (5, 4), (2, 3), order="F", missing=[(1, 0)]))
    cases.append(case("order_f_vlen_utf8", object, (5, 4), (2, 3), order="F", object_codec=numcodecs.VLenUTF8(), missing=[(2, 1)]))
    cases.append(case("order_f_filters", "<f8", (6, 5), (4, 3), order="F",
                      filters=[numcodecs.Delta("<f8")], compressor=numcodecs.Zlib(1), missing=[(0, 1)]))
    cases.append(case("separator_slash_2d", "<i8", (7, 5), (3, 2), dimension_separator="/", missing=[(1, 1)]))
    cases.append(case("separator_slash_3d_f", "<u2", (5, 6, 7), (2, 4, 3), order="F", dimension_separator="/", missing=[(1, 1, 1)]))
    cases.append(case("separator_dot_3d", "<u2", (5, 6, 7), (2, 4, 3), dimension_separator=".", missing=[(1, 1, 1)]))
    cases.append(case("separator_slash_1d", ">f4", (11,), (4,), dimension_separator="/"))
    cases.append(case("attrs_unicode", "<i2", attrs={"title": "température °C", "tags": ["ü", 1, None, 2.5]}))
    cases.append(case("scalar", "<f8", (), ()))
    cases.append(case("scalar_struct", STRUCT, (), ()))
    cases.append(case("one_chunk_exact", "<i4", (8,), (8,), missing=[]))
    cases.append(case("all_missing", "<i4", (9, 4), (4, 4), fill_value=5, missing="all"))
    cases.append(case("chunks_larger_than_shape", "<i2", (3, 2), (10, 10), missing=[]))
    # Fill values in every spelling, read where a chunk is missing.
    fills = [
        ("null_i2", "<i2", None), ("null_f8", "<f8", None), ("null_S5", "|S5", None), ("null_struct", STRUCT, None),
        ("zero_f4", "<f4", 0), ("int", "<i4", 42), ("negative", ">i8", -7), ("u8_max", "<u8", 2 ** 64 - 1),
        ("float", "<f8", 1.5), ("float_f2", "<f2", -2.5), ("nan", "<f4", float("nan")), ("nan_f2", "<f2", float("nan")),
        ("inf", "<f8", float("inf")), ("minus_inf", ">f8", float("-inf")), ("true", "|b1", True), ("false", "|b1", False),
        ("complex", "<c16", 1 - 2j), ("complex_nan", "<c8", complex(float("nan"), 1)),
        ("bytes_S5", "|S5", b"ab"), ("bytes_V4", "|V4", b"\x01\x02\x03\x04"), ("text_U7", "<U7", "xé"),
        ("struct", STRUCT, (3, -0.5, b"zz")), ("null_struct_subarray", SUBARRAY_BE, None),
        ("struct_subarray", SUBARRAY, (1.5, [1, -2], [[1, 2, 3], [4, 5, 6]])),
        ("struct_subarray_be", SUBARRAY_BE, ([[-1, 2, 3], [4, 5, -6]], 0.25, [7, 65535])), ("datetime_nat", "<M8[ns]", np.datetime64("NaT")),
        ("datetime", "<M8[s]", np.datetime64(86400, "s")), ("timedelta", "<m8[s]", np.timedelta64(-5, "s")),
        ("vlen_utf8_default", object, "default"), ("vlen_bytes_default", object, "default"),
        ("vlen_array_default", object, "default"), ("vlen_utf8_text", object, "-"),
    ]
    for name, dtype, fill in fills:
        options = {} if isinstance(fill, str) and fill == "default" else {"fill_value": fill}
        if name.startswith("vlen_utf8"):
            options["object_codec"] = numcodecs.VLenUTF8()
        elif name.startswith("vlen_bytes"):
            options["object_codec"] = numcodecs.VLenBytes()
        elif name.startswith("vlen_array"):
            options["object_codec"] = numcodecs.VLenArray("<i4")
        cases.append(case("fill_" + name, dtype, **options))
    return cases


def values_of(dtype, n, plain=False):
    """n values of dtype that zarrow and numpy print alike (floats exact in binary); with the extremes of
    integers, NaN and the infinities unless plain (for filters that scale or cast)."""
    i = np.arange(n)
    if dtype.subdtype is not None:  # a sub-array field: n blocks of the field's shape
        base, shape = dtype.subdtype
        return values_of(base, n * int(np.prod(shape)), plain).reshape((n,) + shape)
    if dtype.fields:
        out = np.zeros(n, dtype=dtype)
        for k, name in enumerate(dtype.names):
            out[name] = values_of(dtype.fields[name][0], n + k, plain)[k:]
        return out
    kind = dtype.kind
    if kind == "b":
        return i % 3 == 0
    if kind in "iu":
        info = np.iinfo(dtype)
        base = ((i * 7919) % 251 - (120 if kind == "i" else 0)).astype(np.int64)
        out = np.clip(base, max(info.min, -100), min(info.max, 100)) if dtype.itemsize <= 2 or plain else base
        if dtype.itemsize == 8 and not plain:
            out = out + i.astype(np.int64) * (1 << 40)
        values = out.astype(dtype)
        if n > 2 and not plain:  # the extremes of the type
            values[1], values[2] = info.min, info.max
        return values
    if kind == "f":
        out = ((i % 97) * 0.25 - 3).astype(dtype)
        if n > 6 and not plain:
            out[4], out[5], out[6] = np.nan, np.inf, -np.inf
        return out
    if kind == "c":
        return ((i % 13) * 0.5 - 1j * (i % 7) * 0.25).astype(dtype)
    if kind == "S":
        return np.array([("b%d" % k).encode()[: dtype.itemsize] if k % 4 else b"" for k in i], dtype=dtype)
    if kind == "U":
        return np.array([("é%dü" % k)[: dtype.itemsize // 4] if k % 4 else "" for k in i], dtype=dtype)
    if kind == "V":
        return np.frombuffer(bytes((k * 37) % 256 for k in range(n * dtype.itemsize)), dtype=dtype).copy()
    if kind in "Mm":
        out = (i * 1000 - 3000).astype("<i8")
        if n > 3:
            out[3] = np.iinfo("<i8").min  # NaT
        return out.view(dtype.newbyteorder("<")).astype(dtype)
    raise AssertionError(dtype)


def object_values(codec, n):
    out = np.empty(n, dtype=object)
    for k in range(n):
        if isinstance(codec, numcodecs.VLenUTF8):
            out[k] = "" if k % 5 == 4 else "s%d%s" % (k, "é€😀"[: k % 4])
        elif isinstance(codec, numcodecs.VLenBytes):
            out[k] = bytes([(k * 31) % 256, 0]) * (k % 4)
        else:
            out[k] = (np.arange(k % 4) * 3 - 1).astype(codec.dtype)
    return out


def empty_object(codec):
    if isinstance(codec, numcodecs.VLenUTF8):
        return ""
    if isinstance(codec, numcodecs.VLenBytes):
        return b""
    return np.zeros(0, dtype=codec.dtype)


def canonical(v, dtype=None):
    """The JSON form of one element (see the module's comment)."""
    if dtype is not None and dtype.kind == "S":
        return base64.b64encode(bytes(v).ljust(dtype.itemsize, b"\0")).decode()
    if isinstance(v, np.void):
        if v.dtype.fields:
            return {name: canonical(v[name], v.dtype.fields[name][0]) for name in v.dtype.names}
        return base64.b64encode(v.tobytes()).decode()
    if isinstance(v, (bytes, np.bytes_)):
        return base64.b64encode(bytes(v)).decode()
    if isinstance(v, np.ndarray):  # a sub-array field's block (or a vlen-array element), as nested lists
        return [canonical(x, v.dtype) for x in v]
    if isinstance(v, (np.datetime64, np.timedelta64)):
        return None if np.isnat(v) else int(v.astype("<i8"))
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (np.integer, int)):
        return int(v)
    if isinstance(v, (np.complexfloating, complex)):
        return [canonical(float(v.real)), canonical(float(v.imag))]
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


def flat(data, dtype):
    cells = data.reshape(-1, order="C") if data.ndim else [data[()]]
    return [canonical(v, dtype) for v in cells]


def chunk_regions(shape, chunks):
    grid = [range(-(-s // c)) for s, c in zip(shape, chunks)]
    for index in np.ndindex(*[len(g) for g in grid]):
        yield index, tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(index, chunks, shape))


def as_zarrow_reads(array, codec=None):
    """array[...], its missing chunks as zarrow reads them where zarr-python 2 has no defined value:
    an object array's default fill (0) as the empty value, a numeric fill of null as zero."""
    data = array[...]
    dtype = array.dtype
    fill_null = array.fill_value is None and dtype.kind != "O"
    object_default = dtype.kind == "O" and not isinstance(array.fill_value, (str, bytes))  # 0 or null
    if not array.shape or not (object_default or fill_null):
        return data
    codec = codec or (array.filters[0] if dtype.kind == "O" else None)
    fixed = np.array(data, dtype=dtype, copy=True)
    for index, region in chunk_regions(array.shape, array.chunks):
        if array._chunk_key(index) in array.chunk_store:
            continue
        if dtype.kind == "O":
            blank = empty_object(codec)
            for cell in np.ndindex(fixed[region].shape):
                fixed[region][cell] = blank
        else:
            fixed[region] = np.zeros(fixed[region].shape, dtype=dtype)
    return fixed


def codec_config(codec):
    return None if codec is None else codec.get_config()


def write(directory):
    group = zarr.open_group(directory, mode="w")
    manifest = []
    for c in matrix():
        shape, chunks = c["shape"], c["chunks"]
        options = dict(c["options"])
        attrs = options.pop("attrs", {"case": c["name"]})
        array = group.create(c["name"], shape=shape, chunks=chunks or True, dtype=c["dtype"], **options)
        array.attrs.update(attrs)
        n = int(np.prod(shape))
        dtype = array.dtype
        codec = c["options"].get("object_codec")
        plain = bool(c["options"].get("filters"))
        data = (object_values(codec, n) if dtype.kind == "O" else values_of(dtype, n, plain)).reshape(shape)
        if not shape:
            array[...] = data
            missing = []
        else:
            missing = c["missing"]
            grid = [-(-s // k) for s, k in zip(shape, chunks)]
            if missing is None:
                missing = [tuple(1 if d == 0 else 0 for d in range(len(shape)))] if grid[0] > 1 else []
            elif missing == "all":
                missing = [index for index, _ in chunk_regions(shape, chunks)]
            missing = [tuple(m) for m in missing]
            for index, region in chunk_regions(shape, chunks):
                if index not in missing:
                    array[region] = data[region]
        expected = as_zarrow_reads(array, codec)
        with open("%s/%s/.zarray" % (directory, c["name"])) as f:
            zarray = json.load(f)
        manifest.append({
            "name": c["name"], "dtype": zarray["dtype"], "order": zarray["order"],
            "separator": zarray.get("dimension_separator", "."), "compressor": zarray["compressor"],
            "filters": zarray["filters"], "fill_value": zarray["fill_value"], "shape": list(shape),
            "chunks": list(chunks), "missing": [list(m) for m in missing], "attributes": dict(array.attrs),
            "values": flat(expected, dtype)})
    zarr.consolidate_metadata(zarr.DirectoryStore(directory))
    print(json.dumps({"zarr": zarr.__version__, "numcodecs": numcodecs.__version__, "cases": manifest}))


def same(a, b):
    """Equal canonical values; numbers by value (2 and 2.0, 18446744073709551615 and "18446744073709551615")."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    numbers = (int, float)
    if isinstance(a, numbers) and not isinstance(a, bool) and isinstance(b, (str, *numbers)) and not isinstance(b, bool):
        try:
            return float(a) == float(b) and int(float(a)) == int(float(b)) if float(a).is_integer() else float(a) == float(b)
        except ValueError:
            return False
    if isinstance(b, numbers) and isinstance(a, str):
        return same(b, a)
    return a == b


def compare(array, c):
    """What differs between the array zarr-python 2 reads and case c of a manifest."""
    problems = []
    if list(array.shape) != c["shape"]:
        problems.append("shape %s, expected %s" % (list(array.shape), c["shape"]))
    values = flat(as_zarrow_reads(array), array.dtype)
    if not same(c["values"], values):
        bad = [i for i, (x, y) in enumerate(zip(c["values"], values)) if not same(x, y)]
        first = bad[0] if bad else min(len(values), len(c["values"]))
        problems.append("values differ at %d of %d (first at flat index %d: expected %s, read %s)" % (
            len(bad), len(values), first, json.dumps(c["values"][first:first + 1]), json.dumps(values[first:first + 1])))
    if dict(array.attrs) != c.get("attributes", dict(array.attrs)):
        problems.append("attributes %s, expected %s" % (json.dumps(dict(array.attrs)), json.dumps(c["attributes"])))
    return problems


def check(directory, manifest_file, consolidated=False):
    with open(manifest_file) as f:
        manifest = json.load(f)
    group = zarr.open_group(directory, mode="r")
    out = {}
    through = None
    if consolidated:
        try:
            through = zarr.open_consolidated(directory, mode="r")
        except Exception as e:
            through = "%s: %s" % (type(e).__name__, e)
    for c in manifest["cases"]:
        name = c["name"]
        report = {"problems": []}
        out[name] = report
        try:
            array = group[name]
            report.update({
                "dtype": array.dtype.descr if array.dtype.fields else array.dtype.str, "order": array.order,
                "separator": array._dimension_separator or ".", "compressor": codec_config(array.compressor),
                "filters": None if array.filters is None else [f.get_config() for f in array.filters],
                "attributes": dict(array.attrs),
                "fill_value": canonical(array.fill_value, array.dtype) if array.fill_value is not None else None})
            report["problems"] += compare(array, c)
        except Exception as e:  # one array's failure is its own report
            report["problems"].append("%s: %s" % (type(e).__name__, e))
        if consolidated:
            try:
                if isinstance(through, str):
                    raise RuntimeError("open_consolidated: " + through)
                report["consolidated_problems"] = compare(through[name], c)
            except Exception as e:
                report["consolidated_problems"] = ["%s: %s" % (type(e).__name__, e)]
    print(json.dumps({"arrays": out}))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    elif sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4:] == ["--consolidated"])
    else:
        raise SystemExit("usage: zarr2_matrix.py write DIR | check DIR MANIFEST [--consolidated]")
