#!/bin/bash
# Submits the shards as a job array, then the merge once all of them succeeded.
#   SHARDS=16 recipes/slurm/submit.sh
set -euo pipefail
SHARDS=${SHARDS:-8}
job=$(sbatch --parsable --array="1-$SHARDS" recipes/slurm/shards.sbatch)
sbatch --dependency="afterok:$job" --job-name=cosmosim-merge recipes/slurm/merge.sh
