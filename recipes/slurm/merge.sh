#!/bin/bash
# The merge step of the Slurm recipe (queued by submit.sh after every shard succeeded).
set -euo pipefail
COSMOSIM=${COSMOSIM:-./target/release/cosmosim}
PARTS=${PARTS:-parts}
OUT=${OUT:-reports/cosmos/apocalypse}
"$COSMOSIM" merge "$PARTS"/shard-* --out "$OUT"
