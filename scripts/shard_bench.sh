#!/usr/bin/env bash
# Measures the cost model of docs/scale-out.md on this machine: wall-clock seconds and
# CPU seconds (user + system, summed over the processes; other load on a shared machine
# changes wall times far more than CPU times), best of REPEAT runs:
#   - one process against 4 shards run as 4 concurrent processes plus their merge;
#   - the start-up cost of one shard (a shard that owns no batch);
#   - the merge of 64 shards;
#   - partial sizes.
# Usage: scripts/shard_bench.sh [path/to/cosmosim]   (build with cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-${CARGO_TARGET_DIR:-target}/release/cosmosim}
SCENARIO=${SCENARIO:-scenarios/cosmos/apocalypse.toml}
TRIALS=${TRIALS:-2000000}
REPEAT=${REPEAT:-3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

now() { date +%s.%N; }
best() { sort -g | head -1; }
# CPU seconds of the processes timed into file $1 (one "user sys" line each).
cpu() { awk '{ s += $1 + $2 } END { printf "%.2f", s }' "$1"; }
TIME="/usr/bin/time -f %U_%S -a -o"

# Prints "wall cpu" of each repetition; best() keeps the lowest wall time.
one() {
  for _ in $(seq "$REPEAT"); do
    rm -rf "$T/one" "$T/cpu"; s=$(now)
    $TIME "$T/cpu" "$BIN" -q run "$SCENARIO" --trials "$TRIALS" --out "$T/one"
    echo "$(echo "$(now) - $s" | bc) $(tr _ ' ' < "$T/cpu" | cpu /dev/stdin)"
  done | best
}

# N shards as N concurrent processes (each --threads 1: N processes share the cores),
# then the merge; prints the wall time of the whole.
sharded() {
  local n=$1
  for _ in $(seq "$REPEAT"); do
    rm -rf "$T/p$n" "$T/m$n" "$T/cpu"; s=$(now)
    for i in $(seq "$n"); do
      $TIME "$T/cpu" "$BIN" -q run "$SCENARIO" --trials "$TRIALS" --threads 1 --shard "$i/$n" --out "$T/p$n/$i" &
    done
    wait
    $TIME "$T/cpu" "$BIN" -q merge "$T/p$n"/* --out "$T/m$n"
    echo "$(echo "$(now) - $s" | bc) $(tr _ ' ' < "$T/cpu" | cpu /dev/stdin)"
  done | best
}

read -r t1 c1 <<< "$(one)"
echo "one process ($TRIALS trials of $SCENARIO): wall ${t1} s, CPU ${c1} s"
for n in 2 4 8; do
  read -r tn cn <<< "$(sharded "$n")"
  echo "$n shards as $n concurrent processes + merge: wall ${tn} s ($(echo "scale=1; 100 * ($tn - $t1) / $t1" | bc)%), CPU ${cn} s ($(echo "scale=1; 100 * ($cn - $c1) / $c1" | bc)% against one process)"
done
diff -r "$T/one" "$T/m4" > /dev/null && echo "merged outputs identical to the one-process outputs"

# Start-up of a shard: shard 64/64 of a one-batch run owns at most one batch.
startup=$(for _ in $(seq "$REPEAT"); do
  rm -rf "$T/s"; s=$(now)
  "$BIN" -q run "$SCENARIO" --trials 1 --threads 1 --shard 2/2 --out "$T/s"
  echo "$(now) - $s" | bc
done | best)
echo "start-up of one shard (validation, exact parts, partial written): ${startup} s"

rm -rf "$T/p64"
for i in $(seq 64); do
  "$BIN" -q run "$SCENARIO" --threads 1 --shard "$i/64" --out "$T/p64/$i"
done
m64=$(for _ in $(seq "$REPEAT"); do
  rm -rf "$T/m64"; s=$(now)
  "$BIN" -q merge "$T/p64"/* --out "$T/m64"
  echo "$(now) - $s" | bc
done | best)
echo "merge of 64 shards of $SCENARIO (default trials): ${m64} s"
echo "partial sizes (accumulators.bin, bytes): 4 shards at $TRIALS trials: $(stat -c %s "$T/p4"/*/accumulators.bin | tr '\n' ' ')"
