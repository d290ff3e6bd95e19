"""The Python package (pip install .; studies/python): Exudyn's ParameterVariation and
GeneticOptimization on study files and dicts against Exudyn's published values and the
command line's results. Run by ctest with the set-up's virtual environment:
    python -m unittest tests/studies/test_python.py   (MBSWEEP_EXAMPLES_DIR: studies/examples)
"""
import math
import os
import tempfile
import unittest

import numpy as np

import mbsweep

EXAMPLES = os.environ.get("MBSWEEP_EXAMPLES_DIR",
                          os.path.join(os.path.dirname(__file__), "..", "..", "studies", "examples"))

# a dict study: an over-damped oscillator settles at x = f/k by t = 3
STATIC = {
    "parameters": {"m": 1.6, "k": 4000, "f": 80},
    "model": [
        {"NodePoint": {"name": "node"}},
        {"NodePointGround": {"name": "ground"}},
        {"ObjectMassPoint": {"name": "mass", "mass": "m", "nodeNumber": "node"}},
        {"MarkerNodeCoordinate": {"name": "mg", "nodeNumber": "ground", "coordinate": 0}},
        {"MarkerNodeCoordinate": {"name": "mn", "nodeNumber": "node", "coordinate": 0}},
        {"ObjectConnectorCoordinateSpringDamper": {"name": "spring", "markerNumbers": ["mg", "mn"],
                                                   "stiffness": "k", "damping": 200}},
        {"LoadCoordinate": {"markerNumber": "mn", "load": "f"}},
        {"SensorObject": {"name": "x", "objectNumber": "spring", "outputVariableType": "Displacement"}},
    ],
    "simulationSettings": {"timeIntegration": {"numberOfSteps": 3000, "endTime": 3}},
    "objectives": {"list": [{"name": "xFinal", "kind": "FinalValue", "sensor": "x"}]},
}


class ParameterVariationTest(unittest.TestCase):
    def test_exudyns_parameter_variation_example(self):
        # Exudyn 1.13.6's parameterVariationExample: values[-1] = 3.8418270115351496 (its two
        # 10-digit sensor files; mbsweep compares the computed signal: 6e-12 relative)
        study = mbsweep.Study(os.path.join(EXAMPLES, "oscillator_variation.yaml"), backend="cpu")
        self.assertEqual(study.objectiveNames, ["error", "maxForce"])
        with tempfile.TemporaryDirectory() as d:
            results = os.path.join(d, "results.txt")
            [p, values] = mbsweep.ParameterVariation(study, {"mass": (1, 2, 16), "spring": (2000, 8000, 16)},
                                                     addComputationIndex=True, resultsFile=results,
                                                     numberOfThreads=8, useMultiProcessing=True)
            self.assertEqual(values.shape, (256,))
            self.assertLess(abs(values[-1] - 3.8418270115351496), 1e-7 * 3.84)
            np.testing.assert_array_equal(p["mass"][:17], [1.0] * 16 + [1 + 1 / 15])
            np.testing.assert_array_equal(p["computationIndex"], np.arange(256))
            # the same values as the command line's sweep of the same study, bit for bit
            out = os.path.join(d, "cli")
            self.assertEqual(mbsweep.run(["sweep", os.path.join(EXAMPLES, "oscillator_variation.yaml"),
                                          "--out", out, "--quiet", "--backend", "cpu"]), 0)
            cli = np.loadtxt(os.path.join(out, "results.txt"), delimiter=",", comments="#")
            np.testing.assert_array_equal(cli[:, 1], values)
            mine = np.loadtxt(results, delimiter=",", comments="#")
            np.testing.assert_array_equal(mine[:, 1], values)

    def test_dict_study_static_displacement(self):
        study = mbsweep.Study(STATIC, backend="cpu")
        [p, values] = mbsweep.ParameterVariation(study, {"k": [4000.0, 8000.0, 16000.0], "f": (10, 80, 3)})
        self.assertEqual(list(p), ["k", "f"])
        np.testing.assert_allclose(values, p["f"] / p["k"], rtol=1e-9)  # x = f/k

    def test_a_failing_system_gives_nan(self):
        study = mbsweep.Study(STATIC, backend="cpu")
        [_, values] = mbsweep.ParameterVariation(study, {"m": [1.6, -1.0]})
        self.assertAlmostEqual(values[0], 0.02, delta=1e-12)
        self.assertTrue(math.isnan(values[1]))  # mass < 0: invalid_parameter

    def test_auto_resumes_the_file_it_wrote(self):
        # `auto` without a GPU is undecided before its first batch and names what ran after it
        # (study.backend: "cpu", or "cpu-jit" for a model compiled already); the results file's
        # processing mode, part of the resume fingerprint, stays the evaluator as created, so a
        # second call resumes the first one's file instead of refusing it
        study = mbsweep.Study(STATIC)
        created = study.backend
        self.assertIn(created, ("auto", "cuda"))
        grid = {"k": [4000.0, 8000.0], "f": (10, 80, 3)}
        with tempfile.TemporaryDirectory() as d:
            results = os.path.join(d, "results.txt")
            [p, first] = mbsweep.ParameterVariation(study, grid, resultsFile=results, chunkSize=2)
            with open(results) as f:
                written = f.read()
            self.assertIn("(processing=mbsweep " + created + ")", written)
            [_, again] = mbsweep.ParameterVariation(study, grid, resultsFile=results, chunkSize=2, resume=True)
            np.testing.assert_array_equal(again, first)
            with open(results) as f:
                self.assertEqual(f.read(), written)
        np.testing.assert_allclose(first, p["f"] / p["k"], rtol=1e-9)  # x = f/k


class GeneticOptimizationTest(unittest.TestCase):
    def test_exudyns_slider_crank_optimum(self):
        # Exudyn 1.13.6's geneticOptimizationSliderCrank (numpy stream, seed 0): pOpt bit for bit,
        # vOpt = 3.431258094752888e-05
        study = mbsweep.Study(os.path.join(EXAMPLES, "slidercrank_balancing.yaml"), backend="cpu")
        [pOpt, vOpt, pList, vList] = mbsweep.GeneticOptimization(
            study, {"s1": (-0.1, 0.1), "s2": (-0.3, 0.3)}, numberOfGenerations=30, populationSize=50,
            elitistRatio=0.1, crossoverProbability=0.1, rangeReductionFactor=0.5, randomizerInitialization=0,
            randomStream="numpy", objective="weightedSum")
        self.assertEqual(pOpt, {"s1": -0.07497827333782427, "s2": -0.14943029494085874})
        self.assertLess(abs(vOpt - 3.431258094752888e-05), 1e-8 * 3.43e-5)
        self.assertEqual(len(vList), 50 * 30)
        self.assertEqual(len(pList["s1"]), 50 * 30)


class RefusalsTest(unittest.TestCase):
    def test_a_python_function_is_refused_with_the_alternative(self):
        with self.assertRaises(TypeError) as e:
            mbsweep.ParameterVariation(lambda p: 0.0, {"m": (1, 2, 3)})
        self.assertIn("Python function", str(e.exception))
        self.assertIn("objective=", str(e.exception))

    def test_bad_input_names_item_field_value_and_rule(self):
        bad = dict(STATIC, parameters={"m": -1.6, "k": 4000, "f": 80})
        with self.assertRaises(ValueError) as e:
            mbsweep.Study(bad)
        self.assertIn("mass", str(e.exception))
        self.assertIn("-1.6", str(e.exception))

    def test_an_unknown_objective_lists_the_valid_ones(self):
        with self.assertRaises(ValueError) as e:
            mbsweep.ParameterVariation(mbsweep.Study(STATIC, backend="cpu"), {"k": [1000.0]}, objective="y")
        self.assertIn("xFinal", str(e.exception))

    def test_version_and_one_rank(self):
        self.assertEqual(mbsweep.ranks(), 1)
        self.assertEqual(mbsweep.run(["--version"]), 0)
        self.assertRegex(mbsweep.__version__, r"^\d+\.\d+\.\d+$")


if __name__ == "__main__":
    unittest.main()
