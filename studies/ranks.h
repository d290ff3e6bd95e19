/// @file ranks.h
/// Studies across processes: the ranks of an MPI job (Open MPI; one rank per GPU or per node,
/// started by mpirun/mpiexec or Slurm's srun), or one rank in a build without MPI or a process
/// that no MPI launcher started. Rank 0 plans the study and writes every output; the work is
/// cut into items that rank 0 hands out dynamically (Map): each other rank holds at most
/// kItemsAhead items at a time and gets the next one when it returns a result, so a slow rank
/// takes fewer items and does not hold the rest; rank 0 evaluates items too, on a thread of
/// its own, while its main thread hands out and collects. Results are delivered in item order.
/// Every rank runs the same program on the same input (SPMD), so an item carries only what
/// differs between items. Host only.
///
/// Failures: an item that throws on any rank, or a rank that fails before it serves
/// (ServeFailure), makes Map throw std::runtime_error "rank K: <what>" on rank 0; the caller
/// then ends the job with Abort (other ranks may be busy with items). A rank that dies is
/// reported by the MPI launcher, which ends the job (Open MPI's mpirun: "... exited on signal
/// 9 (Killed)"); a study resumes from its checkpoint, with any number of ranks.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace mbsweep {

/// Evaluates one item (its bytes) on any rank and returns the reply's bytes. Throws on failure.
using WorkHandler = std::function<std::string(const std::string& item)>;

/// The ranks of this job (MPI_COMM_WORLD, duplicated) or a single rank.
class Ranks {
 public:
  /// Items a rank other than 0 holds at most (one being evaluated, one waiting).
  static constexpr int kItemsAhead = 2;

  /// This process's ranks. On first use (collective: every rank calls it): takes over an MPI
  /// the caller has initialized, or initializes MPI (MPI_THREAD_FUNNELED) if this build has it
  /// and an MPI launcher started the process (OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK in
  /// the environment); otherwise a single rank. Throws std::runtime_error if MPI cannot start.
  static Ranks& World();

  int Rank() const { return rank_; }
  int Size() const { return size_; }
  bool IsRoot() const { return rank_ == 0; }
  /// This rank's place among the ranks on its node, and their number (one GPU per local rank).
  int LocalRank() const { return localRank_; }
  int LocalSize() const { return localSize_; }
  /// CPU threads for this rank's evaluator when none are asked for: the node's hardware
  /// threads shared by its ranks (0 = all, for a single rank).
  int DefaultThreads() const;

  /// Rank 0: evaluates items 0 .. count-1 over all ranks. make(i) builds item i's bytes (in
  /// order, on the calling thread; at most (kItemsAhead+1)*Size() items past the oldest
  /// undelivered one exist at a time); handler evaluates items on rank 0 (on one other thread:
  /// it must not share unguarded state with make and done); done(i, reply) receives the
  /// replies in item order on the calling thread. The other ranks must be in Serve with the
  /// matching handler. Throws std::runtime_error "rank K: ..." for a failure on rank K > 0;
  /// rethrows what make, done or rank 0's handler throw.
  void Map(std::uint64_t count, const std::function<std::string(std::uint64_t)>& make,
           const WorkHandler& handler, const std::function<void(std::uint64_t, std::string&)>& done);
  /// Ranks other than 0: evaluates the items rank 0 hands out (any number of Map calls) until
  /// rank 0 calls Release. A handler's exception goes to rank 0 (Map throws there) and Serve
  /// goes on.
  void Serve(const WorkHandler& handler);
  /// Ranks other than 0, after a failure outside any item (set-up): reports `what` to rank 0,
  /// answers every item with it, and returns when rank 0 calls Release.
  void ServeFailure(const std::string& what);
  /// Rank 0, at the end: lets the other ranks' Serve return. Returns the failures ranks
  /// reported that no Map received ("rank K: ..."), for rank 0 to print.
  std::vector<std::string> Release();
  /// Ends every rank's process with `code` (MPI_Abort); for a single rank, std::exit(code).
  [[noreturn]] void Abort(int code);
  /// Finalizes MPI if World() initialized it (the last MPI call of the process).
  void Finalize();

 private:
  Ranks();
  int rank_ = 0, size_ = 1, localRank_ = 0, localSize_ = 1;
  bool ownsMpi_ = false;
};

/// Bytes of a work item or reply: trivially copyable values and vectors of them, and strings,
/// appended in order (ByteReader reads them back in the same order, on the same platform).
class ByteWriter {
 public:
  template <typename T>
  ByteWriter& Put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
    return *this;
  }
  template <typename T>
  ByteWriter& PutVector(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    Put<std::uint64_t>(v.size());
    bytes_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    return *this;
  }
  ByteWriter& PutString(const std::string& s) {
    Put<std::uint64_t>(s.size());
    bytes_ += s;
    return *this;
  }
  std::string Take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

/// Reads what ByteWriter wrote; throws std::runtime_error past the end.
class ByteReader {
 public:
  explicit ByteReader(const std::string& bytes) : bytes_(bytes) {}
  template <typename T>
  T Get() {
    T v;
    std::memcpy(&v, Take(sizeof v), sizeof v);
    return v;
  }
  template <typename T>
  std::vector<T> GetVector() {
    std::vector<T> v(static_cast<std::size_t>(Get<std::uint64_t>()));
    if (!v.empty()) std::memcpy(v.data(), Take(v.size() * sizeof(T)), v.size() * sizeof(T));
    return v;
  }
  std::string GetString() {
    const std::size_t n = static_cast<std::size_t>(Get<std::uint64_t>());
    return std::string(Take(n), n);
  }

 private:
  const char* Take(std::size_t n) {
    if (n > bytes_.size() - at_) throw std::runtime_error("a message between ranks ends early (corrupt or mismatched)");
    const char* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  const std::string& bytes_;
  std::size_t at_ = 0;
};

}  // namespace mbsweep
