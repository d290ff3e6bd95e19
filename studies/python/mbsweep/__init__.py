"""mbsweep: multibody dynamics for massive parameter sweeps.

A study is a study file (YAML: the model in Exudyn's item and field names, the settings, the
objectives) or the same content as a dict. Exudyn's ParameterVariation and
GeneticOptimization run on it with Exudyn's arguments and results, each grid chunk or
generation one batch on the study's evaluator ('cpu', 'cpu-jit', 'cuda', ... or 'auto'):

    import mbsweep
    study = mbsweep.Study('studies/examples/oscillator_variation.yaml', backend='cpu')
    [parameterDict, values] = mbsweep.ParameterVariation(
        study, parameters={'mass': (1, 2, 16), 'spring': (2000, 8000, 16)})

The objective is one of the study's objective values (objective='name', default: the study
file's study.objective or the first); a Python objective function is not taken. Run the
same script under mpirun (mpirun -np 4 python3 script.py) to spread the batches over the
ranks: rank 0 gets the results, the other ranks get None. mbsweep.run([...]) runs the command
line in-process. A model built in Exudyn becomes a study with mbsweep.from_exudyn(mbs,
simulationSettings), a dict to add parameters, objectives and a study section to.
"""
from ._core import Study, StudyFileError, ValidationError, __version__, itemTypes, rank, ranks, run
from . import _core
from .exudyn_model import from_exudyn

__all__ = ["Study", "ParameterVariation", "GeneticOptimization", "from_exudyn", "itemTypes", "ValidationError",
           "StudyFileError", "run", "rank", "ranks", "__version__"]


def _check_study(study, function):
    if not isinstance(study, Study):
        what = "a Python function" if callable(study) else type(study).__name__
        raise TypeError(f"{function}: the first argument is {what}; mbsweep evaluates a study, not a Python "
                        "function: pass mbsweep.Study(studyFile or dict) and choose its objective value with "
                        "objective='name' (a load or force that depends on the parameters is written as an "
                        "expression of them in the study)")


def ParameterVariation(study, parameters, useLogSpace=False, addComputationIndex=False, resultsFile='',
                       chunkSize=4096, objective=None, resume=False, **kwargs):
    """Exudyn's ParameterVariation: every point of the grid of `parameters` ({name: (begin, end, n)}
    or {name: [values]}, first parameter slowest) evaluated on `study`. Returns [parameterDict,
    values] as numpy arrays (values NaN for failed systems); None on MPI ranks other than 0.
    Exudyn's options for its own parallel back ends (useMultiProcessing, numberOfThreads,
    useMPI, showProgress, debugMode, ...) are accepted and have no effect: the batches run on
    the study's evaluator and over the MPI ranks the script runs on."""
    _check_study(study, "ParameterVariation")
    _check_ignored(kwargs, "ParameterVariation")
    if kwargs:
        raise TypeError(f"ParameterVariation: unknown argument(s) {', '.join(kwargs)}")
    return _core.ParameterVariation(study, parameters, useLogSpace, addComputationIndex, resultsFile, chunkSize,
                                    objective, resume)


def GeneticOptimization(study, parameters, **kwargs):
    """Exudyn's GeneticOptimization on `study` over `parameters` ({name: (min, max)}) with Exudyn's
    options (populationSize, numberOfGenerations, elitistRatio, crossoverProbability,
    crossoverAmount, rangeReductionFactor, distanceFactor, childDistribution,
    distanceFactorGenerations, initialPopulationSize, randomizerInitialization, resultsFile) and
    mbsweep's (randomStream 'philox' or 'numpy' (Exudyn's numbers bit for bit), objective,
    resume). Returns [optimumParameter, optimumValue, parameterList, valueList]; None on MPI
    ranks other than 0."""
    _check_study(study, "GeneticOptimization")
    _check_ignored(kwargs, "GeneticOptimization")
    return _core.GeneticOptimization(study, parameters, **kwargs)


_IGNORED = ("useMultiProcessing", "numberOfThreads", "useMPI", "showProgress", "debugMode", "useDispyCluster",
            "dispyClusterNodes", "useDispyWebMonitor")


def _check_ignored(kwargs, function):
    for key in [k for k in kwargs if k in _IGNORED]:
        del kwargs[key]
    for key in ("parameterFunction", "objectiveFunction", "parameterFunctionData"):
        if key in kwargs:
            raise TypeError(f"{function}: {key} is a Python function or its data; mbsweep evaluates a study: "
                            "pass mbsweep.Study(studyFile or dict) and objective='name'")
