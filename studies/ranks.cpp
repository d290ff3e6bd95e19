#include "studies/ranks.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <limits>
#include <list>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#if MBSWEEP_HAVE_MPI
#include <mpi.h>
#endif

namespace mbsweep {

namespace {

/// How long an idle rank waits between looks for a message (no busy waiting: ranks may share
/// cores with each other's evaluator threads).
constexpr std::chrono::microseconds kPollInterval(200);

/// Rank 0's own share of a Map, on a thread of its own: one item at a time.
class LocalWorker {
 public:
  explicit LocalWorker(const WorkHandler& handler) : handler_(handler), thread_([this] { Loop(); }) {}
  ~LocalWorker() {
    {
      std::lock_guard<std::mutex> l(m_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();  // an item being evaluated finishes first
  }
  bool Idle() {
    std::lock_guard<std::mutex> l(m_);
    return !busy_ && !finished_;
  }
  void Start(std::uint64_t id, std::string item) {
    {
      std::lock_guard<std::mutex> l(m_);
      id_ = id;
      item_ = std::move(item);
      busy_ = true;
    }
    cv_.notify_all();
  }
  /// The finished item's reply, if there is one (rethrows the handler's exception).
  bool Take(std::uint64_t& id, std::string& reply) {
    std::lock_guard<std::mutex> l(m_);
    if (!finished_) return false;
    finished_ = false;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    id = id_;
    reply = std::move(reply_);
    return true;
  }
  /// Waits up to `d` for the item being evaluated to finish.
  void WaitFor(std::chrono::microseconds d) {
    std::unique_lock<std::mutex> l(m_);
    cv_.wait_for(l, d, [this] { return finished_ || stop_; });
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> l(m_);
    for (;;) {
      cv_.wait(l, [this] { return stop_ || busy_; });
      if (stop_) return;
      const std::string item = std::move(item_);
      l.unlock();
      std::string reply;
      std::exception_ptr error;
      try {
        reply = handler_(item);
      } catch (...) {
        error = std::current_exception();
      }
      l.lock();
      reply_ = std::move(reply);
      error_ = error;
      busy_ = false;
      finished_ = true;
      cv_.notify_all();
    }
  }

  const WorkHandler& handler_;
  std::mutex m_;
  std::condition_variable cv_;
  bool stop_ = false, busy_ = false, finished_ = false;
  std::uint64_t id_ = 0;
  std::string item_, reply_;
  std::exception_ptr error_;
  std::thread thread_;  // last: starts once the state above exists
};

#if MBSWEEP_HAVE_MPI

enum Tag : int { kWork = 1, kResult = 2, kFailure = 3, kRelease = 4 };
/// The item id of a failure outside any item (ServeFailure).
constexpr std::uint64_t kNoItem = ~std::uint64_t(0);

MPI_Comm g_comm = MPI_COMM_NULL;

bool LaunchedByMpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

/// A message: the item id, then the bytes.
std::string Message(std::uint64_t id, const std::string& bytes) {
  std::string m(sizeof id, '\0');
  std::memcpy(m.data(), &id, sizeof id);
  return m + bytes;
}

std::uint64_t MessageId(const std::string& m) {
  std::uint64_t id = kNoItem;
  if (m.size() >= sizeof id) std::memcpy(&id, m.data(), sizeof id);
  return id;
}

/// Non-blocking sends whose buffers live until they complete.
class Sends {
 public:
  ~Sends() {
    // after a failure the job ends (Abort) and a receiver may never come: the buffers of the
    // sends still in flight are left to the process's end rather than waited for
    if (std::uncaught_exceptions() > 0) {
      static_cast<void>(new std::list<Pending>(std::move(pending_)));
      return;
    }
    WaitAll();
  }
  void Post(std::string message, int to, int tag) {
    if (message.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw std::runtime_error("a message between ranks of " + std::to_string(message.size()) +
                               " bytes is above MPI's 2^31-1 (use smaller chunks)");
    pending_.push_back({MPI_REQUEST_NULL, std::move(message)});
    Pending& p = pending_.back();
    MPI_Isend(p.bytes.data(), static_cast<int>(p.bytes.size()), MPI_BYTE, to, tag, g_comm, &p.request);
  }
  void Test() {
    for (auto it = pending_.begin(); it != pending_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      it = done ? pending_.erase(it) : std::next(it);
    }
  }
  void WaitAll() {
    for (Pending& p : pending_) MPI_Wait(&p.request, MPI_STATUS_IGNORE);
    pending_.clear();
  }

 private:
  struct Pending {
    MPI_Request request;
    std::string bytes;
  };
  std::list<Pending> pending_;  // stable addresses
};

/// The message that `status` announced.
std::string Receive(const MPI_Status& status) {
  int n = 0;
  MPI_Get_count(&status, MPI_BYTE, &n);
  std::string m(static_cast<std::size_t>(n), '\0');
  MPI_Recv(m.data(), n, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, g_comm, MPI_STATUS_IGNORE);
  return m;
}

/// Is a message from `source` there? (MPI_Iprobe.)
bool Probe(int source, MPI_Status& status) {
  int flag = 0;
  MPI_Iprobe(source, MPI_ANY_TAG, g_comm, &flag, &status);
  return flag != 0;
}

/// Ranks other than 0: answers rank 0's items with the handler (or with `failure`) until released.
void ServeLoop(const WorkHandler& handler, const std::string* failure) {
  Sends sends;
  for (;;) {
    MPI_Status status;
    while (!Probe(0, status)) {
      sends.Test();
      std::this_thread::sleep_for(kPollInterval);
    }
    std::string m = Receive(status);
    if (status.MPI_TAG == kRelease) break;
    const std::uint64_t id = MessageId(m);
    std::string reply;
    int tag = kResult;
    if (failure) {
      reply = *failure;
      tag = kFailure;
    } else {
      try {
        reply = handler(m.substr(sizeof id));
      } catch (const std::exception& e) {
        reply = e.what();
        tag = kFailure;
      } catch (...) {
        reply = "unknown exception";
        tag = kFailure;
      }
    }
    m.clear();
    sends.Post(Message(id, reply), 0, tag);
  }
}

#endif  // MBSWEEP_HAVE_MPI

}  // namespace

Ranks& Ranks::World() {
  static Ranks world;
  return world;
}

Ranks::Ranks() {
#if MBSWEEP_HAVE_MPI
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    if (!LaunchedByMpi()) return;
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
      throw std::runtime_error("MPI_Init_thread failed (an MPI launcher started this process)");
    ownsMpi_ = true;
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &g_comm);
  MPI_Comm_rank(g_comm, &rank_);
  MPI_Comm_size(g_comm, &size_);
  MPI_Comm node;
  MPI_Comm_split_type(g_comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &localRank_);
  MPI_Comm_size(node, &localSize_);
  MPI_Comm_free(&node);
#endif
}

int Ranks::DefaultThreads() const {
  if (size_ == 1) return 0;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / localSize_);
}

void Ranks::Map(std::uint64_t count, const std::function<std::string(std::uint64_t)>& make,
                const WorkHandler& handler, const std::function<void(std::uint64_t, std::string&)>& done) {
  if (size_ == 1) {
    for (std::uint64_t i = 0; i < count; ++i) {
      std::string reply = handler(make(i));
      done(i, reply);
    }
    return;
  }
#if MBSWEEP_HAVE_MPI
  const std::uint64_t window = static_cast<std::uint64_t>(kItemsAhead + 1) * static_cast<std::uint64_t>(size_);
  std::uint64_t next = 0, delivered = 0;
  std::map<std::uint64_t, std::string> replies;  // arrived, not yet delivered
  Sends sends;
  LocalWorker local(handler);
  const auto canHandOut = [&] { return next < count && next - delivered < window; };
  const auto handOut = [&](int to) {
    sends.Post(Message(next, make(next)), to, kWork);
    ++next;
  };
  for (int k = 0; k < kItemsAhead; ++k)
    for (int r = 1; r < size_ && canHandOut(); ++r) handOut(r);
  std::vector<int> waiting;  // ranks that returned an item while the window was full
  while (delivered < count) {
    bool progressed = false;
    MPI_Status status;
    while (Probe(MPI_ANY_SOURCE, status)) {
      std::string m = Receive(status);
      const std::uint64_t id = MessageId(m);
      if (status.MPI_TAG == kFailure)
        throw std::runtime_error("rank " + std::to_string(status.MPI_SOURCE) + ": " + m.substr(sizeof id));
      replies[id] = m.substr(sizeof id);
      waiting.push_back(status.MPI_SOURCE);
      progressed = true;
    }
    std::uint64_t id = 0;
    std::string reply;
    if (local.Take(id, reply)) {
      replies[id] = std::move(reply);
      progressed = true;
    }
    for (; !replies.empty() && replies.begin()->first == delivered; ++delivered) {
      done(delivered, replies.begin()->second);
      replies.erase(replies.begin());
      progressed = true;
    }
    while (!waiting.empty() && canHandOut()) {
      handOut(waiting.front());
      waiting.erase(waiting.begin());
    }
    if (local.Idle() && canHandOut()) {
      local.Start(next, make(next));
      ++next;
      progressed = true;
    }
    sends.Test();
    if (!progressed) local.WaitFor(kPollInterval);
  }
#endif
}

void Ranks::Serve(const WorkHandler& handler) {
#if MBSWEEP_HAVE_MPI
  if (size_ > 1 && rank_ != 0) ServeLoop(handler, nullptr);
#else
  (void)handler;
#endif
}

void Ranks::ServeFailure(const std::string& what) {
#if MBSWEEP_HAVE_MPI
  if (size_ == 1 || rank_ == 0) return;
  {
    Sends sends;
    sends.Post(Message(kNoItem, what), 0, kFailure);
  }
  ServeLoop({}, &what);
#else
  (void)what;
#endif
}

std::vector<std::string> Ranks::Release() {
  std::vector<std::string> failures;
#if MBSWEEP_HAVE_MPI
  if (size_ == 1 || rank_ != 0) return failures;
  MPI_Status status;
  while (Probe(MPI_ANY_SOURCE, status)) {
    const std::string m = Receive(status);
    if (status.MPI_TAG == kFailure)
      failures.push_back("rank " + std::to_string(status.MPI_SOURCE) + ": " + m.substr(sizeof(std::uint64_t)));
  }
  for (int r = 1; r < size_; ++r) MPI_Send(nullptr, 0, MPI_BYTE, r, kRelease, g_comm);
#endif
  return failures;
}

void Ranks::Abort(int code) {
#if MBSWEEP_HAVE_MPI
  if (size_ > 1) MPI_Abort(g_comm, code);
#endif
  std::exit(code);
}

void Ranks::Finalize() {
#if MBSWEEP_HAVE_MPI
  if (g_comm != MPI_COMM_NULL) MPI_Comm_free(&g_comm);
  if (ownsMpi_) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
    ownsMpi_ = false;
  }
#endif
}

}  // namespace mbsweep
