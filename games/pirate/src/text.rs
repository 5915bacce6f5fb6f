//! The position string and the move text of RULES.md §10, and the diagram
//! of the terminal. Readers accept exactly one form per position and say
//! what is wrong with anything else; writers print the canonical form.

use crate::geometry::Size;
use crate::position::Position;
use crate::types::{Effect, Main, Move, Ship, ShipType, Side, ToggleAt};
use game::chess::Cell;
use game::GameError;

/// Ships in a game: they never come back, so a position never holds more
/// (on the board and in reserve together).
const SHIPS_IN_A_GAME: u32 = 16;

fn number(field: &str, what: &str) -> Result<u32, GameError> {
    let ok = !field.is_empty()
        && field.chars().all(|c| c.is_ascii_digit())
        && (field == "0" || !field.starts_with('0'));
    ok.then(|| field.parse::<u32>().ok())
        .flatten()
        .ok_or_else(|| {
            GameError::position(
                field,
                format!("{what} {field:?}: expected a number without leading zeros"),
            )
        })
}

/// The board field: its rows from the top, each a cell per file, all of
/// one width. Digits are read together, so a run is always maximal.
fn parse_board(field: &str) -> Result<Vec<Vec<Option<Ship>>>, GameError> {
    let rows: Vec<&str> = field.split('/').collect();
    let squares = rows
        .iter()
        .enumerate()
        .map(|(i, row)| parse_row(row, rows.len() - i))
        .collect::<Result<Vec<_>, GameError>>()?;
    let width = squares[0].len();
    if let Some((i, r)) = squares.iter().enumerate().find(|(_, r)| r.len() != width) {
        return Err(GameError::position(
            field,
            format!(
            "rank {} has {} squares but rank {} has {width}: every rank must have the same width",
            rows.len() - i,
            r.len(),
            rows.len()
        ),
        ));
    }
    Ok(squares)
}

/// One rank of the board field (`rank_no` counts from 1 at the bottom).
fn parse_row(row: &str, rank_no: usize) -> Result<Vec<Option<Ship>>, GameError> {
    let mut cells = Vec::new();
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut run = String::from(c);
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                run.push(d);
                chars.next();
            }
            let n = number(&run, &format!("rank {rank_no}: empty run"))?;
            if n == 0 || n > crate::geometry::MAX_SIDE as u32 {
                return Err(GameError::position(
                    run.as_str(),
                    format!("rank {rank_no}: empty run {run} is not 1..16"),
                ));
            }
            cells.extend((0..n).map(|_| None));
            continue;
        }
        let t = ShipType::from_letter(c.to_ascii_uppercase()).ok_or_else(|| GameError::position(row, {
            format!("rank {rank_no}: {c:?} is not a ship letter (F P D J B S G C, lower case for Red) nor a number")
        }))?;
        let anchored = chars.peek() == Some(&'@');
        if anchored {
            chars.next();
            if t == ShipType::Pirate {
                return Err(GameError::position(
                    row,
                    format!("rank {rank_no}: a PIRATE is never anchored ({c}@)"),
                ));
            }
        }
        cells.push(Some(Ship::new(owner_of(c), t, anchored)));
    }
    Ok(cells)
}

/// Upper case letters are Blue's ships, lower case Red's.
fn owner_of(letter: char) -> Side {
    if letter.is_ascii_uppercase() {
        Side::Blue
    } else {
        Side::Red
    }
}

/// The reserve field: `-`, or Blue's ships then Red's, each side's in the
/// order F P D J B S G C, once each; a bit per ship type and side.
fn parse_reserve(field: &str) -> Result<[u8; 2], GameError> {
    let mut reserve = [0u8; 2];
    if field == "-" {
        return Ok(reserve);
    }
    if field.is_empty() {
        return Err(GameError::position(
            field,
            "reserve field is empty: write - when both reserves are empty",
        ));
    }
    let mut last: Option<(Side, usize)> = None;
    for c in field.chars() {
        let t = ShipType::from_letter(c.to_ascii_uppercase()).ok_or_else(|| {
            GameError::position(
                field,
                format!("reserve {field:?}: {c:?} is not a ship letter"),
            )
        })?;
        let s = owner_of(c);
        if last.is_some_and(|prev| (s, t.index()) <= prev) {
            return Err(GameError::position(field, format!(
                "reserve {field:?}: write Blue's ships then Red's, each in the order F P D J B S G C, once each"
            )));
        }
        last = Some((s, t.index()));
        reserve[s.index()] |= 1 << t.index();
    }
    Ok(reserve)
}

/// The upgrades field `XY/xy`: FRIGATE and PIRATE upgrades (0..2) of Blue,
/// then of Red.
fn parse_upgrades(field: &str) -> Result<[[u8; 2]; 2], GameError> {
    let digit = |b: u8| (b'0'..=b'2').contains(&b).then(|| b - b'0');
    match field.as_bytes() {
        [a, b, b'/', c, d] => match (digit(*a), digit(*b), digit(*c), digit(*d)) {
            (Some(a), Some(b), Some(c), Some(d)) => Some([[a, b], [c, d]]),
            _ => None,
        },
        _ => None,
    }
    .ok_or_else(|| GameError::position(field, {
        format!(
            "upgrades {field:?}: expected XY/xy, four digits 0..2 (FRIGATE and PIRATE upgrades of Blue, then of Red)"
        )
    }))
}

/// The deployment counts `b/r`: redundant with the reserves, so they must
/// agree with them.
fn check_deployed(field: &str, reserve: [u8; 2]) -> Result<(), GameError> {
    let (db, dr) = field.split_once('/').ok_or_else(|| {
        GameError::position(field, format!("deployed {field:?}: expected b/r, e.g. 3/2"))
    })?;
    let counts = [
        number(db, "Blue's deployment count")?,
        number(dr, "Red's deployment count")?,
    ];
    for s in Side::ALL {
        let want = 8 - reserve[s.index()].count_ones();
        if counts[s.index()] != want {
            return Err(GameError::position(field, format!(
                "deployed {field:?}: {s:?} has {} ships in reserve, so its deployment count is {want}",
                8 - want
            )));
        }
    }
    Ok(())
}

impl Position {
    /// Reads a position string (§10.1) of any board size the rule book
    /// allows.
    pub fn parse(text: &str) -> Result<Position, GameError> {
        let fields: Vec<&str> = text.split(' ').collect();
        let &[board, side, reserve, upgrades, deployed, clock, plies] = fields.as_slice() else {
            return Err(GameError::position(text, format!(
                "a position string has 7 fields separated by single spaces (board side reserve upgrades deployed clock plies), found {} in {text:?}",
                fields.len()
            )));
        };
        let rows = parse_board(board)?;
        let size = Size::new(rows[0].len() as u32, rows.len() as u32)?;
        let side = match side {
            "b" => Side::Blue,
            "r" => Side::Red,
            other => {
                return Err(GameError::position(
                    other,
                    format!("side to move {other:?}: expected b (Blue) or r (Red)"),
                ))
            }
        };
        let reserve = parse_reserve(reserve)?;
        let upgrades = parse_upgrades(upgrades)?;
        check_deployed(deployed, reserve)?;
        let clock = number(clock, "clock")?;
        let plies = number(plies, "ply count")?;
        if clock > u16::MAX as u32 || plies > u16::MAX as u32 {
            return Err(GameError::position(
                text,
                format!("clock {clock} or ply count {plies} is too large"),
            ));
        }
        let mut p = Position::empty(size, side, reserve, upgrades, clock as u16, plies as u16);
        let g = p.geo;
        for (i, row) in rows.iter().enumerate() {
            let rank = (rows.len() - 1 - i) as u8;
            for (file, cell) in row.iter().enumerate() {
                if let Some(ship) = cell {
                    p.put(g.square(file as u8, rank), *ship);
                }
            }
        }
        let total = p.occupied().popcount() + reserve[0].count_ones() + reserve[1].count_ones();
        if total > SHIPS_IN_A_GAME {
            return Err(GameError::position(text, format!(
                "{total} ships on the board and in reserve: a game has {SHIPS_IN_A_GAME}, and ships never come back"
            )));
        }
        Ok(p)
    }

    /// The position string (§10.1).
    pub fn to_text(&self) -> String {
        let g = self.geo;
        let mut s = String::with_capacity(96);
        game::chess::write_rows(
            &mut s,
            g.width(),
            g.height(),
            |file, rank| match self.ship_at(g.square(file, rank)) {
                None => Cell::Empty,
                Some(ship) => Cell::Holds(ship),
            },
            |s, ship| {
                s.push(ship.letter());
                if ship.anchored() {
                    s.push('@');
                }
            },
        );
        s.push(' ');
        s.push(self.side.letter());
        s.push(' ');
        let mut reserve = String::new();
        for side in Side::ALL {
            for t in ShipType::ALL {
                if self.in_reserve(side, t) {
                    reserve.push(Ship::new(side, t, false).letter());
                }
            }
        }
        s.push_str(if reserve.is_empty() { "-" } else { &reserve });
        let [[a, b], [c, d]] = self.upgrades;
        s.push_str(&format!(
            " {a}{b}/{c}{d} {}/{} {} {}",
            self.deployed(Side::Blue),
            self.deployed(Side::Red),
            self.clock,
            self.plies
        ));
        s
    }

    /// The text of the main action alone (`F@c3`, `c3xc7=`, `c3-d4=F`).
    fn main_text(&self, m: Move) -> String {
        let g = self.geo;
        let up = |e: Effect| match e {
            Effect::UpgradeF => "=F",
            Effect::UpgradeP => "=P",
            _ => "",
        };
        match m.main() {
            Main::None => String::new(),
            Main::Deploy(t) => format!("{}@{}{}", t.letter(), g.name(m.to()), up(m.effect())),
            Main::Sail(from) => {
                let (sep, tail) = match m.effect() {
                    Effect::Plain => ('-', ""),
                    Effect::Sink => ('x', ""),
                    Effect::Capture => ('x', "="),
                    e => ('-', up(e)),
                };
                format!("{}{sep}{}{tail}", g.name(from), g.name(m.to()))
            }
        }
    }

    /// The canonical text (§10.2) of `m`, a legal move here.
    pub fn move_text(&self, m: Move) -> String {
        let g = self.geo;
        match m.toggle() {
            ToggleAt::None => self.main_text(m),
            ToggleAt::Before(sq) => {
                let sign = if self.ship_at(sq).is_some_and(|s| s.anchored()) {
                    '-'
                } else {
                    '+'
                };
                format!("{sign}{},{}", g.name(sq), self.main_text(m))
            }
            ToggleAt::After(sq) => {
                // The ship's state after the main action: one that has just
                // arrived is un-anchored; any other is as it stands now.
                let arrived = m.main() != Main::None && sq == m.to();
                let anchored = !arrived && self.ship_at(sq).is_some_and(|s| s.anchored());
                let sign = if anchored { '-' } else { '+' };
                match m.main() {
                    Main::None => format!("{sign}{}", g.name(sq)),
                    _ => format!("{},{sign}{}", self.main_text(m), g.name(sq)),
                }
            }
        }
    }

    /// Reads a main action (no toggle) as a move without its toggle.
    fn parse_main(&self, text: &str) -> Result<Move, GameError> {
        let g = self.geo;
        let upgrade = |u: &str| match u {
            "F" => Ok(Effect::UpgradeF),
            "P" => Ok(Effect::UpgradeP),
            _ => Err(GameError::unreadable_move(
                text,
                format!("{text:?}: an upgrade is =F or =P"),
            )),
        };
        if let Some((t, rest)) = text.split_once('@') {
            let mut tc = t.chars();
            let kind = match (tc.next(), tc.next()) {
                (Some(c), None) => ShipType::from_letter(c),
                _ => None,
            }
            .ok_or_else(|| {
                GameError::unreadable_move(text, {
                    format!(
                        "{text:?}: a deploy is TYPE@square with an upper-case type F P D J B S G C"
                    )
                })
            })?;
            let (sq, effect) = match rest.split_once('=') {
                Some((sq, u)) => (sq, upgrade(u)?),
                None => (rest, Effect::Plain),
            };
            return Ok(Move::deploy(kind, g.parse_square(sq)?, effect));
        }
        let sep = text
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c == '-' || c == 'x')
            .ok_or_else(|| GameError::unreadable_move(text, {
                format!("{text:?} is not a turn: expected TYPE@square, square-square or squarexsquare, with toggles +square / -square")
            }))?;
        let from = g.parse_square(&text[..sep.0])?;
        let rest = &text[sep.0 + 1..];
        let (to, tail) = match rest.split_once('=') {
            Some((sq, tail)) => (sq, Some(tail)),
            None => (rest, None),
        };
        let to = g.parse_square(to)?;
        let effect = match (sep.1, tail) {
            ('-', None) => Effect::Plain,
            ('-', Some(u)) => upgrade(u)?,
            ('x', None) => Effect::Sink,
            ('x', Some("")) => Effect::Capture,
            _ => {
                return Err(GameError::unreadable_move(
                    text,
                    format!("{text:?}: after x, only = (capture) may follow"),
                ))
            }
        };
        if from == to {
            return Err(GameError::unreadable_move(
                text,
                format!("{text:?}: a ship never ends where it started"),
            ));
        }
        Ok(Move::sail(from, to, effect))
    }

    /// Whether the mover's ship on `sq` (`ship`; `None`: no such ship) may
    /// take the toggle `anchor` (true `+`) of the turn `text`.
    fn check_toggle(
        &self,
        text: &str,
        ship: Option<Ship>,
        sq: u8,
        anchor: bool,
    ) -> Result<(), GameError> {
        let (g, me) = (self.geo, self.side);
        match ship {
            Some(s) if s.owner() == me && s.kind() != ShipType::Pirate => {
                if s.anchored() == anchor {
                    Err(GameError::illegal_move(
                        text,
                        format!(
                            "{}{}: the ship there is {} anchored",
                            if anchor { '+' } else { '-' },
                            g.name(sq),
                            if anchor { "already" } else { "not" }
                        ),
                    ))
                } else {
                    Ok(())
                }
            }
            _ => Err(GameError::illegal_move(
                text,
                format!(
                    "{}{}: no own ship that can anchor stands there (PIRATEs never anchor)",
                    if anchor { '+' } else { '-' },
                    g.name(sq)
                ),
            )),
        }
    }

    /// Reads move text (§10.2): a toggle may stand on either side of the
    /// main action, as long as the parts are legal in the order written;
    /// the result is the canonical move. Errors say what is wrong.
    pub fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let g = self.geo;
        let parts: Vec<&str> = text.trim().split(',').collect();
        let toggle_of = |p: &str| -> Option<Result<(bool, u8), GameError>> {
            let sign = match p.chars().next() {
                Some('+') => true,
                Some('-') => false,
                _ => return None,
            };
            Some(g.parse_square(&p[1..]).map(|sq| (sign, sq)))
        };
        let candidate = match parts.as_slice() {
            [one] => match toggle_of(one) {
                Some(t) => {
                    let (anchor, sq) = t?;
                    self.check_toggle(text, self.ship_at(sq), sq, anchor)?;
                    Move::toggle_only(sq)
                }
                None => self.parse_main(one)?,
            },
            [a, b] => match (toggle_of(a), toggle_of(b)) {
                (Some(_), Some(_)) => {
                    return Err(GameError::unreadable_move(
                        text,
                        format!("{text:?}: a turn has at most one toggle"),
                    ));
                }
                (None, None) => {
                    return Err(GameError::unreadable_move(
                        text,
                        format!("{text:?}: a turn has at most one main action"),
                    ));
                }
                (Some(t), None) => {
                    let (anchor, sq) = t?;
                    self.check_toggle(text, self.ship_at(sq), sq, anchor)?;
                    let main = self.parse_main(b)?;
                    let sails_it = !anchor && main.main() == Main::Sail(sq);
                    let anchors_target = anchor && main.effect().is_upgrade() && main.to() == sq;
                    if sails_it || anchors_target {
                        main.with_toggle_before(sq)
                    } else if main.main() == Main::Sail(sq) || main.to() == sq {
                        return Err(GameError::illegal_move(
                            text,
                            format!(
                                "{text:?}: the toggle on {} makes the main action illegal",
                                g.name(sq)
                            ),
                        ));
                    } else {
                        main.with_toggle_after(sq)
                    }
                }
                (None, Some(t)) => {
                    let (anchor, sq) = t?;
                    let main = self.parse_main(a)?;
                    if self.is_legal(main) {
                        let after = self.play(main);
                        self.check_toggle(text, after.ship_at(sq), sq, anchor)?;
                    }
                    main.with_toggle_after(sq)
                }
            },
            _ => {
                return Err(GameError::unreadable_move(
                    text,
                    format!("{text:?}: a turn has at most two parts"),
                ))
            }
        };
        if !self.is_legal(candidate) {
            return Err(GameError::illegal_move(
                text.trim(),
                format!("{} is not a legal turn in {}", text.trim(), self.to_text()),
            ));
        }
        Ok(candidate)
    }

    /// The board drawn for a terminal: ranks from north to south, `@` after
    /// an anchored ship, `~` on empty harbour squares; then the other
    /// fields.
    pub fn diagram(&self) -> String {
        let g = self.geo;
        let mut s = String::new();
        for rank in (0..g.height()).rev() {
            s.push_str(&format!("{:>3} ", rank + 1));
            for file in 0..g.width() {
                let sq = g.square(file, rank);
                match self.ship_at(sq) {
                    Some(ship) => {
                        s.push(ship.letter());
                        s.push(if ship.anchored() { '@' } else { ' ' });
                    }
                    None if g.harbour_set.has(sq) => s.push_str("~ "),
                    None => s.push_str(". "),
                }
            }
            s.push('\n');
        }
        s.push_str("    ");
        for file in 0..g.width() {
            s.push((b'a' + file) as char);
            s.push(' ');
        }
        s.push('\n');
        let text = self.to_text();
        let f: Vec<&str> = text.split(' ').collect();
        s.push_str(&format!(
            "{} to move; reserves {}; upgrades {}; deployed {}; clock {}; ply {}\n",
            if self.side == Side::Blue {
                "Blue"
            } else {
                "Red"
            },
            f[2],
            f[3],
            f[4],
            f[5],
            f[6]
        ));
        s
    }
}
