//! The position string, TFEN (RULES.md §9.1).
//!
//! `<ranks> <side> <reversal> <clock> <move>`; ranks from the top, each
//! listing only the cells that exist, `[..]` a ship with its crew, a digit a
//! run of cells without a ship.

use crate::crew::Crew;
use crate::position::Position;
use crate::types::{Color, Kind, Piece, Square};
use crate::variant::Variant;
use std::fmt;

/// Why a TFEN string was rejected; the message names the offending part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TfenError {
    pub tfen: String,
    pub reason: String,
}

impl fmt::Display for TfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid TFEN \"{}\": {}",
            game::clip(&self.tfen, 200),
            game::clip(&self.reason, 200)
        )
    }
}
impl std::error::Error for TfenError {}

impl std::str::FromStr for Position {
    type Err = TfenError;
    fn from_str(s: &str) -> Result<Position, TfenError> {
        Position::from_tfen(s)
    }
}

impl Position {
    /// Parses a TFEN of the standard game.
    pub fn from_tfen(s: &str) -> Result<Position, TfenError> {
        Position::from_tfen_in(s, Variant::standard())
    }

    /// Parses a TFEN of `variant`.
    pub fn from_tfen_in(s: &str, variant: &'static Variant) -> Result<Position, TfenError> {
        let err = |reason: String| TfenError {
            tfen: s.to_string(),
            reason,
        };
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(err(format!(
                "expected 5 fields (ranks side reversal clock move), found {}",
                fields.len()
            )));
        }
        let mut pos = Position::empty(variant);
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != variant.height as usize {
            return Err(err(format!(
                "expected {} ranks separated by '/', found {}",
                variant.height,
                ranks.len()
            )));
        }
        let mut king_count = [0u32; 2];
        for (ri, rank_text) in ranks.iter().enumerate() {
            let rank = variant.height - 1 - ri as u8;
            let rank_cells: Vec<Square> = (0..variant.width)
                .map(|f| Square::new(f, rank))
                .filter(|&sq| variant.exists(sq))
                .collect();
            let mut idx = 0usize;
            let mut chars = rank_text.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(err(format!("rank {}: empty run '0'", rank + 1)));
                    }
                    idx += d as usize;
                    if idx > rank_cells.len() {
                        return Err(err(format!(
                            "rank {} \"{}\" describes more than its {} cells",
                            rank + 1,
                            rank_text,
                            rank_cells.len()
                        )));
                    }
                } else if c == '[' {
                    let mut crew = Crew::EMPTY;
                    let mut letters = 0u32;
                    loop {
                        match chars.next() {
                            Some(']') => break,
                            Some(l) => {
                                // Counted before adding: a ship's per-piece
                                // counters are 4 bits, so a 16th letter of
                                // one kind would wrap around.
                                letters += 1;
                                if letters > variant.capacity as u32 {
                                    return Err(err(format!(
                                        "rank {}: a ship holds more than {} crew",
                                        rank + 1,
                                        variant.capacity
                                    )));
                                }
                                let p = Piece::from_letter(l).ok_or_else(|| {
                                    err(format!(
                                        "rank {}: '{}' is not a crew letter (KQRBNP or kqrbnp)",
                                        rank + 1,
                                        l
                                    ))
                                })?;
                                if p.kind == Kind::King {
                                    king_count[p.color.index()] += 1;
                                }
                                crew = crew.add_piece(p);
                            }
                            None => return Err(err(format!("rank {}: unclosed '['", rank + 1))),
                        }
                    }
                    if crew.total() > variant.capacity as u32 {
                        return Err(err(format!(
                            "rank {}: ship [{}] holds more than {} crew",
                            rank + 1,
                            crew.letters(),
                            variant.capacity
                        )));
                    }
                    let Some(&sq) = rank_cells.get(idx) else {
                        return Err(err(format!(
                            "rank {} \"{}\" describes more than its {} cells",
                            rank + 1,
                            rank_text,
                            rank_cells.len()
                        )));
                    };
                    pos.set_ship(sq, crew);
                    if crew.count(Piece::new(Color::White, Kind::King)) > 0 {
                        pos.kings[0] = sq;
                    }
                    if crew.count(Piece::new(Color::Black, Kind::King)) > 0 {
                        pos.kings[1] = sq;
                    }
                    idx += 1;
                } else {
                    return Err(err(format!(
                        "rank {}: unexpected '{}' (expected a digit or '[')",
                        rank + 1,
                        c
                    )));
                }
            }
            if idx != rank_cells.len() {
                return Err(err(format!(
                    "rank {} \"{}\" describes {} of its {} cells",
                    rank + 1,
                    rank_text,
                    idx,
                    rank_cells.len()
                )));
            }
        }
        for c in Color::ALL {
            if king_count[c.index()] != 1 {
                return Err(err(format!(
                    "{} has {} kings; exactly one is required",
                    c,
                    king_count[c.index()]
                )));
            }
        }
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(err(format!("side to move '{other}' is not 'w' or 'b'"))),
        };
        pos.reversal = match fields[2] {
            "-" => None,
            r => {
                let (a, b) = (r.get(0..2), r.get(2..4));
                let parse =
                    |x: Option<&str>| x.and_then(Square::parse).filter(|&sq| variant.exists(sq));
                match (parse(a), parse(b), r.len()) {
                    (Some(y), Some(x), 4) => {
                        if pos.ships & y.bit() == 0 {
                            return Err(err(format!("reversal '{r}': there is no ship on {y}")));
                        }
                        Some((y, x))
                    }
                    _ => {
                        return Err(err(format!(
                            "reversal '{r}' is not '-' or two cells like 'c3b1'"
                        )))
                    }
                }
            }
        };
        pos.clock = fields[3]
            .parse()
            .map_err(|_| err(format!("clock '{}' is not a number", fields[3])))?;
        pos.fullmove = fields[4]
            .parse()
            .map_err(|_| err(format!("move number '{}' is not a number", fields[4])))?;
        if pos.fullmove == 0 {
            return Err(err("move number must be at least 1".into()));
        }
        pos.hash = pos.compute_hash();
        let them = !pos.side;
        if pos.is_attacked(pos.kings[them.index()], pos.side) {
            return Err(err(format!(
                "{them} is in check but it is {}'s move",
                pos.side
            )));
        }
        Ok(pos)
    }

    /// The TFEN of this position.
    pub fn to_tfen(&self) -> String {
        let v = self.variant;
        let mut s = String::with_capacity(96);
        for rank in (0..v.height).rev() {
            let mut run = 0;
            for file in 0..v.width {
                let sq = Square::new(file, rank);
                if !v.exists(sq) {
                    continue;
                }
                match self.ship_at(sq) {
                    None => run += 1,
                    Some(crew) => {
                        if run > 0 {
                            s.push_str(&run.to_string());
                            run = 0;
                        }
                        s.push('[');
                        s.push_str(&crew.letters());
                        s.push(']');
                    }
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.letter());
        s.push(' ');
        match self.reversal {
            None => s.push('-'),
            Some((y, x)) => {
                s.push_str(&y.to_string());
                s.push_str(&x.to_string());
            }
        }
        s.push_str(&format!(" {} {}", self.clock, self.fullmove));
        s
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_tfen())
    }
}
