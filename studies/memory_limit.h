/// @file memory_limit.h
/// Up-front memory checks for what a study builds whole (a design, a grid axis, a chunk), so
/// that a size that cannot fit is refused with the sizes and a way out before anything runs,
/// never with a raw allocation failure. Host only.
#pragma once

#include <string>

namespace mbsweep {

/// Physical memory of this machine in bytes (0 if unknown).
double PhysicalMemoryBytes();

/// "1.5 GiB", "32 TiB": a byte count for messages.
std::string FormatBytes(double bytes);

/// ValidationError "<what> needs <bytes> of memory, more than half of this machine's <RAM>;
/// <advice>" if `bytes` exceeds half the physical memory (or 2^62 where that is unknown).
void RequireMemory(double bytes, const std::string& what, const std::string& advice);

}  // namespace mbsweep
