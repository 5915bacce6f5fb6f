//! How a position is drawn: a game-neutral picture ([`Drawing`]) that each
//! game fills from its own state ([`crate::GameState::drawing`]), and one
//! SVG renderer ([`svg`]) for all of them (`triad show --svg`, the opening
//! explorer, the static HTML of `triad openings --html`).
//!
//! Why a description and not SVG from each game: the explorer overlays the
//! same things on every board (the move just played, the search's visits,
//! the network's priors), so the geometry lives in one place and a game only
//! says what stands on which cell. A game with several boards (Influence
//! Chess) gives several [`Panel`]s; ships, crews and anchors are
//! [`Token`]s of different [`Shape`]s.

use crate::Color;
use std::fmt::Write as _;

/// A position as a picture: boards side by side and a caption under them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawing {
    pub panels: Vec<Panel>,
    /// One line under the boards: who moves, the result, counters.
    pub caption: String,
}

/// One board: a grid of cells, row 0 drawn at the top.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Panel {
    /// Drawn above the board ("Above", "Middle", ...); empty for none.
    pub title: String,
    pub rows: usize,
    pub cols: usize,
    /// `rows * cols` cells, row-major, row 0 at the top.
    pub cells: Vec<Cell>,
    /// Labels under the columns (files); empty for none.
    pub col_labels: Vec<String>,
    /// Labels left of the rows, top row first; empty for none.
    pub row_labels: Vec<String>,
}

impl Panel {
    /// An empty board of `rows × cols` cells on a checkered ground (the
    /// cell at the bottom left dark, as on a chess board).
    pub fn checkered(rows: usize, cols: usize) -> Panel {
        let cells = (0..rows * cols)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                let from_bottom = rows - 1 - r;
                Cell {
                    ground: if (from_bottom + c).is_multiple_of(2) {
                        Ground::Dark
                    } else {
                        Ground::Light
                    },
                    tokens: Vec::new(),
                }
            })
            .collect();
        Panel {
            title: String::new(),
            rows,
            cols,
            cells,
            col_labels: Vec::new(),
            row_labels: Vec::new(),
        }
    }

    /// An empty board of one ground.
    pub fn plain(rows: usize, cols: usize, ground: Ground) -> Panel {
        Panel {
            title: String::new(),
            rows,
            cols,
            cells: vec![
                Cell {
                    ground,
                    tokens: Vec::new()
                };
                rows * cols
            ],
            col_labels: Vec::new(),
            row_labels: Vec::new(),
        }
    }

    /// The cell at `row` (from the top) and `col`.
    pub fn cell_mut(&mut self, row: usize, col: usize) -> &mut Cell {
        &mut self.cells[row * self.cols + col]
    }

    /// Chess-style labels: files `a, b, …` under the columns and ranks
    /// `rows … 1` beside the rows.
    pub fn with_chess_labels(mut self) -> Panel {
        self.col_labels = (0..self.cols)
            .map(|c| ((b'a' + c as u8) as char).to_string())
            .collect();
        self.row_labels = (0..self.rows)
            .map(|r| (self.rows - r).to_string())
            .collect();
        self
    }
}

/// One cell: its ground and what stands on it, bottom first (a ship, then
/// its crew).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cell {
    pub ground: Ground,
    pub tokens: Vec<Token>,
}

/// The ground of a cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ground {
    #[default]
    Light,
    Dark,
    /// Open water (ships sail here).
    Water,
    /// An empty slot of a rack (Connect Four).
    Slot,
    /// Not part of the board: drawn as nothing.
    Off,
}

/// Something standing on a cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// A short label, one or two characters ("K", "N", "3").
    pub label: String,
    /// Whose it is; `None` for a neutral token.
    pub side: Option<Color>,
    pub shape: Shape,
}

impl Token {
    pub fn piece(label: impl Into<String>, side: Color) -> Token {
        Token {
            label: label.into(),
            side: Some(side),
            shape: Shape::Piece,
        }
    }
    pub fn disc(side: Color) -> Token {
        Token {
            label: String::new(),
            side: Some(side),
            shape: Shape::Disc,
        }
    }
    pub fn ship(label: impl Into<String>, side: Option<Color>) -> Token {
        Token {
            label: label.into(),
            side,
            shape: Shape::Ship,
        }
    }
}

/// How a token is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A round piece with its label (chess men).
    Piece,
    /// A stone filling the cell (Connect Four).
    Disc,
    /// A hull along the bottom of the cell; the tokens after it ride in it.
    Ship,
    /// A small mark in a corner (an anchor, a flag).
    Marker,
}

/// A cell of a [`Drawing`]: board (panel), row from the top, column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellRef {
    pub panel: usize,
    pub row: usize,
    pub col: usize,
}

impl CellRef {
    pub fn new(panel: usize, row: usize, col: usize) -> CellRef {
        CellRef { panel, row, col }
    }
}

/// Something drawn over the boards: a move as an arrow (or a ring where
/// `from == to`), its strength `weight` in `0..=1` (visit share, prior),
/// with an optional label at its head.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub from: CellRef,
    pub to: CellRef,
    pub weight: f32,
    pub label: String,
    pub kind: MarkKind,
}

/// What a [`Mark`] shows; each kind has its own colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// The move that led to this position.
    LastMove,
    /// A move with its share of the search's visits or of the games.
    Share,
    /// A move with the network's prior.
    Prior,
}

const CELL: f64 = 48.0;
const MARGIN: f64 = 22.0;
const GAP: f64 = 26.0;
const TITLE: f64 = 20.0;
const CAPTION: f64 = 26.0;

/// The top-left corner of each panel's grid, and the whole picture's size.
fn layout(d: &Drawing) -> (Vec<(f64, f64)>, f64, f64) {
    let titled = d.panels.iter().any(|p| !p.title.is_empty());
    let top = 6.0 + if titled { TITLE } else { 0.0 };
    let mut x = MARGIN;
    let mut origins = Vec::with_capacity(d.panels.len());
    let mut height: f64 = 0.0;
    for p in &d.panels {
        origins.push((x, top));
        x += p.cols as f64 * CELL + GAP;
        height = height.max(p.rows as f64 * CELL);
    }
    let width = (x - GAP + 8.0).max(200.0);
    (origins, width, top + height + MARGIN + CAPTION)
}

/// The centre of a cell, in the picture's coordinates.
fn centre(origins: &[(f64, f64)], c: CellRef) -> Option<(f64, f64)> {
    let &(x, y) = origins.get(c.panel)?;
    Some((
        x + (c.col as f64 + 0.5) * CELL,
        y + (c.row as f64 + 0.5) * CELL,
    ))
}

/// Escapes text for SVG content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn ground_fill(g: Ground) -> Option<&'static str> {
    match g {
        Ground::Light => Some("#f0d9b5"),
        Ground::Dark => Some("#b58863"),
        Ground::Water => Some("#9cc3e6"),
        Ground::Slot => Some("#2a56c6"),
        Ground::Off => None,
    }
}

fn side_colours(side: Option<Color>) -> (&'static str, &'static str, &'static str) {
    // (fill, stroke, label)
    match side {
        Some(Color::White) => ("#fafafa", "#222", "#111"),
        Some(Color::Black) => ("#262626", "#000", "#f5f5f5"),
        None => ("#c9a227", "#5a4500", "#111"),
    }
}

fn disc_fill(side: Option<Color>) -> &'static str {
    match side {
        Some(Color::White) => "#e8c31a",
        Some(Color::Black) => "#d3302f",
        None => "#999",
    }
}

fn mark_colour(k: MarkKind) -> &'static str {
    match k {
        MarkKind::LastMove => "#2e9e44",
        MarkKind::Share => "#1f5fd1",
        MarkKind::Prior => "#d1491f",
    }
}

/// Draws the tokens of one cell whose top-left corner is `(x, y)`.
fn draw_tokens(out: &mut String, x: f64, y: f64, tokens: &[Token], ground: Ground) {
    let ship = tokens.iter().position(|t| t.shape == Shape::Ship);
    let riders: Vec<&Token> = tokens
        .iter()
        .filter(|t| matches!(t.shape, Shape::Piece))
        .collect();
    for t in tokens.iter().filter(|t| t.shape == Shape::Disc) {
        let fill = disc_fill(t.side);
        let _ = write!(
            out,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{fill}" stroke="#0003"/>"##,
            x + CELL / 2.0,
            y + CELL / 2.0,
            CELL * 0.4
        );
    }
    if ground == Ground::Slot && !tokens.iter().any(|t| t.shape == Shape::Disc) {
        let _ = write!(
            out,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#fff"/>"##,
            x + CELL / 2.0,
            y + CELL / 2.0,
            CELL * 0.4
        );
    }
    if let Some(i) = ship {
        let t = &tokens[i];
        let (fill, stroke, text) = side_colours(t.side);
        let (hx, hy, hw, hh) = (x + 3.0, y + CELL * 0.66, CELL - 6.0, CELL * 0.3);
        let _ = write!(
            out,
            r#"<path d="M{:.1} {:.1}h{:.1}l-{:.1} {:.1}h-{:.1}z" fill="{fill}" stroke="{stroke}" stroke-width="1.2"/>"#,
            hx,
            hy,
            hw,
            hh * 0.6,
            hh,
            hw - 1.2 * hh
        );
        if !t.label.is_empty() {
            let _ = write!(
                out,
                r#"<text x="{:.1}" y="{:.1}" font-size="9" text-anchor="middle" fill="{text}">{}</text>"#,
                x + CELL / 2.0,
                hy + hh * 0.75,
                escape(&t.label)
            );
        }
    }
    let n = riders.len();
    if n > 0 {
        // One rider: a full-size piece (smaller above a hull); several: a row.
        let area_h = if ship.is_some() { CELL * 0.66 } else { CELL };
        let r = if n == 1 {
            (area_h * 0.38).min(CELL * 0.36)
        } else {
            (CELL / (2.0 * n as f64) - 1.0).min(area_h * 0.3)
        };
        for (k, t) in riders.iter().enumerate() {
            let cx = x + CELL * (k as f64 + 0.5) / n as f64;
            let cy = y + area_h / 2.0;
            let (fill, stroke, text) = side_colours(t.side);
            let _ = write!(
                out,
                r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}" stroke-width="1.2"/>"#
            );
            let _ = write!(
                out,
                r#"<text x="{cx:.1}" y="{:.1}" font-size="{:.1}" font-weight="bold" text-anchor="middle" fill="{text}">{}</text>"#,
                cy + r * 0.42,
                r * 1.15,
                escape(&t.label)
            );
        }
    }
    for (k, t) in tokens
        .iter()
        .filter(|t| t.shape == Shape::Marker)
        .enumerate()
    {
        let (fill, stroke, text) = side_colours(t.side);
        let (cx, cy) = (x + CELL - 8.0 - 12.0 * k as f64, y + 8.0);
        let _ = write!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="12" height="12" rx="2" fill="{fill}" stroke="{stroke}"/><text x="{cx:.1}" y="{:.1}" font-size="9" text-anchor="middle" fill="{text}">{}</text>"#,
            cx - 6.0,
            cy - 6.0,
            cy + 3.0,
            escape(&t.label)
        );
    }
}

/// The drawing as one self-contained SVG document, with `marks` over it
/// (heaviest drawn last, so on top).
pub fn svg(d: &Drawing, marks: &[Mark]) -> String {
    let (origins, width, height) = layout(d);
    let mut out = String::with_capacity(4096);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="triad-board" viewBox="0 0 {width:.0} {height:.0}" width="{width:.0}" height="{height:.0}" font-family="DejaVu Sans, Verdana, sans-serif">"#
    );
    let _ = write!(
        out,
        r#"<defs><marker id="ah" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="context-stroke"/></marker></defs>"#
    );
    for (p, &(x0, y0)) in d.panels.iter().zip(&origins) {
        draw_panel(&mut out, p, x0, y0);
    }
    let mut sorted: Vec<&Mark> = marks.iter().collect();
    sorted.sort_by(|a, b| a.weight.total_cmp(&b.weight));
    for m in sorted {
        draw_mark(&mut out, &origins, m);
    }
    let _ = write!(
        out,
        r#"<text x="{MARGIN:.1}" y="{:.1}" font-size="13">{}</text></svg>"#,
        height - 8.0,
        escape(&d.caption)
    );
    out
}

/// One panel of a drawing, its top-left corner at (`x0`, `y0`): title,
/// grounds, tokens and coordinate labels.
fn draw_panel(out: &mut String, p: &Panel, x0: f64, y0: f64) {
    if !p.title.is_empty() {
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle">{}</text>"#,
            x0 + p.cols as f64 * CELL / 2.0,
            y0 - 6.0,
            escape(&p.title)
        );
    }
    // Grounds: one path per colour keeps the file small.
    for g in [Ground::Light, Ground::Dark, Ground::Water, Ground::Slot] {
        let mut d_attr = String::new();
        for (i, c) in p.cells.iter().enumerate() {
            if c.ground == g {
                let (r, col) = (i / p.cols.max(1), i % p.cols.max(1));
                let _ = write!(
                    d_attr,
                    "M{:.0} {:.0}h{CELL:.0}v{CELL:.0}h-{CELL:.0}z",
                    x0 + col as f64 * CELL,
                    y0 + r as f64 * CELL
                );
            }
        }
        if let (false, Some(fill)) = (d_attr.is_empty(), ground_fill(g)) {
            let _ = write!(out, r#"<path d="{d_attr}" fill="{fill}"/>"#);
        }
    }
    for (i, c) in p.cells.iter().enumerate() {
        let (r, col) = (i / p.cols.max(1), i % p.cols.max(1));
        draw_tokens(
            out,
            x0 + col as f64 * CELL,
            y0 + r as f64 * CELL,
            &c.tokens,
            c.ground,
        );
    }
    for (col, label) in p.col_labels.iter().enumerate() {
        let _ = write!(
            out,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#555">{}</text>"##,
            x0 + (col as f64 + 0.5) * CELL,
            y0 + p.rows as f64 * CELL + 13.0,
            escape(label)
        );
    }
    for (r, label) in p.row_labels.iter().enumerate() {
        let _ = write!(
            out,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end" fill="#555">{}</text>"##,
            x0 - 4.0,
            y0 + (r as f64 + 0.5) * CELL + 4.0,
            escape(label)
        );
    }
}

/// One mark over the panels at `origins`: a ring on one cell, or an arrow
/// from one cell to another; its label by the target.
fn draw_mark(out: &mut String, origins: &[(f64, f64)], m: &Mark) {
    let (Some(a), Some(b)) = (centre(origins, m.from), centre(origins, m.to)) else {
        return;
    };
    let w = m.weight.clamp(0.0, 1.0) as f64;
    let colour = mark_colour(m.kind);
    let opacity = 0.35 + 0.5 * w;
    if a == b {
        let _ = write!(
            out,
            r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{colour}" stroke-opacity="{opacity:.2}" stroke-width="{:.1}"/>"#,
            a.0,
            a.1,
            CELL * 0.42,
            2.0 + 5.0 * w
        );
    } else {
        // Stop short of the centre so the arrow head does not hide the piece.
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let k = (len - CELL * 0.3).max(0.0) / len;
        let _ = write!(
            out,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-opacity="{opacity:.2}" stroke-width="{:.1}" stroke-linecap="round" marker-end="url(#ah)"/>"#,
            a.0,
            a.1,
            a.0 + dx * k,
            a.1 + dy * k,
            2.5 + 7.0 * w
        );
    }
    if !m.label.is_empty() {
        let _ = write!(
            out,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" font-weight="bold" text-anchor="middle" fill="{colour}" stroke="#fff" stroke-width="3" paint-order="stroke">{}</text>"##,
            b.0,
            b.1 - CELL * 0.3,
            escape(&m.label)
        );
    }
}

/// The usual caption of a position: who moves, or the result once the game
/// is over ("Black to move", "White wins (checkmate)", "Draw (board-full)").
/// `names` are the two seats' names, the first player's first ("White",
/// "Blue", "Above (White)"); games append their counters after it.
pub fn caption(side: Color, outcome: Option<crate::Outcome>, names: [&str; 2]) -> String {
    match outcome {
        None => format!("{} to move", names[side.index()]),
        Some(o) => match o.result {
            crate::GameResult::Draw => format!("Draw ({})", o.termination),
            crate::GameResult::WhiteWin => format!("{} wins ({})", names[0], o.termination),
            crate::GameResult::BlackWin => format!("{} wins ({})", names[1], o.termination),
        },
    }
}

/// A drawing for a game that gives none: its text diagram as lines of
/// monospaced text, in a single off-board panel.
pub fn text_drawing(diagram: &str) -> Drawing {
    let lines: Vec<&str> = diagram.lines().collect();
    let cols = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut p = Panel::plain(lines.len(), cols, Ground::Off);
    for (r, line) in lines.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            if !ch.is_whitespace() {
                p.cell_mut(r, c).tokens.push(Token {
                    label: ch.to_string(),
                    side: None,
                    shape: Shape::Marker,
                });
            }
        }
    }
    Drawing {
        panels: vec![p],
        caption: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_svg_has_every_token_and_mark_and_escapes_text() {
        let mut p = Panel::checkered(2, 3).with_chess_labels();
        p.title = "A<&>".into();
        p.cell_mut(0, 0)
            .tokens
            .push(Token::piece("K", Color::White));
        p.cell_mut(1, 2)
            .tokens
            .push(Token::ship("", Some(Color::Black)));
        p.cell_mut(1, 2)
            .tokens
            .push(Token::piece("N", Color::Black));
        p.cell_mut(1, 2)
            .tokens
            .push(Token::piece("B", Color::Black));
        let d = Drawing {
            panels: vec![p],
            caption: "White to move".into(),
        };
        let marks = [Mark {
            from: CellRef::new(0, 1, 2),
            to: CellRef::new(0, 0, 1),
            weight: 0.5,
            label: "50%".into(),
            kind: MarkKind::Share,
        }];
        let s = svg(&d, &marks);
        assert!(s.starts_with("<svg") && s.ends_with("</svg>"));
        assert!(s.contains("A&lt;&amp;&gt;"), "{s}");
        for label in [
            ">K<",
            ">N<",
            ">B<",
            ">50%<",
            ">White to move<",
            ">a<",
            ">2<",
        ] {
            assert!(s.contains(label), "{label} missing from {s}");
        }
        assert_eq!(s.matches("<line").count(), 1);
        assert_eq!(s.matches("<path d=\"M").count(), 2 + 1 + 1, "{s}");
        // A mark off the drawing is left out, not a panic.
        let off = Mark {
            from: CellRef::new(3, 0, 0),
            ..marks[0].clone()
        };
        assert_eq!(svg(&d, &[off]).matches("<line").count(), 0);
    }

    #[test]
    fn a_caption_names_the_mover_or_the_result() {
        use crate::{GameResult, Outcome, Termination};
        let names = ["Blue", "Red"];
        assert_eq!(caption(Color::Black, None, names), "Red to move");
        let won = Outcome {
            result: GameResult::WhiteWin,
            termination: Termination::Checkmate,
        };
        assert_eq!(
            caption(Color::Black, Some(won), names),
            "Blue wins (checkmate)"
        );
        let drawn = Outcome {
            result: GameResult::Draw,
            termination: Termination::BoardFull,
        };
        assert_eq!(
            caption(Color::White, Some(drawn), names),
            "Draw (board-full)"
        );
    }

    #[test]
    fn a_text_diagram_becomes_one_panel_of_its_characters() {
        let d = text_drawing("ab\n c\n");
        assert_eq!(d.panels.len(), 1);
        assert_eq!((d.panels[0].rows, d.panels[0].cols), (2, 2));
        let s = svg(&d, &[]);
        assert!(s.contains(">a<") && s.contains(">c<"));
    }
}
