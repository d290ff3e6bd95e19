// Tests of studies/plot.h: PNG encoding (structure, CRCs, inflated image data), rendered
// figures decoded back from their files (line position, heat-map cell colours), nice ticks,
// tick labels and errors.
#include "studies/plot.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/rules.h"

namespace mbsweep {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::uint32_t Be32(const std::vector<unsigned char>& b, std::size_t at) {
  return (std::uint32_t(b[at]) << 24) | (std::uint32_t(b[at + 1]) << 16) | (std::uint32_t(b[at + 2]) << 8) |
         std::uint32_t(b[at + 3]);
}

struct Chunk {
  std::string type;
  std::vector<unsigned char> data;
};

// Splits a PNG into chunks, checking the signature and every chunk's CRC against zlib's crc32.
std::vector<Chunk> ParsePng(const std::vector<unsigned char>& png) {
  const unsigned char signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  EXPECT_GE(png.size(), 8u);
  EXPECT_TRUE(std::equal(signature, signature + 8, png.begin())) << "PNG signature";
  std::vector<Chunk> chunks;
  std::size_t at = 8;
  while (at + 12 <= png.size()) {
    const std::uint32_t len = Be32(png, at);
    EXPECT_LE(at + 12 + len, png.size()) << "chunk overruns the file";
    if (at + 12 + len > png.size()) break;
    Chunk c{std::string(png.begin() + at + 4, png.begin() + at + 8),
            std::vector<unsigned char>(png.begin() + at + 8, png.begin() + at + 8 + len)};
    const uLong crc = crc32(crc32(0L, Z_NULL, 0), &png[at + 4], static_cast<uInt>(4 + len));
    EXPECT_EQ(Be32(png, at + 8 + len), crc) << "CRC of chunk " << c.type;
    chunks.push_back(std::move(c));
    at += 12 + len;
  }
  EXPECT_EQ(at, png.size()) << "trailing bytes after the last chunk";
  return chunks;
}

// Decodes an 8-bit RGB, filter-0 PNG written by EncodePng back into an Image.
Image DecodePng(const std::vector<unsigned char>& png) {
  const std::vector<Chunk> chunks = ParsePng(png);
  if (chunks.empty() || chunks.front().type != "IHDR" || chunks.front().data.size() != 13)
    throw std::runtime_error("no IHDR");
  const auto& ihdr = chunks.front().data;
  const int w = static_cast<int>(Be32(ihdr, 0)), h = static_cast<int>(Be32(ihdr, 4));
  if (ihdr[8] != 8 || ihdr[9] != 2) throw std::runtime_error("not 8-bit RGB");
  std::vector<unsigned char> packed;
  for (const auto& c : chunks)
    if (c.type == "IDAT") packed.insert(packed.end(), c.data.begin(), c.data.end());
  const std::size_t rowBytes = 1 + 3 * static_cast<std::size_t>(w);
  std::vector<unsigned char> raw(rowBytes * h + 16);  // room to detect excess data
  uLongf rawSize = static_cast<uLongf>(raw.size());
  if (uncompress(raw.data(), &rawSize, packed.data(), static_cast<uLong>(packed.size())) != Z_OK)
    throw std::runtime_error("IDAT does not inflate");
  if (rawSize != rowBytes * h) throw std::runtime_error("IDAT inflates to " + std::to_string(rawSize) + " bytes");
  Image im(w, h);
  for (int y = 0; y < h; ++y) {
    if (raw[y * rowBytes] != 0) throw std::runtime_error("filter type of row " + std::to_string(y) + " is not 0");
    for (int x = 0; x < w; ++x) {
      const unsigned char* p = &raw[y * rowBytes + 1 + 3 * x];
      im.Set(x, y, Rgb{p[0], p[1], p[2]});
    }
  }
  return im;
}

std::vector<unsigned char> ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::string TempPath(const std::string& name) { return ::testing::TempDir() + "mbsweep_test_plot_" + name; }

bool Same(const Image& a, const Image& b) {
  return a.Width() == b.Width() && a.Height() == b.Height() && a.Pixels() == b.Pixels();
}

// ---------------------------------------------------------------- PNG

TEST(Png, StructureCrcsAndImageData) {
  Image im(7, 5, Rgb{10, 20, 30});
  im.Set(0, 0, Rgb{255, 0, 0});
  im.Set(6, 4, Rgb{0, 0, 255});
  const std::vector<unsigned char> png = EncodePng(im);
  const std::vector<Chunk> chunks = ParsePng(png);  // signature and CRCs checked inside
  ASSERT_GE(chunks.size(), 3u);
  ASSERT_EQ(chunks.front().type, "IHDR");
  const auto& ihdr = chunks.front().data;
  ASSERT_EQ(ihdr.size(), 13u);
  EXPECT_EQ(Be32(ihdr, 0), 7u);   // width
  EXPECT_EQ(Be32(ihdr, 4), 5u);   // height
  EXPECT_EQ(ihdr[8], 8);          // bit depth
  EXPECT_EQ(ihdr[9], 2);          // colour type RGB
  EXPECT_EQ(ihdr[10], 0);         // deflate
  EXPECT_EQ(ihdr[11], 0);         // filter method
  EXPECT_EQ(ihdr[12], 0);         // no interlace
  EXPECT_EQ(chunks[1].type, "IDAT");
  EXPECT_EQ(chunks.back().type, "IEND");
  EXPECT_TRUE(chunks.back().data.empty());

  const Image back = DecodePng(png);  // IDAT inflates to 5*(1+3*7) bytes, filter bytes 0
  EXPECT_TRUE(Same(back, im));
  EXPECT_EQ(back.At(0, 0), (Rgb{255, 0, 0}));
  EXPECT_EQ(back.At(6, 4), (Rgb{0, 0, 255}));
  EXPECT_EQ(back.At(3, 2), (Rgb{10, 20, 30}));
}

TEST(Png, CrcCoversTypeAndData) {
  // The CRC check above must be able to fail: change one IHDR byte and recompute.
  std::vector<unsigned char> png = EncodePng(Image(3, 3));
  const uLong before = crc32(crc32(0L, Z_NULL, 0), &png[12], 4 + 13);
  EXPECT_EQ(Be32(png, 29), before);
  png[16] ^= 0x01;  // first byte of the width
  EXPECT_NE(Be32(png, 29), crc32(crc32(0L, Z_NULL, 0), &png[12], 4 + 13));
}

// ---------------------------------------------------------------- text

TEST(Font, GlyphsStayInTheirCellAndDiffer) {
  const std::string text = "0123456789.-e+ABCxyz";
  Image im(200, 20);
  im.DrawText(2, 3, text, Rgb{0, 0, 0});
  int dark = 0;
  for (int y = 0; y < im.Height(); ++y)
    for (int x = 0; x < im.Width(); ++x)
      if (im.At(x, y) == (Rgb{0, 0, 0})) {
        ++dark;
        EXPECT_GE(x, 2);
        EXPECT_LT(x, 2 + Image::TextWidth(text));
        EXPECT_GE(y, 3);
        EXPECT_LT(y, 3 + Image::TextHeight());
      }
  EXPECT_GT(dark, 100);
  // Every printable glyph except space sets a pixel, and '1' differs from '7'.
  for (int c = 33; c <= 126; ++c) {
    Image g(6, 9);
    g.DrawText(0, 0, std::string(1, static_cast<char>(c)), Rgb{0, 0, 0});
    EXPECT_NE(g.Pixels(), Image(6, 9).Pixels()) << "glyph " << c;
  }
  Image one(6, 9), seven(6, 9);
  one.DrawText(0, 0, "1", Rgb{0, 0, 0});
  seven.DrawText(0, 0, "7", Rgb{0, 0, 0});
  EXPECT_NE(one.Pixels(), seven.Pixels());
}

TEST(Font, RotatedTextRunsUpwards) {
  Image im(20, 60);
  im.DrawTextUp(5, 50, "AB", Rgb{0, 0, 0});
  for (int y = 0; y < im.Height(); ++y)
    for (int x = 0; x < im.Width(); ++x)
      if (im.At(x, y) == (Rgb{0, 0, 0})) {
        EXPECT_GE(x, 5);
        EXPECT_LT(x, 5 + Image::TextHeight());
        EXPECT_LE(y, 50);
        EXPECT_GT(y, 50 - Image::TextWidth("AB"));
      }
}

// ---------------------------------------------------------------- ticks and labels

void ExpectTicks(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_DOUBLE_EQ(got[i], want[i]) << "tick " << i;
}

TEST(NiceTicks, OneTwoFiveSteps) {
  ExpectTicks(NiceTicks(0, 1), {0, 0.2, 0.4, 0.6, 0.8, 1});
  ExpectTicks(NiceTicks(1.5, 1.7), {1.5, 1.55, 1.6, 1.65, 1.7});
  ExpectTicks(NiceTicks(2000, 8000), {2000, 3000, 4000, 5000, 6000, 7000, 8000});
  ExpectTicks(NiceTicks(-0.93, 0.47), {-0.8, -0.6, -0.4, -0.2, 0, 0.2, 0.4});
  ExpectTicks(NiceTicks(0, 1, false, 3), {0, 0.5, 1});
  // Values are the decimals themselves, not k*step with rounding error.
  EXPECT_EQ(NiceTicks(0, 1)[3], 0.6);
}

TEST(NiceTicks, DecadesOnLogAxes) {
  ExpectTicks(NiceTicks(1e-3, 10, true), {1e-3, 1e-2, 1e-1, 1, 10});
  ExpectTicks(NiceTicks(0.5e-3, 20, true), {1e-3, 1e-2, 1e-1, 1, 10});
  ExpectTicks(NiceTicks(1e-10, 1e10, true, 6), {1e-10, 1e-5, 1, 1e5, 1e10});
  // Less than two decades inside: 1-2-5 values.
  ExpectTicks(NiceTicks(1.5, 30, true), {2, 5, 10, 20});
}

TEST(NiceTicks, RejectsBadRanges) {
  EXPECT_THROW(NiceTicks(1, 1), ValidationError);
  EXPECT_THROW(NiceTicks(2, 1), ValidationError);
  EXPECT_THROW(NiceTicks(0, kNaN), ValidationError);
  EXPECT_THROW(NiceTicks(0, 10, true), ValidationError);
  EXPECT_THROW(NiceTicks(0, 1, false, 1), ValidationError);
}

TEST(TickLabels, Compact) {
  EXPECT_EQ(FormatTickLabel(0.001, 0.001), "0.001");
  EXPECT_EQ(FormatTickLabel(2500, 500), "2500");
  EXPECT_EQ(FormatTickLabel(2000, 1000), "2000");
  EXPECT_EQ(FormatTickLabel(1e-5, 1e-5), "1e-05");
  EXPECT_EQ(FormatTickLabel(0.1 + 0.2, 0.1), "0.3");
  EXPECT_EQ(FormatTickLabel(1.55, 0.05), "1.55");
  EXPECT_EQ(FormatTickLabel(-0.4, 0.2), "-0.4");
  EXPECT_EQ(FormatTickLabel(5.551115123125783e-17, 0.2), "0");
  EXPECT_EQ(FormatTickLabel(2.5e6, 5e5), "2.5e+06");
  EXPECT_EQ(FormatNumber(123456, 3), "123000");
  EXPECT_EQ(FormatNumber(9.996, 3), "10");
  EXPECT_EQ(FormatNumber(0.30000000000000004, 4), "0.3");
  EXPECT_EQ(FormatNumber(kNaN, 3), "nan");
}

TEST(TickLabels, OneNotationPerLinearAxis) {
  // y ticks 2e-05 .. 0.0001: all scientific, not "0.0001" next to "8e-05".
  const PlotFrame f = LinePlotFrame({PlotSeries{"", {0, 1}, {1e-5, 1.1e-4}, true, false}}, PlotOptions{});
  ASSERT_GE(f.y.tickLabels.size(), 3u);
  for (const std::string& l : f.y.tickLabels) EXPECT_NE(l.find("e-0"), std::string::npos) << l;
  EXPECT_EQ(f.x.tickLabels.front(), "0");
  EXPECT_EQ(f.x.tickLabels.back(), "1");
}

// ---------------------------------------------------------------- line plots

TEST(LinePlot, HorizontalLineLandsOnThePredictedRow) {
  // y axis: constant 3 -> limits 2.7..3.3 (+-10%), the line in the middle; no legend (empty
  // label), so the series colour appears only on the line.
  PlotSeries line{"", {0, 10}, {3, 3}, true, false};
  PlotOptions o;
  o.title = "constant";
  o.xLabel = "time (s)";
  o.yLabel = "value";
  const std::string path = TempPath("hline.png");
  WriteLinePlot(path, {line}, o);
  const Image im = DecodePng(ReadFile(path));
  ASSERT_EQ(im.Width(), o.width);
  ASSERT_EQ(im.Height(), o.height);

  const PlotFrame f = LinePlotFrame({line}, o);
  EXPECT_LT(f.left, f.right);
  EXPECT_LT(f.top, f.bottom);
  EXPECT_NEAR(f.y.lo, 2.7, 1e-12);
  EXPECT_NEAR(f.y.hi, 3.3, 1e-12);
  const int row = static_cast<int>(std::lround(f.y.ToPixel(3)));
  EXPECT_NEAR(row, (f.top + f.bottom) / 2.0, 1.0);
  const int x0 = static_cast<int>(std::lround(f.x.ToPixel(0))), x1 = static_cast<int>(std::lround(f.x.ToPixel(10)));
  EXPECT_GT(x1 - x0, o.width / 2);

  const Rgb c = SeriesColor(0);
  int hits = 0;
  std::vector<bool> columnHit(im.Width(), false);
  for (int y = 0; y < im.Height(); ++y)
    for (int x = 0; x < im.Width(); ++x)
      if (im.At(x, y) == c) {
        ++hits;
        columnHit[x] = true;
        EXPECT_LE(std::abs(y - row), 1) << "series colour at (" << x << ", " << y << ")";
        EXPECT_GE(x, x0 - 1);
        EXPECT_LE(x, x1 + 1);
      }
  EXPECT_GT(hits, 0);
  int covered = 0;
  for (int x = x0; x <= x1; ++x) covered += columnHit[x] ? 1 : 0;
  EXPECT_GE(covered, x1 - x0);  // every column between the end points (at most one lost to rounding)
  // Frame on the plot area's border, background white outside.
  EXPECT_EQ(im.At((f.left + f.right) / 2, f.bottom), (Rgb{0, 0, 0}));
  EXPECT_EQ(im.At(f.left, (f.top + f.bottom) / 2), (Rgb{0, 0, 0}));
  EXPECT_EQ(im.At(o.width - 1, o.height - 1), (Rgb{255, 255, 255}));
  // The file is exactly the rendered image.
  EXPECT_TRUE(Same(im, RenderLinePlot({line}, o)));
}

TEST(LinePlot, SeriesColoursLegendAndLogAxes) {
  PlotSeries a{"first", {1, 10, 100, 1000}, {1e-3, 1e-2, 1e-1, 1}, true, true};
  PlotSeries b{"second", {1, 10, 100, 1000}, {1, 0.1, -1, 1e-3}, false, true};  // -1 skipped on the log axis
  PlotOptions o;
  o.xLog = o.yLog = true;
  o.width = 640;
  o.height = 480;
  const PlotFrame f = LinePlotFrame({a, b}, o);
  ExpectTicks(f.x.ticks, {1, 10, 100, 1000});
  ExpectTicks(f.y.ticks, {1e-3, 1e-2, 1e-1, 1});
  ASSERT_EQ(f.y.tickLabels.size(), 4u);
  EXPECT_EQ(f.y.tickLabels[0], "0.001");
  EXPECT_EQ(f.x.tickLabels[3], "1000");
  // The log mapping puts the decades equally apart.
  EXPECT_NEAR(f.x.ToPixel(10) - f.x.ToPixel(1), f.x.ToPixel(1000) - f.x.ToPixel(100), 1e-9);

  const Image im = RenderLinePlot({a, b}, o);
  EXPECT_NE(SeriesColor(0), SeriesColor(1));
  ASSERT_FALSE(f.legend.Empty());
  auto pixel = [&](double vx, double vy) {
    return im.At(static_cast<int>(std::lround(f.x.ToPixel(vx))), static_cast<int>(std::lround(f.y.ToPixel(vy))));
  };
  // Series a passes through its data points (the diagonal), b's markers sit on its points.
  for (int k = 0; k < 4; ++k) EXPECT_EQ(pixel(a.x[k], a.y[k]), SeriesColor(0)) << "point " << k;
  EXPECT_EQ(pixel(10, 0.1), SeriesColor(1));
  EXPECT_EQ(pixel(1000, 1e-3), SeriesColor(1));
  // Scatter only: nothing of b's colour between its markers at (10, 0.1) and (1000, 1e-3).
  EXPECT_NE(pixel(100, 0.01), SeriesColor(1));
  // The legend shows both colours, inside the plot area, off the data (a point of b is in the
  // top-left corner, a's line in the top-right and bottom-left; the bottom-right has one marker).
  int legendA = 0, legendB = 0;
  for (int y = f.legend.top; y <= f.legend.bottom; ++y)
    for (int x = f.legend.left; x <= f.legend.right; ++x) {
      legendA += im.At(x, y) == SeriesColor(0);
      legendB += im.At(x, y) == SeriesColor(1);
    }
  EXPECT_GT(legendA, 0);
  EXPECT_GT(legendB, 0);
  EXPECT_GT(f.legend.left, f.left);
  EXPECT_LT(f.legend.right, f.right);
  EXPECT_GT(f.legend.top, f.top);
  EXPECT_LT(f.legend.bottom, f.bottom);
}

TEST(LinePlot, LegendAvoidsTheData) {
  // A rising line fills the top-right and bottom-left corners: the legend goes top-left.
  const PlotSeries up{"rising", {0, 1}, {0, 1}, true, false};
  const PlotFrame f = LinePlotFrame({up}, PlotOptions{});
  ASSERT_FALSE(f.legend.Empty());
  EXPECT_LT(f.legend.right, (f.left + f.right) / 2);
  EXPECT_LT(f.legend.bottom, (f.top + f.bottom) / 2);
  // Falling: top-left and bottom-right taken, the legend goes top-right.
  const PlotSeries down{"falling", {0, 1}, {1, 0}, true, false};
  const PlotFrame g = LinePlotFrame({down}, PlotOptions{});
  EXPECT_GT(g.legend.left, (g.left + g.right) / 2);
  EXPECT_LT(g.legend.bottom, (g.top + g.bottom) / 2);
  // No labels, no legend.
  EXPECT_TRUE(LinePlotFrame({PlotSeries{"", {0, 1}, {0, 1}, true, false}}, PlotOptions{}).legend.Empty());
}

TEST(LinePlot, NaNBreaksTheLine) {
  PlotSeries se{"", {0, 1, 2, 3, 4}, {0, 1, kNaN, 3, 4}, true, false};
  const PlotOptions o;
  const PlotFrame f = LinePlotFrame({se}, o);
  const Image im = RenderLinePlot({se}, o);
  // Between x=1 and x=3 (around x=2) no segment is drawn.
  const int px = static_cast<int>(std::lround(f.x.ToPixel(2)));
  for (int y = f.top + 1; y < f.bottom; ++y) EXPECT_NE(im.At(px, y), SeriesColor(0)) << "row " << y;
  // But the segment 3 -> 4 is.
  EXPECT_EQ(im.At(static_cast<int>(std::lround(f.x.ToPixel(3.5))), static_cast<int>(std::lround(f.y.ToPixel(3.5)))),
            SeriesColor(0));
}

// ---------------------------------------------------------------- heat maps

TEST(HeatMap, EndColoursAtCellCentresAndGreyForNaN) {
  const std::vector<double> x = {1, 2}, y = {10, 20};
  const std::vector<double> z = {0.0, 1.0,    // y = 10: min at x=1, max at x=2
                                 kNaN, 0.25};  // y = 20: NaN at x=1
  PlotOptions o;
  o.title = "objective";
  o.xLabel = "k";
  o.yLabel = "d";
  const std::string path = TempPath("heat.png");
  WriteHeatMap(path, x, y, z, o, "error");
  const Image im = DecodePng(ReadFile(path));
  const PlotFrame f = HeatMapFrame(x, y, z, o, "error");
  auto at = [&](double vx, double vy) {
    return im.At(static_cast<int>(std::lround(f.x.ToPixel(vx))), static_cast<int>(std::lround(f.y.ToPixel(vy))));
  };
  EXPECT_EQ(at(1, 10), Colormap(0));
  EXPECT_EQ(at(2, 10), Colormap(1));
  EXPECT_EQ(at(1, 20), NanColor());
  EXPECT_EQ(at(2, 20), Colormap(0.25));
  EXPECT_NE(Colormap(0), Colormap(1));
  EXPECT_NE(Colormap(0), NanColor());
  EXPECT_NE(Colormap(1), NanColor());
  // Cells reach the outer edges: the limits are the mirrored midpoints.
  EXPECT_DOUBLE_EQ(f.x.lo, 0.5);
  EXPECT_DOUBLE_EQ(f.x.hi, 2.5);
  EXPECT_DOUBLE_EQ(f.y.lo, 5);
  EXPECT_DOUBLE_EQ(f.y.hi, 25);
  ExpectTicks(f.x.ticks, {1, 2});
  EXPECT_EQ(f.y.tickLabels, (std::vector<std::string>{"10", "20"}));
  // Colour bar right of the plot area: zmax colour just below its top edge, zmin just above
  // its bottom edge (edges are the black outline).
  const PixelRect& bar = f.colorBar;
  ASSERT_FALSE(bar.Empty());
  EXPECT_GT(bar.left, f.right);
  const int mid = (bar.left + bar.right) / 2, h = bar.bottom - bar.top;
  EXPECT_EQ(im.At(mid, bar.top + 1), Colormap(double(h - 1) / h));
  EXPECT_EQ(im.At(mid, bar.bottom - 1), Colormap(1.0 / h));
  EXPECT_EQ(im.At(mid, bar.top), (Rgb{0, 0, 0}));
}

TEST(HeatMap, NonUniformAndUnsortedValuesPlaceCellsBetweenMidpoints) {
  // x unsorted and non-uniform: sorted 1, 2, 4 -> edges 0.5, 1.5, 3, 5.
  const std::vector<double> x = {4, 1, 2}, y = {0};
  const std::vector<double> z = {3, 1, 2};  // z at x=4 is 3, at x=1 is 1, at x=2 is 2
  const PlotOptions o;
  const PlotFrame f = HeatMapFrame(x, y, z, o, "");
  EXPECT_DOUBLE_EQ(f.x.lo, 0.5);
  EXPECT_DOUBLE_EQ(f.x.hi, 5);
  EXPECT_DOUBLE_EQ(f.y.lo, -0.5);
  EXPECT_DOUBLE_EQ(f.y.hi, 0.5);
  const Image im = RenderHeatMap(x, y, z, o, "");
  const int row = static_cast<int>(std::lround(f.y.ToPixel(0)));
  auto px = [&](double v) { return static_cast<int>(std::lround(f.x.ToPixel(v))); };
  EXPECT_EQ(im.At(px(2.9), row), Colormap(0.5));  // cell of x=2 reaches up to 3
  EXPECT_EQ(im.At(px(3.1), row), Colormap(1.0));  // cell of x=4 starts at 3
  EXPECT_EQ(im.At(px(1.4), row), Colormap(0.0));
  EXPECT_EQ(im.At(px(1.6), row), Colormap(0.5));
}

TEST(HeatMap, ValueLabelsTellNeighboursApart) {
  PlotOptions o;
  o.width = 1600;
  const PlotFrame f = HeatMapFrame({1000.1, 1000.2, 1000.3}, {0.001, 0.002}, {1, 2, 3, 4, 5, 6}, o, "");
  EXPECT_EQ(f.x.tickLabels, (std::vector<std::string>{"1000.1", "1000.2", "1000.3"}));
  EXPECT_EQ(f.y.tickLabels, (std::vector<std::string>{"0.001", "0.002"}));
}

TEST(HeatMap, ConstantZIsMidColour) {
  const PlotOptions o;
  const PlotFrame f = HeatMapFrame({1}, {1}, {7}, o, "z");
  const Image im = RenderHeatMap({1}, {1}, {7}, o, "z");
  EXPECT_EQ(im.At(static_cast<int>(std::lround(f.x.ToPixel(1))), static_cast<int>(std::lround(f.y.ToPixel(1)))),
            Colormap(0.5));
}

// ---------------------------------------------------------------- errors

TEST(PlotErrors, InvalidInput) {
  const PlotOptions o;
  const std::string path = TempPath("never.png");
  EXPECT_THROW(WriteLinePlot(path, {PlotSeries{"a", {1, 2, 3}, {1, 2}, true, false}}, o), ValidationError);
  EXPECT_THROW(WriteLinePlot(path, {PlotSeries{"a", {1, 2}, {kNaN, kNaN}, true, false}}, o), ValidationError);
  EXPECT_THROW(WriteLinePlot(path, {}, o), ValidationError);
  PlotOptions logY = o;
  logY.yLog = true;
  EXPECT_THROW(WriteLinePlot(path, {PlotSeries{"a", {1, 2}, {0, -1}, true, false}}, logY), ValidationError);
  PlotOptions tiny = o;
  tiny.width = 50;
  EXPECT_THROW(WriteLinePlot(path, {PlotSeries{"a", {1, 2}, {1, 2}, true, false}}, tiny), ValidationError);

  EXPECT_THROW(WriteHeatMap(path, {1, 2}, {1}, {1, 2, 3}, o, "z"), ValidationError);   // size
  EXPECT_THROW(WriteHeatMap(path, {1, 2}, {1}, {kNaN, kNaN}, o, "z"), ValidationError);  // no finite z
  EXPECT_THROW(WriteHeatMap(path, {1, 1}, {1}, {1, 2}, o, "z"), ValidationError);        // repeated x
  EXPECT_THROW(WriteHeatMap(path, {}, {1}, {}, o, "z"), ValidationError);               // empty x
  PlotOptions logX = o;
  logX.xLog = true;
  EXPECT_THROW(WriteHeatMap(path, {0, 1}, {1}, {1, 2}, logX, "z"), ValidationError);  // log of 0
  EXPECT_TRUE(ReadFile(path).empty()) << "no file written on invalid input";

  try {
    WriteLinePlot(path, {PlotSeries{"bad", {1, 2, 3}, {1, 2}, true, false}}, o);
    FAIL() << "expected ValidationError";
  } catch (const ValidationError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad"), std::string::npos) << msg;
    EXPECT_NE(msg.find("same length"), std::string::npos) << msg;
  }
}

TEST(PlotErrors, UnwritablePathNamesThePath) {
  const std::string path = "/nonexistent-mbsweep-dir/sub/plot.png";
  const PlotSeries se{"a", {1, 2}, {1, 2}, true, false};
  try {
    WriteLinePlot(path, {se}, PlotOptions{});
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_THROW(WriteHeatMap(path, {1, 2}, {1}, {1, 2}, PlotOptions{}, "z"), std::runtime_error);
}

}  // namespace
}  // namespace mbsweep
