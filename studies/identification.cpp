#include "studies/identification.h"
