#!/usr/bin/env python3
"""Run a cosmosim command as N shards on a Dask cluster, then merge them.

    python recipes/dask/run_shards.py --shards 8 --scheduler tcp://host:8786 \
        --parts /shared/parts --out reports/cosmos/apocalypse -- \
        run scenarios/cosmos/apocalypse.toml

Each shard is one Dask task running `cosmosim COMMAND --shard I/N --out PARTS/shard-I-<attempt>`
on a worker; Dask retries a task that fails or whose worker dies. The client then runs
`cosmosim merge` on the parts the successful attempts returned, so a half-written folder
of a killed attempt is never merged. Without --scheduler a LocalCluster of worker
processes is started on this machine. The parts folder, the cosmosim binary and the
scenario files must be visible at the same paths on every worker (a shared file system,
or one machine). Outputs are byte-identical to the unsharded command (docs/scale-out.md).

--chaos-kill-worker is a test hook: once a shard has run for a moment, its worker
process is killed (SIGKILL), to prove the retry gives the same bytes.
"""

import argparse
import ctypes
import os
import signal
import subprocess
import sys
import time
import uuid


def _die_with_parent():
    # The shard process must not outlive a killed worker (PR_SET_PDEATHSIG = 1).
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)
    except OSError:
        pass


def run_shard(cosmosim, command, index, count, parts, threads):
    """One Dask task: runs shard index/count into a folder of its own; returns it."""
    attempt = os.path.join(parts, f"shard-{index}-{uuid.uuid4().hex[:12]}")
    # Tells the driver (and its chaos hook) which worker process runs this shard.
    with open(os.path.join(parts, f".started-{index}-{os.getpid()}"), "w") as f:
        f.write(str(os.getpid()))
    args = [cosmosim, *command, "--shard", f"{index}/{count}", "--out", attempt,
            "--threads", str(threads), "--quiet"]
    done = subprocess.run(args, capture_output=True, text=True, preexec_fn=_die_with_parent)
    if done.returncode != 0:
        raise RuntimeError(f"shard {index}/{count} failed ({done.returncode}): {done.stderr.strip()}")
    return attempt


def chaos_kill(parts, deadline=60.0):
    """Kills the worker process of the first shard seen running (once)."""
    start = time.time()
    while time.time() - start < deadline:
        started = [n for n in os.listdir(parts) if n.startswith(".started-")]
        if started:
            time.sleep(0.3)  # mid-run: the shard is computing
            _, index, pid = started[0].split("-")
            os.kill(int(pid), signal.SIGKILL)
            print(f"chaos: killed worker pid {pid} running shard {index}", flush=True)
            return
        time.sleep(0.05)
    raise SystemExit("chaos: no shard started in time")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shards", type=int, required=True, help="N, the number of shards")
    p.add_argument("--parts", required=True, help="folder of the partial folders (shared by the workers)")
    p.add_argument("--out", required=True, help="output folder of the merged outputs")
    p.add_argument("--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)")
    p.add_argument("--local-workers", type=int, default=2, help="LocalCluster worker processes")
    p.add_argument("--threads", type=int, default=1, help="--threads of each shard")
    p.add_argument("--retries", type=int, default=3, help="retries of a failed shard")
    p.add_argument("--cosmosim", default="cosmosim", help="the cosmosim binary")
    p.add_argument("--chaos-kill-worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- then the cosmosim command")
    a = p.parse_args(argv)
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command or a.shards < 1:
        p.error("give --shards N >= 1 and a command after --")
    cosmosim = os.path.abspath(a.cosmosim) if os.sep in a.cosmosim else a.cosmosim
    parts = os.path.abspath(a.parts)
    os.makedirs(parts, exist_ok=True)

    from dask.distributed import Client, LocalCluster, wait

    cluster = None
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.local_workers, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        futures = [
            client.submit(run_shard, cosmosim, command, i, a.shards, parts, a.threads,
                          key=f"cosmosim-shard-{i}-of-{a.shards}-{uuid.uuid4().hex[:8]}",
                          retries=a.retries, pure=False)
            for i in range(1, a.shards + 1)
        ]
        if a.chaos_kill_worker:
            chaos_kill(parts)
        wait(futures)
        folders = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    merge = [cosmosim, "merge", *folders, "--out", a.out]
    print("merging:", " ".join(merge), flush=True)
    return subprocess.run(merge).returncode


if __name__ == "__main__":
    sys.exit(main())
