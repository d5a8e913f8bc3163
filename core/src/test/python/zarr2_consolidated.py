"""Consolidated zarr-python 2 hierarchies for the zarrow tests: see README.md."""
import json
import sys

import numpy as np
import zarr


def write(directory, consolidate):
    store = zarr.DirectoryStore(directory)
    root = zarr.group(store=store, overwrite=True)
    root.attrs["title"] = "consolidated"
    g = root.create_group("g")
    g.attrs["kind"] = "group"
    temps = g.create_dataset("temps", shape=(4, 6), chunks=(2, 3), dtype="<i4", compressor=None)
    temps[:] = np.arange(24, dtype="<i4").reshape(4, 6)
    temps.attrs["units"] = "K"
    g.create_group("h").create_dataset("deep", shape=(3,), chunks=(2,), dtype="<f8", compressor=None, fill_value=1.5)
    flat = root.create_dataset("flat", shape=(5,), chunks=(5,), dtype="|u1", compressor=None,
                               dimension_separator="/")
    flat[:] = np.arange(5, dtype="u1")
    if consolidate:
        zarr.consolidate_metadata(store)
    print(json.dumps({"zarr": zarr.__version__}))


def read(directory):
    """Opens DIR through its .zmetadata only and prints every node with its attributes."""
    root = zarr.open_consolidated(zarr.DirectoryStore(directory), mode="r")
    nodes = {}

    def visit(name, node):
        nodes[name] = {"kind": "array" if isinstance(node, zarr.Array) else "group", "attrs": dict(node.attrs)}

    root.visititems(visit)
    print(json.dumps({"root": dict(root.attrs), "nodes": nodes}))


if __name__ == "__main__":
    command, directory = sys.argv[1], sys.argv[2]
    if command == "write":
        write(directory, True)
    elif command == "write-plain":
        write(directory, False)
    elif command == "read":
        read(directory)
    else:
        raise SystemExit("unknown command " + command)
