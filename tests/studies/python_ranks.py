"""The Python package over MPI ranks (run by mpi_ranks.sh): python_ranks.py EXAMPLES_DIR OUT.
A ParameterVariation and a GeneticOptimization of the parameterVariationExample oscillator;
rank 0 writes OUT/variation.txt and OUT/genetic.txt and prints, the other ranks get None."""
import os
import sys

import mbsweep

examples, out = sys.argv[1], sys.argv[2]
study = mbsweep.Study(os.path.join(examples, "oscillator_variation.yaml"), backend="cpu")
if mbsweep.rank() == 0:
    os.makedirs(out, exist_ok=True)
pv = mbsweep.ParameterVariation(study, {"mass": (1, 2, 16), "spring": (2000, 8000, 16)}, chunkSize=64,
                                resultsFile=os.path.join(out, "variation.txt"))
ga = mbsweep.GeneticOptimization(study, {"mass": (1.0, 2.0), "spring": (2000.0, 8000.0)}, populationSize=40,
                                 numberOfGenerations=5, randomizerInitialization=3,
                                 resultsFile=os.path.join(out, "genetic.txt"))
if mbsweep.rank() == 0:
    print(f"{mbsweep.ranks()} ranks: values[-1] = {pv[1][-1]!r}, GA optimum {ga[0]} = {ga[1]!r}")
else:
    assert pv is None and ga is None
