#include "studies/checkpoint.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/output_file.h"
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

void Truncate(const std::string& path, std::uint64_t size, const std::string& manifest) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return;
  fs::resize_file(path, size, ec);
  if (ec)
    throw IoError("checkpoint manifest '" + manifest + "': cannot truncate output file '" + path + "' to " +
                  std::to_string(size) + " bytes: " + ec.message());
}

std::string Quote(const std::string& s) { return "'" + Escape(s) + "'"; }

std::string JoinQuoted(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + Quote(v[i]);
  return s + "]";
}

}  // namespace

std::string DescribeFingerprintChange(const std::string& recorded, const std::string& now) {
  // each line "key=value"; texts of another form are named whole
  bool keyed = true;
  auto entries = [&keyed](const std::string& text) {
    std::vector<std::pair<std::string, std::string>> e;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      const std::size_t eq = line.find('=');
      keyed = keyed && eq != std::string::npos;
      if (eq != std::string::npos) e.emplace_back(line.substr(0, eq), line.substr(eq + 1));
    }
    return e;
  };
  const auto before = entries(recorded), after = entries(now);
  if (!keyed) return "fingerprint recorded " + Quote(recorded) + ", now " + Quote(now);
  auto find = [](const std::vector<std::pair<std::string, std::string>>& e, const std::string& key) -> const std::string* {
    for (const auto& [k, v] : e)
      if (k == key) return &v;
    return nullptr;
  };
  std::string changes;
  auto add = [&](const std::string& key, const std::string* from, const std::string* to) {
    changes += (changes.empty() ? "" : "; ") + key + " " + (from ? Quote(*from) : "(none)") + " -> " +
               (to ? Quote(*to) : "(none)");
  };
  for (const auto& [k, v] : before) {
    const std::string* w = find(after, k);
    if (!w || *w != v) add(k, &v, w);
  }
  for (const auto& [k, v] : after)
    if (!find(before, k)) add(k, nullptr, &v);
  return changes.empty() ? "fingerprint recorded " + Quote(recorded) + ", now " + Quote(now) : changes;
}

ChunkManifest ChunkManifest::Open(const std::string& path, const std::string& fingerprint,
                                  const std::vector<std::string>& outputFiles, bool resume) {
  ChunkManifest m;
  m.path_ = path;
  m.fingerprint_ = fingerprint;
  m.outputs_ = outputFiles;
  CreateDirectories(fs::path(path).parent_path().string(), "checkpoint manifest folder");

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
      throw ValidationError("checkpoint manifest '" + path + "': the study changed since the checkpoint: " +
                            DescribeFingerprintChange(recorded, fingerprint) +
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
  WriteFileAtomic(path, text, "checkpoint manifest");
  m.file_ = OutputFile::Append(path, "checkpoint manifest");
  return m;
}

void ChunkManifest::MarkCompleted(std::uint64_t chunkIndex) {
  if (!file_.IsOpen()) throw std::logic_error("checkpoint manifest '" + path_ + "': not open");
  if (chunkIndex != CompletedChunks())
    throw ValidationError("checkpoint manifest '" + path_ + "': chunk " + std::to_string(chunkIndex) +
                          " marked completed, but the next chunk is " + std::to_string(CompletedChunks()) +
                          "; chunks must be completed in order");
  std::vector<std::uint64_t> sizes(outputs_.size());
  for (std::size_t i = 0; i < outputs_.size(); ++i) sizes[i] = SizeOrZero(outputs_[i]);
  file_.Write(ChunkLine(chunkIndex, sizes));
  file_.Flush();
  sizes_.push_back(std::move(sizes));
}

std::uint64_t ChunkManifest::RecordedSize(std::uint64_t chunk, std::size_t output) const {
  return sizes_.at(static_cast<std::size_t>(chunk)).at(output);
}

}  // namespace mbsweep
