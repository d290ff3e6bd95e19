#!/usr/bin/env python3
"""Exudyn's ParameterVariation (multiprocessing on all cores) against mbsweep's batch
evaluators on the same study: the parameterVariationExample 1-DOF oscillator, a grid over
spring stiffness, 1000 generalized-alpha steps (full Newton on both sides), objective
max |x| sampled every 0.01 s. Prints systems per second of both and the ratio.

    bash bench/setup_bench.sh                       # once: Exudyn into bench/.venv
    python3 bench/compare_parametervariation.py [--systems 512] [--repeat N] [--build-dir build]

The mbsweep side is build/bench/bench_batch (cpu evaluator, all cores; cuda too when built
and a device is present). Exudyn's side builds the model in every evaluation, as its
examples do; that cost is part of what a user of ParameterVariation pays.
"""
import argparse
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import time
import warnings

# Exudyn 1.12+ warns that mass (the name Exudyn's examples use) is deprecated
warnings.filterwarnings("ignore", category=DeprecationWarning)

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, ".venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")


def ensure_exudyn():
    try:
        import exudyn  # noqa: F401
    except ImportError:
        if os.path.exists(VENV_PYTHON) and os.path.realpath(sys.prefix) != os.path.realpath(VENV):
            os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)
        sys.exit("exudyn is not installed for %s; run: bash bench/setup_bench.sh" % sys.executable)


def oscillator_max_abs(parameters):
    """One evaluation: the oscillator with the given spring stiffness; returns max |x|."""
    import exudyn as exu
    from exudyn.itemInterface import (LoadCoordinate, MarkerNodeCoordinate, NodePoint, NodePointGround,
                                      ObjectConnectorCoordinateSpringDamper, ObjectMassPoint, SensorNode)
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    n1 = mbs.AddNode(NodePoint(referenceCoordinates=[0.5, 0, 0], initialCoordinates=[-0.08, 0, 0],
                               initialVelocities=[1, 0, 0]))
    nGround = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    mbs.AddObject(ObjectMassPoint(mass=1.6, nodeNumber=n1))
    mg = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nGround, coordinate=0))
    mn = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n1, coordinate=0))
    mbs.AddObject(ObjectConnectorCoordinateSpringDamper(markerNumbers=[mg, mn], stiffness=parameters["k"], damping=8))
    mbs.AddLoad(LoadCoordinate(markerNumber=mn, load=80))
    s = mbs.AddSensor(SensorNode(nodeNumber=n1, storeInternal=True, writeToFile=False,
                                 outputVariableType=exu.OutputVariableType.Displacement))
    mbs.Assemble()
    st = exu.SimulationSettings()
    st.timeIntegration.numberOfSteps = 1000
    st.timeIntegration.endTime = 1
    st.timeIntegration.newton.useModifiedNewton = False
    st.timeIntegration.verboseMode = 0
    if hasattr(st, "solution"):
        st.solution.file.write = False
        st.solution.sensors.writePeriod = 0.01
    else:
        st.solutionSettings.writeSolutionToFile = False
        st.solutionSettings.sensorsWritePeriod = 0.01
    exu.SolveDynamic(mbs, st)
    data = mbs.GetSensorStoredData(s)
    return float(abs(data[:, 1]).max())


def run_mbsweep(binary, systems):
    """Systems per second of each evaluator bench_batch runs (cpu; cuda and cuda-cublas when available)."""
    out = subprocess.run([binary, "--models", "oscillator", "--sizes", str(systems), "--budget", "1e9"],
                         capture_output=True, text=True, check=True).stdout
    rates, skipped = {}, []
    for line in out.splitlines():
        m = re.match(r"oscillator\s+([\w-]+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+(\S+)\s+(\S+)", line)
        if m:
            rates[m.group(1)] = float(m.group(6))
        elif "skipped" in line:
            skipped.append(line.split(None, 1)[1])
    return rates, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--systems", type=int, default=512)
    ap.add_argument("--repeat", type=int, default=1,
                    help="rounds of Exudyn then mbsweep; with more than one, the median ratio and its range "
                         "are printed too (this machine's speed drifts between runs)")
    ap.add_argument("--build-dir", default=os.path.join(os.path.dirname(HERE), "build"))
    args = ap.parse_args()
    ensure_exudyn()
    import exudyn as exu
    from exudyn.processing import ParameterVariation

    binary = os.path.join(args.build_dir, "bench", "bench_batch")
    if not os.path.exists(binary):
        sys.exit("missing %s; build it: cmake --build %s --target bench_batch" % (binary, args.build_dir))
    cores = multiprocessing.cpu_count()
    ratios = {}
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        ParameterVariation(oscillator_max_abs, {"k": (2000.0, 8000.0, args.systems)}, useMultiProcessing=True,
                           numberOfThreads=cores, showProgress=False)
        exudyn_sps = args.systems / (time.perf_counter() - t0)
        print("Exudyn %s ParameterVariation, %d processes: %d systems, %.1f systems/s"
              % (exu.__version__, cores, args.systems, exudyn_sps))
        rates, skipped = run_mbsweep(binary, args.systems)
        for ev, sps in rates.items():
            ratios.setdefault(ev, []).append(sps / exudyn_sps)
            print("mbsweep %-11s evaluator: %d systems, %.1f systems/s  -> %.1fx Exudyn"
                  % (ev, args.systems, sps, sps / exudyn_sps))
        for line in skipped:
            print("mbsweep " + line)
    if args.repeat > 1:
        for ev, r in ratios.items():
            print("mbsweep %-11s evaluator over %d rounds: median %.1fx Exudyn (%.1f-%.1fx)"
                  % (ev, len(r), statistics.median(r), min(r), max(r)))


if __name__ == "__main__":
    main()
