#include "studies/memory_limit.h"

#include <unistd.h>

#include <cstdio>

#include "common/rules.h"

namespace mbsweep {

double PhysicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? static_cast<double>(pages) * static_cast<double>(size) : 0.0;
}

std::string FormatBytes(double bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) bytes /= 1024, ++u;
  char buf[48];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
  return buf;
}

void RequireMemory(double bytes, const std::string& what, const std::string& advice) {
  const double ram = PhysicalMemoryBytes();
  const double limit = ram > 0 ? ram / 2 : 4.6e18;
  if (!(bytes <= limit))
    throw ValidationError(what + " needs " + FormatBytes(bytes) + " of memory, more than half of this machine's " +
                          (ram > 0 ? FormatBytes(ram) : std::string("memory")) + "; " + advice);
}

}  // namespace mbsweep
