//! Training curves as SVG or PNG. The figure is a grid of panels, each a set
//! of named line series; [`metrics_panels`] makes the trainer's, and callers
//! append their own (the loop adds Elo by generation) before [`render`].

use crate::metrics::MetricsRow;
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
    pub x_label: String,
    pub series: Vec<Series>,
}

impl Panel {
    pub fn new(title: &str, x_label: &str) -> Panel {
        Panel {
            title: title.into(),
            x_label: x_label.into(),
            series: Vec::new(),
        }
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

/// The trainer's panels: losses, learning rate, policy entropy and value
/// accuracy, throughput — all by step.
pub fn metrics_panels(rows: &[MetricsRow]) -> Vec<Panel> {
    let col = |f: fn(&MetricsRow) -> f64| -> Vec<(f64, f64)> {
        rows.iter()
            .map(|r| (r.step as f64, f(r)))
            .filter(|p| p.1.is_finite())
            .collect()
    };
    vec![
        Panel::new("Loss", "step")
            .with("total", col(|r| r.loss))
            .with("policy", col(|r| r.policy_loss))
            .with("value", col(|r| r.value_loss)),
        Panel::new("Learning rate", "step").with("lr", col(|r| r.lr)),
        Panel::new("Policy entropy (nats) and value accuracy", "step")
            .with("policy entropy", col(|r| r.policy_entropy))
            .with("value accuracy", col(|r| r.value_accuracy)),
        Panel::new("Samples per second", "step").with("samples/s", col(|r| r.samples_per_s)),
    ]
}

const PANEL_W: u32 = 640;
const PANEL_H: u32 = 360;

/// Renders `panels` (two per row) to `out`: SVG for `.svg`, PNG for `.png`.
/// Written to a temporary name and renamed.
pub fn render(panels: &[Panel], out: &Path) -> Result<(), crate::TrainError> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let svg = match ext.as_deref() {
        Some("svg") => true,
        Some("png") => false,
        _ => {
            return Err(crate::TrainError::Failed(format!(
                "{}: the output must end in .svg or .png",
                out.display()
            )))
        }
    };
    if panels.is_empty() {
        return Err(crate::TrainError::Failed("nothing to plot".into()));
    }
    data::chart::register_font().map_err(|e| crate::TrainError::Failed(e.0))?;
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
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(crate::TrainError::Failed(format!("{}: {e}", out.display())));
    }
    std::fs::rename(&tmp, out)
        .map_err(|e| crate::TrainError::Failed(format!("{}: {e}", out.display())))
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
) -> Result<(), Box<dyn std::error::Error>>
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
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        chart
            .configure_mesh()
            .x_desc(panel.x_label.as_str())
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
