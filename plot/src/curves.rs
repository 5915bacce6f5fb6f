//! Curves as SVG or PNG. The figure is a grid of panels, each a set of
//! named line series; callers make their panels (`triad plot`: Elo by
//! generation and the training curves; `triad bench learn`: strength
//! against minutes) and [`render`] draws them.

use crate::font::register_font;
use crate::Error;
use std::path::Path;

/// One line: `(x, y)` points in order of x.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// One chart of the grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    pub title: String,
    /// The x axis's name with its unit (`generation`, `step`).
    pub x_label: String,
    /// The y axis's name with its unit (`loss (nats)`); empty: none.
    pub y_label: String,
    pub series: Vec<Series>,
}

impl Panel {
    pub fn new(title: &str, x_label: &str) -> Panel {
        Panel {
            title: title.into(),
            x_label: x_label.into(),
            y_label: String::new(),
            series: Vec::new(),
        }
    }

    /// The same with the y axis named `label` (its unit included).
    pub fn y_label(mut self, label: &str) -> Panel {
        self.y_label = label.into();
        self
    }

    /// Adds a series of `(x, y)` points.
    pub fn with(mut self, name: &str, points: Vec<(f64, f64)>) -> Panel {
        self.series.push(Series {
            name: name.into(),
            points,
        });
        self
    }
}

/// Most tick labels on an axis: few enough that none overlap.
const MAX_LABELS: usize = 8;

/// Whether every x of `panel` is a whole number (generations, steps): its
/// axis then gets whole-number ticks only.
fn integer_x(panel: &Panel) -> bool {
    panel
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .all(|&(x, _)| x.fract() == 0.0)
}

/// How many labels to ask of an axis over `lo..hi`: at most
/// [`MAX_LABELS`], and for an integer axis no more than its whole numbers,
/// so that the ticks plotters picks (steps of 1, 2, 5 times a power of ten
/// with no more ticks than asked) fall on whole numbers.
fn label_count(lo: f64, hi: f64, integer: bool) -> usize {
    if integer {
        ((hi.floor() - lo.ceil()) as usize + 1).clamp(1, MAX_LABELS)
    } else {
        MAX_LABELS.min(6)
    }
}

/// A tick label: whole numbers without decimals on an integer axis (and
/// nothing at a fractional tick, should one come); otherwise as many
/// decimals as the tick spacing `step` needs, in scientific notation when
/// that spacing is below 0.001 (or the value above a million), so that
/// labels stay short.
pub fn tick_label(value: f64, step: f64, integer: bool) -> String {
    if integer {
        return if value.fract() == 0.0 {
            format!("{value:.0}")
        } else {
            String::new()
        };
    }
    if value == 0.0 {
        return "0".into();
    }
    // Decided by the spacing, so that every label of an axis reads alike.
    if step.abs() < 1e-3 || value.abs() >= 1e6 {
        return format!("{value:.1e}");
    }
    let decimals = if step > 0.0 {
        (-step.log10().floor()).max(0.0) as usize
    } else {
        2
    };
    format!("{value:.decimals$}")
}

const PANEL_W: u32 = 640;
const PANEL_H: u32 = 360;

/// Renders `panels` (two per row) to `out`: SVG for `.svg`, PNG for `.png`.
/// Written to a temporary name and renamed.
pub fn render(panels: &[Panel], out: &Path) -> Result<(), Error> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let svg = match ext.as_deref() {
        Some("svg") => true,
        Some("png") => false,
        _ => {
            return Err(Error::Format {
                path: out.to_path_buf(),
            })
        }
    };
    if panels.is_empty() {
        return Err(Error::NoPanels);
    }
    register_font()?;
    let cols = panels.len().min(2) as u32;
    let rows = panels.len().div_ceil(2) as u32;
    let size = (PANEL_W * cols, PANEL_H * rows);
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // The PNG encoder picks the format from the extension: keep it last.
    let tmp = fsio::temp_path(out);
    let tmp = tmp.with_file_name(format!(
        "{}.{}",
        tmp.file_name().map_or(name.into(), |n| n.to_string_lossy()),
        if svg { "svg" } else { "png" }
    ));
    let result = if svg {
        let root = plotters::prelude::SVGBackend::new(&tmp, size);
        draw(root, panels, rows as usize, cols as usize)
    } else {
        let root = plotters::prelude::BitMapBackend::new(&tmp, size);
        draw(root, panels, rows as usize, cols as usize)
    };
    if let Err(source) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::Draw {
            path: out.to_path_buf(),
            source,
        });
    }
    std::fs::rename(&tmp, out).map_err(|source| Error::Rename {
        path: out.to_path_buf(),
        source,
    })
}

const PALETTE: [(u8, u8, u8); 6] = [
    (0x2e, 0x86, 0xc1),
    (0xc0, 0x39, 0x2b),
    (0x27, 0xae, 0x60),
    (0x8e, 0x44, 0xad),
    (0xd3, 0x54, 0x00),
    (0x34, 0x49, 0x5e),
];

fn draw<B: plotters::prelude::DrawingBackend>(
    backend: B,
    panels: &[Panel],
    rows: usize,
    cols: usize,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
where
    B::ErrorType: 'static,
{
    use plotters::prelude::*;
    let root = backend.into_drawing_area();
    root.fill(&WHITE)?;
    let areas = root.split_evenly((rows, cols));
    for (panel, area) in panels.iter().zip(areas.iter()) {
        let points = panel.series.iter().flat_map(|s| s.points.iter());
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y) in points {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if x0 > x1 {
            (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
        }
        if x1 - x0 < 1e-12 {
            x1 = x0 + 1.0;
        }
        let pad = ((y1 - y0) * 0.05).max(1e-9 + y1.abs() * 1e-3);
        let (y0, y1) = (y0 - pad, y1 + pad);
        let mut chart = ChartBuilder::on(area)
            .caption(&panel.title, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(if panel.y_label.is_empty() { 60 } else { 75 })
            .build_cartesian_2d(x0..x1, y0..y1)?;
        let integer = integer_x(panel);
        let y_step = (y1 - y0) / 6.0;
        let y_step = 10f64.powf(y_step.log10().floor());
        chart
            .configure_mesh()
            .x_labels(label_count(x0, x1, integer))
            .y_labels(label_count(y0, y1, false))
            .x_label_formatter(&|x| tick_label(*x, 1.0, integer))
            .y_label_formatter(&|y| tick_label(*y, y_step, false))
            .x_desc(panel.x_label.as_str())
            .y_desc(panel.y_label.as_str())
            .light_line_style(RGBColor(0xee, 0xee, 0xee))
            .label_style(("sans-serif", 12))
            .draw()?;
        for (i, s) in panel.series.iter().enumerate() {
            let (r, g, b) = PALETTE[i % PALETTE.len()];
            let color = RGBColor(r, g, b);
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().copied(),
                    color.stroke_width(2),
                ))?
                .label(s.name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                });
        }
        if panel.series.len() > 1 {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .label_font(("sans-serif", 12))
                .draw()?;
        }
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::{KeyPointHint, Ranged};
    use plotters::coord::types::RangedCoordf64;

    /// The ticks plotters draws on an integer axis (generations 0..=n,
    /// steps 1..=N), asked for as `render` asks, are whole numbers, distinct
    /// and no more than the axis's label limit; their labels are integers.
    #[test]
    fn an_integer_axis_has_integer_ticks() {
        for (lo, hi) in [
            (0.0, 1.0),
            (0.0, 2.0),
            (0.0, 3.0),
            (0.0, 5.0),
            (1.0, 7.0),
            (0.0, 19.0),
            (100.0, 2000.0),
            (0.0, 123_457.0),
        ] {
            let range: RangedCoordf64 = (lo..hi).into();
            let n = label_count(lo, hi, true);
            let ticks: Vec<f64> = range.key_points(n.bold_points());
            assert!(
                !ticks.is_empty() && ticks.len() <= MAX_LABELS,
                "{lo}..{hi}: {ticks:?}"
            );
            let labels: Vec<String> = ticks.iter().map(|&t| tick_label(t, 1.0, true)).collect();
            for l in &labels {
                assert!(
                    l.parse::<i64>().is_ok(),
                    "{lo}..{hi}: label {l:?} of {ticks:?}"
                );
            }
            let mut distinct = labels.clone();
            distinct.dedup();
            assert_eq!(distinct, labels, "{lo}..{hi}");
        }
    }

    /// Labels of a real-valued axis are short: a learning rate's ticks do
    /// not print a dozen digits each.
    #[test]
    fn real_labels_are_short() {
        assert_eq!(tick_label(0.0002, 0.0001, false), "2.0e-4");
        assert_eq!(tick_label(0.0015, 0.0001, false), "1.5e-3");
        assert_eq!(tick_label(0.25, 0.05, false), "0.25");
        assert_eq!(tick_label(1500.0, 100.0, false), "1500");
        assert_eq!(tick_label(3.0, 1.0, true), "3");
        assert_eq!(tick_label(2.5, 1.0, true), "");
    }
}
