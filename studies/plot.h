/// @file plot.h
/// PNG figures (contract; implemented by the plotting work item).
#pragma once
