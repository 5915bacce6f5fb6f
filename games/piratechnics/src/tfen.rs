//! The position string, TFEN (RULES.md §9.1).
//!
//! `<ranks> <side> <reversal> <clock> <move>`; ranks from the top, each
//! listing only the cells that exist, `[..]` a ship with its crew, a digit a
//! run of cells without a ship.

use crate::crew::Crew;
use crate::error::{TfenError, TfenProblem};
use crate::position::Position;
use crate::types::{Color, Kind, Piece, Square};
use crate::variant::Variant;
use game::chess::Cell;
use std::fmt;

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

    /// Parses a TFEN of `variant`: the ranks, then the four fields after
    /// them, then the checks that need the whole position (one king a side,
    /// the side not to move not in check).
    pub fn from_tfen_in(s: &str, variant: &'static Variant) -> Result<Position, TfenError> {
        parse_tfen(s, variant).map_err(|reason| TfenError {
            tfen: s.to_string(),
            reason,
        })
    }

    /// The TFEN of this position.
    pub fn to_tfen(&self) -> String {
        let v = self.variant;
        let mut s = String::with_capacity(96);
        game::chess::write_rows(
            &mut s,
            v.width,
            v.height,
            |file, rank| {
                let sq = Square::new(file, rank);
                if !v.exists(sq) {
                    return Cell::Missing;
                }
                match self.ship_at(sq) {
                    None => Cell::Empty,
                    Some(crew) => Cell::Holds(crew),
                }
            },
            |s, crew| {
                s.push('[');
                s.push_str(&crew.letters());
                s.push(']');
            },
        );
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

/// [`Position::from_tfen_in`] with the reason alone as the error.
fn parse_tfen(s: &str, variant: &'static Variant) -> Result<Position, TfenProblem> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let &[ranks, side, reversal, clock, fullmove] = fields.as_slice() else {
        return Err(TfenProblem::Fields {
            found: fields.len(),
        });
    };
    let mut pos = Position::empty(variant);
    parse_ranks(&mut pos, ranks)?;
    pos.side = match side {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(TfenProblem::Side(other.to_string())),
    };
    pos.reversal = parse_reversal(&pos, reversal)?;
    pos.clock = clock
        .parse()
        .map_err(|_| TfenProblem::Clock(clock.to_string()))?;
    pos.fullmove = fullmove
        .parse()
        .map_err(|_| TfenProblem::MoveNumber(fullmove.to_string()))?;
    if pos.fullmove == 0 {
        return Err(TfenProblem::MoveNumberZero);
    }
    pos.hash = pos.compute_hash();
    let them = !pos.side;
    if pos.is_attacked(pos.kings[them.index()], pos.side) {
        return Err(TfenProblem::InCheck {
            them,
            side: pos.side,
        });
    }
    Ok(pos)
}

/// The placement field: every rank's ships onto `pos`, with exactly one
/// king a side.
fn parse_ranks(pos: &mut Position, field: &str) -> Result<(), TfenProblem> {
    let variant = pos.variant;
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != variant.height as usize {
        return Err(TfenProblem::Ranks {
            expected: variant.height,
            found: ranks.len(),
        });
    }
    for (ri, rank_text) in ranks.iter().enumerate() {
        parse_rank(pos, variant.height - 1 - ri as u8, rank_text)?;
    }
    for c in Color::ALL {
        let kings = (0..variant.width)
            .flat_map(|f| (0..variant.height).map(move |r| Square::new(f, r)))
            .filter_map(|sq| pos.ship_at(sq))
            .map(|crew| crew.count(Piece::new(c, Kind::King)))
            .sum::<u32>();
        if kings != 1 {
            return Err(TfenProblem::Kings { color: c, kings });
        }
    }
    Ok(())
}

/// One rank (`rank` counts from 0 at the bottom): digits skip cells that
/// exist in the variant, `[..]` puts a ship on the next one.
fn parse_rank(pos: &mut Position, rank: u8, text: &str) -> Result<(), TfenProblem> {
    let variant = pos.variant;
    let cells: Vec<Square> = (0..variant.width)
        .map(|f| Square::new(f, rank))
        .filter(|&sq| variant.exists(sq))
        .collect();
    let too_many = || TfenProblem::RankTooLong {
        rank: rank + 1,
        text: text.to_string(),
        cells: cells.len(),
    };
    let mut idx = 0usize;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if let Some(d) = c.to_digit(10) {
            if d == 0 {
                return Err(TfenProblem::EmptyRun { rank: rank + 1 });
            }
            idx += d as usize;
            if idx > cells.len() {
                return Err(too_many());
            }
        } else if c == '[' {
            let crew = parse_crew(&mut chars, rank, variant.capacity)?;
            let sq = *cells.get(idx).ok_or_else(too_many)?;
            pos.set_ship(sq, crew);
            for color in Color::ALL {
                if crew.count(Piece::new(color, Kind::King)) > 0 {
                    pos.kings[color.index()] = sq;
                }
            }
            idx += 1;
        } else {
            return Err(TfenProblem::RankChar {
                rank: rank + 1,
                found: c,
            });
        }
    }
    if idx != cells.len() {
        return Err(TfenProblem::RankTooShort {
            rank: rank + 1,
            text: text.to_string(),
            found: idx,
            cells: cells.len(),
        });
    }
    Ok(())
}

/// A ship's crew, read after its `[` up to and including the `]`.
fn parse_crew(chars: &mut std::str::Chars, rank: u8, capacity: u8) -> Result<Crew, TfenProblem> {
    let mut crew = Crew::EMPTY;
    let mut letters = 0u32;
    loop {
        match chars.next() {
            Some(']') => return Ok(crew),
            Some(l) => {
                // Counted before adding: a ship's per-piece counters are 4
                // bits, so a 16th letter of one kind would wrap around.
                letters += 1;
                if letters > capacity as u32 {
                    return Err(TfenProblem::CrewTooLarge {
                        rank: rank + 1,
                        capacity,
                    });
                }
                let p = Piece::from_letter(l).ok_or(TfenProblem::CrewLetter {
                    rank: rank + 1,
                    letter: l,
                })?;
                crew = crew.add_piece(p);
            }
            None => return Err(TfenProblem::Unclosed { rank: rank + 1 }),
        }
    }
}

/// The reversal field: `-`, or the cells of the last ship reversal (the
/// first must hold a ship).
fn parse_reversal(pos: &Position, r: &str) -> Result<Option<(Square, Square)>, TfenProblem> {
    if r == "-" {
        return Ok(None);
    }
    let variant = pos.variant;
    let cell = |x: Option<&str>| x.and_then(Square::parse).filter(|&sq| variant.exists(sq));
    match (cell(r.get(0..2)), cell(r.get(2..4)), r.len()) {
        (Some(y), Some(x), 4) => {
            if pos.ships & y.bit() == 0 {
                return Err(TfenProblem::ReversalNoShip {
                    text: r.to_string(),
                    cell: y,
                });
            }
            Ok(Some((y, x)))
        }
        _ => Err(TfenProblem::Reversal(r.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "[rbn][qrb][kbn][rbn]/[ppp][ppp][ppp][ppp][ppp][ppp]/6/6/6/6/\
                         [PPP][PPP][PPP][PPP][PPP][PPP]/[RBN][QRB][KBN][RBN] w - 0 1";

    fn reason(s: &str) -> String {
        match Position::from_tfen(s) {
            Ok(_) => panic!("accepted {s:?}"),
            Err(e) => e.reason.to_string(),
        }
    }

    #[test]
    fn start_round_trips() {
        let p = Position::from_tfen(START).unwrap();
        assert_eq!(p.to_tfen(), START);
        assert_eq!(p, Position::start());
    }

    /// Each stage of the parser names its own fault.
    #[test]
    fn each_fault_is_named() {
        let cases = [
            (START.replace(" 0 1", " 0"), "expected 5 fields"),
            (START.replacen("6/", "", 1), "expected 8 ranks"),
            (START.replacen("/6/", "/06/", 1), "rank 6: empty run '0'"),
            (
                START.replacen("/6/", "/7/", 1),
                "rank 6 \"7\" describes more than its 6 cells",
            ),
            (
                START.replacen("/6/", "/5/", 1),
                "rank 6 \"5\" describes 5 of its 6 cells",
            ),
            (
                START.replacen("[ppp]/", "[pppp]/", 1),
                "rank 7: a ship holds more than 3 crew",
            ),
            (
                START.replacen("[ppp]/", "[ppx]/", 1),
                "'x' is not a crew letter",
            ),
            (START.replacen("[ppp]/", "[ppp/", 1), "rank 7: unclosed '['"),
            (START.replacen("/6/", "/x/", 1), "rank 6: unexpected 'x'"),
            (START.replacen("[kbn]", "[qbn]", 1), "black has 0 kings"),
            (START.replacen("[KBN]", "[KBK]", 1), "white has 2 kings"),
            (START.replace(" w ", " x "), "side to move 'x'"),
            (START.replace(" - ", " c3b1 "), "there is no ship on c3"),
            (START.replace(" - ", " c3 "), "is not '-' or two cells"),
            (START.replace(" 0 1", " z 1"), "clock 'z' is not a number"),
            (
                START.replace(" 0 1", " 0 q"),
                "move number 'q' is not a number",
            ),
            (
                START.replace(" 0 1", " 0 0"),
                "move number must be at least 1",
            ),
            (
                "[k][Q]2/6/6/6/6/6/6/[K]3 w - 0 1".to_string(),
                "black is in check but it is white's move",
            ),
        ];
        for (tfen, want) in cases {
            let got = reason(&tfen);
            assert!(got.contains(want), "{tfen:?}: {got:?} lacks {want:?}");
        }
    }
}
