/// @file plot.h
/// PNG figures for `mbsweep plot`, drawn without a plotting library: line/scatter plots (value
/// against a parameter as Exudyn's PlotOptimizationResults2D, best value per GA generation,
/// measured against simulated signals) and heat maps of 2D grids. Everything is rasterized
/// into an 8-bit RGB Image with a built-in 5x9 bitmap font (ASCII 32..126; other bytes draw
/// as '?') and written as a PNG (zlib-compressed). No anti-aliasing: every pixel has exactly
/// one of the drawn colours, so tests can look for a colour. Host only.
///
/// Pixel coordinates: x to the right, y downwards, (0, 0) is the top-left pixel; a pixel
/// coordinate p (double) lies in the pixel with index round(p).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mbsweep {

// ----------------------------------------------------------------------------------------
// Raster
// ----------------------------------------------------------------------------------------

/// An 8-bit RGB colour.
struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
  bool operator!=(const Rgb& o) const { return !(*this == o); }
};

/// 8-bit RGB raster, row-major from the top row, 3 bytes per pixel. Drawing is clipped to
/// the image and to an optional clip rectangle; writes outside are ignored.
class Image {
 public:
  /// A width x height image filled with `fill`. Throws ValidationError for a width or height
  /// < 1 or > 10000.
  Image(int width, int height, Rgb fill = Rgb{255, 255, 255});

  int Width() const { return width_; }
  int Height() const { return height_; }
  /// Pixel (x, y); precondition 0 <= x < Width(), 0 <= y < Height().
  Rgb At(int x, int y) const;
  /// Sets pixel (x, y) if inside the image and the clip rectangle.
  void Set(int x, int y, Rgb c);
  /// Restricts drawing to pixels x0 <= x <= x1, y0 <= y <= y1 (inclusive).
  void SetClip(int x0, int y0, int x1, int y1);
  void ResetClip();
  /// The RGB bytes, Width()*Height()*3.
  const std::vector<std::uint8_t>& Pixels() const { return pixels_; }

  /// Fills pixels x0..x1, y0..y1 (inclusive; the corners may be given in any order).
  void FillRect(int x0, int y0, int x1, int y1, Rgb c);
  /// Outline of the rectangle x0..x1, y0..y1 (inclusive), one pixel wide.
  void DrawRect(int x0, int y0, int x1, int y1, Rgb c);
  /// Straight line between pixel coordinates, `width` pixels thick (square pen, >= 1).
  void DrawLine(double x0, double y0, double x1, double y1, Rgb c, int width = 1);
  /// Filled disc of radius r (pixels) centred at (cx, cy).
  void FillDisc(double cx, double cy, double r, Rgb c);
  /// Text with its glyph cells' top-left corner at (x, y), each font pixel scale x scale.
  void DrawText(int x, int y, const std::string& text, Rgb c, int scale = 1);
  /// Text rotated 90 degrees counter-clockwise (reads bottom to top): the text starts at row
  /// y and runs upwards; the glyphs' top edge is column x.
  void DrawTextUp(int x, int y, const std::string& text, Rgb c, int scale = 1);

  /// Width in pixels of DrawText(text, scale): 6*scale per character less the last gap.
  static int TextWidth(const std::string& text, int scale = 1);
  /// Height of a glyph cell (9*scale: 7 rows above the baseline, 2 for descenders).
  static int TextHeight(int scale = 1) { return 9 * scale; }
  /// Height of capitals and digits (7*scale).
  static int CapHeight(int scale = 1) { return 7 * scale; }

 private:
  int width_, height_;
  int clipX0_, clipY0_, clipX1_, clipY1_;
  std::vector<std::uint8_t> pixels_;
};

/// PNG file bytes of an image: 8-bit RGB (colour type 2), no interlace, filter type 0 on every
/// row, one IDAT chunk compressed with zlib (compress2), CRCs by zlib's crc32. Throws
/// std::runtime_error if zlib fails.
std::vector<unsigned char> EncodePng(const Image& image);
/// Writes EncodePng(image) to `path`. Throws std::runtime_error naming the path if the file
/// cannot be opened or written.
void WritePng(const std::string& path, const Image& image);

// ----------------------------------------------------------------------------------------
// Ticks and colours
// ----------------------------------------------------------------------------------------

/// "Nice" tick positions inside [lo, hi]: linear axes use the smallest step of the form
/// {1, 2, 5} x 10^k giving at most maxTicks ticks, at the multiples of the step inside the
/// range (values rounded to the decimal, e.g. exactly 0.6 rather than 3*0.2). Log axes
/// (log10) use the decades 10^k inside the range, every 2nd/5th/10th/... decade if there are
/// more than maxTicks; if fewer than two decades lie inside, the 1-2-5 values of each decade,
/// and if still fewer than two, linear ticks. Throws ValidationError for non-finite bounds,
/// lo >= hi, lo <= 0 on a log axis or maxTicks < 2.
std::vector<double> NiceTicks(double lo, double hi, bool log = false, int maxTicks = 8);

/// Compact decimal text of v with `significant` significant digits (1..17), trailing zeros
/// dropped: fixed notation for 1e-4 <= |v| < 1e6 ("0.001", "2500", "1.55"), otherwise
/// scientific with a signed two-digit exponent ("1e-05", "2.5e+06"); 0 as "0"; "nan", "inf".
std::string FormatNumber(double v, int significant);
/// Label of a tick at v on an axis whose ticks are `step` apart (step > 0): as many digits as
/// the step resolves, values below step*1e-9 in magnitude as "0" (so 0.30000000000000004 with
/// step 0.1 is "0.3", 2000 with step 1000 is "2000", 1e-05 with step 1e-05 is "1e-05").
std::string FormatTickLabel(double v, double step);

/// Colour of series i: a palette of 10 distinct colours (blue, orange, green, red, ...),
/// repeating.
Rgb SeriesColor(std::size_t i);
/// Perceptual colormap (viridis-like, dark purple -> blue -> green -> yellow), t in [0, 1]
/// (clamped); NaN gives NanColor().
Rgb Colormap(double t);
/// Colour of heat-map cells whose value is NaN or infinite (mid grey).
Rgb NanColor();

// ----------------------------------------------------------------------------------------
// Figures
// ----------------------------------------------------------------------------------------

/// One line/scatter series.
struct PlotSeries {
  std::string label;         ///< legend entry (empty: not in the legend)
  std::vector<double> x, y;  ///< same length; NaN/inf points are skipped (lines break there)
  bool lines = true;         ///< connect consecutive points (an isolated point gets a dot)
  bool markers = false;      ///< draw a small disc per point (a scatter plot when lines=false)
};

/// Figure options.
struct PlotOptions {
  std::string title, xLabel, yLabel;
  bool xLog = false, yLog = false;  ///< log10 axes (points with non-positive values skipped)
  int width = 900, height = 600;    ///< pixels; at least 200 x 150, at most 10000 each.
                                    ///< Text and lines scale with min(width, height)/500.
};

/// One axis of a figure: maps data values to pixel coordinates.
struct PlotAxis {
  double lo = 0.0, hi = 1.0;  ///< limits in data units (lo < hi; lo > 0 on a log axis)
  bool log = false;           ///< positions are linear in log10(value)
  double p0 = 0.0, p1 = 1.0;  ///< pixel coordinates of lo and hi
  std::vector<double> ticks;  ///< tick values (data units)
  std::vector<std::string> tickLabels;  ///< labels, one per tick

  /// Pixel coordinate of a data value (linear interpolation in value or log10(value)).
  double ToPixel(double v) const;
};

/// A rectangle of pixels left..right, top..bottom (inclusive); empty when right < left.
struct PixelRect {
  int left = 0, top = 0, right = -1, bottom = -1;
  bool Empty() const { return right < left || bottom < top; }
  bool Contains(int x, int y) const { return x >= left && x <= right && y >= top && y <= bottom; }
};

/// Layout of a figure: the plot area (pixels left..right, top..bottom inclusive; the axes'
/// frame is drawn on its border) and the two axes (x: p0 = left, p1 = right; y: p0 = bottom,
/// p1 = top).
struct PlotFrame {
  int left = 0, top = 0, right = 0, bottom = 0;
  PlotAxis x, y;
  int scale = 1;       ///< pixel size of one font pixel for tick labels
  PixelRect legend;    ///< line plots: the legend box (empty if no series has a label)
  PixelRect colorBar;  ///< heat maps: the colour bar, zmin on its bottom row, zmax on its top row
};

/// Layout of WriteLinePlot's figure. Axis limits: the finite (and, on log axes, positive)
/// data range widened by 4% on each side (of the log10 range on log axes); a degenerate
/// range is widened to +-10% of the value (+-1 around 0, a factor 2 on log axes). Throws
/// ValidationError for x/y of different lengths (naming the series), no plottable point at
/// all, or a size below 200 x 150 or above 10000.
PlotFrame LinePlotFrame(const std::vector<PlotSeries>& series, const PlotOptions& options);
/// The line/scatter figure: grid lines at the ticks, series in SeriesColor(i) (lines 2
/// pixels wide at scale 1), axes frame, outward ticks with labels, axis labels (the y label
/// rotated), title (double size) and, if any series has a label, a legend in the corner of
/// the plot area that covers the least data (top-right, top-left, bottom-left, bottom-right
/// on ties). Throws as LinePlotFrame.
Image RenderLinePlot(const std::vector<PlotSeries>& series, const PlotOptions& options);
/// Writes RenderLinePlot as a PNG file. Throws as LinePlotFrame, and std::runtime_error
/// naming the path when the file cannot be written.
void WriteLinePlot(const std::string& path, const std::vector<PlotSeries>& series, const PlotOptions& options);

/// Layout of a heat map: cells are centred at the x and y values (in any order, sorted for
/// drawing) and extend to the midpoints between neighbours (in log10 on log axes), the outer
/// cells as far beyond their value as to the inner midpoint (a single value spans +-0.5, or
/// a factor sqrt(10) on a log axis); the axes' limits are the outer cell edges and their ticks
/// are the x and y values themselves (labelled with 4 significant digits, more where
/// neighbours would read the same; thinned to every k-th value when labels would overlap). Throws ValidationError for: empty x or y, non-finite or repeated values,
/// non-positive values on a log axis, z.size() != x.size()*y.size(), no finite z, or a size
/// out of range.
PlotFrame HeatMapFrame(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& z,
                       const PlotOptions& options, const std::string& colorLabel);
/// Heat map of z over the grid x by y: z row-major with y.size() rows and x.size() columns,
/// z[iy*nx+ix] at (x[ix], y[iy]). A cell's colour is Colormap((z-zmin)/(zmax-zmin)) over the
/// finite z (a constant z maps to 0.5); NaN/inf cells are NanColor(). To the right a colour
/// bar from zmin (bottom) to zmax (top) with nice ticks and the rotated `colorLabel`. Throws
/// as HeatMapFrame.
Image RenderHeatMap(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& z,
                    const PlotOptions& options, const std::string& colorLabel);
/// Writes RenderHeatMap as a PNG file. Throws as HeatMapFrame, and std::runtime_error naming
/// the path when the file cannot be written.
void WriteHeatMap(const std::string& path, const std::vector<double>& x, const std::vector<double>& y,
                  const std::vector<double>& z, const PlotOptions& options, const std::string& colorLabel);

}  // namespace mbsweep
