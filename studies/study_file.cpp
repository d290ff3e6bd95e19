#include "studies/study_file.h"
