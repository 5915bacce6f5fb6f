//! `triad show`: a position drawn in the terminal.

use super::{print_json, CliError};
use piratechnics::{Color, Position, Square};
use serde_json::json;

#[derive(clap::Args)]
pub struct Args {
    /// The position (TFEN); default the start position.
    #[arg(long)]
    tfen: Option<String>,
    /// Also list the legal moves in canonical text.
    #[arg(long)]
    moves: bool,
    /// Print one JSON object (tfen, side, check, legal moves) instead.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let pos = match &args.tfen {
        Some(t) => Position::from_tfen(t).map_err(|e| CliError::input(e.to_string()))?,
        None => Position::start(),
    };
    let moves: Vec<String> = pos
        .legal_move_vec()
        .into_iter()
        .map(|m| pos.move_to_text(m))
        .collect();
    if args.json {
        print_json(&json!({
            "tfen": pos.to_tfen(),
            "side": pos.side().to_string(),
            "in_check": pos.in_check(),
            "legal_moves": moves,
        }));
        return Ok(());
    }
    print!("{}", render(&pos));
    if args.moves {
        println!("{} legal moves: {}", moves.len(), moves.join(" "));
    }
    Ok(())
}

/// Draws a position: one box per cell, `[...]` a ship with its crew (White
/// upper case, Black lower case), `[ ]` an empty ship, `.` no ship, blank a
/// missing corner; then side to move, check, reversal and clocks.
pub fn render(pos: &Position) -> String {
    let v = pos.variant();
    let mut s = String::new();
    let w = v.capacity as usize + 2;
    for rank in (0..v.height).rev() {
        s.push_str(&format!(" {} ", rank + 1));
        for file in 0..v.width {
            let sq = Square::new(file, rank);
            let cell = if !v.exists(sq) {
                String::new()
            } else {
                match pos.ship_at(sq) {
                    None => ".".to_string(),
                    Some(c) => format!("[{}]", c.letters()),
                }
            };
            s.push_str(&format!(" {cell:^w$}"));
        }
        s.push('\n');
    }
    s.push_str("   ");
    for file in 0..v.width {
        s.push_str(&format!(" {:^w$}", (b'a' + file) as char));
    }
    s.push('\n');
    let side = if pos.side() == Color::White {
        "White"
    } else {
        "Black"
    };
    s.push_str(&format!(
        "{side} to move{}; move {}, {} plies since a capture",
        if pos.in_check() { ", in check" } else { "" },
        pos.fullmove(),
        pos.clock()
    ));
    if let Some((y, x)) = pos.reversal() {
        s.push_str(&format!("; the ship on {y} may not sail back to {x}"));
    }
    s.push('\n');
    s
}
