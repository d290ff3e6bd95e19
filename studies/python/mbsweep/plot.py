"""Figures of mbsweep's outputs, drawn with matplotlib (Agg, no display needed).

`mbsweep plot` runs this file (built into the program); it needs numpy and matplotlib only,
never the compiled mbsweep._core, so it also runs on its own:

    python3 -m mbsweep.plot RESULTS [options]      python3 plot.py RESULTS [options]

RESULTS is one of
  * an output folder of mbsweep: its summary.json names the command that wrote it;
  * an Exudyn-format results file (mbsweep's results.txt or one written by Exudyn);
  * a sensor file (Exudyn's format: '#' header lines, then rows "time, v1, v2, ...").

Figures, each FILE.<format> in --out (default: the folder, or next to the file):
  sweep        value_vs_<p>        the study objective against each parameter p (a density plot
                                   of hexagonal cells above --scatter-limit points)
               <o>_vs_<p>          each other objective o against each parameter
               heatmap, heatmap_<o>  a ParameterVariation over two parameters: the grid
  optimize     value_vs_<p>        every individual, coloured by its generation
               convergence         best value per generation over every individual's value
  identify     as optimize, and signals_<channel>: measured and simulated signal, residual
  sensitivity  tornado_<o>         the sensitivities of objective o, largest magnitude on top
               sensitivity_<p>_<o> objective o at the evaluated values of p around the reference
  simulate     sensor_<s>          each sensor file's components against time
  results file value_vs_<p> (value<i>_vs_<p> for item i > 0 of list values)
  sensor file  sensor_<stem>

Value axes become logarithmic with --logy, and by themselves when every shown value is
positive and they span more than 3 decades (heat maps: the colour scale). --logx makes
parameter, time and generation axes logarithmic (heat maps: also where the grid is log-spaced).
Non-positive values cannot be shown on a log axis and are left out, with a warning.

Exit codes, as mbsweep's: 0 done, 1 bad command line, 2 invalid input (or numpy/matplotlib
missing), 3 a file could not be read or written.
"""

import argparse
import csv
import json
import math
import os
import re
import sys
import warnings

_MISSING = []
try:
    import numpy as np
except ImportError:
    np = None
    _MISSING.append("numpy")
try:
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import LogNorm
    from matplotlib.figure import Figure
except ImportError:
    matplotlib = None
    _MISSING.append("matplotlib")

SCATTER_LIMIT = 20000  # more points: a density plot (hexbin) instead of a scatter plot
LOG_DECADES = 3.0      # positive values spanning more decades get a log axis by themselves
FORMATS = ("png", "svg", "pdf")
_DPI = 120


class PlotInputError(Exception):
    """Invalid input: a file that is not what it should be (exit code 2)."""


class Options:
    """What the command line sets (main); the figure functions take the same as arguments."""

    def __init__(self, out="", fmt="png", logx=False, logy=False, scatter_limit=SCATTER_LIMIT, quiet=False):
        self.out, self.fmt, self.quiet = out, fmt, quiet
        self.logx, self.logy, self.scatter_limit = logx, logy, scatter_limit


# -------------------------------------------------------------------------------------------
# Axes helpers
# -------------------------------------------------------------------------------------------


def wants_log(values, forced=False):
    """A log axis: when forced, or when every finite value is positive and they span more
    than LOG_DECADES decades."""
    if forced:
        return True
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0 or np.any(v <= 0):
        return False
    return math.log10(v.max() / v.min()) > LOG_DECADES


def new_figure(width=7.2, height=4.6):
    """A figure on the Agg canvas, not registered with pyplot (nothing global changes)."""
    try:
        fig = Figure(figsize=(width, height), dpi=_DPI, layout="constrained")
    except TypeError:  # matplotlib < 3.5
        fig = Figure(figsize=(width, height), dpi=_DPI, constrained_layout=True)
    FigureCanvasAgg(fig)
    return fig


def _set_log(ax, axis, values, what):
    """Log scale on ax's 'x' or 'y' axis; warns when values <= 0 are left out."""
    v = np.asarray(values, dtype=float)
    dropped = int(np.sum(np.isfinite(v) & (v <= 0)))
    if dropped:
        warn("%s: %d values <= 0 are not shown on the log %s axis" % (what, dropped, axis))
    (ax.set_xscale if axis == "x" else ax.set_yscale)("log")


def _note_hidden(ax, n_hidden, n_total):
    """A corner note on points that are not finite (failed systems: NaN values)."""
    if n_hidden:
        ax.text(0.99, 0.01, "%d of %d not finite (not shown)" % (n_hidden, n_total), transform=ax.transAxes,
                ha="right", va="bottom", fontsize=8, color="0.35")


def _finish(ax, title, xlabel, ylabel):
    ax.set_title(title, fontsize=11)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="major", alpha=0.3)


# -------------------------------------------------------------------------------------------
# Figures (each returns a matplotlib Figure; nothing is written)
# -------------------------------------------------------------------------------------------


def value_figure(x, y, xname, yname, title, logx=False, logy=False, scatter_limit=SCATTER_LIMIT, best=None,
                 color=None, color_label=None, connect=False):
    """y against x: a scatter plot (coloured by `color` if given; a line through the points
    sorted by x if `connect`), or above `scatter_limit` finite points a hexbin density plot.
    `best`: an (x, y) point marked with a star. Not-finite points are counted in a note."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    logy = wants_log(y[ok], logy)
    fig = new_figure()
    ax = fig.add_subplot()
    if ok.sum() > scatter_limit:
        _density(fig, ax, x[ok], y[ok], logx, logy, title)
    else:
        _scatter(fig, ax, x[ok], y[ok], None if color is None else np.asarray(color)[ok], color_label, connect)
        if logx:
            _set_log(ax, "x", x[ok], title)
        if logy:
            _set_log(ax, "y", y[ok], title)
    if best is not None and all(np.isfinite(best)):
        ax.scatter([best[0]], [best[1]], marker="*", s=200, color="crimson", edgecolors="white", linewidths=0.8,
                   zorder=5, label="optimum %s = %.6g" % (yname, best[1]))
        ax.legend(loc="best", fontsize=8)
    _note_hidden(ax, int((~ok).sum()), x.size)
    _finish(ax, title, xname, yname)
    return fig


def _scatter(fig, ax, x, y, color, color_label, connect):
    size = 22 if x.size <= 300 else (10 if x.size <= 3000 else 4)
    alpha = 0.9 if x.size <= 3000 else 0.5
    if connect:
        order = np.argsort(x, kind="stable")
        ax.plot(x[order], y[order], color="tab:blue", linewidth=1.2, zorder=1)
    if color is None:
        ax.scatter(x, y, s=size, alpha=alpha, color="tab:blue", linewidths=0, zorder=2)
        return
    sc = ax.scatter(x, y, s=size, alpha=alpha, c=color, cmap="viridis", linewidths=0, zorder=2)
    fig.colorbar(sc, ax=ax, label=color_label)


def _density(fig, ax, x, y, logx, logy, what):
    """Hexagonal cells counting the points (log colour scale); log axes keep positive data."""
    keep = np.ones(x.size, dtype=bool)
    if logx:
        keep &= x > 0
    if logy:
        keep &= y > 0
    if not keep.all():
        warn("%s: %d values <= 0 are not shown on the log axis" % (what, int((~keep).sum())))
    hb = ax.hexbin(x[keep], y[keep], gridsize=70, bins="log", mincnt=1, cmap="viridis",
                   xscale="log" if logx else "linear", yscale="log" if logy else "linear")
    fig.colorbar(hb, ax=ax, label="points per cell (%d points)" % keep.sum())


def cell_edges(values, log=False):
    """Edges of cells centred at sorted `values`: midpoints between neighbours (geometric
    on a log axis), the outer cells as wide as their inner half on the other side."""
    v = np.log10(values) if log else np.asarray(values, dtype=float)
    if v.size == 1:
        e = np.array([v[0] - 0.5, v[0] + 0.5])
    else:
        mid = (v[1:] + v[:-1]) / 2
        e = np.concatenate([[2 * v[0] - mid[0]], mid, [2 * v[-1] - mid[-1]]])
    return 10.0 ** e if log else e


def log_color_norm(z):
    """A log colour scale over the positive values; a few outliers far below the rest (the
    2nd percentile / 10) take the lowest colour instead of squeezing every other cell into
    the top of the scale."""
    positive = z[np.isfinite(z) & (z > 0)]
    if positive.size == 0:
        return None, "neither"
    vmin = max(positive.min(), np.percentile(positive, 2) / 10)
    return LogNorm(vmin=vmin, vmax=positive.max()), "min" if vmin > positive.min() else "neither"


def heatmap_figure(xs, ys, z, xname, yname, zname, title, logx=False, logy=False, logz=False):
    """z over the grid: z[i, j] at (xs[j], ys[i]) with xs, ys sorted; not-finite cells grey.
    The smallest finite value is marked."""
    z = np.asarray(z, dtype=float)
    logz = wants_log(z, logz)
    fig = new_figure(7.2, 5.4)
    ax = fig.add_subplot()
    norm, extend = (log_color_norm(z) if logz else (None, "neither"))
    zm = np.ma.masked_invalid(np.where(z > 0, z, np.nan) if logz else z)
    mesh = ax.pcolormesh(cell_edges(xs, logx), cell_edges(ys, logy), zm, cmap="viridis", norm=norm, shading="flat")
    ax.set_facecolor("0.6")
    fig.colorbar(mesh, ax=ax, label=zname, extend=extend)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    if np.isfinite(z).any():
        i, j = np.unravel_index(np.nanargmin(np.where(np.isfinite(z), z, np.nan)), z.shape)
        ax.plot([xs[j]], [ys[i]], marker="*", markersize=14, color="crimson", markeredgecolor="white",
                linestyle="none", label="minimum %.6g" % z[i, j])
        ax.legend(loc="upper right", fontsize=8, framealpha=0.85)
    _finish(ax, title, xname, yname)
    ax.grid(False)
    return fig


def convergence_figure(best, name, values_by_generation=None, logx=False, logy=False):
    """The best value per generation (line) over every individual's value (grey dots)."""
    best = np.asarray(best, dtype=float)
    g = np.arange(best.size)
    fig = new_figure()
    ax = fig.add_subplot()
    shown = best[np.isfinite(best)]
    if values_by_generation is not None:
        gen, val = (np.asarray(a, dtype=float) for a in values_by_generation)
        ok = np.isfinite(val)
        ax.scatter(gen[ok], val[ok], s=6, color="0.6", alpha=0.5, linewidths=0, label="individuals", zorder=1)
        shown = np.concatenate([shown, val[ok]])
    ax.plot(g, best, marker="o", markersize=4, color="tab:blue", label="best so far", zorder=2)
    if wants_log(shown, logy):
        _set_log(ax, "y", shown, "convergence")
    if logx:
        ax.set_xscale("symlog", linthresh=1)
    ax.legend(loc="upper right", fontsize=8)
    _finish(ax, "best %s per generation" % name, "generation", name)
    return fig


def signals_figure(t, measured, simulated, channel, logx=False, logy=False):
    """Measured (dots) and simulated (line) signal of one channel, and their difference below."""
    t, me, si = (np.asarray(a, dtype=float) for a in (t, measured, simulated))
    fig = new_figure(7.2, 5.4)
    ax, res = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 1]})
    style = {"marker": "o", "markersize": 3, "linestyle": "none"} if t.size <= 400 else {"linewidth": 2.5}
    ax.plot(t, me, color="0.35", label="measured", **style)
    ax.plot(t, si, color="tab:orange", linewidth=1.3, label="simulated (fit)")
    ax.legend(loc="best", fontsize=8)
    diff = si - me
    rms = math.sqrt(np.nanmean(diff ** 2)) if diff.size else float("nan")
    res.plot(t, diff, color="tab:red", linewidth=1)
    res.axhline(0, color="0.3", linewidth=0.6)
    if logx:
        _set_log(ax, "x", t, "signals " + channel)
    if wants_log(np.concatenate([me, si]), logy):
        _set_log(ax, "y", np.concatenate([me, si]), "signals " + channel)
    _finish(ax, "measured vs simulated: %s (RMS difference %.4g)" % (channel, rms), "", channel)
    _finish(res, "", "time (s)", "simulated - measured")
    res.ticklabel_format(axis="y", style="sci", scilimits=(-3, 4))
    return fig


def tornado_figure(sensitivities, objective, scaled=False):
    """Horizontal bars: the sensitivity of `objective` to each parameter ({name: value}),
    largest magnitude on top, positive blue, negative red; NaN drawn as no bar, 'nan'."""
    items = sorted(sensitivities.items(), key=lambda kv: -abs(kv[1]) if np.isfinite(kv[1]) else 1)
    names = [k for k, _ in items]
    vals = np.array([v for _, v in items], dtype=float)
    fig = new_figure(7.2, max(2.4, 1.2 + 0.42 * len(names)))
    ax = fig.add_subplot()
    pos = np.arange(len(names))[::-1]
    colors = ["tab:blue" if v >= 0 else "tab:red" for v in np.nan_to_num(vals)]
    ax.barh(pos, vals, color=colors, height=0.6)
    ax.set_yticks(pos)
    ax.set_yticklabels(names)
    ax.axvline(0, color="0.2", linewidth=0.8)
    span = np.nanmax(np.abs(vals)) if np.isfinite(vals).any() else 1.0
    for p, v in zip(pos, vals):
        ax.text(v if np.isfinite(v) else 0, p, " %.4g " % v, va="center", fontsize=8,
                ha="left" if not np.isfinite(v) or v >= 0 else "right")
    ax.set_xlim(-1.25 * span if (vals < 0).any() else -0.05 * span, 1.25 * span if (vals > 0).any() else 0.05 * span)
    what = "d %s / d parameter%s" % (objective, " (scaled by the reference values)" if scaled else "")
    _finish(ax, "sensitivities of %s" % objective, what, "")
    ax.grid(True, axis="x", alpha=0.3)
    ax.grid(False, axis="y")
    return fig


def sensitivity_points_figure(x, y, parameter, objective, sensitivity, reference=None, logx=False, logy=False):
    """`objective` at the evaluated values of `parameter` (sorted), the reference marked."""
    order = np.argsort(np.asarray(x, dtype=float), kind="stable")
    x, y = np.asarray(x, dtype=float)[order], np.asarray(y, dtype=float)[order]
    fig = new_figure()
    ax = fig.add_subplot()
    ax.plot(x, y, marker="o", markersize=5, color="tab:blue")
    if reference is not None:
        ax.plot([reference[0]], [reference[1]], marker="s", markersize=8, color="crimson", linestyle="none",
                label="reference")
        ax.legend(loc="best", fontsize=8)
    if logx:
        _set_log(ax, "x", x, "sensitivity")
    if wants_log(y, logy):
        _set_log(ax, "y", y, "sensitivity")
    if not (logx or ax.get_yscale() == "log"):
        ax.ticklabel_format(axis="both", style="sci", scilimits=(-3, 4), useOffset=False)
    _finish(ax, "%s against %s (sensitivity %.6g)" % (objective, parameter, sensitivity), parameter, objective)
    return fig


def time_series_figure(t, values, title, ylabel, labels=None, logx=False, logy=False):
    """Each column of `values` (rows: time) against t; a legend when there are several."""
    t, values = np.asarray(t, dtype=float), np.asarray(values, dtype=float).reshape(len(t), -1)
    fig = new_figure()
    ax = fig.add_subplot()
    for k in range(values.shape[1]):
        ax.plot(t, values[:, k], linewidth=1.3, label=labels[k] if labels else None)
    if labels and len(labels) > 1:
        ax.legend(loc="best", fontsize=8)
    if logx:
        _set_log(ax, "x", t, title)
    if wants_log(values, logy):
        _set_log(ax, "y", values, title)
    _finish(ax, title, "time (s)", ylabel)
    return fig


# -------------------------------------------------------------------------------------------
# Readers
# -------------------------------------------------------------------------------------------


def _open_text(path):
    try:
        return open(path, newline="", encoding="utf-8", errors="replace")
    except OSError as e:
        raise PlotInputError("cannot read %s: %s" % (path, e.strerror or e))


def read_csv_text(path):
    """(header, rows) of a small CSV file of mbsweep, every field as text."""
    with _open_text(path) as f:
        rows = [r for r in csv.reader(f) if r]
    if not rows:
        raise PlotInputError("%s is empty (a header line was expected)" % path)
    for i, r in enumerate(rows[1:], start=2):
        if len(r) != len(rows[0]):
            raise PlotInputError("%s:%d: %d fields, the header has %d" % (path, i, len(r), len(rows[0])))
    return rows[0], rows[1:]


def to_float(text, path, line, column):
    try:
        return float(text)
    except ValueError:
        raise PlotInputError("%s:%d: %s = '%s' is not a number" % (path, line, column, text))


def read_numeric_columns(path, header, ncols):
    """The first `ncols` columns of a CSV file as floats ((rows, ncols) array): numpy's fast
    reader, and line by line (naming a bad line) where that fails."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = np.loadtxt(path, delimiter=",", skiprows=1, usecols=range(ncols), quotechar='"', ndmin=2)
        return a.reshape(-1, ncols)
    except (ValueError, TypeError):  # TypeError: numpy < 1.23 has no quotechar
        pass
    _, rows = read_csv_text(path)
    return np.array([[to_float(r[c], path, i + 2, header[c]) for c in range(ncols)] for i, r in enumerate(rows)],
                    dtype=float).reshape(-1, ncols)


def read_csv_header(path):
    with _open_text(path) as f:
        for row in csv.reader(f):
            return row
    raise PlotInputError("%s is empty (a header line was expected)" % path)


def _split_top_level(line):
    """Fields of a results-file row: separated by ',' outside brackets."""
    fields, depth, start = [], 0, 0
    for i, ch in enumerate(line):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "," and depth == 0:
            fields.append(line[start:i].strip())
            start = i + 1
    fields.append(line[start:].strip())
    return fields


def _parse_value(text, path, line):
    """A results-file value: a number, or a list/tuple of numbers."""
    if text[:1] in "[(":
        inner = text[1:-1].strip()
        return [to_float(t, path, line, "value") for t in inner.split(",") if t.strip()] if inner else []
    return [to_float(text, path, line, "value")]


def read_results_file(path):
    """An Exudyn-format results file: (fileType, parameter names, parameters (rows, n),
    values (rows, items; NaN where a row has fewer))."""
    with _open_text(path) as f:
        lines = f.read().split("\n")
    m = re.match(r"#EXUDYN (.*) results file:", lines[0])
    if not m:
        raise PlotInputError("%s:1: expected '#EXUDYN <type> results file:<name>', found '%s'" % (path, lines[0][:80]))
    if len(lines) < 8 or lines[4].rstrip("\r") != "#columns:":
        raise PlotInputError("%s:5: expected '#columns:' on line 5 of the 8-line header" % path)
    columns = lines[5].rstrip("\r").lstrip("#").split(",")
    if columns[:2] != ["globalIndex", "value"]:
        raise PlotInputError("%s:6: expected '#globalIndex,value,<parameters>...', found '%s'" % (path, lines[5]))
    names = [c for c in columns[2:] if c != "computationIndex"]
    params, values = [], []
    complete = lines[8:-1] if not lines[-1] else lines[8:]  # a last line without '\n' is cut short
    for i, text in enumerate(complete, start=9):
        if not text.strip():
            continue
        f = _split_top_level(text.rstrip("\r"))
        if len(f) not in (len(names) + 2, len(names) + 3):
            raise PlotInputError("%s:%d: %d fields; expected %d or %d (globalIndex, value, %d parameters"
                                 "[, computationIndex])" % (path, i, len(f), len(names) + 2, len(names) + 3,
                                                            len(names)))
        values.append(_parse_value(f[1], path, i))
        params.append([to_float(f[2 + k], path, i, names[k]) for k in range(len(names))])
    width = max([len(v) for v in values] + [1])
    vals = np.full((len(values), width), np.nan)
    for r, v in enumerate(values):
        vals[r, :len(v)] = v
    return m.group(1), names, np.array(params, dtype=float).reshape(-1, len(names)), vals


def read_sensor_file(path):
    """A sensor file: (the header's '#' lines, rows (time, v1, ...) as an array)."""
    comments, rows = [], []
    with _open_text(path) as f:
        for i, line in enumerate(f, start=1):
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                comments.append(line[1:].strip())
                continue
            fields = [x.strip() for x in line.split(",")]
            if rows and len(fields) != len(rows[0]):
                raise PlotInputError("%s:%d: %d fields, the rows above have %d (time, values)"
                                     % (path, i, len(fields), len(rows[0])))
            rows.append([to_float(x, path, i, "time" if k == 0 else "value %d" % k) for k, x in enumerate(fields)])
    if not rows or len(rows[0]) < 2:
        raise PlotInputError("%s: no rows 'time, value, ...' (is it a sensor file or a results file?)" % path)
    return comments, np.array(rows, dtype=float)


def read_summary(folder):
    path = os.path.join(folder, "summary.json")
    if not os.path.isfile(path):
        raise PlotInputError("%s has no summary.json (is it an output folder of mbsweep?)" % folder)
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except ValueError as e:
        raise PlotInputError("%s: not valid JSON (%s)" % (path, e))
    except OSError as e:
        raise PlotInputError("cannot read %s: %s" % (path, e.strerror or e))


def _field(summary, key, folder, kind=None):
    if key not in summary or (kind is not None and not isinstance(summary[key], kind)):
        raise PlotInputError("%s/summary.json: field '%s' is missing or not a %s"
                             % (folder, key, getattr(kind, "__name__", "value")))
    return summary[key]


# -------------------------------------------------------------------------------------------
# What to draw for each input: (file name without extension, function making the Figure)
# -------------------------------------------------------------------------------------------


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


def _value_stem(objective, study_objective, parameter):
    prefix = "value" if objective == study_objective else safe_name(objective)
    if objective != study_objective and prefix == "value":
        prefix = "objective_value"
    return "%s_vs_%s" % (prefix, safe_name(parameter))


def sweep_figures(folder, summary, o):
    path = os.path.join(folder, "results.csv")
    header = read_csv_header(path)
    objectives = _field(summary, "objectives", folder, list)
    missing = [n for n in objectives if n not in header]
    if not objectives or missing:
        raise PlotInputError("%s: no column for the objective(s) %s of summary.json" % (path, ", ".join(missing)))
    first = header.index(objectives[0])
    data = read_numeric_columns(path, header, first + len(objectives))
    if data.shape[0] == 0:
        raise PlotInputError("%s has no rows to plot" % path)
    names, study_obj = header[1:first], summary.get("studyObjective", objectives[0])
    grid = summary.get("studyType") == "ParameterVariation"
    log_grid = bool((summary.get("design") or {}).get("useLogSpace"))
    for k, obj in enumerate(objectives):
        y = data[:, first + k]
        best = _best_point(data[:, 1:first], y) if obj == study_obj else None
        for p, name in enumerate(names):
            yield _value_stem(obj, study_obj, name), lambda p=p, name=name, obj=obj, y=y, best=best: value_figure(
                data[:, 1 + p], y, name, obj, "%s against %s (%s)" % (obj, name, summary.get("studyType", "sweep")),
                o.logx or log_grid, o.logy, o.scatter_limit, None if best is None else (best[p], best[-1]),
                connect=grid and len(names) == 1)
        if grid and len(names) == 2:
            stem = "heatmap" if obj == study_obj else "heatmap_" + safe_name(obj)
            yield stem, lambda obj=obj, y=y: grid_heatmap(data[:, 1], data[:, 2], y, names, obj, o, log_grid)


def _best_point(params, y):
    """Parameters and value of the first smallest finite y (the optimum as summary.json has it)."""
    finite = np.where(np.isfinite(y), y, np.inf)
    if not np.isfinite(finite).any():
        return None
    i = int(np.argmin(finite))
    return list(params[i]) + [y[i]]


def grid_to_matrix(first, second, values):
    """Sorted distinct values of the second parameter (columns) and the first (rows), and the
    values on that grid (NaN where the grid has no point)."""
    xs, ix = np.unique(second, return_inverse=True)
    ys, iy = np.unique(first, return_inverse=True)
    z = np.full((ys.size, xs.size), np.nan)
    z[iy.ravel(), ix.ravel()] = values
    return xs, ys, z


def grid_heatmap(first, second, values, names, objective, o, log_grid=False):
    xs, ys, z = grid_to_matrix(first, second, values)
    logx = (o.logx or log_grid) and bool(np.all(xs > 0))
    logy = (o.logx or log_grid) and bool(np.all(ys > 0))
    return heatmap_figure(xs, ys, z, names[1], names[0], objective, "%s over the grid" % objective,
                          logx, logy, o.logy)


def genetic_figures(folder, summary, o):
    path = os.path.join(folder, "history.csv")
    header = read_csv_header(path)
    if header[:2] != ["generation", "evaluation"] or header[-1] != "value":
        raise PlotInputError("%s: expected the columns generation, evaluation, <parameters>, value" % path)
    data = read_numeric_columns(path, header, len(header))
    obj = summary.get("studyObjective", "value")
    names, gen, y = header[2:-1], data[:, 0], data[:, -1]
    best = _best_point(data[:, 2:-1], y)
    for p, name in enumerate(names):
        yield _value_stem(obj, obj, name), lambda p=p, name=name: value_figure(
            data[:, 2 + p], y, name, obj, "%s against %s (genetic optimization)" % (obj, name), o.logx, o.logy,
            o.scatter_limit, None if best is None else (best[p], best[-1]), color=gen, color_label="generation")
    source = summary if summary.get("command") == "optimize" else _field(summary, "genetic", folder, dict)
    bpg = [float("nan") if v is None else float(v) for v in _field(source, "bestPerGeneration", folder, list)]
    yield "convergence", lambda: convergence_figure(bpg, obj, (gen, y), o.logx, o.logy)
    if summary.get("command") == "identify":
        for item in signal_figures(folder, o):
            yield item


def signal_figures(folder, o):
    path = os.path.join(folder, "signals.csv")
    header, rows = read_csv_text(path)
    if header != ["channel", "time", "measured", "simulated"]:
        raise PlotInputError("%s: expected the columns channel, time, measured, simulated" % path)
    channels = []
    for r in rows:
        if r[0] not in channels:
            channels.append(r[0])
    for ch in channels:
        sel = [(i + 2, r) for i, r in enumerate(rows) if r[0] == ch]
        cols = [[to_float(r[c], path, i, header[c]) for i, r in sel] for c in (1, 2, 3)]
        yield "signals_" + safe_name(ch), lambda ch=ch, cols=cols: signals_figure(cols[0], cols[1], cols[2], ch,
                                                                                   o.logx, o.logy)


def read_sensitivities(folder):
    """sensitivities.csv: {objective: {parameter: sensitivity}} and {parameter: reference}."""
    path = os.path.join(folder, "sensitivities.csv")
    header, rows = read_csv_text(path)
    if header[:2] != ["parameter", "ref"] or not all(h.startswith("d_") for h in header[2:]):
        raise PlotInputError("%s: expected the columns parameter, ref, d_<objective>..." % path)
    table = {h[2:]: {} for h in header[2:]}
    refs = {}
    for i, r in enumerate(rows, start=2):
        refs[r[0]] = to_float(r[1], path, i, "ref")
        for c, h in enumerate(header[2:], start=2):
            table[h[2:]][r[0]] = to_float(r[c], path, i, h)
    return table, refs


def sensitivity_figures(folder, summary, o):
    table, refs = read_sensitivities(folder)
    scaled = bool(summary.get("scaledByReference", False))
    for obj, sens in table.items():
        yield "tornado_" + safe_name(obj), lambda obj=obj, sens=sens: tornado_figure(sens, obj, scaled)
    path = os.path.join(folder, "evaluations.csv")
    header, rows = read_csv_text(path)
    reference = summary.get("reference") or {}
    for p in refs:
        pts = [(i + 2, r) for i, r in enumerate(rows) if r[0] == p]
        x = [to_float(r[1], path, i, "value") for i, r in pts]
        for c, obj in enumerate(header[2:], start=2):
            y = [to_float(r[c], path, i, obj) for i, r in pts]
            ref = (refs[p], reference[obj]) if isinstance(reference.get(obj), (int, float)) else None
            s = table.get(obj, {}).get(p, float("nan"))
            yield "sensitivity_%s_%s" % (safe_name(p), safe_name(obj)), \
                lambda p=p, obj=obj, x=x, y=y, s=s, ref=ref: sensitivity_points_figure(x, y, p, obj, s, ref,
                                                                                          o.logx, o.logy)


def _sensor_labels(comments, n):
    """The y label and component names of a sensor file from its header."""
    kind = ""
    for c in comments:
        m = re.match(r"OutputVariableType\s*=\s*(\S+)", c)
        if m:
            kind = m.group(1)
    base = kind or "value"
    return base, [base] if n == 1 else ["%s[%d]" % (base, k) for k in range(n)]


def sensor_figure(path, o):
    comments, data = read_sensor_file(path)
    ylabel, labels = _sensor_labels(comments, data.shape[1] - 1)
    title = "%s (%s)" % (os.path.basename(path), ylabel)
    return time_series_figure(data[:, 0], data[:, 1:], title, ylabel, labels, o.logx, o.logy)


def simulate_figures(folder, summary, o):
    for f in _field(summary, "sensorFiles", folder, list):
        path = f if os.path.isfile(f) else os.path.join(folder, os.path.basename(f))  # a moved folder
        stem = os.path.splitext(os.path.basename(path))[0]
        yield "sensor_" + safe_name(stem), lambda path=path: sensor_figure(path, o)


def folder_figures(folder, o):
    summary = read_summary(folder)
    command = summary.get("command", "")
    makers = {"sweep": sweep_figures, "optimize": genetic_figures, "identify": genetic_figures,
              "sensitivity": sensitivity_figures, "simulate": simulate_figures}
    if command not in makers:
        raise PlotInputError("nothing to plot for a '%s' run (plots exist for %s)" % (command, ", ".join(makers)))
    return makers[command](folder, summary, o)


def results_file_figures(path, o):
    file_type, names, params, values = read_results_file(path)
    if params.shape[0] == 0:
        raise PlotInputError("%s has no rows to plot" % path)
    for item in range(values.shape[1]):
        yname = "value" if values.shape[1] == 1 else "value[%d]" % item
        prefix = "value" if item == 0 else "value%d" % item
        for k, name in enumerate(names):
            yield "%s_vs_%s" % (prefix, safe_name(name)), lambda k=k, name=name, item=item, yname=yname: value_figure(
                params[:, k], values[:, item], name, yname, "%s against %s (%s)" % (yname, name, file_type),
                o.logx, o.logy, o.scatter_limit)


def is_results_file(path):
    try:
        with open(path, "rb") as f:
            return f.read(8) == b"#EXUDYN "
    except OSError as e:
        raise PlotInputError("cannot read %s: %s" % (path, e.strerror or e))


def figures(path, o=None):
    """(file name without extension, Figure) for every figure of `path` (an output folder, a
    results file or a sensor file), each made when the iteration reaches it."""
    o = o or Options()
    if os.path.isdir(path):
        items = folder_figures(path, o)
    elif is_results_file(path):
        items = results_file_figures(path, o)
    else:
        stem = os.path.splitext(os.path.basename(path))[0]
        items = iter([("sensor_" + safe_name(stem), lambda: sensor_figure(path, o))])
    for stem, make in items:
        yield stem, make()


# -------------------------------------------------------------------------------------------
# Command line
# -------------------------------------------------------------------------------------------


def warn(message):
    sys.stderr.write("warning: %s\n" % message)


def default_out(path):
    if os.path.isdir(path):
        return path
    return os.path.dirname(os.path.abspath(path))


def write_figures(path, o):
    """Writes every figure of `path` into o.out as <name>.<o.fmt>; returns the files."""
    out = o.out or default_out(path)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise IOError("cannot create the folder %s: %s" % (out, e.strerror or e))
    written = []
    for stem, fig in figures(path, o):
        target = os.path.join(out, "%s.%s" % (stem, o.fmt))
        try:
            fig.savefig(target, format=o.fmt, dpi=_DPI, metadata={"Software": "mbsweep plot"} if o.fmt == "png" else None)
        except OSError as e:
            raise IOError("cannot write %s: %s" % (target, e.strerror or e))
        written.append(target)
        if not o.quiet:
            print(target, flush=True)
    return written


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # a usage error is exit code 1, as mbsweep's
        self.print_usage(sys.stderr)
        sys.stderr.write("error: %s\n" % message)
        sys.exit(1)


def _positive_int(text):
    try:
        v = int(float(text))
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not a whole number" % text)
    if v < 0 or v != float(text):
        raise argparse.ArgumentTypeError("'%s' must be a whole number >= 0" % text)
    return v


def parse_args(argv):
    p = _Parser(prog="mbsweep plot", description="Figures of an mbsweep output folder, an Exudyn-format "
                                                 "results file or a sensor file (matplotlib).")
    p.add_argument("results", help="output folder of a study run, results file or sensor file")
    p.add_argument("-o", "--out", default="", help="folder for the figures (default: the output folder, or "
                                                   "next to the file)")
    p.add_argument("--format", dest="fmt", choices=FORMATS, default="png", help="file format (default png)")
    p.add_argument("--logx", action="store_true", help="log10 parameter, time and generation axes")
    p.add_argument("--logy", action="store_true", help="log10 value axes (heat maps: the colour scale)")
    p.add_argument("--scatter-limit", type=_positive_int, default=SCATTER_LIMIT,
                   help="above this many points a density plot replaces the scatter plot (default %d)" % SCATTER_LIMIT)
    p.add_argument("-q", "--quiet", action="store_true", help="do not list the written files")
    a = p.parse_args(argv)
    return a.results, Options(a.out, a.fmt, a.logx, a.logy, a.scatter_limit, a.quiet)


def missing_modules_message():
    """One line: which interpreter lacks what, and how to fix it ('' if nothing is missing)."""
    if not _MISSING:
        return ""
    exe = sys.executable or "python3"
    return ("mbsweep plot: the Python interpreter %s (Python %d.%d) lacks %s: install them into it (%s -m pip "
            "install %s) or set MBSWEEP_PYTHON to a Python that has them" %
            (exe, sys.version_info[0], sys.version_info[1], " and ".join(_MISSING), exe, " ".join(_MISSING)))


def main(argv=None):
    """The command line; returns the exit code (0, 1 usage, 2 invalid input, 3 I/O failure)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if missing_modules_message():
        sys.stderr.write("error: %s\n" % missing_modules_message())
        return 2
    try:
        path, o = parse_args(argv)
    except SystemExit as e:  # --help: 0; a usage error: 1
        return e.code if isinstance(e.code, int) else 1
    if not os.path.exists(path):
        sys.stderr.write("error: %s does not exist\n" % path)
        return 2
    try:
        write_figures(path, o)
    except PlotInputError as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    except (IOError, OSError) as e:
        sys.stderr.write("error: %s\n" % e)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
