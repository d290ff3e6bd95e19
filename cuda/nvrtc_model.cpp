// Compiling generated model kernels with NVRTC (cuda/nvrtc_model.h).
#include "cuda/nvrtc_model.h"

#include <cuda_runtime_api.h>
#include <nvrtc.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

#include "common/batch.h"
#include "common/codegen.h"

namespace mbsweep {

namespace fs = std::filesystem;

namespace {

/// The standard headers the model headers include: NVRTC has none, each maps to the shim.
constexpr const char* kStandardHeaders[] = {"array",  "cfloat",    "cmath",  "cstddef", "cstdint",
                                            "iterator", "math.h",  "new",    "stdexcept", "string",
                                            "string.h", "type_traits", "utility", "vector"};

std::vector<std::string> Options(const std::string& arch) {
  // -default-device: the headers' unannotated (host-only) functions parse as device code, never called
  std::vector<std::string> options{"-std=c++17", "-DNDEBUG", "-default-device", "-arch=" + arch, "-Xptxas=-v"};
  const char* extra = std::getenv("MBSWEEP_NVRTC_FLAGS");
  std::stringstream words(extra ? extra : "");
  for (std::string w; words >> w;) options.push_back(w);
  return options;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Compiles `source`; on success the cubin into `cubin`. `log` gets NVRTC's messages.
bool Compile(const std::string& source, const std::vector<std::string>& options, std::string& cubin,
             std::string& log) {
  std::vector<const char*> names, texts;
  for (const EmbeddedHeader& h : EmbeddedHeaders()) {
    names.push_back(h.path);
    texts.push_back(h.text);
  }
  for (const char* name : kStandardHeaders) {
    names.push_back(name);
    texts.push_back("#include \"common/rtc_std.h\"\n");
  }
  nvrtcProgram program = nullptr;
  if (nvrtcCreateProgram(&program, source.c_str(), "mbsweep_model.cu", static_cast<int>(names.size()), texts.data(),
                         names.data()) != NVRTC_SUCCESS) {
    log = "nvrtcCreateProgram failed";
    return false;
  }
  std::vector<const char*> opts;
  for (const std::string& o : options) opts.push_back(o.c_str());
  const nvrtcResult r = nvrtcCompileProgram(program, static_cast<int>(opts.size()), opts.data());
  size_t size = 0;
  nvrtcGetProgramLogSize(program, &size);
  log.assign(size, '\0');
  if (size > 0) nvrtcGetProgramLog(program, &log[0]);
  while (!log.empty() && log.back() == '\0') log.pop_back();
  bool ok = r == NVRTC_SUCCESS;
  if (!ok) log += std::string("\n") + nvrtcGetErrorString(r) + "\n";
  if (ok && nvrtcGetCUBINSize(program, &size) == NVRTC_SUCCESS && size > 0) {
    cubin.assign(size, '\0');
    ok = nvrtcGetCUBIN(program, &cubin[0]) == NVRTC_SUCCESS;
  } else {
    ok = false;
  }
  nvrtcDestroyProgram(&program);
  return ok;
}

/// ptxas's figures for the kernel in NVRTC's messages (-Xptxas=-v): its "Function properties"
/// line (stack frame, spills) and its "Used N registers" line.
void ParseKernelResources(CudaModelBinary& m) {
  const std::regex props(R"(Function properties for (\w+))"),
      frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)"),
      used(R"(Used (\d+) registers)");
  std::istringstream in(m.log);
  std::string propsOf;
  std::smatch match;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, match, props)) {
      propsOf = match[1].str();
    } else if (propsOf == "mbsweep_model_kernel" && std::regex_search(line, match, frame)) {
      m.stackBytes = std::stoi(match[1].str());
      m.spillStores = std::stoi(match[2].str());
      m.spillLoads = std::stoi(match[3].str());
    } else if (propsOf == "mbsweep_model_kernel" && std::regex_search(line, match, used)) {
      m.registers = std::stoi(match[1].str());
    }
  }
}

/// The kernels this process has loaded, by key. The map's lock is held only to find a key's
/// entry; the entry's own lock through its compilation, so that kernels of different keys (one
/// per --arch of `mbsweep compile`) compile at once, and a key compiles once.
struct Loaded {
  struct Entry {
    std::mutex mutex;
    std::shared_ptr<const CudaModelBinary> model;  ///< null until compiled or read
  };
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<Entry>> models;
};
Loaded& LoadedModels() {
  static Loaded loaded;
  return loaded;
}

}  // namespace

std::string NvrtcVersion() {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> NvrtcArchitectures() {
  int n = 0;
  std::vector<std::string> names;
  if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0) return names;
  std::vector<int> archs(static_cast<size_t>(n));
  nvrtcGetSupportedArchs(archs.data());
  for (int a : archs) names.push_back("sm_" + std::to_string(a));
  return names;
}

std::string CudaDeviceArchitecture(int device) {
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    cudaGetLastError();  // clear the error
    return "";
  }
  return "sm_" + std::to_string(10 * major + minor);
}

std::shared_ptr<const CudaModelBinary> CompileCudaModel(const Layout& layout, bool explicitSolver, int objectives,
                                                        const std::string& arch, std::string* why, bool warpPerSystem) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<std::string> archs = NvrtcArchitectures();
  bool supported = false;
  for (const std::string& a : archs) supported = supported || a == arch;
  if (!supported) {
    if (why) *why = "NVRTC " + NvrtcVersion() + " does not compile for " + arch;
    return nullptr;
  }
  const std::string source = CudaModelSource(layout, explicitSolver, objectives, warpPerSystem);
  const std::vector<std::string> options = Options(arch);
  std::string keyText = source + '\0' + EmbeddedHeadersHash() + '\0' + NvrtcVersion();
  for (const std::string& o : options) keyText += '\0' + o;
  const std::string key = HashHex(keyText);

  Loaded& loaded = LoadedModels();
  std::shared_ptr<Loaded::Entry> entry;
  {
    std::lock_guard<std::mutex> lock(loaded.mutex);
    std::shared_ptr<Loaded::Entry>& e = loaded.models[key];
    if (!e) e = std::make_shared<Loaded::Entry>();
    entry = e;
  }
  std::lock_guard<std::mutex> lock(entry->mutex);
  if (entry->model) return entry->model;

  auto model = std::make_shared<CudaModelBinary>();
  model->key = key;
  model->arch = arch;
  const std::string dir = JitCacheDirectory();
  const std::string base = dir + "/cuda-" + key;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (fs::exists(base + ".cubin", ec)) {
    model->cubin = ReadFile(base + ".cubin");
    model->log = ReadFile(base + ".log");
    model->cacheHit = !model->cubin.empty();
  }
  if (!model->cacheHit) {
    // this process's own files until the cubin is complete: other processes may be compiling it
    const std::string tmp = ".tmp." + std::to_string(::getpid());
    std::ofstream(base + tmp + ".cu") << source;
    const bool compiled = Compile(source, options, model->cubin, model->log);
    std::ofstream(base + tmp + ".log") << model->log;
    fs::rename(base + tmp + ".cu", base + ".cu", ec);  // kept beside the cubin, with the messages
    fs::rename(base + tmp + ".log", base + ".log", ec);
    if (!compiled) {
      if (why) *why = "compiling the model kernel failed (NVRTC " + NvrtcVersion() + "; its messages: " + base + ".log)";
      return nullptr;
    }
    std::ofstream(base + tmp + ".cubin", std::ios::binary) << model->cubin;
    fs::rename(base + tmp + ".cubin", base + ".cubin", ec);  // if it fails, the next process compiles again
  }
  model->path = base + ".cubin";
  ParseKernelResources(*model);
  model->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  entry->model = model;
  return model;
}

}  // namespace mbsweep
