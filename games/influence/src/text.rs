//! The position string and the move text of RULES.md §11, and the
//! terminal diagram.
//!
//! `<middle> <above> <below> <turn> <army> <clock> <fullmove>`, e.g. the
//! start `rkqn/pppp/4/4/4/PPPP/NQKR 4/4/P1P1/1C2/1P1P/4/4 4/4/1P1P/2C1/P1P1/4/4 A w 0 1`.
//! Writers produce exactly this form and `to_text(parse(s)) == s` for every
//! valid `s`; readers refuse anything else with a message that says what is
//! wrong and where.

use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Army, Move, Piece, Player, Promotion, Square, FILES, RANKS};
use game::chess::Cell;
use game::GameError;

/// Writes one board, rank 7 first, with `cell` giving each square's letter.
fn write_board(out: &mut String, cell: impl Fn(Square) -> Option<char>) {
    game::chess::write_rows(
        out,
        FILES,
        RANKS,
        |f, r| cell(Square::at(f, r)).map_or(Cell::Empty, Cell::Holds),
        |out, c| out.push(c),
    );
}

/// Reads one board field into `(square, letter)` pairs; `what` names the
/// field in errors.
fn read_board(field: &str, what: &str) -> Result<Vec<(Square, char)>, GameError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != RANKS as usize {
        return Err(GameError::position(
            field,
            format!(
            "the {what} field {field:?} has {} ranks separated by '/', expected 7 (rank 7 first)",
            ranks.len()
        ),
        ));
    }
    let mut out = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - i as u8;
        let mut file = 0u8;
        let mut last_digit = false;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if last_digit {
                    return Err(GameError::position(*rank_text, format!(
                        "the {what} field: rank {} {rank_text:?} has two digits side by side (write their sum)",
                        rank + 1
                    )));
                }
                if d == 0 || d > 4 {
                    return Err(GameError::position(*rank_text, format!(
                        "the {what} field: rank {} {rank_text:?}: {d} is not an empty-square count 1-4",
                        rank + 1
                    )));
                }
                file += d as u8;
                last_digit = true;
            } else {
                if file >= FILES {
                    return Err(GameError::position(
                        *rank_text,
                        format!(
                            "the {what} field: rank {} {rank_text:?} has more than 4 squares",
                            rank + 1
                        ),
                    ));
                }
                out.push((Square::at(file, rank), c));
                file += 1;
                last_digit = false;
            }
            if file > FILES {
                return Err(GameError::position(
                    *rank_text,
                    format!(
                        "the {what} field: rank {} {rank_text:?} has more than 4 squares",
                        rank + 1
                    ),
                ));
            }
        }
        if file != FILES {
            return Err(GameError::position(
                *rank_text,
                format!(
                    "the {what} field: rank {} {rank_text:?} has {file} squares, expected 4",
                    rank + 1
                ),
            ));
        }
    }
    Ok(out)
}

impl Position {
    /// Places the princes and the commander of `player` from its board
    /// field `field` (`what`: `Above` or `Below`, for the messages).
    fn read_influence(&mut self, player: Player, field: &str, what: &str) -> Result<(), GameError> {
        for (s, c) in read_board(field, what)? {
            match c {
                'P' => self.set_influence(player, s, false),
                'C' => self.set_influence(player, s, true),
                other => {
                    return Err(GameError::position(
                        field,
                        format!(
                            "the {what} field: {other:?} on {s} is not P (prince) or C (commander)"
                        ),
                    ))
                }
            }
        }
        if self.princes(player).count_ones() > 4 || self.commander(player).count_ones() > 1 {
            return Err(GameError::position(
                field,
                format!(
                    "the {what} field has {} princes and {} commanders: at most 4 and 1",
                    self.princes(player).count_ones(),
                    self.commander(player).count_ones()
                ),
            ));
        }
        Ok(())
    }

    /// Reads a position string (RULES.md §11.1) under `rules`.
    pub fn parse(text: &str, rules: Rules) -> Result<Position, GameError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 7 {
            return Err(GameError::position(text, format!(
                "{:?} has {} fields, expected 7: <middle> <above> <below> <turn A|B> <army w|b> <clock> <fullmove>",
                game::clip(text, 80),
                fields.len()
            )));
        }
        let army = match fields[4] {
            "w" => Army::White,
            "b" => Army::Black,
            other => {
                return Err(GameError::position(
                    other,
                    format!("the army field {other:?} is not w or b (the army Above helps)"),
                ))
            }
        };
        let mut p = Position::empty(rules, army);
        for (s, c) in read_board(fields[0], "middle")? {
            let piece = Piece::from_letter(c).ok_or_else(|| GameError::position(fields[0], {
                format!("the middle field: {c:?} on {s} is not a piece letter (KQRNP white, kqrnp black)")
            }))?;
            if piece.kind == crate::Kind::Pawn && (s.rank() == 0 || s.rank() == RANKS - 1) {
                return Err(GameError::position(
                    fields[0],
                    format!("the middle field: a pawn on {s}: no pawn may stand on rank 1 or 7"),
                ));
            }
            p.set_piece(s, piece);
        }
        for (player, field, what) in [
            (Player::Above, fields[1], "Above"),
            (Player::Below, fields[2], "Below"),
        ] {
            p.read_influence(player, field, what)?;
        }
        for a in Army::BOTH {
            let n = p.pieces(a, crate::Kind::King).count_ones();
            if n != 1 {
                return Err(GameError::position(
                    fields[0],
                    format!(
                        "the middle field has {n} {a} kings ({}), expected exactly one",
                        if a == Army::White { 'K' } else { 'k' }
                    ),
                ));
            }
        }
        let turn = match fields[3] {
            "A" => Player::Above,
            "B" => Player::Below,
            other => {
                return Err(GameError::position(
                    other,
                    format!("the turn field {other:?} is not A or B"),
                ))
            }
        };
        let clock: u16 = fields[5].parse().map_err(|e| {
            GameError::position(
                fields[5],
                format!("the clock field {:?} is not a ply count 0-65535", fields[5]),
            )
            .because(e)
        })?;
        let fullmove: u16 = fields[6].parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
            GameError::position(
                fields[6],
                format!("the move number {:?} is not a number from 1", fields[6]),
            )
        })?;
        p.set_state(turn, clock, fullmove);
        let waiting = turn.other();
        if p.army_in_check(p.army_of(waiting)) {
            return Err(GameError::position(text, format!(
                "{waiting} (not to move) has his army's king in check: {} could capture it, so the position cannot arise",
                turn
            )));
        }
        Ok(p)
    }

    /// The position string (RULES.md §11.1).
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(80);
        write_board(&mut s, |sq| self.piece_at(sq).map(|p| p.letter()));
        for player in [Player::Above, Player::Below] {
            s.push(' ');
            write_board(&mut s, |sq| {
                if self.commander(player) & sq.bit() != 0 {
                    Some('C')
                } else if self.princes(player) & sq.bit() != 0 {
                    Some('P')
                } else {
                    None
                }
            });
        }
        s.push(' ');
        s.push(self.turn().letter());
        s.push(' ');
        s.push(self.above_army().letter());
        s.push_str(&format!(" {} {}", self.clock(), self.fullmove()));
        s
    }

    /// The text of `m`, a move of this position (RULES.md §11.2): `Pb3-b2`,
    /// `Cb4-b6`, `b2-b3`, `c1xd1`, `c6-c7=Q&`.
    pub fn move_text(&self, m: Move) -> String {
        let (from, to) = (m.from(), m.to());
        if !m.is_middle() {
            let letter = if self.commander(self.turn()) & from.bit() != 0 {
                'C'
            } else {
                'P'
            };
            return format!("{letter}{from}-{to}");
        }
        let sep = if self.piece_at(to).is_some() {
            'x'
        } else {
            '-'
        };
        let mut s = format!("{from}{sep}{to}");
        if let Some(c) = m.promotion().letter() {
            s.push('=');
            s.push(c);
        }
        if m.is_accompanied() {
            s.push('&');
        }
        s
    }

    /// Reads a move's text and returns it if it is legal here. Accepts the
    /// canonical form and the relaxed one of §11.2 (no `-`/`x`, lower-case
    /// promotion letter, `=` left out: `c6c7q&`).
    pub fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let t = text.trim();
        let bad = |why: &str| {
            format!(
                "{:?} is not a move: {why} (e.g. Pb3-b2, Cb4-b6, b2-b3, c1xd1, c6-c7=Q&)",
                game::clip(t, 40)
            )
        };
        let mut rest = t;
        let influence_letter = match rest.chars().next() {
            Some(c @ ('P' | 'C')) => {
                rest = &rest[1..];
                Some(c)
            }
            _ => None,
        };
        let square = |s: &str| s.get(..2).and_then(Square::parse);
        let from = square(rest)
            .ok_or_else(|| GameError::unreadable_move(t, bad("no origin square a1-d7")))?;
        rest = &rest[2..];
        if let Some(r) = rest.strip_prefix(['-', 'x']) {
            rest = r;
        }
        let to = square(rest)
            .ok_or_else(|| GameError::unreadable_move(t, bad("no destination square a1-d7")))?;
        rest = &rest[2..];
        let accompanied = if let Some(r) = rest.strip_suffix('&') {
            rest = r;
            true
        } else {
            false
        };
        let rest = rest.strip_prefix('=').unwrap_or(rest);
        let promotion = match rest {
            "" => Promotion::None,
            "Q" | "q" => Promotion::Queen,
            "R" | "r" => Promotion::Rook,
            "N" | "n" => Promotion::Knight,
            other => {
                return Err(GameError::unreadable_move(
                    t,
                    bad(&format!("{other:?} is not a promotion (=Q, =R, =N)")),
                ))
            }
        };
        let m = match influence_letter {
            Some(letter) => {
                if promotion != Promotion::None || accompanied {
                    return Err(GameError::unreadable_move(
                        t,
                        bad("an influence move has no promotion and no '&'"),
                    ));
                }
                let me = self.turn();
                let on = if self.commander(me) & from.bit() != 0 {
                    Some('C')
                } else if self.princes(me) & from.bit() != 0 {
                    Some('P')
                } else {
                    None
                };
                match on {
                    None => {
                        return Err(GameError::illegal_move(
                            t,
                            format!("{t}: {me} has no influence piece on {from} of his board"),
                        ))
                    }
                    Some(c) if c != letter => {
                        return Err(GameError::illegal_move(
                            t,
                            format!(
                                "{t}: {me}'s piece on {from} is a {}, not a {}",
                                if c == 'C' {
                                    "commander (C)"
                                } else {
                                    "prince (P)"
                                },
                                if letter == 'C' { "commander" } else { "prince" }
                            ),
                        ))
                    }
                    Some(_) => Move::influence(from, to),
                }
            }
            None => Move::middle(from, to, promotion, accompanied),
        };
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(GameError::illegal_move(
                t,
                format!(
                    "{t} is not legal here ({} to move, helping {})",
                    self.turn(),
                    self.army_of(self.turn())
                ),
            ))
        }
    }

    /// The three boards side by side, as the source prints them (rank 7 at
    /// the top), and whose turn it is.
    pub fn diagram(&self) -> String {
        let mut s = String::from("    Above     Middle    Below\n");
        for r in (0..RANKS).rev() {
            s.push_str(&format!(" {} ", r + 1));
            for board in 0..3 {
                s.push(' ');
                for f in 0..FILES {
                    let sq = Square::at(f, r);
                    let c = match board {
                        1 => self.piece_at(sq).map_or('.', |p| p.letter()),
                        _ => {
                            let pl = if board == 0 {
                                Player::Above
                            } else {
                                Player::Below
                            };
                            if self.commander(pl) & sq.bit() != 0 {
                                'C'
                            } else if self.princes(pl) & sq.bit() != 0 {
                                'P'
                            } else {
                                '.'
                            }
                        }
                    };
                    s.push(c);
                    s.push(' ');
                }
                s.push(' ');
            }
            s.truncate(s.trim_end().len());
            s.push('\n');
        }
        s.push_str("    a b c d   a b c d   a b c d\n");
        s.push_str(&format!(
            "Above helps {}, Below helps {}; {} to move{}; clock {}, move {}\n",
            self.above_army(),
            self.above_army().other(),
            self.turn(),
            if self.in_check() { " (in check)" } else { "" },
            self.clock(),
            self.fullmove()
        ));
        s
    }
}
