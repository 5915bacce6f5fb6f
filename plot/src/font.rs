//! The font PNG text is drawn with: plotters' pure-Rust glyph renderer
//! needs a TrueType file, found once per process.

use crate::Error;
use std::path::PathBuf;
use std::sync::Arc;

/// Where a sans-serif TrueType font is usually found; the first that
/// exists is used for PNG text (`TRIAD_FONT` overrides). The pure-Rust glyph
/// renderer needs one, and using it keeps the build free of the system
/// fontconfig library.
const FONT_PATHS: [&str; 6] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/Library/Fonts/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Why the font could not be registered, kept for the process: each
/// drawing after the first gets it again as an [`Error`].
#[derive(Clone)]
enum Failure {
    NotFound,
    Read(PathBuf, Arc<std::io::Error>),
    Unusable(PathBuf),
}

impl From<&Failure> for Error {
    fn from(f: &Failure) -> Error {
        match f {
            Failure::NotFound => Error::NoFont,
            Failure::Read(path, source) => Error::ReadFont {
                path: path.clone(),
                source: Arc::clone(source),
            },
            Failure::Unusable(path) => Error::BadFont { path: path.clone() },
        }
    }
}

/// Registers the font for plotters' `sans-serif` once per process (the
/// first-move chart's PNG and the curves, SVG or PNG).
pub fn register_font() -> Result<(), Error> {
    use std::sync::OnceLock;
    static DONE: OnceLock<Result<(), Failure>> = OnceLock::new();
    DONE.get_or_init(|| {
        let candidates: Vec<PathBuf> = std::env::var_os("TRIAD_FONT")
            .map(PathBuf::from)
            .into_iter()
            .chain(FONT_PATHS.iter().map(PathBuf::from))
            .collect();
        let path = candidates
            .iter()
            .find(|p| p.is_file())
            .ok_or(Failure::NotFound)?;
        let bytes = std::fs::read(path).map_err(|e| Failure::Read(path.clone(), Arc::new(e)))?;
        // The font registry wants 'static bytes; one font per process.
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        plotters::style::register_font("sans-serif", plotters::style::FontStyle::Normal, bytes)
            .map_err(|_| Failure::Unusable(path.clone()))
    })
    .as_ref()
    .map_err(Error::from)
    .copied()
}
