/// @file rtc_std.h
/// The standard library as far as the model headers use it, for the one compiler that has
/// none: NVRTC, which compiles a model's generated CUDA source at run time (cuda/nvrtc_model.h
/// maps every standard header the model headers include to this file). Device code uses the
/// type traits, std::declval, std::begin/end on arrays and the fixed arrays; the host-only
/// types (std::string, std::vector, exceptions) are declared so that the host-only parts of the
/// headers still parse, and are never defined: NVRTC generates no host code. A host compiler
/// and nvcc never see this file.
#pragma once

#ifndef __CUDACC_RTC__
#error "common/rtc_std.h is for NVRTC only; host and nvcc builds include the standard headers"
#endif

#define DBL_EPSILON 2.2204460492503131e-16
#define DBL_MAX 1.7976931348623157e+308
#define DBL_MIN 2.2250738585072014e-308
#define INFINITY __int_as_float(0x7f800000)
#define NAN __int_as_float(0x7fc00000)

namespace std {

using size_t = decltype(sizeof(0));
using ptrdiff_t = decltype((int*)0 - (int*)0);
using int64_t = long long;
using uint64_t = unsigned long long;
using int32_t = int;
using uint32_t = unsigned int;

template <class T, T v> struct integral_constant {
  static constexpr T value = v;
  using value_type = T;
  using type = integral_constant;
  constexpr operator T() const { return v; }
};
template <bool b> using bool_constant = integral_constant<bool, b>;
using true_type = bool_constant<true>;
using false_type = bool_constant<false>;

template <class...> using void_t = void;
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
template <bool B, class T, class F> struct conditional { using type = T; };
template <class T, class F> struct conditional<false, T, F> { using type = F; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;

template <class A, class B> struct is_same : false_type {};
template <class A> struct is_same<A, A> : true_type {};
template <class A, class B> constexpr bool is_same_v = is_same<A, B>::value;
template <class T> struct remove_reference { using type = T; };
template <class T> struct remove_reference<T&> { using type = T; };
template <class T> struct remove_reference<T&&> { using type = T; };
template <class T> using remove_reference_t = typename remove_reference<T>::type;
template <class T> struct remove_cv { using type = T; };
template <class T> struct remove_cv<const T> { using type = T; };
template <class T> struct remove_cv<volatile T> { using type = T; };
template <class T> struct remove_cv<const volatile T> { using type = T; };
template <class T> using remove_cv_t = typename remove_cv<T>::type;
template <class T> using decay_t = remove_cv_t<remove_reference_t<T>>;

template <class T> struct is_trivial : bool_constant<__is_trivial(T)> {};
template <class T> struct is_standard_layout : bool_constant<__is_standard_layout(T)> {};
template <class T> struct is_trivially_copyable : bool_constant<__is_trivially_copyable(T)> {};
template <class T> constexpr bool is_trivial_v = is_trivial<T>::value;
template <class T> constexpr bool is_standard_layout_v = is_standard_layout<T>::value;
template <class T> constexpr bool is_trivially_copyable_v = is_trivially_copyable<T>::value;

template <class T> T&& declval() noexcept;
template <class T> constexpr const T& min(const T& a, const T& b) { return b < a ? b : a; }
template <class T> constexpr const T& max(const T& a, const T& b) { return a < b ? b : a; }

template <class T, size_t N> constexpr T* begin(T (&a)[N]) noexcept { return a; }
template <class T, size_t N> constexpr T* end(T (&a)[N]) noexcept { return a + N; }

template <class T, size_t N> struct array {
  T elems[N];
  constexpr T& operator[](size_t i) { return elems[i]; }
  constexpr const T& operator[](size_t i) const { return elems[i]; }
  constexpr T* data() { return elems; }
  constexpr const T* data() const { return elems; }
  constexpr T* begin() { return elems; }
  constexpr const T* begin() const { return elems; }
  constexpr T* end() { return elems + N; }
  constexpr const T* end() const { return elems + N; }
  static constexpr size_t size() { return N; }
};

template <class A, class B> struct pair {
  A first;
  B second;
};

/// Host-only types: declared, never defined (no host code is generated).
class string {
 public:
  string();
  string(const char*);
  string(const string&);
  string& operator=(const string&);
  string& operator+=(char);
  string& operator+=(const string&);
  const char* c_str() const;
  size_t size() const;
  bool empty() const;
  ~string();
};
string operator+(const string&, const string&);
template <class T> class vector {
 public:
  vector();
  explicit vector(size_t);
  vector(size_t, const T&);
  vector(const vector&);
  vector& operator=(const vector&);
  ~vector();
  T& operator[](size_t);
  const T& operator[](size_t) const;
  T& back();
  T* data();
  const T* data() const;
  T* begin();
  T* end();
  const T* begin() const;
  const T* end() const;
  size_t size() const;
  bool empty() const;
  void push_back(const T&);
  T* insert(const T*, initializer_list<T>);
  template <class I> T* insert(const T*, I, I);
  template <class... A> T& emplace_back(A&&...);
};
class invalid_argument {
 public:
  explicit invalid_argument(const string&);
  explicit invalid_argument(const char*);
};

}  // namespace std
