"""Tests of mbsweep plot's figures (studies/python/mbsweep/plot.py): output folders, results
files and sensor files with known values are written here, and the data of the figures the
module returns is compared with them; then the files main() writes.

Needs numpy and matplotlib only (run by ctest as plot_python with the build's virtual
environment, scripts/setup.sh). The module is loaded from its file, without the package's
compiled core.
"""

import contextlib
import importlib.util
import io
import json
import math
import os
import tempfile
import unittest

import numpy as np
from matplotlib.collections import PathCollection, PolyCollection, QuadMesh

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location(
    "mbsweep_plot", os.path.join(HERE, "..", "..", "studies", "python", "mbsweep", "plot.py"))
plot = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(plot)
DATA = os.environ.get("MBSWEEP_TEST_DATA_DIR", os.path.join(HERE, "data"))
EXAMPLES = os.environ.get("MBSWEEP_EXAMPLES_DIR", os.path.join(HERE, "..", "..", "studies", "examples"))
NAN = float("nan")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def summary(folder, **fields):
    write(os.path.join(folder, "summary.json"), json.dumps(fields))


def grid_folder(folder, a_values, b_values, masses=(1.0, 2.0), springs=(10.0, 20.0, 30.0)):
    """A ParameterVariation output folder: mass (rows, slowest) x spring, objectives a and b."""
    lines = ["computationIndex,mass,spring,a,b,status,reason"]
    i = 0
    for m in masses:
        for k in springs:
            ok = math.isfinite(a_values[i])
            lines.append('%d,%r,%r,%r,%r,%s,%s' % (i, m, k, a_values[i], b_values[i], "ok" if ok else "diverged",
                                                  "" if ok else '"diverged at t = 0.5, step 1e-3"'))
            i += 1
    write(os.path.join(folder, "results.csv"), "\n".join(lines) + "\n")
    summary(folder, command="sweep", studyType="ParameterVariation", objectives=["a", "b"], studyObjective="a",
            design={"type": "grid", "useLogSpace": False})


def figures(path, **options):
    return dict(plot.figures(path, plot.Options(**options)))


def scatter_offsets(ax):
    """The points of the first scatter plot (the data; the optimum's star comes after)."""
    return [c for c in ax.collections if isinstance(c, PathCollection)][0].get_offsets()


class Folder(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()


class SweepFigures(Folder):
    A = [3.0, 2.0, 5.0, 1.5, NAN, 4.0]  # one failed system
    B = [10.0, 20.0, 30.0, 40.0, NAN, 60.0]

    def test_one_figure_per_objective_and_parameter_and_a_heat_map_each(self):
        grid_folder(self.dir, self.A, self.B)
        self.assertEqual(sorted(figures(self.dir)), sorted(["value_vs_mass", "value_vs_spring", "heatmap",
                                                             "b_vs_mass", "b_vs_spring", "heatmap_b"]))

    def test_scatter_points_are_the_finite_values_and_the_optimum_is_marked(self):
        grid_folder(self.dir, self.A, self.B)
        ax = figures(self.dir)["value_vs_spring"].axes[0]
        np.testing.assert_array_equal(scatter_offsets(ax), [[10, 3], [20, 2], [30, 5], [10, 1.5], [30, 4]])
        star = [c for c in ax.collections if isinstance(c, PathCollection)][1]
        np.testing.assert_array_equal(star.get_offsets(), [[10, 1.5]])
        self.assertEqual(ax.get_xlabel(), "spring")
        self.assertEqual(ax.get_ylabel(), "a")
        self.assertIn("1 of 6 not finite", " ".join(t.get_text() for t in ax.texts))
        b = figures(self.dir)["b_vs_mass"].axes[0]
        np.testing.assert_array_equal(scatter_offsets(b), [[1, 10], [1, 20], [1, 30], [2, 40], [2, 60]])

    def test_heat_map_holds_the_grid_values(self):
        grid_folder(self.dir, self.A, self.B)
        ax = figures(self.dir)["heatmap"].axes[0]
        mesh = [c for c in ax.collections if isinstance(c, QuadMesh)][0]
        z = np.ma.filled(mesh.get_array().astype(float), NAN).reshape(2, 3)
        np.testing.assert_array_equal(z, np.array(self.A).reshape(2, 3))
        np.testing.assert_allclose(mesh.get_coordinates()[0, :, 0], [5, 15, 25, 35])  # cell edges (spring)
        np.testing.assert_allclose(mesh.get_coordinates()[:, 0, 1], [0.5, 1.5, 2.5])  # (mass)
        self.assertEqual((ax.get_xlabel(), ax.get_ylabel()), ("spring", "mass"))

    def test_values_over_more_than_three_decades_get_a_log_axis(self):
        grid_folder(self.dir, [1e-6, 1e-3, 1.0, 0.5, 0.2, 0.1], self.B)
        f = figures(self.dir)
        self.assertEqual(f["value_vs_mass"].axes[0].get_yscale(), "log")
        self.assertEqual(f["b_vs_mass"].axes[0].get_yscale(), "linear")  # 10 .. 60
        mesh = [c for c in f["heatmap"].axes[0].collections if isinstance(c, QuadMesh)][0]
        self.assertEqual(type(mesh.norm).__name__, "LogNorm")

    def test_logx_and_logy_on_request(self):
        grid_folder(self.dir, self.A, self.B)
        ax = figures(self.dir, logx=True, logy=True)["b_vs_spring"].axes[0]
        self.assertEqual((ax.get_xscale(), ax.get_yscale()), ("log", "log"))
        heat = figures(self.dir, logx=True)["heatmap"].axes[0]
        self.assertEqual((heat.get_xscale(), heat.get_yscale()), ("log", "log"))

    def test_negative_values_never_get_a_log_axis_by_themselves(self):
        grid_folder(self.dir, [-1e-6, 1e-3, 1.0, 0.5, 0.2, 1e3], self.B)
        self.assertEqual(figures(self.dir)["value_vs_mass"].axes[0].get_yscale(), "linear")

    def test_large_scans_are_density_plots_counting_every_point(self):
        rng = np.random.default_rng(1)
        x, y = rng.uniform(1, 2, 500), rng.uniform(0, 1, 500)
        y[7] = NAN
        rows = ["computationIndex,x,v,status,reason"] + ["%d,%r,%r,ok," % (i, float(x[i]), float(y[i])) for i in range(500)]
        write(os.path.join(self.dir, "results.csv"), "\n".join(rows) + "\n")
        summary(self.dir, command="sweep", studyType="Sampling", objectives=["v"], studyObjective="v")
        ax = figures(self.dir, scatter_limit=100)["value_vs_x"].axes[0]
        cells = [c for c in ax.collections if isinstance(c, PolyCollection)]
        self.assertEqual(len(cells), 1)
        self.assertEqual(cells[0].get_array().sum(), 499)
        scatter = figures(self.dir, scatter_limit=499)["value_vs_x"].axes[0]
        self.assertEqual(len(scatter_offsets(scatter)), 499)


class GeneticFigures(Folder):
    def make(self, command):
        write(os.path.join(self.dir, "history.csv"),
              "generation,evaluation,m,k,value\n0,0,1.0,10.0,8.0\n0,1,2.0,20.0,4.0\n1,2,1.5,15.0,nan\n1,3,1.6,16.0,0.5\n")
        best = [4.0, 0.5]
        fields = {"bestPerGeneration": best} if command == "optimize" else {"genetic": {"bestPerGeneration": best}}
        summary(self.dir, command=command, studyObjective="fit", **fields)
        if command == "identify":
            write(os.path.join(self.dir, "signals.csv"), "channel,time,measured,simulated\n"
                  "x,0,1.0,1.5\nx,0.5,2.0,2.0\nv,0,-1.0,-1.25\n")

    def test_individuals_against_each_parameter_coloured_by_generation(self):
        self.make("optimize")
        f = figures(self.dir)
        self.assertEqual(sorted(f), ["convergence", "value_vs_k", "value_vs_m"])
        ax = f["value_vs_k"].axes[0]
        points = [c for c in ax.collections if isinstance(c, PathCollection)][0]
        np.testing.assert_array_equal(points.get_offsets(), [[10, 8], [20, 4], [16, 0.5]])
        np.testing.assert_array_equal(points.get_array(), [0, 0, 1])  # colour: generation

    def test_convergence_is_the_best_value_per_generation(self):
        self.make("optimize")
        ax = figures(self.dir)["convergence"].axes[0]
        line = ax.get_lines()[0]
        np.testing.assert_array_equal(line.get_xdata(), [0, 1])
        np.testing.assert_array_equal(line.get_ydata(), [4.0, 0.5])
        self.assertEqual(ax.get_ylabel(), "fit")

    def test_identify_adds_measured_and_simulated_signals_and_their_difference(self):
        self.make("identify")
        f = figures(self.dir)
        self.assertIn("signals_x", f)
        self.assertIn("signals_v", f)
        top, bottom = f["signals_x"].axes[:2]
        measured, simulated = top.get_lines()[:2]
        np.testing.assert_array_equal(measured.get_xydata(), [[0, 1.0], [0.5, 2.0]])
        np.testing.assert_array_equal(simulated.get_ydata(), [1.5, 2.0])
        np.testing.assert_array_equal(bottom.get_lines()[0].get_ydata(), [0.5, 0.0])
        self.assertIn("RMS difference 0.3536", top.get_title())


def bar_widths(ax):
    """{tick label: width of the bar at that tick} of a horizontal bar chart."""
    labels = {round(t, 6): lab.get_text() for t, lab in zip(ax.get_yticks(), ax.get_yticklabels())}
    return {labels[round(p.get_y() + p.get_height() / 2, 6)]: p.get_width() for p in ax.patches}


class SensitivityFigures(Folder):
    def setUp(self):
        super().setUp()
        write(os.path.join(self.dir, "sensitivities.csv"),
              "parameter,ref,d_x,d_y\nm,1.6,0.001,nan\nk,4000.0,-0.02,3.0\nf,80.0,0.02,-5.0\n")
        write(os.path.join(self.dir, "evaluations.csv"), "varied,value,x,y\n"
              "m,1.6,0.5,7.0\nm,1.5,0.49,7.1\nm,1.7,0.51,6.9\nk,4000.0,0.5,7.0\nk,3990.0,0.52,7.2\n"
              "k,4010.0,0.48,6.8\nf,80.0,0.5,7.0\nf,79.0,0.49,7.5\nf,81.0,0.51,6.5\n")
        summary(self.dir, command="sensitivity", scaledByReference=True, reference={"x": 0.5, "y": 7.0})

    def test_tornado_bars_are_the_sensitivities_largest_on_top(self):
        f = figures(self.dir)
        ax = f["tornado_x"].axes[0]
        self.assertEqual(bar_widths(ax), {"k": -0.02, "f": 0.02, "m": 0.001})
        top_down = sorted(ax.patches, key=lambda p: -p.get_y())
        self.assertEqual([p.get_width() for p in top_down], [-0.02, 0.02, 0.001])  # by magnitude
        self.assertIn("scaled by the reference", ax.get_xlabel())
        y = bar_widths(f["tornado_y"].axes[0])
        self.assertEqual((y["f"], y["k"]), (-5.0, 3.0))
        self.assertTrue(math.isnan(y["m"]))

    def test_each_objective_around_the_reference_sorted_by_value(self):
        f = figures(self.dir)
        self.assertEqual(len([k for k in f if k.startswith("sensitivity_")]), 6)
        ax = f["sensitivity_k_y"].axes[0]
        np.testing.assert_array_equal(ax.get_lines()[0].get_xydata(), [[3990, 7.2], [4000, 7.0], [4010, 6.8]])
        np.testing.assert_array_equal(ax.get_lines()[1].get_xydata(), [[4000, 7.0]])  # the reference
        self.assertIn("sensitivity 3", ax.get_title())


class TimeSeries(Folder):
    SENSOR = ("#Exudyn implicit second order time integration sensor output file\n"
              "#OutputVariableType = Position\n#number of sensor values = 3\n#\n"
              "0,1,2,3\n0.5,1.5,2.5,3.5\n1,2,3,4\n")

    def test_a_sensor_file_has_one_line_per_component(self):
        path = os.path.join(self.dir, "pos.txt")
        write(path, self.SENSOR)
        f = figures(path)
        self.assertEqual(list(f), ["sensor_pos"])
        ax = f["sensor_pos"].axes[0]
        self.assertEqual([l.get_label() for l in ax.get_lines()], ["Position[0]", "Position[1]", "Position[2]"])
        np.testing.assert_array_equal(ax.get_lines()[2].get_xydata(), [[0, 3], [0.5, 3.5], [1, 4]])
        self.assertEqual(ax.get_ylabel(), "Position")

    def test_a_simulate_run_plots_its_sensor_files_also_when_moved(self):
        write(os.path.join(self.dir, "pos.txt"), self.SENSOR)
        summary(self.dir, command="simulate", sensorFiles=["/elsewhere/pos.txt"])
        ax = figures(self.dir)["sensor_pos"].axes[0]
        np.testing.assert_array_equal(ax.get_lines()[0].get_ydata(), [1, 1.5, 2])

    def test_exudyns_reference_run(self):
        ax = figures(os.path.join(EXAMPLES, "oscillator_reference.txt"))["sensor_oscillator_reference"].axes[0]
        t, v = ax.get_lines()[0].get_xdata(), ax.get_lines()[0].get_ydata()
        self.assertEqual(len(t), 201)
        self.assertEqual((t[0], v[0], t[1], v[1]), (0.0, -312.0, 0.005, -270.8020757))


class ResultsFiles(Folder):
    def test_exudyns_genetic_results_file(self):
        f = figures(os.path.join(DATA, "exudyn_genetic_results.txt"))
        self.assertEqual(sorted(f), ["value_vs_mass", "value_vs_spring"])
        first = scatter_offsets(f["value_vs_mass"].axes[0])[0]
        np.testing.assert_array_equal(first, [5.939321535345923, 28.9444947918103])
        self.assertIn("genetic optimization", f["value_vs_mass"].axes[0].get_title())

    def test_list_values_give_one_figure_set_per_item(self):
        path = os.path.join(self.dir, "r.txt")
        write(path, "#EXUDYN parameter variation results file:r.txt\n#results\n#version\n#\n#columns:\n"
              "#globalIndex,value,p,computationIndex\n#parameter ranges:\n#(1, 2, 2)\n"
              "0, [1.0, 10.0], 1, 0\n1, [2.0, 20.0], 2, 1\n")
        f = figures(path)
        self.assertEqual(sorted(f), ["value1_vs_p", "value_vs_p"])
        np.testing.assert_array_equal(scatter_offsets(f["value1_vs_p"].axes[0]), [[1, 10], [2, 20]])

    def test_a_bad_row_is_named_with_file_and_line(self):
        path = os.path.join(self.dir, "r.txt")
        write(path, "#EXUDYN parameter variation results file:r.txt\n#\n#\n#\n#columns:\n#globalIndex,value,p\n"
              "#parameter ranges:\n#\n0, 1.0, 1\n1, 2.0\n")
        with self.assertRaisesRegex(plot.PlotInputError, r"r\.txt:10: 2 fields; expected 3 or 4"):
            figures(path)


class CommandLine(Folder):
    def run_main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = plot.main(list(args))
        return code, out.getvalue(), err.getvalue()

    def test_every_format_is_written_with_its_magic_bytes(self):
        grid_folder(self.dir, SweepFigures.A, SweepFigures.B)
        magic = {"png": b"\x89PNG\r\n\x1a\n", "pdf": b"%PDF-", "svg": b"<?xml"}
        for fmt, head in magic.items():
            out = os.path.join(self.dir, fmt)
            code, stdout, err = self.run_main(self.dir, "--out", out, "--format", fmt)
            self.assertEqual(code, 0, err)
            self.assertEqual(len(stdout.splitlines()), 6)
            with open(os.path.join(out, "heatmap." + fmt), "rb") as f:
                self.assertEqual(f.read(len(head)), head)
        with open(os.path.join(self.dir, "svg", "heatmap.svg")) as f:
            self.assertIn("<svg", f.read(2000))

    def test_default_folder_is_the_input_folder_and_quiet_lists_nothing(self):
        grid_folder(self.dir, SweepFigures.A, SweepFigures.B)
        code, stdout, _ = self.run_main(self.dir, "-q")
        self.assertEqual((code, stdout), (0, ""))
        self.assertTrue(os.path.isfile(os.path.join(self.dir, "value_vs_mass.png")))

    def test_exit_codes(self):
        code, _, err = self.run_main(self.dir)
        self.assertEqual(code, 2)
        self.assertIn("has no summary.json", err)
        summary(self.dir, command="compare")
        code, _, err = self.run_main(self.dir)
        self.assertEqual(code, 2)
        self.assertIn("nothing to plot for a 'compare' run", err)
        self.assertEqual(self.run_main(self.dir, "--format", "gif")[0], 1)
        grid_folder(self.dir, SweepFigures.A, SweepFigures.B)
        blocked = os.path.join(self.dir, "file")
        write(blocked, "")
        code, _, err = self.run_main(self.dir, "--out", os.path.join(blocked, "sub"))
        self.assertEqual(code, 3)
        self.assertIn("cannot create the folder", err)

    def test_missing_modules_are_named_with_the_fix(self):
        saved = list(plot._MISSING)
        plot._MISSING[:] = ["matplotlib"]
        try:
            code, _, err = self.run_main(self.dir)
        finally:
            plot._MISSING[:] = saved
        self.assertEqual(code, 2)
        self.assertEqual(len(err.splitlines()), 1)
        self.assertIn("lacks matplotlib: install them into it (", err)
        self.assertIn("-m pip install matplotlib) or set MBSWEEP_PYTHON", err)


if __name__ == "__main__":
    unittest.main()
