#!/usr/bin/env bash
# Start-up of the CLI, measured with hyperfine (Debian: apt-get install hyperfine) on the jar bin/zarrow
# runs: as it ran before (plain), with the class-data archive bin/zarrow makes (cds), with C1 alone
# (c1), and both; then a long copy (16M float32, 4M strings re-encoded) plain vs cds vs cds+c1.
# Data: 4M random ASCII strings of 0..32 bytes (vlen-utf8 + crc32c, 16 chunks of 256K, 80 MiB) and 16M
# float32 temperatures (bytes + zstd 3, 16 chunks of 1M, 28 MiB), imported with `zarrow import`.
# Usage: cli/src/bench/startup/startup.sh WORKDIR   (RUNS, COPY_RUNS: hyperfine runs; default 6 and 3)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
work="$(mkdir -p "$1" && cd "$1" && pwd)"
cd "$work"
"$root/bin/zarrow" --version >/dev/null # builds the jar when stale
jar="$(ls -t "$root"/cli/target/zarrow-cli-*-all.jar | head -n 1)"
cp "$jar" cli.jar
O=--add-opens=java.base/java.nio=ALL-UNNAMED
if [ ! -d store ]; then
  java $O -cp cli.jar "$here/MakeIpc.java" strings.arrows floats.arrows
  java $O -jar cli.jar import strings.arrows store strings --codec crc32c >/dev/null
  java $O -jar cli.jar import floats.arrows store floats --codec zstd:3 --chunk-rows 1048576 >/dev/null
fi
rm -rf training cli.jsa
java -XX:ArchiveClassesAtExit=cli.jsa -Xlog:cds*=off $O -cp cli.jar dev.zarrow.cli.ClassDataTraining training/demo
base="java $O -jar cli.jar"
cds="java -XX:SharedArchiveFile=cli.jsa -Xlog:cds*=off $O -jar cli.jar"
c1="java -XX:TieredStopAtLevel=1 $O -jar cli.jar"
cdsc1="java -XX:SharedArchiveFile=cli.jsa -Xlog:cds*=off -XX:TieredStopAtLevel=1 $O -jar cli.jar"
for args in "--version" "info store strings/s" "check store strings/s" "check store floats/t"; do
  uptime
  hyperfine -N --warmup 1 --runs "${RUNS:-6}" \
    -n plain "$base $args" -n cds "$cds $args" -n c1 "$c1 $args" -n cds+c1 "$cdsc1 $args"
done
for a in floats/t strings/s; do
  uptime
  n="$(dirname "$a")"
  hyperfine -N --warmup 1 --runs "${COPY_RUNS:-3}" \
    -n plain "$base copy store $a out $n --codec zstd:3 --overwrite" \
    -n cds "$cds copy store $a out $n --codec zstd:3 --overwrite" \
    -n cds+c1 "$cdsc1 copy store $a out $n --codec zstd:3 --overwrite"
done
uptime
