"""Gridded datasets written by xarray (Debian's python3-xarray over zarr-python 2), and the table xarray
makes of each: Dataset.to_dataframe().reset_index().

  xarray_datasets.py write DIR      writes DIR/<name>.zarr for every dataset of DATASETS; prints
                                    {"datasets": {name: TABLE}}
  xarray_datasets.py frame STORE [VARIABLE...]
                                    prints the TABLE of the dataset at STORE (of those data variables)
  xarray_datasets.py groupmean STORE DIM VARIABLE
                                    prints {"means": [[dim value, mean of VARIABLE (float64)], ...]}
  xarray_datasets.py big DIR TIMES  a reanalysis-like grid (TIMES x 181 x 360... see big()) for the
                                    benchmark and the bounded-memory test; prints {"rows": N}
  xarray_datasets.py time STORE     reads STORE with open_zarr(...).to_dataframe() in this fresh process;
                                    prints {"seconds": that, "rows": N}

TABLE is {"columns": [names in xarray's order], "dtypes": {name: numpy dtype}, "values": {name: [...]}}:
floats as numbers (repr, exact) with NaN as the string "NaN", datetime64 as int64 nanoseconds since
the epoch (NaT null), bytes decoded as UTF-8, everything else as JSON gives it.
"""
import json
import math
import sys
import time
import warnings

import numcodecs
import numpy as np
import pandas as pd
import xarray as xr
import zarr

warnings.simplefilter("ignore")  # xarray warns that it cannot decode the noleap calendar without cftime


def reanalysis(path):
    """Hourly time in "hours since", latitude/longitude, float32 with NaN, int16 packed, a 2-D variable."""
    rng = np.random.default_rng(25)
    times = pd.date_range("2020-01-01", periods=30, freq="H")
    lat = np.linspace(60.0, 50.0, 9)
    lon = np.arange(0.0, 12.0, 1.0, dtype="float32")
    t2m = (rng.random((30, 9, 12)) * 40 + 250).astype("float32")
    t2m[3, 2, 5] = np.nan
    t2m[17, :, 0] = np.nan
    sp = rng.random((30, 9, 12)) * 5000 + 98000
    sp[5, 5, 5] = np.nan
    sp[29, 8, :] = np.nan
    oro = (rng.random((9, 12)) * 3000).astype("float32")
    ds = xr.Dataset(
        {
            "t2m": (("time", "latitude", "longitude"), t2m, {"units": "K", "long_name": "2 metre temperature"}),
            "sp": (("time", "latitude", "longitude"), sp, {"units": "Pa", "standard_name": "surface_air_pressure"}),
            "orography": (("latitude", "longitude"), oro, {"units": "m"}),
        },
        coords={
            "time": ("time", times),
            "latitude": ("latitude", lat, {"units": "degrees_north"}),
            "longitude": ("longitude", lon, {"units": "degrees_east"}),
        },
        attrs={"Conventions": "CF-1.7", "title": "reanalysis-like"},
    )
    encoding = {
        "time": {"units": "hours since 2020-01-01", "calendar": "proleptic_gregorian", "dtype": "int64"},
        "t2m": {"chunks": (8, 5, 6)},
        "sp": {"chunks": (8, 5, 6), "dtype": "int16", "scale_factor": 0.2, "add_offset": 100000.0, "_FillValue": -32767},
        "orography": {"chunks": (5, 6)},
    }
    ds.to_zarr(path, mode="w", encoding=encoding, consolidated=True)


def stations(path):
    """A string dimension coordinate, non-index coordinates, a variable with missing values."""
    ids = np.array(["KSEA", "KPDX", "KBOI", "KSLC", "KDEN"])
    days = pd.date_range("2021-06-01", periods=10, freq="D")
    pr = np.round(np.arange(50, dtype="float64").reshape(5, 10) * 0.37, 3)
    pr[1, 3] = np.nan
    pr[4, :] = np.nan
    count = np.arange(50, dtype="int32").reshape(5, 10)
    ds = xr.Dataset(
        {
            "pr": (("station", "time"), pr, {"units": "mm"}),
            "count": (("station", "time"), count),
        },
        coords={
            "station": ("station", ids),
            "time": ("time", days),
            "lat": ("station", np.array([47.45, 45.59, 43.56, 40.79, 39.86])),
            "lon": ("station", np.array([-122.31, -122.6, -116.22, -111.97, -104.67])),
            "name": ("station", np.array(["Seattle", "Portland", "Boise", "Salt Lake City", "Denver"], dtype=object)),
        },
        attrs={"featureType": "timeSeries"},
    )
    ds["count"].values[2, 7] = -1
    encoding = {
        "pr": {"chunks": (2, 4)},
        "count": {"chunks": (2, 4), "_FillValue": -1},
        "time": {"units": "days since 2021-01-01 00:00:00", "dtype": "int32"},
    }
    ds.to_zarr(path, mode="w", encoding=encoding, consolidated=True)


def curvilinear(path):
    """Dimensions without coordinate arrays, 2-D lat/lon coordinates, zstd, a bool mask."""
    y, x = np.meshgrid(np.arange(7), np.arange(6), indexing="ij")
    lat = 30.0 + y * 0.5 + x * 0.1
    lon = -140.0 + x * 0.5 - y * 0.1
    sst = (np.sin(np.arange(4 * 7 * 6)) * 10 + 15).reshape(4, 7, 6)
    mask = (x + y) % 3 == 0
    sst[:, mask] = np.nan
    ds = xr.Dataset(
        {
            "sst": (("time", "y", "x"), sst, {"units": "degC"}),
            "land": (("y", "x"), mask),
        },
        coords={
            "time": ("time", pd.date_range("1999-12-30T06:00", periods=4, freq="6H")),
            "lat": (("y", "x"), lat, {"standard_name": "latitude"}),
            "lon": (("y", "x"), lon, {"standard_name": "longitude"}),
        },
    )
    zstd = numcodecs.Zstd(level=3)
    encoding = {
        "sst": {"chunks": (2, 4, 3), "compressor": zstd},
        "land": {"chunks": (4, 3), "compressor": zstd},
        "lat": {"chunks": (4, 3), "compressor": zstd},
        "lon": {"chunks": (4, 3), "compressor": zstd},
        "time": {"units": "minutes since 2000-01-01T00:00:00", "dtype": "float64"},
    }
    ds.to_zarr(path, mode="w", encoding=encoding, consolidated=True)


def odd(path):
    """Separator '/', order F, missing_value, |S, a noleap calendar."""
    level = np.array([1000, 850, 500], dtype="int32")
    day = np.arange(0, 6, dtype="int64") * 73
    q = (np.arange(3 * 6 * 4, dtype="int16").reshape(3, 6, 4) - 20)
    q[0, 0, 0] = 999
    q[2, 5, 3] = 999
    code = np.array([b"ab", b"cde", b"", b"f", b"ghij", b"xy"], dtype="S4")
    ds = xr.Dataset(
        {
            "q": (("level", "day", "cell"), q, {"missing_value": np.int16(999), "scale_factor": 0.5, "units": "g/kg"}),
            "code": (("day",), code),
            "w": (("day", "cell"), np.arange(24, dtype="float32").reshape(6, 4) * 1.5,
                  {"_FillValue": np.float32(-9999.0)}),
        },
        coords={
            "level": ("level", level, {"units": "hPa"}),
            "day": ("day", day, {"units": "days since 2000-01-01", "calendar": "noleap"}),
        },
    )
    ds["w"].values[1, 2] = -9999.0
    store = zarr.DirectoryStore(path, dimension_separator="/")
    ds.to_zarr(store, mode="w", encoding={"q": {"chunks": (2, 4, 3)}, "w": {"chunks": (3, 2)}}, consolidated=False)
    # xarray has no encoding for the memory order: rewrite q in order F, same chunks, values and attributes
    group = zarr.open_group(store, mode="a")
    old = group["q"]
    values, attrs = old[...], dict(old.attrs)
    del group["q"]
    new = group.create_dataset("q", data=values, chunks=old.chunks, order="F", compressor=old.compressor,
                               fill_value=None, dimension_separator="/")
    new.attrs.update(attrs)
    zarr.consolidate_metadata(store)


def unsigned(path):
    """_Unsigned (signed bytes meaning unsigned ones, as netCDF 3 files have them) and a timedelta."""
    times = pd.date_range("2022-03-01", periods=6, freq="H")
    ds = xr.Dataset(
        {
            # -1 is 255, the fill; -128 is 128
            "flag": (("time", "cell"), np.array([0, 1, -1, -128, 127, -2] * 4, dtype="int8").reshape(6, 4),
                     {"_FillValue": np.int8(-1)}),
            "raw": (("time", "cell"), np.array([0, 1, -1, -128, 127, -2] * 4, dtype="int8").reshape(6, 4)),
            # units naming a unit alone: a timedelta; -999 is missing
            "lead": (("time",), np.array([0, 6, 12, -999, 48, -3], dtype="int32"),
                     {"units": "hours", "_FillValue": np.int32(-999)}),
            "wait": (("time",), np.array([1.5, 0.25, np.nan, 3, 0, 2], dtype="float64"), {"units": "days"}),
        },
        coords={"time": times},
    )
    ds.to_zarr(path, mode="w", encoding={"flag": {"chunks": (4, 3)}, "raw": {"chunks": (4, 3)}}, consolidated=False)
    group = zarr.open_group(path, mode="a")
    for name in ("flag", "raw"):
        group[name].attrs["_Unsigned"] = "true"  # xarray writes it for netCDF 3 only
    zarr.consolidate_metadata(path)


DATASETS = {"reanalysis": reanalysis, "stations": stations, "curvilinear": curvilinear, "odd": odd, "unsigned": unsigned}


def value(v):
    if v is None:
        return None
    if isinstance(v, bytes):
        return v.decode("utf-8")
    if isinstance(v, (float, np.floating)):
        return "NaN" if math.isnan(v) else float(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.bool_,)):
        return bool(v)
    return v


def table(ds):
    df = ds.to_dataframe().reset_index()
    out = {"columns": [str(c) for c in df.columns], "dtypes": {}, "values": {}}
    for c in df.columns:
        col = df[c]
        out["dtypes"][str(c)] = str(col.dtype)
        if np.issubdtype(col.dtype, np.timedelta64):
            ns = col.values.astype("timedelta64[ns]").astype("int64")
            out["values"][str(c)] = [None if t else int(n) for n, t in zip(ns, pd.isnull(col.values))]
        elif np.issubdtype(col.dtype, np.datetime64):
            ns = col.values.astype("datetime64[ns]").astype("int64")
            out["values"][str(c)] = [None if t else int(n) for n, t in zip(ns, pd.isnull(col.values))]
        else:
            out["values"][str(c)] = [value(v) for v in col.tolist()]
    return out


def open_dataset(path):
    # without cftime (not packaged with Debian's xarray) xarray cannot open a noleap time at all:
    # it is read undecoded, which is what zarrow gives for any calendar it does not decode
    try:
        return xr.open_zarr(path, chunks=None)
    except ValueError as e:
        if "noleap" not in str(e):
            raise
        return xr.open_zarr(path, chunks=None, decode_times=False)


def big(directory, times):
    """float32 t2m and tp over (time, latitude, longitude), blosc lz4, chunks (24, 181, 360)."""
    times = int(times)
    lat = np.linspace(90, -90, 181)
    lon = np.arange(0, 360, 1.0)
    rng = np.random.default_rng(7)
    ds = xr.Dataset(
        {
            "t2m": (("time", "latitude", "longitude"),
                    (rng.random((times, 181, 360), dtype="float32") * 60 + 240)),
            "tp": (("time", "latitude", "longitude"), rng.random((times, 181, 360), dtype="float32")),
        },
        coords={"time": pd.date_range("2000-01-01", periods=times, freq="H"), "latitude": lat, "longitude": lon},
    )
    lz4 = numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)
    encoding = {v: {"chunks": (24, 181, 360), "compressor": lz4} for v in ("t2m", "tp")}
    ds.to_zarr(directory, mode="w", encoding=encoding, consolidated=True)
    return {"rows": times * 181 * 360}


def main():
    command = sys.argv[1]
    if command == "write":
        directory = sys.argv[2]
        result = {}
        for name, make in DATASETS.items():
            path = f"{directory}/{name}.zarr"
            make(path)
            result[name] = table(open_dataset(path))
        print(json.dumps({"datasets": result}))
    elif command == "frame":
        ds = open_dataset(sys.argv[2])
        names = sys.argv[3:]
        print(json.dumps(table(ds[names] if names else ds)))
    elif command == "groupmean":
        # SELECT DIM, avg(VARIABLE) ... GROUP BY DIM over xarray's table, NaN skipped as SQL skips null
        df = open_dataset(sys.argv[2]).to_dataframe().reset_index()
        dim, variable = sys.argv[3], sys.argv[4]
        means = df.groupby(dim)[variable].apply(lambda s: s.astype("float64").mean())
        print(json.dumps({"means": [[float(k), float(v)] for k, v in means.items()]}))
    elif command == "big":
        print(json.dumps(big(sys.argv[2], sys.argv[3])))
    elif command == "time":
        start, cpu = time.perf_counter(), time.process_time()
        df = xr.open_zarr(sys.argv[2], chunks=None).to_dataframe()
        print(json.dumps({"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu, "rows": len(df)}))
    else:
        raise SystemExit("unknown command " + command)


if __name__ == "__main__":
    main()
