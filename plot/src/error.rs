//! The one error of drawing: a file name of the wrong kind, nothing to
//! draw, no usable font, the drawing library's failure, a file that cannot
//! be written. Each `Display` is its message alone, one line, naming the
//! file when there is one.

use std::path::PathBuf;
use std::sync::Arc;

/// Why a picture could not be drawn or written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A curve plot's file name that is neither `.svg` nor `.png`.
    #[error("{}: the output must end in .svg or .png", path.display())]
    Format { path: PathBuf },
    /// A first-move chart's file name (`--chart`) that is neither `.svg`
    /// nor `.png`.
    #[error("--chart {}: the file must end in .svg or .png", path.display())]
    ChartFormat { path: PathBuf },
    /// A curve plot without panels.
    #[error("nothing to plot")]
    NoPanels,
    /// A first-move chart without bars.
    #[error("no first moves to chart")]
    NoBars,
    /// No TrueType font at `TRIAD_FONT` or in the usual system folders.
    #[error(
        "no TrueType font found for PNG text (set TRIAD_FONT=/path/to/font.ttf, \
         install one, e.g. apt-get install fonts-dejavu-core, or write .svg)"
    )]
    NoFont,
    /// The font file found that cannot be read (shared: the font is looked
    /// for once per process, and every later drawing gets the same error).
    #[error("{}: {source}", path.display())]
    ReadFont {
        path: PathBuf,
        source: Arc<std::io::Error>,
    },
    /// The font file found that is not a TrueType font plotters can use
    /// (plotters gives no reason).
    #[error("{}: not a usable TrueType font", path.display())]
    BadFont { path: PathBuf },
    /// Drawing a curve plot failed.
    #[error("{}: {source}", path.display())]
    Draw {
        path: PathBuf,
        /// The drawing library's error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Drawing the first-move chart as PNG failed.
    #[error("{}: cannot draw the chart: {source}", path.display())]
    DrawChart {
        path: PathBuf,
        /// The drawing library's error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A drawn picture that cannot be renamed into place.
    #[error("{}: {source}", path.display())]
    Rename {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The first-move chart's SVG that cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}
