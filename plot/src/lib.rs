//! The drawing of triad's pictures, and nothing else: it reads no run file
//! and knows no game.
//!
//! - [`Panel`], [`Series`] and [`render`]: curves in a grid of panels, SVG
//!   or PNG (`triad plot`, `triad bench learn`); [`tick_label`] writes the
//!   axes' labels.
//! - [`ChartBar`] and [`write_first_move_chart`]: the first-move chart of
//!   `triad openings --chart`, SVG written by hand or PNG.
//! - [`register_font`]: the TrueType font PNG text needs (`TRIAD_FONT` or
//!   a system font), registered once per process.
//! - [`Error`]: why a picture could not be drawn or written.
//!
//! Files are written whole, under a temporary name and renamed (`fsio`).

mod chart;
mod curves;
mod error;
mod font;

pub use chart::{
    check_chart_path, first_move_svg, write_first_move_chart, write_first_move_png, ChartBar,
};
pub use curves::{render, tick_label, Panel, Series};
pub use error::Error;
pub use font::register_font;
