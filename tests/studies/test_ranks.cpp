// Ranks (studies/ranks.h) in a process that no MPI launcher started: one rank, Map in order;
// the messages' bytes. The ranks themselves are tested under mpirun by mpi_ranks.sh.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "studies/grid.h"
#include "studies/ranks.h"

namespace mbsweep {
namespace {

TEST(Ranks, WithoutALauncherThereIsOneRank) {
  Ranks& world = Ranks::World();
  EXPECT_EQ(world.Size(), 1);
  EXPECT_EQ(world.Rank(), 0);
  EXPECT_TRUE(world.IsRoot());
  EXPECT_EQ(world.LocalSize(), 1);
  EXPECT_EQ(world.DefaultThreads(), 0);  // the evaluator's own default: every hardware thread
  EXPECT_TRUE(world.Release().empty());
}

TEST(Ranks, MapDeliversEveryItemInOrder) {
  std::vector<std::uint64_t> made, delivered;
  std::vector<std::string> replies;
  Ranks::World().Map(
      5,
      [&](std::uint64_t i) {
        made.push_back(i);
        return std::string(i, 'x');
      },
      [](const std::string& item) { return std::to_string(item.size() * item.size()); },
      [&](std::uint64_t i, std::string& reply) {
        delivered.push_back(i);
        replies.push_back(reply);
      });
  EXPECT_EQ(made, (std::vector<std::uint64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(delivered, made);
  EXPECT_EQ(replies, (std::vector<std::string>{"0", "1", "4", "9", "16"}));
}

TEST(Ranks, AFailingItemStopsTheMap) {
  int delivered = 0;
  EXPECT_THROW(Ranks::World().Map(
                   4, [](std::uint64_t i) { return std::to_string(i); },
                   [](const std::string& item) -> std::string {
                     if (item == "2") throw std::runtime_error("item 2 fails");
                     return item;
                   },
                   [&](std::uint64_t, std::string&) { ++delivered; }),
               std::runtime_error);
  EXPECT_EQ(delivered, 2);
}

TEST(ByteWriter, ValuesVectorsAndStringsRoundTripBitForBit) {
  const std::vector<double> v{0.1, -0.0, std::nan(""), 1e308};
  const std::vector<PyNumber> py{PyNumber::Int(-3), PyNumber::Float(2.5)};
  ByteWriter w;
  w.Put<std::uint64_t>(42).PutVector(v).PutString("ab").PutVector(py).PutString(std::string("x\0y", 3));
  const std::string bytes = w.Take();
  ByteReader r(bytes);
  EXPECT_EQ(r.Get<std::uint64_t>(), 42u);
  const std::vector<double> back = r.GetVector<double>();
  ASSERT_EQ(back.size(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(std::memcmp(&back[i], &v[i], sizeof(double)), 0) << i;
  EXPECT_EQ(r.GetString(), "ab");
  const std::vector<PyNumber> pyBack = r.GetVector<PyNumber>();
  ASSERT_EQ(pyBack.size(), 2u);
  EXPECT_TRUE(pyBack[0].isInt);
  EXPECT_EQ(pyBack[0].intValue, -3);
  EXPECT_EQ(pyBack[1].value, 2.5);
  EXPECT_EQ(r.GetString(), std::string("x\0y", 3));
  EXPECT_THROW(r.Get<char>(), std::runtime_error);  // past the end
}

}  // namespace
}  // namespace mbsweep
