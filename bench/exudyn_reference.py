#!/usr/bin/env python3
"""Reproduces, with Exudyn, the reference numbers that mbsweep's tests cite.

Run from the bench venv (bash bench/setup_bench.sh creates it):
    bench/.venv/bin/python bench/exudyn_reference.py
(started with another interpreter, the script re-runs itself with bench/.venv/bin/python).

(a) Exudyn's TestModels/solverExplicitODE1ODE2test.py: the m=2 oscillator with K=diag(200,100),
    f=[0,1], q0=[1,0] as NodeGenericODE1 (4 states) and as NodeGenericODE2, to t=2 with
    sensorsWritePeriod 10; DOPRI5 (numberOfSteps 2, relativeTolerance 1e-4, absoluteTolerance
    1, 1e-2, 1e-4, 1e-6), RK67 (h=0.1, 0.01), RK44 and RK33 (h=0.1, 0.01, 0.001),
    ExplicitMidpoint (h=0.01, 0.001); err = sum of |q0 - 0.40808206181339224| over both nodes
    and all runs. The step counts are computed as the test file does (int(tEnd/h) with
    h = 1e-1*10**-i), which gives 199 steps for h = 0.010000000000000002; the per-run table
    shows them, and the sum is printed for those counts and for the nominal counts round(2/h).
(b) VelocityVerlet on m=1 with an ObjectConnectorCoordinateSpringDamper (k=100, d=0.5) to a
    ground coordinate, initialCoordinates [0.1,0,0], endTime 1, 400/800/1600 steps: x(1).
"""
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, ".venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")


def _import_exudyn():
    try:
        import exudyn  # noqa: F401
    except ImportError:
        if os.path.exists(VENV_PYTHON) and os.path.realpath(sys.prefix) != os.path.realpath(VENV):
            os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)
        sys.exit("exudyn is not installed for %s; run: bash bench/setup_bench.sh" % sys.executable)


_import_exudyn()
import numpy as np  # noqa: E402
import exudyn as exu  # noqa: E402
from exudyn.itemInterface import (  # noqa: E402
    MarkerNodeCoordinate, NodeGenericODE1, NodeGenericODE2, NodePoint, NodePointGround, ObjectConnectorCoordinateSpringDamper,
    ObjectGenericODE1, ObjectGenericODE2, ObjectMassPoint, SensorNode)

warnings.simplefilter("ignore", DeprecationWarning)


def quiet_settings(end_time, steps):
    """SimulationSettings without solution files, output or sensor writes before end_time."""
    s = exu.SimulationSettings()
    s.timeIntegration.endTime = end_time
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.verboseMode = 0
    if hasattr(s, "solution"):  # Exudyn >= 1.12 settings structure
        s.solution.file.write = False
        s.solution.sensors.writePeriod = end_time
    else:
        s.solutionSettings.writeSolutionToFile = False
        s.solutionSettings.sensorsWritePeriod = end_time
    s.parallel.numberOfThreads = 1
    return s


def explicit_ode1_ode2():
    ref = 0.40808206181339224
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    m = 2
    nODE1 = mbs.AddNode(NodeGenericODE1(referenceCoordinates=[0, 0, 0, 0], initialCoordinates=[1, 0, 0, 0],
                                        numberOfODE1Coordinates=4))
    A = np.array([[0, 0, 1, 0], [0, 0, 0, 1], [-200 / m, 0, 0, 0], [0, -100 / m, 0, 0]])
    b = np.array([0, 0, 0, 1 / m])
    mbs.AddObject(ObjectGenericODE1(nodeNumbers=[nODE1], systemMatrix=A, rhsVector=b))
    s1 = mbs.AddSensor(SensorNode(nodeNumber=nODE1, writeToFile=False, outputVariableType=exu.OutputVariableType.Coordinates))
    nODE2 = mbs.AddNode(NodeGenericODE2(referenceCoordinates=[0, 0], initialCoordinates=[1, 0], initialCoordinates_t=[0, 0],
                                        numberOfODE2Coordinates=2))
    mbs.AddObject(ObjectGenericODE2(nodeNumbers=[nODE2], massMatrix=np.diag([m, m]), stiffnessMatrix=np.diag([200, 100]),
                                    forceVector=np.array([0, 1])))
    s2 = mbs.AddSensor(SensorNode(nodeNumber=nODE2, writeToFile=False, outputVariableType=exu.OutputVariableType.Coordinates))
    mbs.Assemble()

    tEnd = 2
    sims = quiet_settings(tEnd, 2)
    if hasattr(sims, "solution"):
        sims.solution.sensors.writePeriod = 10
    else:
        sims.solutionSettings.sensorsWritePeriod = 10

    # the runs of the test file, in its order: (solver, h as the test computes it, absTol)
    runs = [("DOPRI5", 1.0, 10 ** (-2 * i)) for i in range(4)]
    runs += [("RK67", 1e-1 * 10 ** -i, None) for i in range(2)]
    runs += [("RK44", 1e-1 * 10 ** -i, None) for i in range(3)]
    runs += [("RK33", 1e-1 * 10 ** -i, None) for i in range(3)]
    runs += [("ExplicitMidpoint", 1e-2 * 10 ** -i, None) for i in range(2)]

    def solve(solver, steps, atol):
        sims.timeIntegration.numberOfSteps = steps
        if atol is not None:
            sims.timeIntegration.absoluteTolerance = atol
            sims.timeIntegration.relativeTolerance = 1e-4
        exu.SolveDynamic(mbs, sims, solverType=getattr(exu.DynamicSolverType, solver))
        return float(mbs.GetSensorValues(s1)[0]), float(mbs.GetSensorValues(s2)[0])

    print("(a) solverExplicitODE1ODE2test  (ref = %r)" % ref)
    print("    %-16s %-22s %6s %8s %22s %22s %22s" % ("solver", "h (as in the test)", "steps", "absTol",
                                                      "q0 ODE1", "q0 ODE2", "|dq0| sum"))
    total_as_written = 0.0
    total_nominal = 0.0
    for solver, h, atol in runs:
        steps = int(tEnd / h)
        nominal = int(round(tEnd / h))
        y1, y2 = solve(solver, steps, atol)
        e = abs(y1 - ref) + abs(y2 - ref)
        total_as_written += e
        print("    %-16s %-22r %6d %8s %22.17g %22.17g %22.17g" % (solver, h, steps, "" if atol is None else "%g" % atol,
                                                                    y1, y2, e))
        if nominal != steps:
            y1n, y2n = solve(solver, nominal, atol)
            en = abs(y1n - ref) + abs(y2n - ref)
            total_nominal += en
            print("    %-16s %-22s %6d %8s %22.17g %22.17g %22.17g   <- nominal step count" % (
                solver, "(nominal %g)" % round(h, 12), nominal, "", y1n, y2n, en))
        else:
            total_nominal += e
    print("    err (step counts as the test file computes them) = %r" % total_as_written)
    print("    err (nominal step counts round(2/h))             = %r" % total_nominal)
    print("    Exudyn test-suite reference constant              = 3.3767933275918964")


def velocity_verlet():
    print("(b) VelocityVerlet: m=1, CoordinateSpringDamper k=100 d=0.5 to ground, x0=0.1, v0=0, endTime 1")
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    n = mbs.AddNode(NodePoint(referenceCoordinates=[0, 0, 0], initialCoordinates=[0.1, 0, 0], initialVelocities=[0, 0, 0]))
    mbs.AddObject(ObjectMassPoint(mass=1, nodeNumber=n))
    ng = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    m0 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=ng, coordinate=0))
    m1 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n, coordinate=0))
    mbs.AddObject(ObjectConnectorCoordinateSpringDamper(markerNumbers=[m0, m1], stiffness=100, damping=0.5))
    mbs.Assemble()
    for steps in (400, 800, 1600):
        sims = quiet_settings(1.0, steps)
        exu.SolveDynamic(mbs, sims, solverType=exu.DynamicSolverType.VelocityVerlet)
        x = mbs.GetNodeOutput(n, exu.OutputVariableType.Coordinates)[0]
        print("    steps=%5d  x(1) = %r" % (steps, float(x)))


def main():
    print("Exudyn %s, Python %s" % (exu.GetVersionString(), sys.version.split()[0]))
    explicit_ode1_ode2()
    velocity_verlet()


if __name__ == "__main__":
    main()
