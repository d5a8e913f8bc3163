#!/usr/bin/python3
"""Whole-process timings of several commands, interleaved: each round runs every command once, in
order, so that a busier moment of the machine costs all of them alike (hyperfine runs one command's
runs back to back). The first round is a warm-up and not counted. Prints, per command, the minimum,
median and mean wall time and the median CPU time (user + system of the process and its children).

Usage: interleaved.py ROUNDS COMMANDS.json
COMMANDS.json: {"name": "shell command", ...}, e.g. (issue 18's comparison, DIR a zarr-python 2 array):
  {"zarrow --version": "bin/zarrow --version",
   "zarrow check": "bin/zarrow check DIR",
   "zarr-python 2 read": "/usr/bin/python3 -c 'import zarr; zarr.open(\\"DIR\\", mode=\\"r\\")[:]'",
   "python import zarr": "/usr/bin/python3 -c 'import zarr'"}
"""
import json
import resource
import statistics
import subprocess
import sys
import time


def main():
    rounds = int(sys.argv[1])
    with open(sys.argv[2]) as f:
        commands = json.load(f)
    times = {name: [] for name in commands}
    for r in range(rounds + 1):
        for name, command in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            if done.returncode != 0:
                sys.exit(f"{name}: exit {done.returncode}")
            if r > 0:
                times[name].append((wall * 1000, cpu * 1000))
    for name, runs in times.items():
        wall = [w for w, _ in runs]
        cpu = [c for _, c in runs]
        print(f"{name:28s} wall min {min(wall):6.0f} med {statistics.median(wall):6.0f} "
              f"mean {statistics.mean(wall):6.0f}   cpu med {statistics.median(cpu):6.0f} ms")


if __name__ == "__main__":
    main()
