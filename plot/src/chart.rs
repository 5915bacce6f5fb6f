//! The first-move chart of `triad openings --chart`: bars for how often each
//! first move was played, dots for White's score after it. SVG is written
//! by hand (no font or drawing library needed); PNG is drawn with plotters'
//! bitmap backend and a TrueType font found on the system.

use crate::font::register_font;
use crate::Error;
use std::fmt::Write as _;
use std::path::Path;

/// One bar of the chart.
#[derive(Debug, Clone)]
pub struct ChartBar {
    /// The move, canonical text.
    pub label: String,
    /// Fraction of all games that began with it.
    pub share: f64,
    /// White's score in those games: (wins + draws / 2) / finished games.
    pub score: f64,
}

const W: f64 = 900.0;
const H: f64 = 420.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 60.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 80.0;
const TITLE: &str =
    "First moves: share of games (bars, left axis) and White's score (dots, right axis)";

/// Geometry shared by both renderers.
struct Layout {
    plot_w: f64,
    plot_h: f64,
    slot: f64,
    max_share: f64,
}

impl Layout {
    fn new(bars: &[ChartBar]) -> Layout {
        let plot_w = W - LEFT - RIGHT;
        Layout {
            plot_w,
            plot_h: H - TOP - BOTTOM,
            slot: plot_w / bars.len().max(1) as f64,
            max_share: bars.iter().map(|b| b.share).fold(0.0, f64::max).max(1e-9),
        }
    }
    /// Bar rectangle: x0, y0, x1, y1.
    fn bar(&self, i: usize, b: &ChartBar) -> (f64, f64, f64, f64) {
        let x = LEFT + self.slot * i as f64;
        let h = self.plot_h * b.share / self.max_share;
        (
            x + self.slot * 0.15,
            TOP + self.plot_h - h,
            x + self.slot * 0.85,
            TOP + self.plot_h,
        )
    }
    fn dot(&self, i: usize, b: &ChartBar) -> (f64, f64) {
        (
            LEFT + self.slot * (i as f64 + 0.5),
            TOP + self.plot_h * (1.0 - b.score.clamp(0.0, 1.0)),
        )
    }
    fn grid_y(&self, f: f64) -> f64 {
        TOP + self.plot_h * (1.0 - f)
    }
}

/// Axis label of a fraction: one decimal below 10%.
fn percent(f: f64) -> String {
    if f < 0.1 {
        format!("{:.1}%", 100.0 * f)
    } else {
        format!("{:.0}%", 100.0 * f)
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The chart as an SVG document.
pub fn first_move_svg(bars: &[ChartBar]) -> String {
    let l = Layout::new(bars);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
        W / 2.0,
        escape(TITLE)
    );
    for i in 0..=4 {
        let f = i as f64 / 4.0;
        let y = l.grid_y(f);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><text x="{:.1}" y="{:.1}" fill="#c0392b">{:.2}</text>"##,
            LEFT + l.plot_w,
            LEFT - 6.0,
            y + 4.0,
            percent(l.max_share * f),
            LEFT + l.plot_w + 6.0,
            y + 4.0,
            f
        );
    }
    for (i, b) in bars.iter().enumerate() {
        let (x0, y0, x1, y1) = l.bar(i, b);
        let _ = writeln!(
            s,
            r##"<rect x="{x0:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" fill="#2e86c1"><title>{}: {:.1}% of games, White scores {:.2}</title></rect>"##,
            x1 - x0,
            y1 - y0,
            escape(&b.label),
            100.0 * b.share,
            b.score
        );
        let (cx, cy) = l.dot(i, b);
        let _ = writeln!(
            s,
            r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="4" fill="#c0392b"/>"##
        );
        let ly = TOP + l.plot_h + 12.0;
        let _ = writeln!(
            s,
            r#"<text x="{cx:.1}" y="{ly:.1}" transform="rotate(60 {cx:.1} {ly:.1})">{}</text>"#,
            escape(&b.label)
        );
    }
    let _ = writeln!(
        s,
        r##"<line x1="{LEFT}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="black"/>"##,
        TOP + l.plot_h,
        LEFT + l.plot_w
    );
    s.push_str("</svg>\n");
    s
}

/// Draws the chart as a PNG at `path` (via a temporary file and a rename).
pub fn write_first_move_png(path: &Path, bars: &[ChartBar]) -> Result<(), Error> {
    use plotters::prelude::*;
    register_font()?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "chart.png".into());
    // The encoder picks the format from the extension, so the temporary
    // name keeps `.png` at the end.
    let tmp = fsio::temp_path(path);
    let tmp = tmp.with_file_name(format!(
        "{}.png",
        tmp.file_name().map_or(name.into(), |n| n.to_string_lossy())
    ));
    let l = Layout::new(bars);
    let draw = || -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let root = BitMapBackend::new(&tmp, (W as u32, H as u32)).into_drawing_area();
        root.fill(&WHITE)?;
        let p = |x: f64, y: f64| (x.round() as i32, y.round() as i32);
        let font = ("sans-serif", 13).into_font();
        let red = RGBColor(0xc0, 0x39, 0x2b);
        let blue = RGBColor(0x2e, 0x86, 0xc1);
        let grey = RGBColor(0xdd, 0xdd, 0xdd);
        root.draw(&Text::new(
            TITLE,
            p(LEFT, 12.0),
            ("sans-serif", 15).into_font(),
        ))?;
        for i in 0..=4 {
            let f = i as f64 / 4.0;
            let y = l.grid_y(f);
            root.draw(&PathElement::new(
                vec![p(LEFT, y), p(LEFT + l.plot_w, y)],
                grey,
            ))?;
            let left = percent(l.max_share * f);
            root.draw(&Text::new(left, p(LEFT - 40.0, y - 7.0), font.clone()))?;
            let right = format!("{f:.2}");
            root.draw(&Text::new(
                right,
                p(LEFT + l.plot_w + 6.0, y - 7.0),
                font.clone().color(&red),
            ))?;
        }
        for (i, b) in bars.iter().enumerate() {
            let (x0, y0, x1, y1) = l.bar(i, b);
            root.draw(&Rectangle::new([p(x0, y0), p(x1, y1)], blue.filled()))?;
            let (cx, cy) = l.dot(i, b);
            root.draw(&Circle::new(p(cx, cy), 4, red.filled()))?;
            // Staggered labels so neighbours do not overlap.
            let ly = TOP + l.plot_h + 6.0 + 16.0 * (i % 3) as f64;
            root.draw(&Text::new(b.label.clone(), p(x0, ly), font.clone()))?;
        }
        root.draw(&PathElement::new(
            vec![p(LEFT, TOP + l.plot_h), p(LEFT + l.plot_w, TOP + l.plot_h)],
            BLACK,
        ))?;
        root.present()?;
        Ok(())
    };
    if let Err(source) = draw() {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::DrawChart {
            path: path.to_path_buf(),
            source,
        });
    }
    std::fs::rename(&tmp, path).map_err(|source| Error::Rename {
        path: path.to_path_buf(),
        source,
    })
}

/// Checks that `path` names a chart this module writes: `.svg` or `.png`
/// (before any work is done, so a typo costs nothing).
pub fn check_chart_path(path: &Path) -> Result<(), Error> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("svg" | "png") => Ok(()),
        _ => Err(Error::ChartFormat {
            path: path.to_path_buf(),
        }),
    }
}

/// Writes the first-move chart of `bars` to `path`, PNG or SVG by its
/// extension, whole ([`fsio::write_atomic`] for the SVG).
pub fn write_first_move_chart(path: &Path, bars: &[ChartBar]) -> Result<(), Error> {
    if bars.is_empty() {
        return Err(Error::NoBars);
    }
    if path.extension().and_then(|e| e.to_str()) == Some("png") {
        write_first_move_png(path, bars)
    } else {
        fsio::write_atomic(path, first_move_svg(bars).as_bytes()).map_err(|source| Error::Write {
            path: path.to_path_buf(),
            source,
        })
    }
}
