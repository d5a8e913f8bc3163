"""Whole datasets written by xarray (Debian's python3-xarray, over zarr-python 2), for issue 27's copies (xarray_copies.py).

write DIR   writes each dataset of datasets() as a Zarr v2 store DIR/NAME (consolidated or not, as the
            dataset says; "forecast" also holds a second dataset in the group "members/m1") and prints
            {"datasets": [{"name", "consolidated", "groups": ["", ...], "arrays": ["temperature", ...]}]}:
            the groups that are datasets and every array path below the root.
compare SRC DST [--consolidated]
            opens every dataset group of SRC and of DST with xarray (DST consolidated with --consolidated,
            which fails when it is not) and prints {"groups": {group: {"problems": [...]}}}: empty lists
            when DST is identical() to SRC (values, attributes, dimension names) and every variable has
            the same encoding (dtype, chunks, compressor, filters, _FillValue, units, scale_factor, ...).
"""
import json
import sys

import numcodecs
import numpy as np
import pandas as pd
import xarray as xr


def climate():
    """A gridded dataset as a model writes it: coordinates, CF time, packed and masked variables, strings."""
    rng = np.random.default_rng(27)
    time = pd.date_range("2000-01-01", periods=6, freq="6H")
    lat = np.linspace(-60.0, 60.0, 5)
    lon = np.arange(0.0, 360.0, 45.0)
    temperature = (280 + 10 * rng.standard_normal((6, 5, 8))).astype("f4")
    temperature[0, 0, :3] = np.nan
    precipitation = np.abs(rng.standard_normal((6, 5, 8)))
    ds = xr.Dataset(
        {
            "temperature": (("time", "lat", "lon"), temperature, {"units": "K", "long_name": "air temperature °"}),
            "precipitation": (("time", "lat", "lon"), precipitation, {"units": "mm", "standard_name": "precipitation"}),
            "land": (("lat", "lon"), rng.integers(0, 2, (5, 8)).astype(bool)),
            "station": (("lat",), np.array(["north", "n", "equator", "s", "south"], dtype=object)),
            "code": (("lat",), np.array([b"AB", b"C", b"", b"DEF", b"G"], dtype="S3")),
            "count": (("time",), np.arange(6, dtype="i4") * 3),
        },
        coords={"time": time, "lat": ("lat", lat, {"units": "degrees_north"}),
                "lon": ("lon", lon, {"units": "degrees_east"}),
                "height": ((), 2.0, {"units": "m"})},
        attrs={"title": "issue 27 climate", "Conventions": "CF-1.8", "history": ["made", "by", "xarray"], "version": 3},
    )
    encoding = {
        "temperature": {"chunks": (2, 5, 4), "compressor": numcodecs.Blosc("zstd", 3, numcodecs.Blosc.SHUFFLE)},
        # packed: stored as int16 with a scale and offset, missing as -9999
        "precipitation": {"dtype": "i2", "scale_factor": 0.01, "add_offset": 0.0, "_FillValue": -9999,
                          "chunks": (3, 5, 8), "compressor": numcodecs.Zlib(4)},
        "count": {"compressor": None, "_FillValue": -1},
        "land": {"compressor": numcodecs.Blosc("lz4", 5, numcodecs.Blosc.BITSHUFFLE)},
        "time": {"units": "hours since 2000-01-01", "dtype": "i8"},
    }
    return ds, encoding


def member():
    """A small dataset in a subgroup, F order and a separator of '/'."""
    ds = xr.Dataset({"anomaly": (("step", "x"), np.arange(12, dtype="<f8").reshape(3, 4) / 4, {"units": "K"})},
                    coords={"step": np.array([0, 6, 12], dtype="m8[h]")}, attrs={"member": 1})
    return ds, {"anomaly": {"chunks": (2, 3), "compressor": numcodecs.GZip(5)}}


def datasets():
    return [("climate", True), ("plain", False), ("forecast", True)]


def write(directory):
    out = []
    for name, consolidated in datasets():
        path = "%s/%s" % (directory, name)
        ds, encoding = climate()
        groups = [""]
        if name == "plain":
            ds = ds[["count", "station"]]
            encoding = {k: v for k, v in encoding.items() if k in ("count",)}
        ds.to_zarr(path, mode="w", encoding=encoding, consolidated=consolidated)
        if name == "forecast":
            sub, sub_encoding = member()
            sub.to_zarr(path, group="members/m1", mode="w", encoding=sub_encoding, consolidated=False)
            import zarr
            zarr.consolidate_metadata(path)
            groups.append("members/m1")
        import zarr
        arrays = []
        root = zarr.open_group(path, mode="r")
        root.visititems(lambda p, node: arrays.append(p) if isinstance(node, zarr.Array) else None)
        out.append({"name": name, "consolidated": consolidated, "groups": groups, "arrays": sorted(arrays)})
    print(json.dumps({"xarray": xr.__version__, "datasets": out}))


def encoding_of(variable):
    return {k: v for k, v in variable.encoding.items() if k not in ("source",)}


def compare_group(src, dst, group, consolidated):
    problems = []
    kwargs = {"group": group or None, "consolidated": consolidated}
    a = xr.open_zarr(src, **{**kwargs, "consolidated": consolidated})
    try:
        b = xr.open_zarr(dst, **kwargs)
    except Exception as e:
        return ["opening %s: %s: %s" % (dst, type(e).__name__, e)]
    if not a.identical(b):
        problems.append("not identical" + ("" if a.attrs == b.attrs else ": attributes %s vs %s" % (a.attrs, b.attrs)))
        for name in set(a.variables) | set(b.variables):
            if name not in a.variables or name not in b.variables:
                problems.append("variable %s only in one" % name)
            elif not a[name].identical(b[name]):
                problems.append("variable %s differs: %s %s vs %s %s" % (name, a[name].dims, a[name].attrs, b[name].dims, b[name].attrs))
    for name in a.variables:
        if name in b.variables and encoding_of(a[name]) != encoding_of(b[name]):
            problems.append("encoding of %s: %s, expected %s" % (name, encoding_of(b[name]), encoding_of(a[name])))
    a.load()
    b.load()
    if not a.identical(b):
        problems.append("loaded values differ")
    return problems


def compare(src, dst, consolidated):
    import zarr
    groups = {}
    names = [""]
    root = zarr.open_group(src, mode="r")
    root.visititems(lambda p, node: names.append(p) if isinstance(node, zarr.Group) and list(node.array_keys()) else None)
    for group in names:
        try:
            groups[group] = {"problems": compare_group(src, dst, group, consolidated)}
        except Exception as e:
            groups[group] = {"problems": ["%s: %s" % (type(e).__name__, e)]}
    print(json.dumps({"groups": groups}, default=str))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    elif sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], sys.argv[4:] == ["--consolidated"])
    else:
        raise SystemExit("usage: xarray_datasets.py write DIR | compare SRC DST [--consolidated]")
