#!/usr/bin/env python3
"""Studies over MPI ranks: how a sweep scales from 1 to N ranks on this machine, and what a
chunk costs in hand-out and collection. Side by side in one run, alternating the variants,
best of --repeat rounds each.

    python3 bench/mpi_scaling.py [--build-dir build] [--ranks 2] [--repeat 3]

Scaling: the oscillator Sobol scan (studies/examples/oscillator_sobol_scan.yaml, 200
generalized-alpha steps per system), --count points in chunks of --chunk, cpu evaluator:
one process with one thread, one process with --ranks threads, and mpirun -np 1 .. --ranks
(each rank one thread: the node's cores shared by its ranks). Wall time of the whole command
(mpirun's start included) and summary.json's totalSeconds (the study inside mbsweep).

Per-chunk cost: the same study with --overhead-count points, once in chunks of 16384 and once
in chunks of 8; (time(small chunks) - time(large chunks)) / (chunks(small) - chunks(large))
per variant: what a chunk costs beyond its systems, on one rank and on --ranks ranks.
"""
import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
STUDY = os.path.join(HERE, "..", "studies", "examples", "oscillator_sobol_scan.yaml")


def run(cmd, out):
    shutil.rmtree(out, ignore_errors=True)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)
    return wall, s["timings"]["totalSeconds"]


def variants(mbsweep, ranks):
    mpirun = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none"]
    v = [("1 process, 1 thread", [mbsweep], ["--threads", "1"]),
         (f"1 process, {ranks} threads", [mbsweep], ["--threads", str(ranks)])]
    for n in range(1, ranks + 1):
        v.append((f"mpirun -np {n} (1 thread each)", mpirun + ["-np", str(n), mbsweep], ["--threads", "1"]))
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--count", type=int, default=262144)
    ap.add_argument("--chunk", type=int, default=8192)
    ap.add_argument("--overhead-count", type=int, default=65536)
    a = ap.parse_args()
    mbsweep = os.path.abspath(os.path.join(a.build_dir, "studies", "mbsweep"))
    work = tempfile.mkdtemp(prefix="mbsweep_mpi_")
    out = os.path.join(work, "out")

    def sweep(prefix, flags, count, chunk):
        return run(prefix + ["sweep", STUDY, "--out", out, "--quiet", "--backend", "cpu", "--count", str(count),
                             "--chunk", str(chunk)] + flags, out)

    vs = variants(mbsweep, a.ranks)
    best = {name: (float("inf"), float("inf")) for name, _, _ in vs}
    for _ in range(a.repeat):
        for name, prefix, flags in vs:
            w, t = sweep(prefix, flags, a.count, a.chunk)
            best[name] = (min(best[name][0], w), min(best[name][1], t))
    base = best[vs[0][0]][1]
    print(f"## Scaling: {a.count} systems in chunks of {a.chunk} (best of {a.repeat})\n")
    print("| variant | wall s | study s | systems/s | vs 1 process, 1 thread |")
    print("|---|---|---|---|---|")
    for name, _, _ in vs:
        w, t = best[name]
        print(f"| {name} | {w:.3f} | {t:.3f} | {a.count / t:.3g} | {base / t:.2f}x |")

    small, large = 8, 16384
    n_small = -(-a.overhead_count // small)
    n_large = -(-a.overhead_count // large)
    print(f"\n## Per-chunk cost: {a.overhead_count} systems in chunks of {small} ({n_small}) "
          f"and {large} ({n_large}) (best of {a.repeat})\n")
    print("| variant | study s, small chunks | study s, chunks of 16384 | per chunk, us |")
    print("|---|---|---|---|")
    for name, prefix, flags in [vs[0], vs[-1]]:
        ts, tl = float("inf"), float("inf")
        for _ in range(a.repeat):
            ts = min(ts, sweep(prefix, flags, a.overhead_count, small)[1])
            tl = min(tl, sweep(prefix, flags, a.overhead_count, large)[1])
        print(f"| {name} | {ts:.3f} | {tl:.3f} | {(ts - tl) / (n_small - n_large) * 1e6:.0f} |")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
