//! Match openings: from a file of TFENs, or made by a few random plies.

use piratechnics::SplitMix;
use piratechnics::{outcome_of, Position};
use std::path::Path;

/// Reads one TFEN per line (blank lines and `#` comments skipped; a line
/// may carry `; ...` after the TFEN, as in the spec's vector files).
pub fn read_openings(path: &Path) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos =
            Position::from_tfen(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        if outcome_of(&pos, 1).is_some() {
            return Err(format!(
                "{}:{}: the game is already over there",
                path.display(),
                i + 1
            ));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(format!("{}: no openings in the file", path.display()));
    }
    Ok(out)
}

/// `count` openings, each `plies` random legal plies from the start (a
/// line that ends the game is drawn again).
pub fn random_openings(count: usize, plies: u32, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix::new(seed ^ 0x0BE1_1175);
    let mut out = Vec::with_capacity(count);
    let mut buf = Vec::new();
    while out.len() < count {
        let mut pos = Position::start();
        let mut ok = true;
        for _ in 0..plies {
            pos.legal_moves(&mut buf);
            if buf.is_empty() {
                ok = false;
                break;
            }
            pos = pos.play(buf[rng.below(buf.len() as u64) as usize]);
        }
        if ok && outcome_of(&pos, 1).is_none() {
            out.push(pos);
        }
    }
    out
}
