//! Spy plots: the pattern of a matrix's stored entries as a picture.
//!
//! [`SparseTensor::spy`] gives a [`Spy`], which draws without an allocator
//! and works wherever text goes:
//!
//! - `{}` (`Display`): Unicode braille, 2x4 dots per character, so a
//!   64x64 matrix fits in 32 characters by 16 lines;
//! - `{:#}`: plain ASCII, `#` for a cell holding a stored entry and `.`
//!   for an empty one, for serial terminals without Unicode;
//! - `defmt::Format` (feature `defmt`): the braille lines, one frame each,
//!   for firmware logging over RTT or semihosting.
//!
//! With `std`, `SparseTensor::spy_svg` writes an SVG document, one unit
//! square per stored entry, for docs and reports.
//!
//! A plot shows what is *stored*: explicit zeros, and the zeros a dense
//! level or a block stores, are dots too (that is what a kernel walks).
//! When the matrix has more rows or columns than the plot has dots, each
//! dot covers a band of rows and columns and is set when any entry inside
//! it is stored.
//!
//! ```
//! use sparse_core::sparse_kernel;
//!
//! sparse_kernel! {
//!     #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
//!     static A: tensor<4x6xf64, #CSR> = sparse<[[0, 0], [1, 1], [2, 2], [3, 3], [3, 5]],
//!                                            [1.0, 2.0, 3.0, 4.0, 5.0]>;
//! }
//!
//! assert_eq!(A.spy(80, 20).to_string(), "⠑⢄⢀\n");
//! assert_eq!(format!("{:#}", A.spy(80, 20)), "#.....\n.#....\n..#...\n...#.#\n");
//! ```

use core::fmt;

use crate::encoding::Encoding;
use crate::tensor::SparseTensor;

/// The widest plot, in characters: the braille renderer keeps one line of
/// dots on the stack (no allocator), so wider requests are clamped.
pub const MAX_WIDTH: usize = 128;

/// A spy plot of a matrix, made by [`SparseTensor::spy`]; see the
/// [module docs](self) for its forms.
pub struct Spy<'t, 'a, V, E: Encoding, const LVL: usize> {
    tensor: &'t SparseTensor<'a, V, E, 2, LVL>,
    width: usize,
    height: usize,
}

impl<'a, V, E: Encoding, const LVL: usize> SparseTensor<'a, V, E, 2, LVL> {
    /// A spy plot at most `width` characters wide (at most [`MAX_WIDTH`])
    /// and `height` lines tall. The braille form uses 2 dots per character
    /// across and 4 down, the ASCII form (`{:#}`) one cell per character;
    /// a matrix smaller than that gets one dot (or cell) per element.
    pub fn spy(&self, width: usize, height: usize) -> Spy<'_, 'a, V, E, LVL> {
        Spy {
            tensor: self,
            width: width.min(MAX_WIDTH),
            height,
        }
    }
}

/// Which band of `n` elements spread over `cells` cells holds element
/// `x`: `x * cells / n`, exact in `u128`.
fn band(x: usize, n: usize, cells: usize) -> usize {
    if n == 0 {
        return 0;
    }
    ((x as u128 * cells as u128) / n as u128) as usize
}

impl<V, E: Encoding, const LVL: usize> Spy<'_, '_, V, E, LVL> {
    /// The dot grid: `(columns, rows)` of dots when each character holds
    /// `per_x` by `per_y` of them.
    fn dots(&self, per_x: usize, per_y: usize) -> (usize, usize) {
        let [rows, cols] = self.tensor.dim_sizes();
        (
            cols.min(self.width.saturating_mul(per_x)),
            rows.min(self.height.saturating_mul(per_y)),
        )
    }

    /// Calls `line` once per text line with the dot bits of each of its
    /// characters (`per_x` by `per_y` dots each, bit `y * per_x + x`): one
    /// walk over the stored entries per line, no allocation.
    fn lines(
        &self,
        per_x: usize,
        per_y: usize,
        mut line: impl FnMut(&[u8]) -> fmt::Result,
    ) -> fmt::Result {
        let [rows, cols] = self.tensor.dim_sizes();
        let (dx, dy) = self.dots(per_x, per_y);
        let chars = dx.div_ceil(per_x).min(MAX_WIDTH);
        let lines = dy.div_ceil(per_y);
        let mut bits = [0u8; MAX_WIDTH];
        for l in 0..lines {
            let cells = bits.get_mut(..chars).unwrap_or_default();
            cells.fill(0);
            self.tensor.for_each(|[i, j], _| {
                let (x, y) = (band(j, cols, dx), band(i, rows, dy));
                if y / per_y == l {
                    if let Some(c) = cells.get_mut(x / per_x) {
                        *c |= 1 << ((y % per_y) * per_x + x % per_x);
                    }
                }
            });
            line(cells)?;
        }
        Ok(())
    }
}

/// The braille character of a 2x4 cell whose dot `(x, y)` is bit
/// `y * 2 + x`: Unicode numbers the dots 1, 2, 3, 7 down the left column
/// and 4, 5, 6, 8 down the right one.
fn braille(bits: u8) -> char {
    const DOT: [u32; 8] = [0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80];
    let code = DOT
        .iter()
        .enumerate()
        .filter(|(b, _)| bits & (1 << b) != 0)
        .fold(0x2800, |acc, (_, d)| acc | d);
    char::from_u32(code).unwrap_or(' ')
}

impl<V, E: Encoding, const LVL: usize> fmt::Display for Spy<'_, '_, V, E, LVL> {
    /// Braille (`{}`) or ASCII (`{:#}`) lines, each ending in `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return self.lines(1, 1, |cells| {
                for &c in cells {
                    f.write_str(if c != 0 { "#" } else { "." })?;
                }
                f.write_str("\n")
            });
        }
        self.lines(2, 4, |cells| {
            for &c in cells {
                fmt::Write::write_char(f, braille(c))?;
            }
            f.write_str("\n")
        })
    }
}

#[cfg(feature = "defmt")]
impl<V, E: Encoding, const LVL: usize> defmt::Format for Spy<'_, '_, V, E, LVL> {
    /// The braille lines; each character is 3 bytes of UTF-8, assembled on
    /// the stack and sent as one string per line.
    fn format(&self, f: defmt::Formatter<'_>) {
        let _ = self.lines(2, 4, |cells| {
            let mut utf8 = [0u8; 3 * MAX_WIDTH];
            let mut n = 0;
            for &c in cells {
                if let Some(dst) = utf8.get_mut(n..n + 3) {
                    n += braille(c).encode_utf8(dst).len();
                }
            }
            let text = core::str::from_utf8(utf8.get(..n).unwrap_or_default()).unwrap_or("");
            defmt::write!(f, "{=str}\n", text);
            Ok(())
        });
    }
}

#[cfg(feature = "std")]
impl<V, E: Encoding, const LVL: usize> SparseTensor<'_, V, E, 2, LVL> {
    /// An SVG spy plot: the matrix as a `cols` by `rows` grid of unit
    /// squares scaled by `scale` pixels, one black square per stored entry
    /// (horizontal runs of entries visited one after another merged into
    /// one rectangle), on a white background with a grey frame.
    pub fn spy_svg(&self, scale: f64) -> std::string::String {
        use std::fmt::Write;
        let [rows, cols] = self.dim_sizes();
        let mut svg = std::string::String::new();
        // Writing into a String cannot fail.
        let _ = write!(
            svg,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" \
             viewBox=\"0 0 {cols} {rows}\" shape-rendering=\"crispEdges\">\n\
             <rect width=\"{cols}\" height=\"{rows}\" fill=\"white\" stroke=\"#888\" \
             stroke-width=\"{}\"/>\n<g fill=\"black\">\n",
            cols as f64 * scale,
            rows as f64 * scale,
            1.0 / scale.max(f64::MIN_POSITIVE),
        );
        // The run being built: row, first column, length.
        let mut run: Option<(usize, usize, usize)> = None;
        fn flush(svg: &mut std::string::String, (i, j, len): (usize, usize, usize)) {
            let _ = writeln!(
                svg,
                "<rect x=\"{j}\" y=\"{i}\" width=\"{len}\" height=\"1\"/>"
            );
        }
        self.for_each(|[i, j], _| match run {
            Some((ri, rj, len)) if ri == i && rj + len == j => run = Some((ri, rj, len + 1)),
            Some((ri, rj, len)) if ri == i && j >= rj && j < rj + len => {}
            other => {
                if let Some(r) = other {
                    flush(&mut svg, r);
                }
                run = Some((i, j, 1));
            }
        });
        if let Some(r) = run {
            flush(&mut svg, r);
        }
        svg.push_str("</g>\n</svg>\n");
        svg
    }
}
