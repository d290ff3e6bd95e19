"""Models built in Exudyn (installed from PyPI by the set-up), converted with
mbsweep.from_exudyn and run by mbsweep, against Exudyn's own runs of the same models:
Exudyn 1.13's parameterVariationExample oscillator (a ParameterVariation over two of its
fields), its geneticOptimizationSliderCrank model (index-2 Newmark, modified Newton) and a 3D
rigid body on a spherical joint under gravity (generalized-alpha with Exudyn's default
settings). Run by ctest with the set-up's virtual environment:
    python -m unittest tests/studies/test_exudyn.py
"""
import os
import tempfile
import unittest
import warnings

import numpy as np

import mbsweep

try:
    import exudyn as exu
    from exudyn.itemInterface import (CoordinateConstraint, CoordinateSpringDamper, LoadCoordinate, MarkerBodyPosition,
                                      MarkerBodyRigid, MarkerNodeCoordinate, MarkerNodePosition, MassPoint, Point,
                                      PointGround, PrismaticJoint2D, RevoluteJoint2D, Rigid2D, RigidBody2D, SensorNode,
                                      SensorObject, SensorBody)
    from exudyn.utilities import InertiaCuboid
except ImportError:  # pragma: no cover - the set-up installs Exudyn
    exu = None

RTOL = 1e-10  # the bar: Exudyn's values to 1e-10


def run_exudyn(mbs, settings, solverType=None):
    """Exudyn's own run; every sensor's stored rows."""
    mbs.Assemble()
    if solverType is None:
        exu.SolveDynamic(mbs, settings)
    else:
        exu.SolveDynamic(mbs, settings, solverType=solverType)
    return [mbs.GetSensorStoredData(s) for s in range(mbs.systemData.NumberOfSensors())]


def assert_signals_equal(test, exudyn_rows, mbsweep_rows):
    test.assertEqual(exudyn_rows.shape, mbsweep_rows.shape)
    # the same output times (Exudyn's last one is its summed step sizes, endTime to 1e-13)
    np.testing.assert_allclose(mbsweep_rows[:, 0], exudyn_rows[:, 0], rtol=0, atol=1e-12 * exudyn_rows[-1, 0])
    scale = np.max(np.abs(exudyn_rows[:, 1:]))
    np.testing.assert_allclose(mbsweep_rows[:, 1:], exudyn_rows[:, 1:], rtol=0, atol=RTOL * scale)


def oscillator(mass=1.6, spring=4000.0, fileName=""):
    """parameterVariationExample's oscillator (Exudyn 1.13 names); the force sensor also
    writes `fileName` if given."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    n = mbs.AddNode(Point(referenceCoordinates=[0.5, 0, 0], initialCoordinates=[-0.08, 0, 0],
                          initialVelocities=[1, 0, 0]))
    g = mbs.AddNode(PointGround())
    mbs.AddObject(MassPoint(mass=mass, nodeNumber=n))
    m0 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=g, coordinate=0))
    m1 = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n, coordinate=0))
    spring = mbs.AddObject(CoordinateSpringDamper(markerNumbers=[m0, m1], stiffness=spring, damping=8))
    mbs.AddLoad(LoadCoordinate(markerNumber=m1, load=80))
    mbs.AddSensor(SensorObject(objectNumber=spring, storeInternal=True, writeToFile=bool(fileName), fileName=fileName,
                               outputVariableType=exu.OutputVariableType.Force))
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = 1000
    s.timeIntegration.endTime = 1
    s.timeIntegration.generalizedAlpha.spectralRadius = 1
    s.solution.sensors.writePeriod = 5e-3
    s.timeIntegration.verboseMode = 0
    return SC, mbs, s


def slider_crank(s1, s2):
    """geneticOptimizationSliderCrank's model with the centre-of-mass offsets s1 and s2."""
    L1, L2, m1, m2, m3 = 0.1, 0.3, 0.4, 0.2, 0.1
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    gn = mbs.AddNode(PointGround())
    mg = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=gn, coordinate=0))
    fn = mbs.AddNode(Rigid2D())
    mFrame = mbs.AddMarker(MarkerNodePosition(nodeNumber=fn))
    frame = mbs.AddObject(RigidBody2D(mass=2, inertia=1, nodeNumber=fn))
    mc = [mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=fn, coordinate=c)) for c in range(3)]
    for c in range(3):
        mbs.AddObject(CoordinateSpringDamper(markerNumbers=[mg, mc[c]], stiffness=5000, damping=50))
    mbs.AddObject(CoordinateConstraint(markerNumbers=[mg, mc[2]]))
    cn = mbs.AddNode(Rigid2D(referenceCoordinates=[s1, 0, 0]))
    crank = mbs.AddObject(RigidBody2D(mass=m1, inertia=m1 / 12 * L1 ** 2, nodeNumber=cn))
    rn = mbs.AddNode(Rigid2D(referenceCoordinates=[L1 + s2, 0, 0]))
    rod = mbs.AddObject(RigidBody2D(mass=m2, inertia=m2 / 12 * L2 ** 2, nodeNumber=rn))
    sn = mbs.AddNode(Rigid2D(referenceCoordinates=[L1 + L2, 0, 0]))
    slider = mbs.AddObject(RigidBody2D(mass=m3, inertia=0.001 * m3, nodeNumber=sn))
    crankLeft = mbs.AddMarker(MarkerBodyRigid(bodyNumber=crank, localPosition=[-s1, 0, 0]))
    crankRight = mbs.AddMarker(MarkerBodyPosition(bodyNumber=crank, localPosition=[L1 - s1, 0, 0]))
    rodLeft = mbs.AddMarker(MarkerBodyPosition(bodyNumber=rod, localPosition=[-s2, 0, 0]))
    rodRight = mbs.AddMarker(MarkerBodyPosition(bodyNumber=rod, localPosition=[L2 - s2, 0, 0]))
    sliderPoint = mbs.AddMarker(MarkerBodyPosition(bodyNumber=slider, localPosition=[0, 0, 0]))
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[mFrame, crankLeft]))
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[crankRight, rodLeft]))
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[rodRight, sliderPoint]))
    rail = mbs.AddMarker(MarkerBodyRigid(bodyNumber=frame, localPosition=[L1 + L2, 0, 0]))
    sliderRail = mbs.AddMarker(MarkerBodyRigid(bodyNumber=slider, localPosition=[0, 0, 0]))
    mbs.AddObject(PrismaticJoint2D(markerNumbers=[rail, sliderRail], constrainRotation=True))
    angle = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=cn, coordinate=2))
    mbs.AddLoad(LoadCoordinate(markerNumber=angle, load=0.1))
    mbs.AddSensor(SensorNode(nodeNumber=fn, storeInternal=True, outputVariableType=exu.OutputVariableType.Position))
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = 1500
    s.timeIntegration.endTime = 3
    s.timeIntegration.newton.useModifiedNewton = True
    s.timeIntegration.newton.relativeTolerance = 1e-8
    s.timeIntegration.newton.absoluteTolerance = 1e-8
    s.timeIntegration.generalizedAlpha.useNewmark = True
    s.timeIntegration.generalizedAlpha.useIndex2Constraints = True
    s.timeIntegration.verboseMode = 0
    return SC, mbs, s


@unittest.skipIf(exu is None, "Exudyn is not installed (scripts/setup.sh installs it from PyPI)")
class FromExudynTest(unittest.TestCase):
    def test_parameter_variation_example_oscillator(self):
        SC, mbs, s = oscillator()
        study = mbsweep.from_exudyn(mbs, s, objectives={"samplePeriod": 5e-3, "list": [
            {"name": "maxForce", "kind": "MaxAbs", "sensor": 0}, {"name": "final", "kind": "FinalValue", "sensor": 0}]})
        self.assertEqual([next(iter(item)) for item in study["model"]],
                         ["NodePoint", "NodePointGround", "ObjectMassPoint", "MarkerNodeCoordinate",
                          "MarkerNodeCoordinate", "ObjectConnectorCoordinateSpringDamper", "LoadCoordinate",
                          "SensorObject"])
        self.assertEqual(study["simulationSettings"]["solution"], {"sensors": {"writePeriod": 5e-3}})
        # one run: the spring force at every output time
        rows = mbsweep.Study(study, backend="cpu").simulate()["sensor0"]
        assert_signals_equal(self, run_exudyn(mbs, s)[0], rows)
        # a ParameterVariation over two fields of the converted model (theta paths) against one
        # Exudyn run per point
        grid = {"object0.mass": (1, 2, 3), "object1.stiffness": (2000, 8000, 3)}
        [p, values] = mbsweep.ParameterVariation(mbsweep.Study(study, backend="cpu"), grid, objective="maxForce")
        for mass, spring, value in zip(p["object0.mass"], p["object1.stiffness"], values):
            _, m, settings = oscillator(mass, spring)
            force = run_exudyn(m, settings)[0]
            self.assertAlmostEqual(value, np.max(np.abs(force[:, 1])), delta=RTOL * abs(value))

    def test_parameter_variation_example_values(self):
        # the example's study: the error of the spring force against a reference run (Exudyn's
        # sensor file at the nominal values), sqrt(sum diff^2)/steps*tEnd, over a mass x spring
        # grid; Exudyn's ParameterVariation (serial) evaluates it with Exudyn's own runs
        from exudyn.processing import ParameterVariation as ExudynParameterVariation
        with tempfile.TemporaryDirectory() as d:
            reference = os.path.join(d, "reference.txt")
            SC, mbs, s = oscillator(fileName=reference)
            run_exudyn(mbs, s)
            referenceForce = np.loadtxt(reference, comments="#", delimiter=",")[:, 1]

            def error(p):
                _, m, settings = oscillator(p["mass"], p["spring"])
                force = run_exudyn(m, settings)[0][:, 1]
                return np.sqrt(np.sum((force - referenceForce) ** 2)) / 1000 * 1

            grid = {"mass": (1.5, 1.7, 3), "spring": (3000, 5000, 3)}
            [exudynP, exudynValues] = ExudynParameterVariation(error, grid, useMultiProcessing=False,
                                                                 showProgress=False)
            study = mbsweep.from_exudyn(mbs, s, objectives={"samplePeriod": 5e-3, "list": [
                {"name": "error", "kind": "ErrorExudyn", "sensor": 0, "signalFile": reference, "errorDivisor": 1000}]})
            [p, values] = mbsweep.ParameterVariation(
                mbsweep.Study(study, backend="cpu"),
                {"object0.mass": grid["mass"], "object1.stiffness": grid["spring"]})
            np.testing.assert_array_equal(p["object0.mass"], exudynP["mass"])
            np.testing.assert_array_equal(p["object1.stiffness"], exudynP["spring"])
            self.assertLess(values[4], 1e-9)  # the reference point: only the file's 10-digit rounding
            np.testing.assert_allclose(values, exudynValues, rtol=0, atol=RTOL * np.max(exudynValues))
            # the example's published values2[-1] (its refined 16 x 16 grid ends at this grid's last
            # point), computed there from both signals' 10-digit sensor files: 2.5e-11 apart
            self.assertAlmostEqual(values[-1], 1.8943208246113492, delta=1e-9)

    def test_genetic_optimization_slider_crank_model(self):
        # near the analytic optimum (-0.075, -0.15; there the frame moves by round-off only) and
        # at Exudyn's default offsets
        for s1, s2 in ((-0.07, -0.14), (0.05, 0.15)):
            SC, mbs, s = slider_crank(s1, s2)
            study = mbsweep.from_exudyn(mbs, s)
            t = study["simulationSettings"]["timeIntegration"]
            self.assertEqual(t["generalizedAlpha"], {"useNewmark": True, "useIndex2Constraints": True})
            self.assertNotIn("useModifiedNewton", t["newton"])  # Exudyn 1.13's default, as mbsweep's
            rows = mbsweep.Study(study, backend="cpu").simulate()["sensor0"]
            exudyn_rows = run_exudyn(mbs, s)[0]
            assert_signals_equal(self, exudyn_rows, rows)
            objective = np.max(np.abs(rows[:, 1])) + np.max(np.abs(rows[:, 2]))
            reference = np.max(np.abs(exudyn_rows[:, 1])) + np.max(np.abs(exudyn_rows[:, 2]))
            self.assertAlmostEqual(objective, reference, delta=RTOL * reference)

    def test_genetic_optimization_slider_crank(self):
        # geneticOptimizationSliderCrank's study, cut to 3 generations of 10: Exudyn's
        # GeneticOptimization on Exudyn's runs against mbsweep's on the converted model, whose
        # offsets s1 and s2 enter the crank's and rod's nodes and markers as expressions
        from exudyn.processing import GeneticOptimization as ExudynGeneticOptimization

        def objective(p):
            _, m, settings = slider_crank(p["s1"], p["s2"])
            rows = run_exudyn(m, settings)[0]
            return np.max(np.abs(rows[:, 1])) + np.max(np.abs(rows[:, 2]))

        ranges = {"s1": (-0.1, 0.1), "s2": (-0.3, 0.3)}
        options = dict(numberOfGenerations=3, populationSize=10, elitistRatio=0.2, crossoverProbability=0.1,
                       rangeReductionFactor=0.5, randomizerInitialization=0)
        [exudynOpt, exudynValue, exudynList, exudynValues] = ExudynGeneticOptimization(
            objective, ranges, useMultiProcessing=False, showProgress=False, **options)
        SC, mbs, s = slider_crank(0.05, 0.15)
        study = mbsweep.from_exudyn(
            mbs, s, parameters={"s1": 0.05, "s2": 0.15},
            expressions={"node2.referenceCoordinates[0]": "s1", "node3.referenceCoordinates[0]": "0.1+s2",
                         "marker5.localPosition[0]": "-s1", "marker6.localPosition[0]": "0.1-s1",
                         "marker7.localPosition[0]": "-s2", "marker8.localPosition[0]": "0.3-s2"},
            objectives={"samplePeriod": 0.01, "weightedSum": True, "list": [
                {"name": "maxX", "kind": "MaxAbs", "sensor": 0, "component": 0},
                {"name": "maxY", "kind": "MaxAbs", "sensor": 0, "component": 1}]})
        [pOpt, vOpt, pList, vList] = mbsweep.GeneticOptimization(
            mbsweep.Study(study, backend="cpu"), ranges, objective="weightedSum", randomStream="numpy", **options)
        for k in ranges:  # the same individuals (Exudyn's random numbers), so the same optimum
            np.testing.assert_array_equal(pList[k], exudynList[k])
            self.assertEqual(pOpt[k], exudynOpt[k])
        np.testing.assert_allclose(vList, exudynValues, rtol=RTOL, atol=0)
        self.assertAlmostEqual(vOpt, exudynValue, delta=RTOL * exudynValue)
        with self.assertRaises(ValueError) as e:
            mbsweep.from_exudyn(mbs, s, expressions={"marker55.localPosition[0]": "-s1"})
        self.assertEqual(str(e.exception), "from_exudyn: expressions: 'marker55.localPosition[0]': no item is named "
                                           "'marker55'")

    def test_rigid_body_3d_on_a_spherical_joint(self):
        SC = exu.SystemContainer()
        mbs = SC.AddSystem()
        ground = mbs.CreateGround(referencePosition=[0, 0, 0])
        body = mbs.CreateRigidBody(inertia=InertiaCuboid(density=1000, sideLengths=[0.1, 0.2, 0.5]),
                                   referencePosition=[0.2, 0, 0], initialAngularVelocity=[0, 2, 1],
                                   gravity=[0, -9.81, 0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            mbs.CreateSphericalJoint(bodyNumbers=[ground, body], position=[0, 0, 0])
        mbs.AddSensor(SensorBody(bodyNumber=body, storeInternal=True, outputVariableType=exu.OutputVariableType.Position))
        mbs.AddSensor(SensorBody(bodyNumber=body, storeInternal=True,
                                 outputVariableType=exu.OutputVariableType.AngularVelocity))
        s = exu.SimulationSettings()  # Exudyn's defaults: generalized-alpha, rho = 0.9, modified Newton
        s.timeIntegration.numberOfSteps = 400
        s.timeIntegration.endTime = 2
        s.timeIntegration.verboseMode = 0
        study = mbsweep.from_exudyn(mbs, s)
        self.assertEqual([next(iter(item)) for item in study["model"]][:3],
                         ["NodeRigidBodyEP", "ObjectGround", "ObjectRigidBody"])
        ours = mbsweep.Study(study, backend="cpu").simulate()
        theirs = run_exudyn(mbs, s)
        assert_signals_equal(self, theirs[0], ours["sensor0"])
        assert_signals_equal(self, theirs[1], ours["sensor1"])

    def test_explicit_solver_type_is_taken(self):
        SC, mbs, s = oscillator()
        s.timeIntegration.solverType = exu.DynamicSolverType.ODE23  # SolveDynamic's argument wins, as in Exudyn
        study = mbsweep.from_exudyn(mbs, s, solverType=exu.DynamicSolverType.RK44)
        self.assertEqual(study["solver"], "RK44")
        self.assertNotIn("solverType", study["simulationSettings"]["timeIntegration"])
        assert_signals_equal(self, run_exudyn(mbs, s, exu.DynamicSolverType.RK44)[0],
                             mbsweep.Study(study, backend="cpu").simulate()["sensor0"])
        # without the argument, Exudyn 1.13 runs the settings' timeIntegration.solverType
        SC, mbs, s = oscillator()
        s.timeIntegration.solverType = exu.DynamicSolverType.RK44
        study = mbsweep.from_exudyn(mbs, s)
        self.assertEqual(study["simulationSettings"]["timeIntegration"]["solverType"], "RK44")
        assert_signals_equal(self, run_exudyn(mbs, s)[0], mbsweep.Study(study, backend="cpu").simulate()["sensor0"])


    def test_every_shared_item_type_converts(self):
        # Exudyn's dict of each item type's defaults (what mbs.GetObject(i) gives for an item
        # added with no arguments) converts to fields mbsweep's item of that type takes
        import exudyn.itemInterface as items
        from mbsweep.exudyn_model import _CATEGORIES, _item
        types = mbsweep.itemTypes()
        shared = [t for t in types if hasattr(items, t)]
        self.assertEqual(sorted(set(types) - set(shared)), ["ObjectConnectorSpringDamperCubic"])  # mbsweep's own
        for typeName in shared:
            [(category, typeKey, prefix)] = [(c, k, p) for c, _, _, k, p in _CATEGORIES if typeName.startswith(p)
                                             and typeName[len(p):] == dict(getattr(items, typeName)()).get(k)]
            [(converted, fields)] = _item(dict(getattr(items, typeName)()), category, 0, typeKey, prefix,
                                          types).items()
            self.assertEqual(converted, typeName)
            self.assertTrue(set(fields) <= set(types[typeName]), typeName)


@unittest.skipIf(exu is None, "Exudyn is not installed (scripts/setup.sh installs it from PyPI)")
class FromExudynRefusalsTest(unittest.TestCase):
    def test_python_user_function_names_the_item(self):
        SC, mbs, s = oscillator()
        mbs.AddLoad(LoadCoordinate(markerNumber=1, load=1, loadUserFunction=lambda mbs, t, load: load * t))
        with self.assertRaises(TypeError) as e:
            mbsweep.from_exudyn(mbs, s)
        self.assertIn("load 1 (LoadCoordinate 'load1'): loadUserFunction is a Python user function", str(e.exception))
        self.assertIn("timeFunction", str(e.exception))

    def test_a_setting_without_counterpart_is_named(self):
        SC, mbs, s = oscillator()
        s.timeIntegration.discontinuous.maxIterations = 3
        with self.assertRaises(ValueError) as e:
            mbsweep.Study(mbsweep.from_exudyn(mbs, s))
        self.assertIn("unknown setting 'timeIntegration.discontinuous'", str(e.exception))


if __name__ == "__main__":
    unittest.main()
