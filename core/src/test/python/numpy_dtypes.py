"""Fixtures of numpy's fixed-size dtypes beyond the core ones, for zarrow's numpy data types and Zarr v2.

  numpy_dtypes.py raw DIR     writes DIR/<id>.bin (arr.tobytes()) for every case; prints the manifest
  numpy_dtypes.py zarr2 DIR   writes a zarr-python 2 array DIR/<id> (chunks of 3; fill value NaT for
                              datetimes, zero otherwise, its .zarray spelling in the manifest's
                              "fill_value") for every case; prints the manifest

The manifest: {"numpy": version, "cases": [{"id", "dtype" (numpy's str, or descr for structs), "data_type"
(the Zarr v3 data type metadata), "endian" ("little" | "big", the bytes codec's), "shape", "values"}]}.
Values as JSON: datetime64/timedelta64 as the stored int64 count (NaT as null), U as the string numpy
holds, S and V as base64 of all the element's bytes, structs as objects of their fields' values.
"""
import base64
import json
import os
import sys

import numpy as np

NAT = np.datetime64("NaT")


def cases():
    """(id, dtype, values) of every fixture; values as numpy takes them."""
    point = [("x", "<f4"), ("y", "<f4")]
    record = [("id", "<i4"), ("flag", "u1"), ("t", "<M8[ns]"), ("s", "<U3")]
    record_be = [("id", ">i4"), ("flag", "u1"), ("t", ">M8[ns]"), ("s", ">U3")]
    records = [(1, 2, np.datetime64("2024-02-29T12:00:00.123456789"), "ab"), (-1, 255, NAT, ""),
               (2**31 - 1, 0, np.datetime64(0, "ns"), "é😀x"), (0, 7, np.datetime64(-1, "ns"), "a")]
    datetimes = ["2024-01-01T00:00:00", "NaT", "1969-12-31T23:59:59", "2262-04-11T23:47:16", "1970-01-01"]
    return [
        ("M8ns_le", "<M8[ns]", [np.datetime64(d) for d in datetimes]),
        ("M8ns_be", ">M8[ns]", [np.datetime64(d) for d in datetimes]),
        ("M8s_le", "<M8[s]", [np.datetime64(d) for d in datetimes]),
        ("M8ms_le", "<M8[ms]", [np.datetime64(d) for d in datetimes]),
        ("M8us_be", ">M8[us]", [np.datetime64(d) for d in datetimes]),
        ("M8D_le", "<M8[D]", [np.datetime64(d) for d in ["2024-02-29", "NaT", "1900-01-01", "1970-01-01", "9999-12-31"]]),
        ("M8M_le", "<M8[M]", [np.datetime64(d) for d in ["2024-02", "NaT", "1900-01", "1970-01"]]),
        ("m8ns_le", "<m8[ns]", [np.timedelta64(v, "ns") for v in [0, 1, -1, 2**63 - 1, -(2**63) + 1]] + [np.timedelta64("NaT")]),
        ("m8ms_be", ">m8[ms]", [np.timedelta64(v, "ms") for v in [86400000, -5]] + [np.timedelta64("NaT")]),
        ("m8_10s_le", "<m8[10s]", [np.timedelta64(v, "10s") for v in [1, -2, 3]] + [np.timedelta64("NaT")]),
        ("m8h_be", ">m8[h]", [np.timedelta64(v, "h") for v in [24, -1]]),
        ("U3_le", "<U3", ["", "a", "abc", "é😀", "a\x00b", "\U0010ffff"]),
        ("U3_be", ">U3", ["", "a", "abc", "é😀", "a\x00b", "\U0010ffff"]),
        ("U1_le", "<U1", ["x", "", "😀"]),
        ("S4", "|S4", [b"", b"a", b"abcd", b"a\x00b", b"\xff\xfe"]),
        ("S1", "|S1", [b"", b"z"]),
        ("V3", "|V3", [b"\x00\x01\x02", b"\xff\xff\xff", b"abc"]),
        ("struct_le", record, records),
        ("struct_be", record_be, records),
        ("struct_nested", [("p", point), ("v", "<f8"), ("ok", "|b1"), ("c", "<c8")],
         [((1.5, -2.0), 3.25, True, 1 + 2j), ((0.0, 0.0), -1e300, False, -0.5j), ((7.0, 8.0), 0.0, True, 0j)]),
        ("struct_bytes", [("name", "|S5"), ("raw", "|V2"), ("n", "<u2")],
         [(b"alpha", b"\x01\x02", 65535), (b"b", b"\x00\x00", 0)]),
    ]


def v3_data_type(dt):
    if dt.fields is not None:
        return {"name": "struct", "configuration": {"fields": [
            {"name": name, "data_type": v3_data_type(dt.fields[name][0])} for name in dt.names]}}
    if dt.kind in "Mm":
        unit, scale = np.datetime_data(dt)
        return {"name": "numpy.datetime64" if dt.kind == "M" else "numpy.timedelta64",
                "configuration": {"unit": unit, "scale_factor": scale}}
    if dt.kind == "U":
        return {"name": "fixed_length_utf32", "configuration": {"length_bytes": dt.itemsize}}
    if dt.kind == "S":
        return {"name": "null_terminated_bytes", "configuration": {"length_bytes": dt.itemsize}}
    if dt.kind == "V":
        return {"name": "raw_bytes", "configuration": {"length_bytes": dt.itemsize}}
    return dt.name


def byte_orders(dt):
    if dt.fields is not None:
        return set().union(*(byte_orders(dt.fields[n][0]) for n in dt.names))
    return {dt.byteorder} if dt.byteorder in "<>" else set()


def endian(dt):
    native = "<" if sys.byteorder == "little" else ">"
    orders = {native if o == "=" else o for o in byte_orders(dt)}
    if len(orders) > 1:
        raise ValueError(f"mixed byte order in {dt}")
    return "big" if orders == {">"} else "little"


def json_value(value, dt):
    if dt.fields is not None:
        return {name: json_value(value[name], dt.fields[name][0]) for name in dt.names}
    if dt.kind in "Mm":
        return None if np.isnat(value) else int(value.astype(dt.newbyteorder("=")).view("i8"))
    if dt.kind == "U":
        return str(value)
    if dt.kind in "SV":
        raw = np.array(value, dtype=dt).tobytes()
        return base64.b64encode(raw).decode("ascii")
    if dt.kind == "b":
        return bool(value)
    if dt.kind == "c":
        return [float(value.real), float(value.imag)]
    if dt.kind == "f":
        return float(value)
    return int(value)


def build():
    out = []
    for cid, spec, values in cases():
        dt = np.dtype(spec)
        arr = np.array(values, dtype=dt)
        out.append((cid, dt, arr, {
            "id": cid, "dtype": dt.str if dt.fields is None else dt.descr, "data_type": v3_data_type(dt),
            "endian": endian(dt), "shape": list(arr.shape), "values": [json_value(v, dt) for v in arr]}))
    return out


def main():
    mode, directory = sys.argv[1], sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    manifest = []
    for cid, dt, arr, case in build():
        if mode == "raw":
            with open(os.path.join(directory, cid + ".bin"), "wb") as f:
                f.write(arr.tobytes())
        elif mode == "zarr2":
            import zarr
            fill = (np.array("NaT", dtype=dt)[()] if dt.kind in "Mm"
                    else bytes(dt.itemsize) if dt.kind == "V" else np.zeros((), dtype=dt)[()])
            path = os.path.join(directory, cid)
            z = zarr.create(store=zarr.DirectoryStore(path), overwrite=True, shape=arr.shape, chunks=(3,), dtype=dt, fill_value=fill)
            z[:] = arr
            with open(os.path.join(path, ".zarray")) as f:
                case["fill_value"] = json.load(f)["fill_value"]
        else:
            raise SystemExit("unknown mode " + mode)
        manifest.append(case)
    json.dump({"numpy": np.__version__, "cases": manifest}, sys.stdout)


if __name__ == "__main__":
    main()
