// Checks every item of the generated item list must pass: an item with a typed Params struct
// (read in place from theta on the host and the device) lists its Real fields in Fields() in
// the order of the struct's members, so theta slot i is the struct's i-th Real.
#include <array>
#include <vector>

#include <gtest/gtest.h>

#include "common/item_dispatch.h"
#include "common/model.h"

namespace mbsweep {
namespace {

/// Collects the Real fields an item visits, in order (the theta slots of a fixed-size item).
struct RealCollector {
  std::vector<Real> values;
  bool fixedSize = true;
  void operator()(const char*, Real& x, Rule) { values.push_back(x); }
  template <size_t N> void operator()(const char*, std::array<Real, N>& a, Rule) {
    values.insert(values.end(), a.begin(), a.end());
  }
  void operator()(const char*, Matrix3D& m) { values.insert(values.end(), m.data.begin(), m.data.end()); }
  void operator()(const char*, Matrix6D& m) { values.insert(values.end(), m.data.begin(), m.data.end()); }
  void operator()(const char*, Vector&, Rule) { fixedSize = false; }
  void operator()(const char*, Matrix&) { fixedSize = false; }
  void operator()(const char*, TimeFunction&) { fixedSize = false; }
  /// a user function's parameters follow the Params in theta (none by default)
  void operator()(const char*, UserFunction& f, const char*, int = 1) { fixedSize = fixedSize && f.parameters.empty(); }
  template <class T> void operator()(const char*, T&) {}
  template <class T> void operator()(const char*, T&, Rule) {}
};

template <class T, class = void> struct HasParams : std::false_type {};
template <class T> struct HasParams<T, std::void_t<typename T::Params>> : std::true_type {};

template <class T> void CheckParamsOrder(int& checked) {
  if constexpr (HasParams<T>::value) {
    SCOPED_TRACE(T::typeName);
    static_assert(std::is_base_of_v<typename T::Params, T>, "an item derives from its Params");
    T item;
    typename T::Params& params = item;
    const size_t n = sizeof(typename T::Params) / sizeof(Real);
    Real* slots = reinterpret_cast<Real*>(&params);
    for (size_t i = 0; i < n; ++i) slots[i] = static_cast<Real>(i + 1);
    RealCollector c;
    item.Fields(c);
    EXPECT_TRUE(c.fixedSize) << "an item with Params has fixed-size Real fields only";
    ASSERT_EQ(c.values.size(), n) << "Params holds exactly the Real fields";
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(c.values[i], static_cast<Real>(i + 1)) << "theta slot " << i;
    EXPECT_EQ(&ParamsAt<T>(slots), &params);
    ++checked;
  }
}

TEST(ItemList, ParamsMatchTheFieldsOrder) {
  int checked = 0;
#define MBS_CHECK_PARAMS(Type, Kind) CheckParamsOrder<Type>(checked);
  MBS_OBJECT_ITEMS(MBS_CHECK_PARAMS)
#undef MBS_CHECK_PARAMS
  EXPECT_GE(checked, 4);  // the position connectors at least
}

// Every object declares its category, and the kind <-> item mapping round-trips.
TEST(ItemList, KindsNamesAndCategoriesComeFromTheItemFiles) {
#define MBS_CHECK_KIND(Type, Kind)                          \
  EXPECT_STREQ(TypeName(ObjectKind::Kind), Type::typeName); \
  EXPECT_EQ(KindOf(ObjectItem(Type{})), ObjectKind::Kind);  \
  EXPECT_EQ(CategoryOf(ObjectKind::Kind), Type::category);
  MBS_OBJECT_ITEMS(MBS_CHECK_KIND)
#undef MBS_CHECK_KIND
  EXPECT_STREQ(KindName(NodeKind::Node1D), "Node1D");
  EXPECT_STREQ(KindName(NodeKind::Point), "Point");
  EXPECT_STREQ(KindName(SensorKind::Object), "Object");
}

}  // namespace
}  // namespace mbsweep
