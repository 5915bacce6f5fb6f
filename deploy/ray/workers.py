"""Self-play workers of a triad run on a Ray cluster (docs/scale-out.md).

Submit from the repository root to a running cluster:

    ray job submit --working-dir . -- \
        python deploy/ray/workers.py --run s3://triad-runs/c4-01 --workers 16

Each worker is one Ray task running `triad worker --run RUN --worker I`
(the binary must be on the nodes' PATH, or give --triad). The trainer runs
elsewhere (`triad trainer`, or deploy/slurm, deploy/k8s). Stopping the job
(`ray job stop`) sends SIGTERM: workers upload their finished games and exit.

`--local` runs the same workers as local processes without Ray (how the
tests run this file, and a quick way to try a run on one machine).
"""

import argparse
import os
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def run_worker(triad, run, index, extra):
    """One worker process; returns its exit status."""
    proc = subprocess.Popen([triad, "worker", "--run", run, "--worker", str(index), *extra])
    try:
        return proc.wait()
    except BaseException:
        proc.send_signal(signal.SIGTERM)
        return proc.wait()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--run", required=True, help="the run's URL (s3://, gs://, az://, file://) or path")
    p.add_argument("--workers", type=int, default=4, help="how many workers (indices 0..N-1)")
    p.add_argument("--first", type=int, default=0, help="the first worker index (to add workers to a run)")
    p.add_argument("--cpus", type=float, default=2, help="CPUs a worker asks Ray for")
    p.add_argument("--gpus", type=float, default=0, help="GPUs a worker asks Ray for (0: CPU workers)")
    p.add_argument("--triad", default=os.environ.get("TRIAD", "triad"), help="the triad binary")
    p.add_argument("--local", action="store_true", help="run the workers as local processes, without Ray")
    p.add_argument("extra", nargs="*", help="more `triad worker` flags, after --")
    args = p.parse_args()
    if args.workers < 1:
        p.error("--workers must be at least 1")
    indices = range(args.first, args.first + args.workers)
    if args.local:
        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            codes = list(pool.map(lambda i: run_worker(args.triad, args.run, i, args.extra), indices))
    else:
        try:
            import ray
        except ImportError:
            sys.exit("ray is not installed here: pip install ray, or use --local")
        ray.init()
        remote = ray.remote(num_cpus=args.cpus, num_gpus=args.gpus)(run_worker)
        codes = ray.get([remote.remote(args.triad, args.run, i, args.extra) for i in indices])
    failed = [i for i, c in zip(indices, codes) if c != 0]
    if failed:
        sys.exit(f"workers {failed} failed")
    print(f"{len(codes)} workers finished")


if __name__ == "__main__":
    main()
