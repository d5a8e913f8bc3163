"""A month of a reanalysis-like grid written by xarray, for the Spark source's pruning tests.

  xarray_month.py write STORE    writes the dataset at STORE; prints its TABLE (see xarray_datasets.py)

Time 6-hourly over 30 days (120 steps, "hours since 2000-01-01"), latitude 90 to -90 by 10 (19),
longitude 0 to 350 by 10 (36); t2m and tp float32 over (time, latitude, longitude) in chunks (10, 5, 18),
so that a day spans one or two chunks along time and a latitude band one or two along latitude;
orography float32 over (latitude, longitude) in chunks (5, 18).
"""
import sys

import numpy as np
import pandas as pd
import xarray as xr

from xarray_datasets import open_dataset, table
import json


def month(path):
    rng = np.random.default_rng(26)
    times = pd.date_range("2000-01-01", periods=120, freq="6H")
    lat = np.arange(90.0, -91.0, -10.0)
    lon = np.arange(0.0, 360.0, 10.0)
    t2m = (rng.random((120, 19, 36)) * 60 + 240).astype("float32")
    t2m[7, 3, :] = np.nan
    tp = rng.random((120, 19, 36)).astype("float32")
    oro = (rng.random((19, 36)) * 3000).astype("float32")
    ds = xr.Dataset(
        {
            "t2m": (("time", "latitude", "longitude"), t2m, {"units": "K"}),
            "tp": (("time", "latitude", "longitude"), tp, {"units": "m"}),
            "orography": (("latitude", "longitude"), oro, {"units": "m"}),
        },
        coords={"time": times, "latitude": ("latitude", lat, {"units": "degrees_north"}),
                "longitude": ("longitude", lon, {"units": "degrees_east"})},
    )
    encoding = {
        "time": {"units": "hours since 2000-01-01", "dtype": "int64"},
        "t2m": {"chunks": (10, 5, 18)},
        "tp": {"chunks": (10, 5, 18)},
        "orography": {"chunks": (5, 18)},
    }
    ds.to_zarr(path, mode="w", encoding=encoding, consolidated=True)


if __name__ == "__main__":
    if sys.argv[1] != "write":
        raise SystemExit("unknown command " + sys.argv[1])
    month(sys.argv[2])
    print(json.dumps(table(open_dataset(sys.argv[2]))))
