#!/usr/bin/env python3
"""Side-by-side single-system throughput of Exudyn and mbsweep on the same models.

Builds nothing: expects <build-dir>/bench/mbsweep_bench_models (cmake --build build --target
mbsweep_bench_models) and Exudyn in bench/.venv (bash bench/setup_bench.sh). Started with
an interpreter without Exudyn, the script re-runs itself with bench/.venv/bin/python.

Both sides run the same items with the same settings: no sensors, no solution file, one
thread, Exudyn's default explicit settings (computeEndOfStepAccelerations on); only the
SolveDynamic call is timed (model assembly/compilation excluded). A round of either side builds
the model once and solves it repeatedly from its initial state, until the solves have taken
0.25 s and at least 3 times (at most 200; the same rule as mbsweep_bench_models), so that a
few-millisecond case is timed on a warm process and core as well as a long one; the best
solve of --repeat rounds, which alternate the two sides, counts.
Each case prints Exudyn's and mbsweep's steps per second (wall clock), their ratio
(mbsweep / Exudyn), the same ratio from process CPU time (less sensitive to other load on
the machine) and the relative difference of the final ODE2 coordinate 0.

    bench/.venv/bin/python bench/compare_exudyn.py [--build-dir build] [--json results.json]

Adding a case: append a Case to CASES. A new model needs a builder in EXUDYN_MODELS (Exudyn
items) and the same model, under the same name, in bench/models.cpp (BenchModels and
BuildBenchModel), so that `mbsweep_bench_models <model> ...` knows it. Cases may set
Exudyn settings through `settings` (attribute paths under SimulationSettings, e.g.
{"timeIntegration.generalizedAlpha.spectralRadius": 0.8}); the mbsweep CLI runs with its
defaults, so give such settings the values of mbsweep's defaults or extend the CLI.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import List, Callable, Dict, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
VENV = os.path.join(HERE, ".venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core on both sides


def _import_exudyn():
    try:
        import exudyn  # noqa: F401
    except ImportError:
        if os.path.exists(VENV_PYTHON) and os.path.realpath(sys.prefix) != os.path.realpath(VENV):
            os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)
        sys.exit("exudyn is not installed for %s; run: bash bench/setup_bench.sh" % sys.executable)


# ----------------------------------------------------------------------------------------
# models (Exudyn side); the C++ side is bench/models.cpp, under the same names
# ----------------------------------------------------------------------------------------
def build_oscillator(mbs):
    """Exudyn's parameterVariationExample 1-DOF oscillator (see bench/models.h)."""
    from exudyn.itemInterface import (LoadCoordinate, MarkerNodeCoordinate, NodePoint, NodePointGround,
                                      ObjectConnectorCoordinateSpringDamper, ObjectMassPoint)
    n1 = mbs.AddNode(NodePoint(referenceCoordinates=[0.5, 0, 0], initialCoordinates=[-0.08, 0, 0],
                               initialVelocities=[1, 0, 0]))
    nGround = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    mbs.AddObject(ObjectMassPoint(mass=1.6, nodeNumber=n1))
    groundMarker = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nGround, coordinate=0))
    nodeMarker = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n1, coordinate=0))
    mbs.AddObject(ObjectConnectorCoordinateSpringDamper(markerNumbers=[groundMarker, nodeMarker], stiffness=4000,
                                                        damping=8))
    mbs.AddLoad(LoadCoordinate(markerNumber=nodeMarker, load=80))


def build_chain50(mbs, masses=50):
    """50 point masses in series on spring-dampers from a ground point, gravity (see bench/models.h)."""
    from exudyn.itemInterface import (LoadMassProportional, MarkerBodyMass, MarkerBodyPosition, NodePoint,
                                      ObjectConnectorSpringDamper, ObjectGround, ObjectMassPoint)
    oGround = mbs.AddObject(ObjectGround(referencePosition=[0, 0, 0]))
    previous = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0, 0, 0]))
    for i in range(masses):
        n = mbs.AddNode(NodePoint(referenceCoordinates=[i + 1, 0, 0], initialCoordinates=[0, 0, 0],
                                  initialVelocities=[0, 1, 0] if i == 0 else [0, 0, 0]))
        body = mbs.AddObject(ObjectMassPoint(mass=1, nodeNumber=n))
        current = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[0, 0, 0]))
        massMarker = mbs.AddMarker(MarkerBodyMass(bodyNumber=body))
        mbs.AddObject(ObjectConnectorSpringDamper(markerNumbers=[previous, current], stiffness=1000, damping=1,
                                                  referenceLength=1))
        mbs.AddLoad(LoadMassProportional(markerNumber=massMarker, loadVector=[0, -9.81, 0]))
        previous = current


def build_pendulum2d(mbs):
    """2D rigid pendulum: link L=1, m=1, J=m L^2/12 about its centre, revolute joint at the origin (bench/models.h)."""
    from exudyn.itemInterface import (LoadMassProportional, MarkerBodyMass, MarkerBodyPosition, NodeRigidBody2D,
                                      ObjectGround, ObjectJointRevolute2D, ObjectRigidBody2D)
    oGround = mbs.AddObject(ObjectGround(referencePosition=[0, 0, 0]))
    n = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[0.5, 0, 0]))
    body = mbs.AddObject(ObjectRigidBody2D(mass=1, inertia=1 / 12, nodeNumber=n))
    mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=body)),
                                     loadVector=[0, -9.81, 0]))
    m0 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0, 0, 0]))
    m1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[-0.5, 0, 0]))
    mbs.AddObject(ObjectJointRevolute2D(markerNumbers=[m0, m1]))


def build_slidercrank(mbs, s1=0.05, s2=0.15):
    """Exudyn's geneticOptimizationSliderCrank model on its floating frame (bench/models.h)."""
    from exudyn.itemInterface import (LoadCoordinate, MarkerBodyPosition, MarkerBodyRigid, MarkerNodeCoordinate,
                                      MarkerNodePosition, NodePointGround, NodeRigidBody2D, ObjectConnectorCoordinate,
                                      ObjectConnectorCoordinateSpringDamper, ObjectJointPrismatic2D,
                                      ObjectJointRevolute2D, ObjectRigidBody2D)
    L1, L2, m1, m2, m3, k = 0.1, 0.3, 0.4, 0.2, 0.1, 5000
    mGround = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=mbs.AddNode(NodePointGround()), coordinate=0))
    nFrame = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[0, 0, 0]))
    oFrame = mbs.AddObject(ObjectRigidBody2D(mass=2, inertia=1, nodeNumber=nFrame))
    mFrame = mbs.AddMarker(MarkerNodePosition(nodeNumber=nFrame))
    mc = [mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nFrame, coordinate=i)) for i in range(3)]
    for i in range(3):
        mbs.AddObject(ObjectConnectorCoordinateSpringDamper(markerNumbers=[mGround, mc[i]], stiffness=k,
                                                            damping=0.01 * k))
    mbs.AddObject(ObjectConnectorCoordinate(markerNumbers=[mGround, mc[2]]))

    def link(x, mass, J):
        n = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[x, 0, 0]))
        return n, mbs.AddObject(ObjectRigidBody2D(mass=mass, inertia=J, nodeNumber=n))
    nCrank, oCrank = link(s1, m1, m1 / 12 * L1 ** 2)
    _, oRod = link(L1 + s2, m2, m2 / 12 * L2 ** 2)
    _, oSlider = link(L1 + L2, m3, 0.001 * m3)
    c0 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=oCrank, localPosition=[-s1, 0, 0]))
    c1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oCrank, localPosition=[L1 - s1, 0, 0]))
    r0 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oRod, localPosition=[-s2, 0, 0]))
    r1 = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oRod, localPosition=[L2 - s2, 0, 0]))
    sm = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oSlider, localPosition=[0, 0, 0]))
    for a, b in ((mFrame, c0), (c1, r0), (r1, sm)):
        mbs.AddObject(ObjectJointRevolute2D(markerNumbers=[a, b]))
    mbs.AddObject(ObjectJointPrismatic2D(markerNumbers=[
        mbs.AddMarker(MarkerBodyRigid(bodyNumber=oFrame, localPosition=[L1 + L2, 0, 0])),
        mbs.AddMarker(MarkerBodyRigid(bodyNumber=oSlider, localPosition=[0, 0, 0]))], constrainRotation=True))
    mbs.AddLoad(LoadCoordinate(markerNumber=mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nCrank, coordinate=2)),
                               load=0.1))


@dataclass
class ExudynModel:
    build: Callable  # build(mbs): adds the items
    end_time: float  # the same default end time as bench/models.cpp


EXUDYN_MODELS: Dict[str, ExudynModel] = {
    "oscillator": ExudynModel(build_oscillator, 1.0),
    "chain50": ExudynModel(build_chain50, 10.0),
    "pendulum2d": ExudynModel(build_pendulum2d, 1.0),
    "slidercrank": ExudynModel(build_slidercrank, 3.0),
}


@dataclass
class Case:
    model: str
    solver: str  # DynamicSolverType name, the same on both sides
    steps: int
    end_time: Optional[float] = None  # None: the model's default
    settings: Dict[str, object] = field(default_factory=dict)  # extra Exudyn settings (dotted paths)
    mbsweep_settings: List[str] = field(default_factory=list)  # the same settings for mbsweep_bench_models


CASES = [
    Case("oscillator", "ExplicitEuler", 1_000_000),
    Case("oscillator", "RK44", 1_000_000),
    Case("chain50", "RK44", 10_000),
    # implicit: Exudyn's 2D rigid-pendulum performance setting (rho = 0.7, modified Newton)
    Case("pendulum2d", "GeneralizedAlpha", 100_000, 100.0,
         {"timeIntegration.generalizedAlpha.spectralRadius": 0.7, "timeIntegration.newton.useModifiedNewton": True},
         ["spectralRadius=0.7", "useModifiedNewton=1"]),
    # the slider-crank GA example's settings (index 2 trapezoidal rule, modified Newton, atol 1e-8)
    Case("slidercrank", "TrapezoidalIndex2", 1500, 3.0,
         {"timeIntegration.newton.useModifiedNewton": True, "timeIntegration.newton.absoluteTolerance": 1e-8},
         ["useModifiedNewton=1", "absoluteTolerance=1e-8"]),
    # full Newton on both sides (Exudyn 1.13 defaults to modified Newton)
    Case("oscillator", "GeneralizedAlpha", 100_000, 100.0, {"timeIntegration.newton.useModifiedNewton": False},
         ["useModifiedNewton=0"]),
]


# ----------------------------------------------------------------------------------------
# runners
# ----------------------------------------------------------------------------------------
def exudyn_settings(exu, end_time, steps, extra):
    s = exu.SimulationSettings()
    s.timeIntegration.endTime = end_time
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.verboseMode = 0
    if hasattr(s, "solution"):  # Exudyn >= 1.12 settings structure
        s.solution.file.write = False
        s.solution.sensors.writePeriod = end_time
        s.show.computationTime = False
        s.show.statistics = False
    else:
        s.solutionSettings.writeSolutionToFile = False
        s.solutionSettings.sensorsWritePeriod = end_time
        s.displayComputationTime = False
        s.displayStatistics = False
    s.parallel.numberOfThreads = 1
    for path, value in extra.items():
        obj = s
        parts = path.split(".")
        for p in parts[:-1]:
            obj = getattr(obj, p)
        setattr(obj, parts[-1], value)
    return s


MIN_ROUND_SECONDS, MIN_SOLVES, MAX_SOLVES = 0.25, 3, 200  # a round's solves (as in mbsweep_bench_models)


def run_exudyn(case, end_time):
    import exudyn as exu
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    EXUDYN_MODELS[case.model].build(mbs)
    mbs.Assemble()
    s = exudyn_settings(exu, end_time, case.steps, case.settings)
    solver = getattr(exu.DynamicSolverType, case.solver)
    best = best_cpu = float("inf")
    total, solves = 0.0, 0
    while solves < MAX_SOLVES and (solves < MIN_SOLVES or total < MIN_ROUND_SECONDS):
        c0 = time.process_time()
        t0 = time.perf_counter()
        exu.SolveDynamic(mbs, s, solverType=solver, storeSolver=False)  # from the initial state each time
        t1 = time.perf_counter()
        c1 = time.process_time()
        best, best_cpu = min(best, t1 - t0), min(best_cpu, c1 - c0)
        total += t1 - t0
        solves += 1
    q0 = float(mbs.systemData.GetODE2Coordinates()[0])
    return {"seconds": best, "steps_per_second": case.steps / best, "cpu_seconds": best_cpu, "final_q0": q0}


def run_mbsweep(binary, case, end_time):
    cmd = [binary, case.model, case.solver, str(case.steps), repr(float(end_time))] + case.mbsweep_settings
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("mbsweep_bench_models failed (%s):\n%s" % (" ".join(cmd), p.stderr.strip()))
    return json.loads(p.stdout.strip().splitlines()[-1])


def best_of(runs):
    """The fastest run (wall clock), with the least CPU time of all runs."""
    best = min(runs, key=lambda r: r["seconds"])
    return dict(best, cpu_seconds=min(r["cpu_seconds"] for r in runs))


def rel_diff(a, b):
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else abs(a - b) / scale


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"),
                    help="CMake build directory holding bench/mbsweep_bench_models (default: <repo>/build)")
    ap.add_argument("--json", metavar="FILE", help="also write the results to FILE as JSON")
    ap.add_argument("--repeat", type=int, default=3,
                    help="rounds per case, each timing Exudyn and then mbsweep (each the best of a round's "
                         "solves), alternating; "
                         "the best solve of each side counts (default 3)")
    ap.add_argument("--only", metavar="MODEL", action="append",
                    help="run only the cases of this model (repeatable)")
    args = ap.parse_args()

    binary = os.path.join(args.build_dir, "bench", "mbsweep_bench_models")
    if not os.access(binary, os.X_OK):
        sys.exit("compare_exudyn.py: %s not found.\nBuild it first, e.g.\n"
                 "  cmake -S . -B build && cmake --build build --target mbsweep_bench_models\n"
                 "or point --build-dir to an existing build directory." % binary)
    _import_exudyn()
    import exudyn as exu
    warnings.simplefilter("ignore", DeprecationWarning)

    cases = [c for c in CASES if not args.only or c.model in args.only]
    rows = []
    header = "%-11s %-14s %9s %16s %16s %7s %10s %24s %24s %9s" % (
        "model", "solver", "steps", "Exudyn steps/s", "mbsweep steps/s", "ratio", "ratio(CPU)", "Exudyn final q0",
        "mbsweep final q0", "rel.diff")
    load = os.getloadavg()[0]
    print("Exudyn %s, Python %s, %s, %d CPUs, load average %.2f before the run" % (
        exu.GetVersionString(), platform.python_version(), platform.machine(), os.cpu_count() or 0, load))
    print(header)
    print("-" * len(header))
    for c in cases:
        end_time = c.end_time if c.end_time is not None else EXUDYN_MODELS[c.model].end_time
        # alternate the two sides, so that both see the same spells of a busy or throttled machine
        ex_runs, mb_runs = [], []
        for _ in range(args.repeat):
            ex_runs.append(run_exudyn(c, end_time))
            mb_runs.append(run_mbsweep(binary, c, end_time))
        ex, mb = best_of(ex_runs), best_of(mb_runs)
        row = {
            "model": c.model, "solver": c.solver, "steps": c.steps, "endTime": end_time,
            "exudyn_seconds": ex["seconds"], "exudyn_steps_per_second": ex["steps_per_second"],
            "mbsweep_seconds": mb["seconds"], "mbsweep_steps_per_second": mb["steps_per_second"],
            "ratio": mb["steps_per_second"] / ex["steps_per_second"],
            "exudyn_cpu_seconds": ex["cpu_seconds"], "mbsweep_cpu_seconds": mb["cpu_seconds"],
            "ratio_cpu": ex["cpu_seconds"] / mb["cpu_seconds"] if mb["cpu_seconds"] > 0 else float("nan"),
            "exudyn_final_q0": ex["final_q0"], "mbsweep_final_q0": mb["final_q0"],
            "final_q0_rel_diff": rel_diff(ex["final_q0"], mb["final_q0"]),
        }
        rows.append(row)
        print("%-11s %-14s %9d %16.4g %16.4g %7.2f %10.2f %24.17g %24.17g %9.2e" % (
            c.model, c.solver, c.steps, row["exudyn_steps_per_second"], row["mbsweep_steps_per_second"],
            row["ratio"], row["ratio_cpu"], row["exudyn_final_q0"], row["mbsweep_final_q0"], row["final_q0_rel_diff"]),
            flush=True)
    print("steps/s and ratio = mbsweep steps/s / Exudyn steps/s from wall-clock time; ratio(CPU) from process CPU\n"
          "time (less sensitive to other load); best solve of %d alternating rounds per side (a round: solves\n"
          "for at least %.2f s, at least %d, at most %d), SolveDynamic only" % (
              args.repeat, MIN_ROUND_SECONDS, MIN_SOLVES, MAX_SOLVES))

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"exudyn_version": exu.GetVersionString(), "python": platform.python_version(),
                       "machine": platform.machine(), "platform": platform.platform(), "cpus": os.cpu_count(),
                       "load_average_before": load, "binary": binary,
                       "repeat": args.repeat, "cases": rows}, f, indent=2)
        print("wrote", args.json)


if __name__ == "__main__":
    main()
