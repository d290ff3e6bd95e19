"""An Exudyn model (a MainSystem with its items and simulation settings) as an mbsweep study.

from_exudyn reads every node, object, marker, load and sensor of `mbs` through Exudyn's own
item dicts (mbs.GetNode(i), ...) and the settings that differ from Exudyn's defaults, and
returns the study as a dict, ready for mbsweep.Study or to be extended with parameters,
objectives and a study section.
"""
import math
import re

from . import _core

_CATEGORIES = (  # (category, Exudyn's count, getter, type key, type prefix)
    ("node", "NumberOfNodes", "GetNode", "nodeType", "Node"),
    ("object", "NumberOfObjects", "GetObject", "objectType", "Object"),
    ("marker", "NumberOfMarkers", "GetMarker", "markerType", "Marker"),
    ("load", "NumberOfLoads", "GetLoad", "loadType", "Load"),
    ("sensor", "NumberOfSensors", "GetSensor", "sensorType", "Sensor"),
)

# Sensor output controls: the study decides what is written (simulate writes every sensor).
_SENSOR_OUTPUT = ("writeToFile", "fileName")

# Settings that only steer Exudyn's own output, threads, rendering or console: no effect on results.
_NO_EFFECT = ("show.", "parallel.", "solution.file.", "solution.restart.", "solution.sensors.active",
              "solution.sensors.append", "solution.sensors.writeHeader", "solution.sensors.writeFooter",
              "solution.flushFilesImmediately", "solution.recordImagesInterval", "solution.solverInformationFileName",
              "consolePrecision", "cleanUpMemory", "pauseAfterEachStep", "timeIntegration.verboseMode",
              "timeIntegration.verboseModeFile", "timeIntegration.stepInformation", "staticSolver.verboseMode",
              "staticSolver.verboseModeFile", "staticSolver.stepInformation", "timeIntegration.realtime.",
              "linearSolver.showCausingItems")


def from_exudyn(mbs, simulationSettings=None, solverType=None, expressions=None, **sections):
    """The Exudyn model `mbs` (an exudyn MainSystem) as a study dict: its items in insertion
    order under Exudyn's names, `simulationSettings` (an exudyn.SimulationSettings; the values
    that differ from Exudyn's defaults) and the solver (`solverType` as passed to
    exu.SolveDynamic, else simulationSettings.timeIntegration.solverType). Further keyword
    arguments are added as study sections (parameters=, objectives=, study=).

    `expressions` ({'marker5.localPosition[0]': '-s1', ...}: item name, field and entry) turns
    fields into expressions of the study's parameters, for a parameter that enters several
    fields (a centre-of-mass offset moves a node and the markers on its body).

    A Python user function (loadUserFunction, springForceUserFunction, ...) is refused with a
    TypeError naming the item; an Exudyn item or a non-default field that mbsweep does not have
    with a ValueError."""
    types = _core.itemTypes()
    items = {}
    for category, count, get, typeKey, prefix in _CATEGORIES:
        items[category] = [_item(getattr(mbs, get)(i), category, i, typeKey, prefix, types)
                           for i in range(getattr(mbs.systemData, count)())]
    study = {"model": _in_reference_order(items)}
    for path, expression in (expressions or {}).items():
        _set_expression(study["model"], path, expression)
    if simulationSettings is not None:
        settings = _settings(simulationSettings)
        if settings:
            study["simulationSettings"] = settings
    if solverType is not None:  # as in exu.SolveDynamic, it takes the place of the settings' solverType
        study["solver"] = _enum_name(solverType)
        study.get("simulationSettings", {}).get("timeIntegration", {}).pop("solverType", None)
    for key, value in sections.items():
        if key not in ("parameters", "objectives", "study"):
            raise TypeError(f"from_exudyn: unknown argument '{key}' (study sections: parameters, objectives, study)")
        study[key] = value
    return study


def _item(d, category, index, typeKey, prefix, types):
    d = dict(d)
    typeName = prefix + d.pop(typeKey)
    label = f"{category} {index} ({typeName} '{d.get('name', '')}')"
    if typeName not in types:
        known = ", ".join(t for t in types if t.startswith(prefix))
        raise ValueError(f"from_exudyn: {label}: mbsweep has no item {typeName}; its {category} types: {known}")
    fields = {}
    for key, value in d.items():
        if key.startswith("V") and key[1:2].islower():  # visualization
            continue
        if key.endswith("UserFunction") or key.endswith("UserFunction_t"):
            if value not in (0, None):
                raise TypeError(
                    f"from_exudyn: {label}: {key} is a Python user function, which mbsweep cannot evaluate in a "
                    "batch; write it as a muParser expression in the study dict instead: a time function's text "
                    "(timeFunction: '0.5*(1-cos(0.5*_pi*t))'), springForceUserFunction: '0.1*k*u + k*u^3 + d*v', "
                    "loadVectorUserFunction: ['F*cos(w*t)', 'F*sin(w*t)', '0'], "
                    "or a built-in time function (Harmonic, Sweep, Ramp, Step, Table)")
            continue
        if category == "sensor" and key in _SENSOR_OUTPUT:
            continue
        if key not in types[typeName]:
            if _equal(value, _exudyn_default(typeName, key)) or _redundant_transformation(key, value, d):
                continue
            raise ValueError(f"from_exudyn: {label}: {key} = {_plain(value)!r} has no counterpart in mbsweep's "
                             f"{typeName} (fields: {', '.join(types[typeName])})")
        fields[key] = _plain(value)
    return {typeName: fields}


# Fields that refer to other items, and the category they refer to.
_REFERENCES = {"nodeNumber": "node", "nodeNumbers": "node", "markerNumber": "marker", "markerNumbers": "marker",
               "bodyNumber": "object", "bodyNumbers": "object", "objectNumber": "object", "loadNumber": "load",
               "sensorNumber": "sensor"}


def _in_reference_order(items):
    """One list in which every item comes after the items it refers to (a study file's rule),
    each category in Exudyn's order, so that Exudyn's indices stay valid."""
    done = {category: 0 for category in items}
    model = []
    total = sum(len(v) for v in items.values())
    while len(model) < total:
        ready = [c for c, entries in items.items() if done[c] < len(entries) and all(
            index < done[r] for r, index in _references(entries[done[c]]))]
        if ready:  # the first category that can go on, so that connectors follow their markers
            model.append(items[ready[0]][done[ready[0]]])
            done[ready[0]] += 1
        else:
            waiting = [f"{c} {done[c]}" for c in items if done[c] < len(items[c])]
            raise ValueError("from_exudyn: the items cannot be listed with every reference before its use ("
                             + ", ".join(waiting) + " wait for each other); add them in the order nodes, bodies, "
                             "markers, connectors, loads, sensors")
    return model


def _references(item):
    [(typeName, fields)] = item.items()
    for key, value in fields.items():
        if key in _REFERENCES and value is not None:
            for index in value if isinstance(value, list) else [value]:
                if index >= 0:
                    yield _REFERENCES[key], index


def _redundant_transformation(key, value, d):
    """Exudyn 1.13's homogeneous transformations (localHT, referenceHT) that only repeat the
    item's position and rotation fields."""
    import numpy as np
    position = {"localHT": "localPosition", "referenceHT": "referencePosition"}.get(key)
    if position is None:
        return False
    T = np.asarray(value, dtype=float)
    R = np.asarray(d.get("referenceRotation", np.eye(3)), dtype=float)
    return (T.shape == (4, 4) and np.array_equal(T[:3, :3], R) and np.array_equal(T[3], [0, 0, 0, 1])
            and np.array_equal(T[:3, 3], np.asarray(d.get(position, np.zeros(3)), dtype=float)))


def _set_expression(model, path, expression):
    """Sets the field entry `path` ("name.field", "name.field[i]" or "name.field[i][j]") of the
    item called `name` to the expression text."""
    match = re.fullmatch(r"([^.\[\]]+)\.([A-Za-z_]\w*)((?:\[\d+\])*)", path)
    if not match:
        raise ValueError(f"from_exudyn: expressions: '{path}' is not 'itemName.field' or 'itemName.field[i]'")
    name, field, indices = match.group(1), match.group(2), [int(i) for i in re.findall(r"\d+", match.group(3))]
    found = [fields for item in model for fields in item.values() if fields.get("name") == name]
    if len(found) != 1:
        raise ValueError(f"from_exudyn: expressions: '{path}': " +
                         (f"no item is named '{name}'" if not found else f"{len(found)} items are named '{name}'"))
    fields = found[0]
    if field not in fields:
        raise ValueError(f"from_exudyn: expressions: '{path}': item '{name}' has no field '{field}' set (fields: "
                         f"{', '.join(k for k in fields if k != 'name')})")
    container, key = fields, field
    for i in indices:
        if not isinstance(container[key], list) or i >= len(container[key]):
            raise ValueError(f"from_exudyn: expressions: '{path}': no entry [{i}] in {container[key]!r}")
        container, key = container[key], i
    container[key] = str(expression)


def _exudyn_default(typeName, key):
    import exudyn.itemInterface as items  # the model comes from Exudyn, so Exudyn is there
    return dict(getattr(items, typeName)()).get(key, _Missing)


class _Missing:
    pass


def _settings(simulationSettings):
    import exudyn
    given = _leaves(simulationSettings.GetDictionary())
    default = _leaves(exudyn.SimulationSettings().GetDictionary())
    out = {}
    for path, value in given.items():
        if _equal(value, default.get(path, _Missing)) or path.startswith(_NO_EFFECT):
            continue
        node = out
        *groups, leaf = path.split(".")
        for g in groups:
            node = node.setdefault(g, {})
        node[leaf] = _plain(value)
    return out


def _leaves(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_leaves(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


def _enum_name(value):
    return str(value).split(".")[-1]


def _plain(value):
    """JSON-able: numpy arrays and scalars as lists and numbers, Exudyn's enums and indices as names and ints."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if type(value).__name__ in ("NodeIndex", "ObjectIndex", "MarkerIndex", "LoadIndex", "SensorIndex"):
        return int(value)
    return _enum_name(value)


def _equal(a, b):
    if b is _Missing:
        return False
    a, b = _plain(a), _plain(b)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b
