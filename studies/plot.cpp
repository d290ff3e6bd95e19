#include "studies/plot.h"
