#include "studies/checkpoint.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/rules.h"

namespace mbsweep {

namespace fs = std::filesystem;

std::uint64_t Fnv1a64(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

namespace {

constexpr const char* kMagic = "#mbsweep chunk manifest v1";

std::string Escape(const std::string& s) {
  std::string e;
  e.reserve(s.size());
  for (char c : s) {
    if (c == '\\') e += "\\\\";
    else if (c == '\n') e += "\\n";
    else if (c == '\r') e += "\\r";
    else e += c;
  }
  return e;
}

std::string Unescape(const std::string& s) {
  std::string u;
  u.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      const char n = s[++i];
      u += n == 'n' ? '\n' : n == 'r' ? '\r' : n;
    } else {
      u += s[i];
    }
  }
  return u;
}

std::string Hex16(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

/// "chunk <k> <sizes...> <checksum>".
std::string ChunkLine(std::uint64_t k, const std::vector<std::uint64_t>& sizes) {
  std::string s = "chunk " + std::to_string(k);
  for (std::uint64_t z : sizes) s += " " + std::to_string(z);
  return s + " " + Hex16(Fnv1a64(s)) + "\n";
}

/// Parses a chunk line (without '\n'); false if malformed or the checksum differs.
bool ParseChunkLine(const std::string& line, std::size_t nOutputs, std::uint64_t& k,
                    std::vector<std::uint64_t>& sizes) {
  const std::size_t sp = line.rfind(' ');
  if (sp == std::string::npos || line.compare(0, 6, "chunk ") != 0) return false;
  const std::string body = line.substr(0, sp);
  if (line.substr(sp + 1) != Hex16(Fnv1a64(body))) return false;
  std::istringstream in(body.substr(6));
  if (!(in >> k)) return false;
  sizes.assign(nOutputs, 0);
  for (std::size_t i = 0; i < nOutputs; ++i)
    if (!(in >> sizes[i])) return false;
  std::string rest;
  return !(in >> rest);
}

std::uint64_t SizeOrZero(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t z = fs::file_size(path, ec);
  return ec ? 0 : static_cast<std::uint64_t>(z);
}

void CreateParent(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec)
    throw std::runtime_error("checkpoint manifest '" + path + "': cannot create directory '" + parent.string() +
                             "': " + ec.message());
}

void Truncate(const std::string& path, std::uint64_t size, const std::string& manifest) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return;
  fs::resize_file(path, size, ec);
  if (ec)
    throw std::runtime_error("checkpoint manifest '" + manifest + "': cannot truncate output file '" + path +
                             "' to " + std::to_string(size) + " bytes: " + ec.message());
}

std::string Quote(const std::string& s) { return "'" + Escape(s) + "'"; }

std::string JoinQuoted(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + Quote(v[i]);
  return s + "]";
}

}  // namespace

ChunkManifest ChunkManifest::Open(const std::string& path, const std::string& fingerprint,
                                  const std::vector<std::string>& outputFiles, bool resume) {
  ChunkManifest m;
  m.path_ = path;
  m.fingerprint_ = fingerprint;
  m.outputs_ = outputFiles;
  CreateParent(path);

  if (resume && fs::exists(path)) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ValidationError("checkpoint manifest '" + path + "': cannot open the file for reading");
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    // complete lines only (a torn last line has no '\n')
    std::vector<std::string> lines;
    for (std::size_t pos = 0; pos < text.size();) {
      const std::size_t nl = text.find('\n', pos);
      if (nl == std::string::npos) break;
      lines.push_back(text.substr(pos, nl - pos));
      pos = nl + 1;
    }
    const std::size_t nOut = outputFiles.size();
    if (lines.size() < 2 + nOut || lines[0] != kMagic || lines[1].compare(0, 12, "fingerprint ") != 0)
      throw ValidationError("checkpoint manifest '" + path + "': not a valid manifest (expected the header '" +
                            kMagic + "', a fingerprint line and " + std::to_string(nOut) +
                            " output lines); delete it or run without resume");
    const std::string recorded = Unescape(lines[1].substr(12));
    if (recorded != fingerprint)
      throw ValidationError("checkpoint manifest '" + path +
                            "': the study changed since the checkpoint: fingerprint recorded " + Quote(recorded) +
                            ", now " + Quote(fingerprint) +
                            "; resume requires the same study (run without resume to start again)");
    std::vector<std::string> recordedOutputs;
    std::size_t li = 2;
    for (; li < lines.size() && lines[li].compare(0, 7, "output ") == 0; ++li)
      recordedOutputs.push_back(Unescape(lines[li].substr(7)));
    if (recordedOutputs != outputFiles)
      throw ValidationError("checkpoint manifest '" + path +
                            "': the study changed since the checkpoint: output files recorded " +
                            JoinQuoted(recordedOutputs) + ", now " + JoinQuoted(outputFiles));
    std::vector<std::uint64_t> actual(nOut);
    for (std::size_t i = 0; i < nOut; ++i) actual[i] = SizeOrZero(outputFiles[i]);
    for (; li < lines.size(); ++li) {
      std::uint64_t k = 0;
      std::vector<std::uint64_t> sizes;
      if (!ParseChunkLine(lines[li], nOut, k, sizes) || k != m.sizes_.size()) break;
      bool fits = true;
      for (std::size_t i = 0; i < nOut; ++i) fits = fits && sizes[i] <= actual[i];
      if (!fits) break;
      m.sizes_.push_back(std::move(sizes));
    }
    m.resumedChunks_ = m.sizes_.size();
  }

  // outputs: cut back to the last completed chunk (or emptied for a fresh start)
  for (std::size_t i = 0; i < outputFiles.size(); ++i)
    Truncate(outputFiles[i], m.sizes_.empty() ? 0 : m.sizes_.back()[i], path);

  // (re)write the manifest atomically: header + the kept chunk lines
  std::string text = std::string(kMagic) + "\n";
  text += "fingerprint " + Escape(fingerprint) + "\n";
  for (const auto& o : outputFiles) text += "output " + Escape(o) + "\n";
  for (std::size_t k = 0; k < m.sizes_.size(); ++k) text += ChunkLine(k, m.sizes_[k]);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::out | std::ios::trunc | std::ios::binary);
    out << text;
    out.flush();
    if (!out)
      throw std::runtime_error("checkpoint manifest '" + path + "': cannot write '" + tmp + "' (" +
                            std::strerror(errno) + ")");
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec)
    throw std::runtime_error("checkpoint manifest '" + path + "': cannot rename '" + tmp + "': " + ec.message());

  m.file_.reset(std::fopen(path.c_str(), "ab"));
  if (!m.file_)
    throw std::runtime_error("checkpoint manifest '" + path + "': cannot open the file for appending (" +
                             std::strerror(errno) + ")");
  return m;
}

void ChunkManifest::MarkCompleted(std::uint64_t chunkIndex) {
  if (!file_) throw std::logic_error("checkpoint manifest '" + path_ + "': not open");
  if (chunkIndex != CompletedChunks())
    throw ValidationError("checkpoint manifest '" + path_ + "': chunk " + std::to_string(chunkIndex) +
                          " marked completed, but the next chunk is " + std::to_string(CompletedChunks()) +
                          "; chunks must be completed in order");
  std::vector<std::uint64_t> sizes(outputs_.size());
  for (std::size_t i = 0; i < outputs_.size(); ++i) sizes[i] = SizeOrZero(outputs_[i]);
  const std::string line = ChunkLine(chunkIndex, sizes);
  if (std::fwrite(line.data(), 1, line.size(), file_.get()) != line.size() || std::fflush(file_.get()) != 0)
    throw std::runtime_error("checkpoint manifest '" + path_ + "': write error (" + std::strerror(errno) + ")");
  sizes_.push_back(std::move(sizes));
}

std::uint64_t ChunkManifest::RecordedSize(std::uint64_t chunk, std::size_t output) const {
  return sizes_.at(static_cast<std::size_t>(chunk)).at(output);
}

}  // namespace mbsweep
