#include "studies/plot.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "common/output_file.h"
#include "common/rules.h"

namespace mbsweep {
namespace {

constexpr int kMaxImageSize = 10000;

// 5x9 glyphs for ASCII 32..126: 9 rows of 5 bits, row 0 in the most significant bits, the
// leftmost column in a row's most significant bit. Rows 0-6: capitals and digits; 7-8:
// descenders.
constexpr std::uint64_t kFont[95] = {
    0x000000000000, 0x042108401000, 0x0A5280000000, 0x0A57D5F52800, 0x047D1C5F1000, 0x18C888898C00,
    0x0C9511593400, 0x042200000000, 0x022210820800, 0x082084222000, 0x00255D520000, 0x00213E420000,
    0x000000001088, 0x00001C000000, 0x000000063000, 0x000888880000, 0x0E8CEB98B800, 0x046108423800,
    0x0E8844447C00, 0x1F110418B800, 0x0232A5F10800, 0x1F878218B800, 0x06443D18B800, 0x1F0888842000,
    0x0E8C5D18B800, 0x0E8C5E113000, 0x006300C60000, 0x006300C22000, 0x022220820800, 0x0007C1F00000,
    0x082082222000, 0x0E8844401000, 0x0E885B5AB800, 0x0E8C7F18C400, 0x1E8C7D18F800, 0x0E8C2108B800,
    0x1C9463197000, 0x1F843D087C00, 0x1F843D084000, 0x0E8C2F18BC00, 0x118C7F18C400, 0x0E2108423800,
    0x071084293000, 0x119531494400, 0x108421087C00, 0x11DD6B18C400, 0x118E6B38C400, 0x0E8C6318B800,
    0x1E8C7D084000, 0x0E8C63593400, 0x1E8C7D494400, 0x0F841C10F800, 0x1F2108421000, 0x118C6318B800,
    0x118C63151000, 0x118C6B5AA800, 0x118A88A8C400, 0x118A88421000, 0x1F0888887C00, 0x0E4210843800,
    0x008208208000, 0x0E1084213800, 0x045440000000, 0x0000000003E0, 0x082000000000, 0x000382F8BC00,
    0x1085B318F800, 0x0003A108B800, 0x010B6718BC00, 0x0003A3F83800, 0x064A38842000, 0x0003E318BC2E,
    0x1085B318C400, 0x040308423800, 0x020184210A4C, 0x1084A98A4800, 0x0C2108423800, 0x0006AB5AD400,
    0x0005B318C400, 0x0003A318B800, 0x0007A318FA10, 0x0003E318BC21, 0x0005B3084000, 0x0003E0E0F800,
    0x084710849800, 0x00046319B400, 0x000463151000, 0x0004635AA800, 0x000454454400, 0x00046318BC2E,
    0x0007C4447C00, 0x022110420800, 0x042108421000, 0x082104422000, 0x00022A200000,
};

bool FontBit(char ch, int row, int col) {
  const unsigned char u = static_cast<unsigned char>(ch);
  const std::uint64_t g = kFont[(u >= 32 && u <= 126) ? u - 32 : '?' - 32];
  return ((g >> ((8 - row) * 5 + (4 - col))) & 1u) != 0;
}

constexpr Rgb kBlack{0, 0, 0};
constexpr Rgb kWhite{255, 255, 255};
constexpr Rgb kGridColor{225, 225, 225};
constexpr Rgb kLegendEdge{150, 150, 150};

int Round(double v) { return static_cast<int>(std::lround(v)); }

// v = m * 10^e, with the power of ten exact so that e.g. 3*2 * 10^-1 is the double nearest 0.6.
double Decimal(double m, int e) { return e >= 0 ? m * std::pow(10.0, e) : m / std::pow(10.0, -e); }

enum class Notation { Auto, Fixed, Scientific };

// FormatNumber with a choice of notation (Auto: fixed for 1e-4 <= |v| < 1e6).
std::string FormatIn(double v, int significant, Notation notation) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return "0";
  const int sig = std::clamp(significant, 1, 17);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", sig - 1, v);  // rounds first, so 9.99 -> 1.0e+01
  const char* ePos = std::strchr(buf, 'e');
  const int e = std::atoi(ePos + 1);
  auto trim = [](std::string t) {
    if (t.find('.') == std::string::npos) return t;
    while (t.back() == '0') t.pop_back();
    if (t.back() == '.') t.pop_back();
    return t;
  };
  if (notation == Notation::Scientific || (notation == Notation::Auto && (e < -4 || e >= 6))) {
    char ex[16];
    std::snprintf(ex, sizeof ex, "e%c%02d", e < 0 ? '-' : '+', std::abs(e));
    return trim(std::string(buf, static_cast<std::size_t>(ePos - buf))) + ex;
  }
  std::snprintf(buf, sizeof buf, "%.*f", std::max(0, sig - 1 - e), std::strtod(buf, nullptr));
  return trim(buf);
}

// Significant digits of a tick at v that resolve the tick step.
int TickDigits(double v, double step) {
  const int ev = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  const int es = static_cast<int>(std::floor(std::log10(step) + 1e-9));
  return std::clamp(ev - es + 1, 1, 17);
}

// ---------------------------------------------------------------- layout helpers

// Pixel size of one font pixel (text and line widths grow with the figure).
int ScaleOf(const PlotOptions& o) { return std::max(1, std::min(o.width, o.height) / 500); }

void ValidateOptions(const PlotOptions& o) {
  if (o.width < 200 || o.width > kMaxImageSize)
    throw ValidationError("plot option width = " + std::to_string(o.width) + ": must be in [200, 10000] pixels");
  if (o.height < 150 || o.height > kMaxImageSize)
    throw ValidationError("plot option height = " + std::to_string(o.height) + ": must be in [150, 10000] pixels");
}

// Margins shared by both figures: pad around the image, tick length, gap tick->label.
struct Metrics {
  int s, pad, tick, gap;
  explicit Metrics(int scale) : s(scale), pad(10 * scale), tick(5 * scale), gap(3 * scale) {}
};

// Top and bottom of the plot area (room for title, x tick labels and x label).
void VerticalMargins(const PlotOptions& o, const Metrics& m, PlotFrame& f) {
  f.scale = m.s;
  f.top = m.pad + (o.title.empty() ? 0 : Image::TextHeight(2 * m.s) + 6 * m.s) + Image::CapHeight(m.s) / 2 + 2 * m.s;
  f.bottom = o.height - 1 - m.pad - (o.xLabel.empty() ? 0 : Image::TextHeight(m.s) + 6 * m.s) -
             Image::TextHeight(m.s) - m.gap - m.tick;
}

// Labels of ticks: as many digits as the smallest gap between ticks resolves. On a linear
// axis all labels share one notation (scientific if the largest |tick| is < 1e-3 or >= 1e6).
std::vector<std::string> TickLabels(const std::vector<double>& ticks, bool log) {
  double gap = std::numeric_limits<double>::infinity(), largest = 0;
  for (std::size_t i = 1; i < ticks.size(); ++i) gap = std::min(gap, std::fabs(ticks[i] - ticks[i - 1]));
  for (double t : ticks) largest = std::max(largest, std::fabs(t));
  if (!std::isfinite(gap) || gap <= 0) gap = largest > 0 ? largest : 1.0;
  const Notation n = log ? Notation::Auto : (largest < 1e-3 || largest >= 1e6) ? Notation::Scientific : Notation::Fixed;
  std::vector<std::string> labels;
  for (double t : ticks) labels.push_back(std::fabs(t) < gap * 1e-9 ? "0" : FormatIn(t, TickDigits(t, gap), n));
  return labels;
}

int MaxTextWidth(const std::vector<std::string>& texts, int s) {
  int w = 0;
  for (const auto& t : texts) w = std::max(w, Image::TextWidth(t, s));
  return w;
}

// Smallest pixel distance between consecutive ticks (every `every`-th one).
double MinPixelGap(const PlotAxis& a, const std::vector<double>& ticks, std::size_t every = 1) {
  double g = std::numeric_limits<double>::infinity();
  for (std::size_t i = every; i < ticks.size(); i += every)
    g = std::min(g, std::fabs(a.ToPixel(ticks[i]) - a.ToPixel(ticks[i - every])));
  return g;
}

// Nice ticks for an axis whose p0/p1 are set: as many as fit without labels overlapping.
void ChooseTicks(PlotAxis& a, const Metrics& m, bool horizontal) {
  const double length = std::fabs(a.p1 - a.p0);
  const int most = horizontal ? std::clamp(static_cast<int>(length / (60 * m.s)), 2, 10)
                              : std::clamp(static_cast<int>(length / (40 * m.s)), 2, 8);
  for (int n = most; n >= 2; --n) {
    a.ticks = NiceTicks(a.lo, a.hi, a.log, n);
    a.tickLabels = TickLabels(a.ticks, a.log);
    const int need = (horizontal ? MaxTextWidth(a.tickLabels, m.s) : Image::CapHeight(m.s)) + 10 * m.s;
    if (MinPixelGap(a, a.ticks) >= need) break;
  }
}

// Ticks at given (sorted, distinct) values, every k-th so that labels do not overlap.
void ValueTicks(PlotAxis& a, const std::vector<double>& sorted, const Metrics& m, bool horizontal) {
  std::vector<std::string> labels;
  for (int digits = 4; digits <= 17; ++digits) {  // 4 significant digits, more if neighbours look equal
    labels.clear();
    for (double v : sorted) labels.push_back(FormatNumber(v, digits));
    if (std::adjacent_find(labels.begin(), labels.end()) == labels.end()) break;
  }
  const int need = (horizontal ? MaxTextWidth(labels, m.s) : Image::CapHeight(m.s)) + 10 * m.s;
  std::size_t every = 1;
  while (every < sorted.size() && MinPixelGap(a, sorted, every) < need) ++every;
  a.ticks.clear();
  a.tickLabels.clear();
  for (std::size_t i = 0; i < sorted.size(); i += every) {
    a.ticks.push_back(sorted[i]);
    a.tickLabels.push_back(labels[i]);
  }
}

// Left edge of the plot area: room for the y label and the y tick labels.
int LeftMargin(const PlotOptions& o, const Metrics& m, const PlotAxis& y) {
  return m.pad + (o.yLabel.empty() ? 0 : Image::TextHeight(m.s) + 6 * m.s) + MaxTextWidth(y.tickLabels, m.s) + m.gap +
         m.tick;
}

// Grid lines at the ticks, inside the plot area.
void DrawGrid(Image& im, const PlotFrame& f) {
  for (double t : f.x.ticks) {
    const int p = Round(f.x.ToPixel(t));
    if (p > f.left && p < f.right) im.FillRect(p, f.top + 1, p, f.bottom - 1, kGridColor);
  }
  for (double t : f.y.ticks) {
    const int p = Round(f.y.ToPixel(t));
    if (p > f.top && p < f.bottom) im.FillRect(f.left + 1, p, f.right - 1, p, kGridColor);
  }
}

// Frame, ticks, tick labels, axis labels and title.
void DrawAxes(Image& im, const PlotFrame& f, const PlotOptions& o) {
  const Metrics m(f.scale);
  const int s = m.s;
  im.ResetClip();
  im.DrawRect(f.left, f.top, f.right, f.bottom, kBlack);
  for (std::size_t i = 0; i < f.x.ticks.size(); ++i) {
    const int p = Round(f.x.ToPixel(f.x.ticks[i]));
    im.FillRect(p - (s - 1) / 2, f.bottom + 1, p + s / 2, f.bottom + m.tick, kBlack);
    const std::string& l = f.x.tickLabels[i];
    im.DrawText(p - Image::TextWidth(l, s) / 2, f.bottom + m.tick + m.gap, l, kBlack, s);
  }
  for (std::size_t i = 0; i < f.y.ticks.size(); ++i) {
    const int p = Round(f.y.ToPixel(f.y.ticks[i]));
    im.FillRect(f.left - m.tick, p - (s - 1) / 2, f.left - 1, p + s / 2, kBlack);
    const std::string& l = f.y.tickLabels[i];
    im.DrawText(f.left - m.tick - m.gap - Image::TextWidth(l, s), p - Image::CapHeight(s) / 2, l, kBlack, s);
  }
  const int cx = (f.left + f.right) / 2, cy = (f.top + f.bottom) / 2;
  if (!o.title.empty()) im.DrawText(cx - Image::TextWidth(o.title, 2 * s) / 2, m.pad, o.title, kBlack, 2 * s);
  if (!o.xLabel.empty())
    im.DrawText(cx - Image::TextWidth(o.xLabel, s) / 2, o.height - m.pad - Image::TextHeight(s), o.xLabel, kBlack, s);
  if (!o.yLabel.empty()) im.DrawTextUp(m.pad, cy + Image::TextWidth(o.yLabel, s) / 2, o.yLabel, kBlack, s);
}

// ---------------------------------------------------------------- line plot

bool Plottable(const PlotSeries& se, std::size_t i, const PlotOptions& o) {
  const double x = se.x[i], y = se.y[i];
  return std::isfinite(x) && std::isfinite(y) && (!o.xLog || x > 0) && (!o.yLog || y > 0);
}

// Widens [lo, hi] (data range of one axis) into axis limits.
void WidenLimits(double& lo, double& hi, bool log) {
  double a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi;
  if (b - a <= 1e-12 * std::max(std::fabs(a), std::fabs(b))) {
    const double d = log ? std::log10(2.0) : (a == 0 ? 1.0 : 0.1 * std::fabs(a));
    a -= d;
    b += d;
  } else {
    const double d = 0.04 * (b - a);
    a -= d;
    b += d;
  }
  lo = log ? std::pow(10.0, a) : a;
  hi = log ? std::pow(10.0, b) : b;
}

// ---------------------------------------------------------------- heat map

// Cells of one heat-map axis: value order and cell edges (in log10 on a log axis).
struct CellAxis {
  std::vector<std::size_t> order;  // sorted position -> index into the values
  std::vector<double> sorted;      // values in increasing order
  std::vector<double> edges;       // n+1 edges, transformed
};

CellAxis MakeCells(const std::vector<double>& v, bool log, const char* name) {
  const std::string field = std::string("heat map ") + name;
  if (v.empty()) throw ValidationError(field + " is empty: needs at least one value");
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i]) || (log && v[i] <= 0))
      throw ValidationError(field + "[" + std::to_string(i) + "] = " + FormatReal(v[i]) +
                            (log ? ": must be finite and > 0 on a log axis" : ": must be finite"));
  }
  CellAxis c;
  c.order.resize(v.size());
  std::iota(c.order.begin(), c.order.end(), std::size_t{0});
  std::stable_sort(c.order.begin(), c.order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> u;
  for (std::size_t i = 0; i < v.size(); ++i) {
    c.sorted.push_back(v[c.order[i]]);
    u.push_back(log ? std::log10(c.sorted[i]) : c.sorted[i]);
    if (i > 0 && !(u[i] > u[i - 1]))
      throw ValidationError(field + " repeats the value " + FormatReal(c.sorted[i]) + ": values must be distinct");
  }
  const std::size_t n = u.size();
  if (n == 1) {
    c.edges = {u[0] - 0.5, u[0] + 0.5};
  } else {
    c.edges.push_back(u[0] - 0.5 * (u[1] - u[0]));
    for (std::size_t i = 1; i < n; ++i) c.edges.push_back(0.5 * (u[i - 1] + u[i]));
    c.edges.push_back(u[n - 1] + 0.5 * (u[n - 1] - u[n - 2]));
  }
  return c;
}

struct HeatLayout {
  PlotFrame frame;
  CellAxis cx, cy;
  PlotAxis z;  // colour bar: p0 = bottom, p1 = top
  double zlo = 0, zhi = 1;
};

HeatLayout LayoutHeatMap(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& z,
                         const PlotOptions& o, const std::string& colorLabel) {
  ValidateOptions(o);
  HeatLayout h;
  h.cx = MakeCells(x, o.xLog, "x");
  h.cy = MakeCells(y, o.yLog, "y");
  if (z.size() != x.size() * y.size())
    throw ValidationError("heat map z has " + std::to_string(z.size()) + " values: must have y.size()*x.size() = " +
                          std::to_string(y.size()) + "*" + std::to_string(x.size()) + " (row-major, one row per y)");
  bool any = false;
  for (double v : z) {
    if (!std::isfinite(v)) continue;
    h.zlo = any ? std::min(h.zlo, v) : v;
    h.zhi = any ? std::max(h.zhi, v) : v;
    any = true;
  }
  if (!any) throw ValidationError("heat map z has no finite value: nothing to colour");
  double zlo = h.zlo, zhi = h.zhi;
  if (zhi - zlo <= 1e-12 * std::max(std::fabs(zlo), std::fabs(zhi))) WidenLimits(zlo, zhi, false);
  h.zlo = zlo;
  h.zhi = zhi;

  const Metrics m(ScaleOf(o));
  PlotFrame& f = h.frame;
  VerticalMargins(o, m, f);
  h.z = PlotAxis{zlo, zhi, false, double(f.bottom), double(f.top), {}, {}};
  ChooseTicks(h.z, m, false);
  const int barWidth = 16 * m.s, barGap = 16 * m.s;
  f.colorBar.right = o.width - 1 - m.pad - (colorLabel.empty() ? 0 : Image::TextHeight(m.s) + 6 * m.s) -
                     MaxTextWidth(h.z.tickLabels, m.s) - m.gap - m.tick;
  f.colorBar.left = f.colorBar.right - barWidth + 1;
  f.colorBar.top = f.top;
  f.colorBar.bottom = f.bottom;
  f.right = f.colorBar.left - barGap;

  auto limit = [](double e, bool log) { return log ? std::pow(10.0, e) : e; };
  f.y = PlotAxis{limit(h.cy.edges.front(), o.yLog), limit(h.cy.edges.back(), o.yLog), o.yLog, double(f.bottom),
                 double(f.top), {}, {}};
  ValueTicks(f.y, h.cy.sorted, m, false);
  f.left = LeftMargin(o, m, f.y);
  if (f.right - f.left < 20 || f.bottom - f.top < 20)
    throw ValidationError("heat map: the figure (" + std::to_string(o.width) + " x " + std::to_string(o.height) +
                          " pixels) is too small for its labels");
  f.x = PlotAxis{limit(h.cx.edges.front(), o.xLog), limit(h.cx.edges.back(), o.xLog), o.xLog, double(f.left),
                 double(f.right), {}, {}};
  ValueTicks(f.x, h.cx.sorted, m, true);
  return h;
}

}  // namespace

// ---------------------------------------------------------------- Image

Image::Image(int width, int height, Rgb fill) : width_(width), height_(height) {
  if (width < 1 || width > kMaxImageSize || height < 1 || height > kMaxImageSize)
    throw ValidationError("image size " + std::to_string(width) + " x " + std::to_string(height) +
                          ": width and height must be in [1, 10000] pixels");
  ResetClip();
  pixels_.resize(static_cast<std::size_t>(width) * height * 3);
  for (std::size_t i = 0; i < pixels_.size(); i += 3) {
    pixels_[i] = fill.r;
    pixels_[i + 1] = fill.g;
    pixels_[i + 2] = fill.b;
  }
}

Rgb Image::At(int x, int y) const {
  const std::size_t i = (static_cast<std::size_t>(y) * width_ + x) * 3;
  return Rgb{pixels_[i], pixels_[i + 1], pixels_[i + 2]};
}

void Image::Set(int x, int y, Rgb c) {
  if (x < clipX0_ || x > clipX1_ || y < clipY0_ || y > clipY1_) return;
  const std::size_t i = (static_cast<std::size_t>(y) * width_ + x) * 3;
  pixels_[i] = c.r;
  pixels_[i + 1] = c.g;
  pixels_[i + 2] = c.b;
}

void Image::SetClip(int x0, int y0, int x1, int y1) {
  clipX0_ = std::max(0, std::min(x0, x1));
  clipY0_ = std::max(0, std::min(y0, y1));
  clipX1_ = std::min(width_ - 1, std::max(x0, x1));
  clipY1_ = std::min(height_ - 1, std::max(y0, y1));
}

void Image::ResetClip() { SetClip(0, 0, width_ - 1, height_ - 1); }

void Image::FillRect(int x0, int y0, int x1, int y1, Rgb c) {
  const int xa = std::max(std::min(x0, x1), clipX0_), xb = std::min(std::max(x0, x1), clipX1_);
  const int ya = std::max(std::min(y0, y1), clipY0_), yb = std::min(std::max(y0, y1), clipY1_);
  for (int y = ya; y <= yb; ++y)
    for (int x = xa; x <= xb; ++x) Set(x, y, c);
}

void Image::DrawRect(int x0, int y0, int x1, int y1, Rgb c) {
  FillRect(x0, y0, x1, y0, c);
  FillRect(x0, y1, x1, y1, c);
  FillRect(x0, y0, x0, y1, c);
  FillRect(x1, y0, x1, y1, c);
}

void Image::DrawLine(double x0, double y0, double x1, double y1, Rgb c, int width) {
  if (!std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1) || !std::isfinite(y1)) return;
  // Keep the endpoints near the image so that the step count stays bounded.
  const double lim = 4.0 * kMaxImageSize;
  if (std::max({std::fabs(x0), std::fabs(y0), std::fabs(x1), std::fabs(y1)}) > lim) return;
  width = std::max(1, width);
  const double off = (width - 1) / 2.0;
  const int n = std::max(1, static_cast<int>(std::ceil(std::max(std::fabs(x1 - x0), std::fabs(y1 - y0)))));
  for (int i = 0; i <= n; ++i) {
    const double t = static_cast<double>(i) / n;
    const int px = static_cast<int>(std::floor(x0 + (x1 - x0) * t - off + 0.5));
    const int py = static_cast<int>(std::floor(y0 + (y1 - y0) * t - off + 0.5));
    FillRect(px, py, px + width - 1, py + width - 1, c);
  }
}

void Image::FillDisc(double cx, double cy, double r, Rgb c) {
  if (!std::isfinite(cx) || !std::isfinite(cy) || !(r > 0) || std::fabs(cx) > 1e6 || std::fabs(cy) > 1e6) return;
  for (int y = static_cast<int>(std::floor(cy - r)); y <= static_cast<int>(std::ceil(cy + r)); ++y)
    for (int x = static_cast<int>(std::floor(cx - r)); x <= static_cast<int>(std::ceil(cx + r)); ++x)
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) Set(x, y, c);
}

void Image::DrawText(int x, int y, const std::string& text, Rgb c, int scale) {
  scale = std::max(1, scale);
  for (std::size_t i = 0; i < text.size(); ++i)
    for (int row = 0; row < 9; ++row)
      for (int col = 0; col < 5; ++col)
        if (FontBit(text[i], row, col)) {
          const int px = x + (static_cast<int>(i) * 6 + col) * scale, py = y + row * scale;
          FillRect(px, py, px + scale - 1, py + scale - 1, c);
        }
}

void Image::DrawTextUp(int x, int y, const std::string& text, Rgb c, int scale) {
  scale = std::max(1, scale);
  // Unrotated text coordinates (u along the text, v downwards) map to (x + v, y - u).
  for (std::size_t i = 0; i < text.size(); ++i)
    for (int row = 0; row < 9; ++row)
      for (int col = 0; col < 5; ++col)
        if (FontBit(text[i], row, col)) {
          const int u = (static_cast<int>(i) * 6 + col) * scale, v = row * scale;
          FillRect(x + v, y - u - scale + 1, x + v + scale - 1, y - u, c);
        }
}

int Image::TextWidth(const std::string& text, int scale) {
  return text.empty() ? 0 : (static_cast<int>(text.size()) * 6 - 1) * std::max(1, scale);
}

// ---------------------------------------------------------------- PNG

std::vector<unsigned char> EncodePng(const Image& image) {
  const std::size_t w = static_cast<std::size_t>(image.Width()), h = static_cast<std::size_t>(image.Height());
  std::vector<unsigned char> raw(h * (1 + 3 * w));
  for (std::size_t y = 0; y < h; ++y) {
    raw[y * (1 + 3 * w)] = 0;  // filter type 0 (None)
    std::memcpy(&raw[y * (1 + 3 * w) + 1], &image.Pixels()[y * 3 * w], 3 * w);
  }
  uLongf packedSize = compressBound(static_cast<uLong>(raw.size()));
  std::vector<unsigned char> packed(packedSize);
  if (compress2(packed.data(), &packedSize, raw.data(), static_cast<uLong>(raw.size()), 6) != Z_OK)
    throw std::runtime_error("PNG encoding: zlib compress2 failed");
  packed.resize(packedSize);

  std::vector<unsigned char> out = {137, 80, 78, 71, 13, 10, 26, 10};
  auto put32 = [&out](std::uint32_t v) {
    for (int k = 3; k >= 0; --k) out.push_back(static_cast<unsigned char>(v >> (8 * k)));
  };
  auto chunk = [&](const char* type, const std::vector<unsigned char>& data) {
    put32(static_cast<std::uint32_t>(data.size()));
    const std::size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    put32(static_cast<std::uint32_t>(crc32(crc32(0L, Z_NULL, 0), &out[start], static_cast<uInt>(out.size() - start))));
  };
  std::vector<unsigned char> ihdr;
  for (std::uint32_t v : {static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h)})
    for (int k = 3; k >= 0; --k) ihdr.push_back(static_cast<unsigned char>(v >> (8 * k)));
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // bit depth 8, RGB, deflate, filter method 0, no interlace
  chunk("IHDR", ihdr);
  chunk("IDAT", packed);
  chunk("IEND", {});
  return out;
}

void WritePng(const std::string& path, const Image& image) {
  const std::vector<unsigned char> bytes = EncodePng(image);
  WriteFileAtomic(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), "plot file");
}

// ---------------------------------------------------------------- ticks, numbers, colours

std::vector<double> NiceTicks(double lo, double hi, bool log, int maxTicks) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi) || !std::isfinite(hi - lo))
    throw ValidationError("ticks: axis range [" + FormatReal(lo) + ", " + FormatReal(hi) +
                          "] must be finite with lower < upper");
  if (log && lo <= 0)
    throw ValidationError("ticks: log axis lower limit = " + FormatReal(lo) + ": must be > 0");
  if (maxTicks < 2) throw ValidationError("ticks: maxTicks = " + std::to_string(maxTicks) + ": must be >= 2");
  std::vector<double> ticks;
  if (log) {
    const double a = std::log10(lo), b = std::log10(hi);
    const int d0 = static_cast<int>(std::ceil(a - 1e-9)), d1 = static_cast<int>(std::floor(b + 1e-9));
    if (d1 - d0 + 1 >= 2) {
      for (int e = 0;; ++e)
        for (int mult : {1, 2, 5}) {
          const int every = mult * static_cast<int>(std::pow(10.0, e));
          const int k0 = static_cast<int>(std::ceil(d0 / double(every))), k1 = static_cast<int>(std::floor(d1 / double(every)));
          if (k1 - k0 + 1 > maxTicks) continue;
          for (int k = k0; k <= k1; ++k) ticks.push_back(Decimal(1, k * every));
          return ticks;
        }
    }
    for (int d = static_cast<int>(std::floor(a)); d <= static_cast<int>(std::ceil(b)); ++d)
      for (int mult : {1, 2, 5}) {
        const double v = Decimal(mult, d);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) ticks.push_back(v);
      }
    if (ticks.size() >= 2 && ticks.size() <= static_cast<std::size_t>(maxTicks)) return ticks;
    ticks.clear();
  }
  for (int e = static_cast<int>(std::floor(std::log10((hi - lo) / maxTicks))) - 1;; ++e)
    for (int mult : {1, 2, 5}) {
      const double step = Decimal(mult, e);
      const double k0 = std::ceil(lo / step - 1e-9), k1 = std::floor(hi / step + 1e-9);
      if (k1 - k0 + 1 > maxTicks) continue;
      for (double k = k0; k <= k1; ++k) ticks.push_back(Decimal(k * mult, e));
      return ticks;
    }
}

std::string FormatNumber(double v, int significant) { return FormatIn(v, significant, Notation::Auto); }

std::string FormatTickLabel(double v, double step) {
  if (!std::isfinite(v) || !(step > 0)) return FormatNumber(v, 6);
  if (std::fabs(v) < step * 1e-9) return "0";
  return FormatNumber(v, TickDigits(v, step));
}

Rgb SeriesColor(std::size_t i) {
  static const Rgb palette[10] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},  {148, 103, 189},
                                  {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
  return palette[i % 10];
}

Rgb Colormap(double t) {
  if (std::isnan(t)) return NanColor();
  // viridis sampled at t = 0, 0.1, ..., 1
  static const Rgb stops[11] = {{68, 1, 84},    {72, 36, 117},  {65, 68, 135},  {53, 95, 141},
                                {42, 120, 142}, {33, 145, 140}, {34, 168, 132}, {68, 191, 112},
                                {122, 209, 81}, {189, 223, 38}, {253, 231, 37}};
  const double u = std::clamp(t, 0.0, 1.0) * 10.0;
  const int i = std::min(9, static_cast<int>(u));
  const double f = u - i;
  auto mix = [f](std::uint8_t a, std::uint8_t b) { return static_cast<std::uint8_t>(std::lround(a + (b - a) * f)); };
  return Rgb{mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g), mix(stops[i].b, stops[i + 1].b)};
}

Rgb NanColor() { return Rgb{160, 160, 160}; }

double PlotAxis::ToPixel(double v) const {
  const double u = log ? std::log10(v) : v, a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi;
  return p0 + (u - a) / (b - a) * (p1 - p0);
}

// ---------------------------------------------------------------- line plot

PlotFrame LinePlotFrame(const std::vector<PlotSeries>& series, const PlotOptions& o) {
  ValidateOptions(o);
  double xlo = 0, xhi = 0, ylo = 0, yhi = 0;
  bool any = false;
  for (std::size_t k = 0; k < series.size(); ++k) {
    const PlotSeries& se = series[k];
    if (se.x.size() != se.y.size())
      throw ValidationError("plot series " + std::to_string(k) + " ('" + se.label + "'): x has " +
                            std::to_string(se.x.size()) + " values but y has " + std::to_string(se.y.size()) +
                            ": x and y must have the same length");
    for (std::size_t i = 0; i < se.x.size(); ++i) {
      if (!Plottable(se, i, o)) continue;
      xlo = any ? std::min(xlo, se.x[i]) : se.x[i];
      xhi = any ? std::max(xhi, se.x[i]) : se.x[i];
      ylo = any ? std::min(ylo, se.y[i]) : se.y[i];
      yhi = any ? std::max(yhi, se.y[i]) : se.y[i];
      any = true;
    }
  }
  if (!any)
    throw ValidationError("plot: no point to draw (" + std::to_string(series.size()) +
                          " series; points need finite x and y, and values > 0 on log axes)");
  WidenLimits(xlo, xhi, o.xLog);
  WidenLimits(ylo, yhi, o.yLog);

  const Metrics m(ScaleOf(o));
  PlotFrame f;
  VerticalMargins(o, m, f);
  f.y = PlotAxis{ylo, yhi, o.yLog, double(f.bottom), double(f.top), {}, {}};
  ChooseTicks(f.y, m, false);
  f.left = LeftMargin(o, m, f.y);
  f.right = o.width - 1 - 20 * m.s;
  for (int pass = 0; pass < 2; ++pass) {  // pull the right edge in if the last x label sticks out
    if (f.right - f.left < 20)
      throw ValidationError("plot: the figure (" + std::to_string(o.width) + " x " + std::to_string(o.height) +
                            " pixels) is too small for its labels");
    f.x = PlotAxis{xlo, xhi, o.xLog, double(f.left), double(f.right), {}, {}};
    ChooseTicks(f.x, m, true);
    if (f.x.ticks.empty()) break;
    const int overflow = Round(f.x.ToPixel(f.x.ticks.back())) + Image::TextWidth(f.x.tickLabels.back(), m.s) / 2 -
                         (o.width - 1 - m.pad / 2);
    if (overflow <= 0) break;
    f.right -= overflow;
  }

  // Legend: in the corner that covers the least data (markers, and lines sampled every ~3 px).
  std::vector<std::string> names;
  for (const PlotSeries& se : series)
    if (!se.label.empty()) names.push_back(se.label);
  if (names.empty()) return f;
  const int s = m.s, margin = 8 * s;
  const int w = 18 * s + 24 * s + MaxTextWidth(names, s);
  const int h = static_cast<int>(names.size()) * (Image::TextHeight(s) + 4 * s) + 6 * s;
  const int xs[4] = {f.right - margin - w, f.left + margin, f.left + margin, f.right - margin - w};
  const int ys[4] = {f.top + margin, f.top + margin, f.bottom - margin - h, f.bottom - margin - h};
  long long covered[4] = {0, 0, 0, 0};
  auto count = [&](double px, double py) {
    for (int c = 0; c < 4; ++c)
      covered[c] += px >= xs[c] && px <= xs[c] + w && py >= ys[c] && py <= ys[c] + h;
  };
  for (const PlotSeries& se : series)
    for (std::size_t i = 0; i < se.x.size(); ++i) {
      if (!Plottable(se, i, o)) continue;
      const double px = f.x.ToPixel(se.x[i]), py = f.y.ToPixel(se.y[i]);
      count(px, py);
      if (!se.lines || i + 1 >= se.x.size() || !Plottable(se, i + 1, o)) continue;
      const double qx = f.x.ToPixel(se.x[i + 1]), qy = f.y.ToPixel(se.y[i + 1]);
      const int n = std::max(1, static_cast<int>(std::hypot(qx - px, qy - py) / 3));
      for (int k = 1; k < n; ++k) count(px + (qx - px) * k / n, py + (qy - py) * k / n);
    }
  int best = 0;
  for (int c = 1; c < 4; ++c)
    if (covered[c] < covered[best]) best = c;
  f.legend = PixelRect{xs[best], ys[best], xs[best] + w, ys[best] + h};
  return f;
}

Image RenderLinePlot(const std::vector<PlotSeries>& series, const PlotOptions& o) {
  const PlotFrame f = LinePlotFrame(series, o);
  const int s = f.scale;
  Image im(o.width, o.height);
  DrawGrid(im, f);
  im.SetClip(f.left + 1, f.top + 1, f.right - 1, f.bottom - 1);
  for (std::size_t k = 0; k < series.size(); ++k) {
    const PlotSeries& se = series[k];
    const Rgb c = SeriesColor(k);
    const std::size_t n = se.x.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (!Plottable(se, i, o)) continue;
      const double px = f.x.ToPixel(se.x[i]), py = f.y.ToPixel(se.y[i]);
      const bool next = i + 1 < n && Plottable(se, i + 1, o);
      if (se.lines && next) im.DrawLine(px, py, f.x.ToPixel(se.x[i + 1]), f.y.ToPixel(se.y[i + 1]), c, 2 * s);
      const bool isolated = !next && !(i > 0 && Plottable(se, i - 1, o));
      if (se.markers || !se.lines) im.FillDisc(px, py, 3.0 * s, c);
      else if (isolated) im.FillDisc(px, py, 2.0 * s, c);
    }
  }
  im.ResetClip();
  DrawAxes(im, f, o);

  if (!f.legend.Empty()) {
    const PixelRect& L = f.legend;
    const int rowH = Image::TextHeight(s) + 4 * s, sample = 24 * s;
    im.FillRect(L.left, L.top, L.right, L.bottom, kWhite);
    im.DrawRect(L.left, L.top, L.right, L.bottom, kLegendEdge);
    int row = 0;
    for (std::size_t k = 0; k < series.size(); ++k) {
      const PlotSeries& se = series[k];
      if (se.label.empty()) continue;
      const int cy = L.top + 3 * s + row++ * rowH + rowH / 2;
      if (se.lines) im.DrawLine(L.left + 6 * s, cy, L.left + 6 * s + sample, cy, SeriesColor(k), 2 * s);
      if (se.markers || !se.lines) im.FillDisc(L.left + 6 * s + sample / 2.0, cy, 3.0 * s, SeriesColor(k));
      im.DrawText(L.left + 12 * s + sample, cy - Image::CapHeight(s) / 2, se.label, kBlack, s);
    }
  }
  return im;
}

void WriteLinePlot(const std::string& path, const std::vector<PlotSeries>& series, const PlotOptions& options) {
  WritePng(path, RenderLinePlot(series, options));
}

// ---------------------------------------------------------------- heat map

PlotFrame HeatMapFrame(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& z,
                       const PlotOptions& options, const std::string& colorLabel) {
  return LayoutHeatMap(x, y, z, options, colorLabel).frame;
}

Image RenderHeatMap(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& z,
                    const PlotOptions& o, const std::string& colorLabel) {
  const HeatLayout h = LayoutHeatMap(x, y, z, o, colorLabel);
  const PlotFrame& f = h.frame;
  const Metrics m(f.scale);
  const int s = m.s;
  Image im(o.width, o.height);
  // Cell edges are in transformed units (log10 on log axes); map them linearly.
  auto edgePixel = [](const CellAxis& c, const PlotAxis& a, std::size_t i) {
    return Round(a.p0 + (c.edges[i] - c.edges.front()) / (c.edges.back() - c.edges.front()) * (a.p1 - a.p0));
  };
  const std::size_t nx = x.size();
  for (std::size_t j = 0; j < h.cy.order.size(); ++j)
    for (std::size_t i = 0; i < h.cx.order.size(); ++i) {
      const double v = z[h.cy.order[j] * nx + h.cx.order[i]];
      const Rgb c = std::isfinite(v) ? Colormap((v - h.zlo) / (h.zhi - h.zlo)) : NanColor();
      im.FillRect(edgePixel(h.cx, f.x, i), edgePixel(h.cy, f.y, j), edgePixel(h.cx, f.x, i + 1),
                  edgePixel(h.cy, f.y, j + 1), c);
    }
  DrawAxes(im, f, o);

  // Colour bar: zlo at the bottom row of the plot area, zhi at the top row.
  const PixelRect& bar = f.colorBar;
  for (int r = bar.top; r <= bar.bottom; ++r)
    im.FillRect(bar.left, r, bar.right, r, Colormap(double(bar.bottom - r) / (bar.bottom - bar.top)));
  im.DrawRect(bar.left, bar.top, bar.right, bar.bottom, kBlack);
  for (std::size_t i = 0; i < h.z.ticks.size(); ++i) {
    const int p = Round(h.z.ToPixel(h.z.ticks[i]));
    im.FillRect(bar.right + 1, p - (s - 1) / 2, bar.right + m.tick, p + s / 2, kBlack);
    im.DrawText(bar.right + m.tick + m.gap, p - Image::CapHeight(s) / 2, h.z.tickLabels[i], kBlack, s);
  }
  if (!colorLabel.empty())
    im.DrawTextUp(o.width - m.pad - Image::TextHeight(s), (f.top + f.bottom) / 2 + Image::TextWidth(colorLabel, s) / 2,
                  colorLabel, kBlack, s);
  return im;
}

void WriteHeatMap(const std::string& path, const std::vector<double>& x, const std::vector<double>& y,
                  const std::vector<double>& z, const PlotOptions& options, const std::string& colorLabel) {
  WritePng(path, RenderHeatMap(x, y, z, options, colorLabel));
}

}  // namespace mbsweep
