//! Move text (RULES.md §9.2): the canonical machine form the engine prints,
//! and the inventor's notation as found in his game records.
//!
//! Text is always resolved against the legal moves of a position: the parser
//! extracts what the text says (origin, crew, capture, destination,
//! promotions) and then picks the one legal move that fits, so every error
//! can say which part did not fit and why.

use crate::crew::{Crew, KindCounts, PromoCounts};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Kind, Piece, Square};
use std::fmt;

/// Why a move text was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveParseError {
    pub text: String,
    pub reason: MoveProblem,
}

/// What is wrong with a move text: text that does not read, or a move
/// that does not fit the position (crew lists are written as letters,
/// `QRB`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveProblem {
    // The text.
    #[error("empty move text")]
    Empty,
    #[error("expected an origin cell like d2 at the start, found \"{found}\"")]
    NoOrigin { found: String },
    #[error("expected '-' or 'x' after the crew, found '{0}'")]
    Separator(char),
    #[error("missing '-' or 'x' and the destination")]
    NoSeparator,
    #[error("expected a destination cell after '-'/'x', found \"{found}\"")]
    NoDestination { found: String },
    #[error("unexpected \"{0}\" after the move")]
    Trailing(String),
    #[error("unexpected '{0}' in the ship's crew")]
    ContentsLetter(char),
    #[error("moving crew are written in capitals, found '{0}'")]
    Lowercase(char),
    #[error("'{0}' is not a promotion choice (Q R B N)")]
    PromotionChoice(char),
    #[error("only pawns promote, found {crew}({choice})")]
    NotAPawn { crew: char, choice: char },
    #[error("missing '{0}' after the ship's crew")]
    Unclosed(char),
    #[error("'=' must be followed by promotion choices like =Q")]
    NoPromotion,
    #[error("promotions given twice and they differ")]
    PromotionsDiffer,
    // The move in the position.
    #[error("no origin cell")]
    NoOriginCell,
    #[error("no destination cell")]
    NoDestinationCell,
    #[error("{0} is not a cell of this board")]
    NotACell(Square),
    #[error("there is no ship on {0}")]
    NoShip(Square),
    #[error("the ship on {from} carries no {side} crew")]
    NoCrewOf { from: Square, side: Color },
    #[error("a ship move cannot capture")]
    ShipCaptures,
    #[error("there is no ship on {0} to capture on")]
    NothingToCapture(Square),
    #[error("a ship cannot sail to {0}: a ship is already there")]
    Occupied(Square),
    #[error("the ship on {from} carries {carries}, not {written}")]
    Contents {
        from: Square,
        carries: String,
        written: String,
    },
    #[error("the ship on {from} carries {carries}, which does not include {written}")]
    NotAboard {
        from: Square,
        carries: String,
        written: String,
    },
    #[error("the ship on {from} does not carry {written} of {side}'s crew (it has {has})")]
    NotCrew {
        from: Square,
        written: String,
        side: Color,
        has: String,
    },
    #[error("nothing on {0} can be captured")]
    NoCapture(Square),
    #[error("say which crewman on {to} is captured (it holds {holds})")]
    WhichCapture {
        to: Square,
        /// The cell's crew, as its `Debug` writes it.
        holds: String,
    },
    #[error("bad captured letter")]
    CapturedLetter,
    #[error("a king is never captured")]
    King,
    #[error("there is no {whose} {kind} on {to}")]
    NoCaptured {
        /// `own` or `enemy`.
        whose: &'static str,
        kind: &'static str,
        to: Square,
    },
    #[error("the promotion choice is missing (e.g. =Q, or P(Q))")]
    NoPromotionChoice,
    #[error("ambiguous: several legal moves fit")]
    Ambiguous,
    // Why no legal move fits.
    #[error("the ship on {from} may not sail straight back to {to} (no undo)")]
    Undo { from: Square, to: Square },
    #[error("no {side} crewman on {from} can pilot the ship to {to}")]
    NoPilot {
        side: Color,
        from: Square,
        to: Square,
    },
    #[error("none of {crew} on {from} can {} {to}", if *.capture { "capture on" } else { "reach" })]
    CannotReach {
        crew: String,
        from: Square,
        to: Square,
        capture: bool,
    },
    #[error("the ship on {to} would hold {after} crew, more than {capacity}")]
    Overfull {
        to: Square,
        after: u32,
        capacity: u8,
    },
    #[error("the promotions do not fit this move")]
    Promotions,
    #[error("it would leave the mover's king in check")]
    Check,
}

impl MoveProblem {
    /// Whether the text itself does not read as a move (rather than a move
    /// that does not fit the position).
    pub fn is_unreadable(&self) -> bool {
        matches!(
            self,
            MoveProblem::Empty
                | MoveProblem::NoOrigin { .. }
                | MoveProblem::Separator(_)
                | MoveProblem::NoSeparator
                | MoveProblem::NoDestination { .. }
                | MoveProblem::Trailing(_)
                | MoveProblem::ContentsLetter(_)
                | MoveProblem::Lowercase(_)
                | MoveProblem::PromotionChoice(_)
                | MoveProblem::NotAPawn { .. }
                | MoveProblem::Unclosed(_)
                | MoveProblem::NoPromotion
                | MoveProblem::PromotionsDiffer
        )
    }
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move \"{}\": {}", self.text, self.reason)
    }
}
impl std::error::Error for MoveParseError {}

/// What a record writes after a move (RULES.md §9.2): check and mate
/// marks, and any other words, which are a comment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Marks {
    /// `*`, `{*}`, `double*` or `+`.
    pub check: bool,
    /// `**` or `#`.
    pub mate: bool,
    /// Words after the move that are not suffixes (`forced`, `n.b. ...`,
    /// `illegal ...`), as written.
    pub comment: Option<String>,
}

/// How to read a captured crewman's letter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Style {
    /// Letter case gives the colour (upper White, lower Black).
    Canonical,
    /// Colours are not written: the enemy's unless `own`, or only an own one is there.
    Inventor,
}

/// What a move text says, before it is matched with a legal move.
#[derive(Debug, Default)]
struct Parsed {
    from: Option<Square>,
    to: Option<Square>,
    /// `<...>` or `(...)` after the origin: a ship move with its whole crew.
    contents: Option<KindCounts>,
    /// Crew letters written crew-style.
    crew: KindCounts,
    promos: PromoCounts,
    promos_given: bool,
    capture: bool,
    captured_letter: Option<char>,
    own: bool,
    marks: Marks,
}

impl Position {
    /// Canonical text: `d2-d4`, `c8BR-f5`, `f7BRxd5P`, `f4-b8=QQ`. Moving crew
    /// are written leader first (the first of K Q R B N P that can make the
    /// move), then the others in K Q R B N P order; a captured crewman in its
    /// own colour's case.
    pub fn move_to_text(&self, m: Move) -> String {
        let mut s = String::with_capacity(16);
        s.push_str(&m.from().to_string());
        if !m.is_ship() {
            s.push_str(&self.crew_letters(m, false));
            match m.captured() {
                Some(p) => {
                    s.push('x');
                    s.push_str(&m.to().to_string());
                    s.push(p.letter());
                }
                None => {
                    s.push('-');
                    s.push_str(&m.to().to_string());
                }
            }
        } else {
            s.push('-');
            s.push_str(&m.to().to_string());
        }
        if !m.promotions().is_empty() {
            s.push('=');
            s.push_str(&m.promotions().letters());
        }
        s
    }

    /// The inventor's notation: `d2<PPP>-d4`, `f7BR x d5P`, `a7R x a5 own P`,
    /// `c4QP(Q)P(N) x c1B`, `f4<QP(Q)P(Q)>-b8`. No check marks.
    pub fn move_to_inventor(&self, m: Move) -> String {
        let mut s = m.from().to_string();
        if m.is_ship() {
            let crew = self.cells[m.from().index()];
            let us = self.side;
            // Whole crew, colours not written; own pawns carry their promotions.
            let mut all = KindCounts::EMPTY;
            for c in Color::ALL {
                all = all.add(crew.color(c));
            }
            let own_pawns = crew.color(us).get(Kind::Pawn);
            let promos = promo_list(m.promotions());
            s.push('<');
            let mut promo_iter = promos.iter();
            for k in Kind::WRITING_ORDER {
                for i in 0..all.get(k) {
                    s.push(k.letter());
                    if k == Kind::Pawn && i < own_pawns {
                        if let Some(p) = promo_iter.next() {
                            s.push('(');
                            s.push(p.letter());
                            s.push(')');
                        }
                    }
                }
            }
            s.push_str(">-");
            s.push_str(&m.to().to_string());
        } else {
            s.push_str(&self.crew_letters(m, true));
            match m.captured() {
                Some(p) => {
                    s.push_str(" x ");
                    s.push_str(&m.to().to_string());
                    if p.color == self.side {
                        s.push_str(" own ");
                    }
                    s.push(p.kind.letter());
                }
                None => {
                    s.push('-');
                    s.push_str(&m.to().to_string());
                }
            }
        }
        s
    }

    /// Leader first, then companions in writing order; with `inventor`,
    /// promoting pawns are written `P(Q)`.
    fn crew_letters(&self, m: Move, inventor: bool) -> String {
        let us = self.side;
        let moving = m.moving();
        let leader = Kind::WRITING_ORDER
            .into_iter()
            .find(|&k| {
                moving.get(k) > 0 && {
                    let reach = if m.is_capture() {
                        self.capture_reach(us, k, m.from())
                    } else {
                        self.quiet_reach(us, k, m.from())
                    };
                    reach & m.to().bit() != 0
                }
            })
            .unwrap_or(Kind::Pawn);
        let promos = promo_list(m.promotions());
        let mut promo_iter = promos.iter();
        let mut s = String::new();
        let mut push = |k: Kind, s: &mut String| {
            s.push(k.letter());
            if inventor && k == Kind::Pawn {
                if let Some(p) = promo_iter.next() {
                    s.push('(');
                    s.push(p.letter());
                    s.push(')');
                }
            }
        };
        push(leader, &mut s);
        let rest = moving.sub(KindCounts::one(leader));
        for k in Kind::WRITING_ORDER {
            for _ in 0..rest.get(k) {
                push(k, &mut s);
            }
        }
        s
    }

    /// Parses a move in canonical form or the inventor's notation and
    /// resolves it against the legal moves. Text in exact canonical form is
    /// read canonically (a captured letter's case is its colour); anything
    /// else is read as the inventor's notation.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let style = if is_canonical_syntax(text.trim()) {
            Style::Canonical
        } else {
            Style::Inventor
        };
        self.parse_with(text, style, false).map(|(m, _)| m)
    }

    /// Parses a move in the inventor's notation (as in his game records),
    /// returning what is written after it: check and mate marks, and any
    /// other words as a comment (`d1K-c1 forced`), which is not an error.
    pub fn parse_inventor(&self, text: &str) -> Result<(Move, Marks), MoveParseError> {
        self.parse_with(text, Style::Inventor, true)
    }

    /// With `comments`, words after the move that are not suffixes are a
    /// comment; without, they are an error (a lone move such as typed input).
    fn parse_with(
        &self,
        text: &str,
        style: Style,
        comments: bool,
    ) -> Result<(Move, Marks), MoveParseError> {
        let err = |reason: MoveProblem| MoveParseError {
            text: text.trim().to_string(),
            reason,
        };
        let p = parse_text(text).map_err(err)?;
        if let (false, Some(c)) = (comments, &p.marks.comment) {
            return Err(err(MoveProblem::Trailing(c.clone())));
        }
        let m = self.resolve(&p, style).map_err(err)?;
        Ok((m, p.marks))
    }

    fn resolve(&self, p: &Parsed, style: Style) -> Result<Move, MoveProblem> {
        let us = self.side;
        let from = p.from.ok_or(MoveProblem::NoOriginCell)?;
        let to = p.to.ok_or(MoveProblem::NoDestinationCell)?;
        for sq in [from, to] {
            if !self.variant.exists(sq) {
                return Err(MoveProblem::NotACell(sq));
            }
        }
        let Some(src) = self.ship_at(from) else {
            return Err(MoveProblem::NoShip(from));
        };
        if src.color(us).is_empty() {
            return Err(MoveProblem::NoCrewOf { from, side: us });
        }
        let dest_has_ship = self.ship_at(to).is_some();
        let ship_move = p.contents.is_some() || p.crew.is_empty() || !dest_has_ship;
        if ship_move && (p.capture || p.captured_letter.is_some()) {
            return Err(if dest_has_ship {
                MoveProblem::ShipCaptures
            } else {
                MoveProblem::NothingToCapture(to)
            });
        }
        if ship_move && dest_has_ship {
            return Err(MoveProblem::Occupied(to));
        }
        self.check_crew_written(p, src, from, ship_move)?;
        let captured = if ship_move || !(p.capture || p.captured_letter.is_some()) {
            None
        } else {
            Some(self.captured_piece(p, style, to)?)
        };
        self.the_legal_move(p, from, to, ship_move, captured)
    }

    /// Checks the crew a move text writes against the ship on `from`
    /// (`src`): a ship move's whole contents or crew aboard, a crew move's
    /// own crewmen.
    fn check_crew_written(
        &self,
        p: &Parsed,
        src: Crew,
        from: Square,
        ship_move: bool,
    ) -> Result<(), MoveProblem> {
        let us = self.side;
        if let Some(contents) = p.contents {
            let mut all = KindCounts::EMPTY;
            for c in Color::ALL {
                all = all.add(src.color(c));
            }
            if all != contents {
                return Err(MoveProblem::Contents {
                    from,
                    carries: all.letters(),
                    written: contents.letters(),
                });
            }
        } else if ship_move && !p.crew.is_empty() {
            // Crew written crew-style for a ship move: they must be aboard.
            let mut all = KindCounts::EMPTY;
            for c in Color::ALL {
                all = all.add(src.color(c));
            }
            if !all.contains(p.crew) {
                return Err(MoveProblem::NotAboard {
                    from,
                    carries: all.letters(),
                    written: p.crew.letters(),
                });
            }
        }
        if !ship_move && !src.color(us).contains(p.crew) {
            return Err(MoveProblem::NotCrew {
                from,
                written: p.crew.letters(),
                side: us,
                has: src.color(us).letters(),
            });
        }
        Ok(())
    }

    /// The crewman a capturing crew move takes on `to`: the one written
    /// (`xQ`, own or enemy as `style` reads the letter), or the only one
    /// there that can be taken.
    fn captured_piece(&self, p: &Parsed, style: Style, to: Square) -> Result<Piece, MoveProblem> {
        let us = self.side;
        let dest = self.cells[to.index()];
        match p.captured_letter {
            None => {
                // `x` without a kind: fine when only one crewman can be taken.
                let options: Vec<Piece> = dest
                    .pieces()
                    .map(|(pc, _)| pc)
                    .filter(|pc| pc.kind != Kind::King)
                    .collect();
                match options.as_slice() {
                    [one] => Ok(*one),
                    [] => Err(MoveProblem::NoCapture(to)),
                    _ => Err(MoveProblem::WhichCapture {
                        to,
                        holds: format!("{dest:?}"),
                    }),
                }
            }
            Some(l) => {
                let kind = Kind::from_letter(l).ok_or(MoveProblem::CapturedLetter)?;
                let color = if p.own {
                    us
                } else if style == Style::Canonical || l.is_ascii_lowercase() {
                    if l.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    }
                } else if dest.count(Piece::new(!us, kind)) > 0 {
                    !us
                } else {
                    us
                };
                let piece = Piece::new(color, kind);
                if kind == Kind::King {
                    return Err(MoveProblem::King);
                }
                if dest.count(piece) == 0 {
                    let whose = if color == us { "own" } else { "enemy" };
                    return Err(MoveProblem::NoCaptured {
                        whose,
                        kind: kind.name(),
                        to,
                    });
                }
                Ok(piece)
            }
        }
    }

    /// The one legal move from `from` to `to` that fits the text, or why
    /// none does (or several do).
    fn the_legal_move(
        &self,
        p: &Parsed,
        from: Square,
        to: Square,
        ship_move: bool,
        captured: Option<Piece>,
    ) -> Result<Move, MoveProblem> {
        let mut candidates: Vec<Move> = Vec::new();
        self.for_each_legal(|m| {
            if m.from() != from || m.to() != to || m.is_ship() != ship_move {
                return;
            }
            if !ship_move && (m.moving() != p.crew || m.captured() != captured) {
                return;
            }
            if p.promos_given && m.promotions() != p.promos {
                return;
            }
            candidates.push(m);
        });
        match candidates.len() {
            1 => Ok(candidates[0]),
            0 => Err(self.explain_illegal(p, from, to, ship_move, captured)),
            _ => {
                if candidates.iter().all(|m| !m.promotions().is_empty()) {
                    Err(MoveProblem::NoPromotionChoice)
                } else {
                    Err(MoveProblem::Ambiguous)
                }
            }
        }
    }

    fn explain_illegal(
        &self,
        p: &Parsed,
        from: Square,
        to: Square,
        ship_move: bool,
        captured: Option<Piece>,
    ) -> MoveProblem {
        let us = self.side;
        if ship_move {
            if self.reversal == Some((from, to)) {
                return MoveProblem::Undo { from, to };
            }
            let own = self.cells[from.index()].color(us);
            let reaches = Kind::ALL
                .iter()
                .any(|&k| own.get(k) > 0 && self.quiet_reach(us, k, from) & to.bit() != 0);
            if !reaches {
                return MoveProblem::NoPilot { side: us, from, to };
            }
        } else {
            let reaches = Kind::ALL.iter().any(|&k| {
                p.crew.get(k) > 0 && {
                    let r = if captured.is_some() {
                        self.capture_reach(us, k, from)
                    } else {
                        self.quiet_reach(us, k, from)
                    };
                    r & to.bit() != 0
                }
            });
            if !reaches {
                return MoveProblem::CannotReach {
                    crew: p.crew.letters(),
                    from,
                    to,
                    capture: captured.is_some(),
                };
            }
            let dest = self.cells[to.index()];
            let after = dest.total() + p.crew.total() - captured.is_some() as u32;
            if after > self.variant.capacity as u32 {
                return MoveProblem::Overfull {
                    to,
                    after,
                    capacity: self.variant.capacity,
                };
            }
        }
        if p.promos_given {
            return MoveProblem::Promotions;
        }
        MoveProblem::Check
    }
}

/// The promotion choices as a list in writing order.
fn promo_list(p: PromoCounts) -> Vec<Kind> {
    let mut v = Vec::new();
    for k in Kind::PROMOTIONS {
        for _ in 0..p.get(k) {
            v.push(k);
        }
    }
    v
}

/// Whether `t` is exactly in canonical form:
/// `<sq>[KQRBNP]*(-<sq>|x<sq>[KQRBNPkqrbnp])(=[QRBN]+)?[+#]?`.
fn is_canonical_syntax(t: &str) -> bool {
    let b = t.as_bytes();
    let sq = |i: usize| {
        b.len() >= i + 2 && (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1])
    };
    if !sq(0) {
        return false;
    }
    let mut i = 2;
    while i < b.len() && b"KQRBNP".contains(&b[i]) {
        i += 1;
    }
    if i >= b.len() {
        return false;
    }
    let capture = match b[i] {
        b'-' => false,
        b'x' => true,
        _ => return false,
    };
    i += 1;
    if !sq(i) {
        return false;
    }
    i += 2;
    if capture {
        if i >= b.len() || !b"KQRBNPkqrbnp".contains(&b[i]) {
            return false;
        }
        i += 1;
    }
    if i < b.len() && b[i] == b'=' {
        i += 1;
        let start = i;
        while i < b.len() && b"QRBN".contains(&b[i]) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'+' || b[i] == b'#') {
        i += 1;
    }
    i == b.len()
}

/// The suffixes written after a move (RULES.md §9.2, and `+`/`#` of the
/// canonical form), longest first, with the check and mate they mark.
const SUFFIXES: [(&str, bool, bool); 13] = [
    ("[**]", false, false),
    ("double*", true, false),
    ("{*}", true, false),
    ("**", false, true),
    ("*", true, false),
    ("#", false, true),
    ("+", true, false),
    ("!!", false, false),
    ("??", false, false),
    ("!?", false, false),
    ("?!", false, false),
    ("!", false, false),
    ("?", false, false),
];

/// The suffix at the start of `s`: its length, check and mate.
fn suffix_at(s: &str) -> Option<(usize, bool, bool)> {
    SUFFIXES
        .iter()
        .find(|(mark, _, _)| s.starts_with(mark))
        .map(|&(mark, check, mate)| (mark.len(), check, mate))
}

/// Adds the marks of `word` when it consists of suffixes only (`*`, `**?`).
fn suffix_word(word: &str, marks: &mut Marks) -> bool {
    let (mut rest, mut check, mut mate) = (word, false, false);
    while let Some((n, c, m)) = suffix_at(rest) {
        rest = &rest[n..];
        check |= c;
        mate |= m;
    }
    if !rest.is_empty() || word.is_empty() {
        return false;
    }
    marks.check |= check;
    marks.mate |= mate;
    true
}

/// Reads what follows a move: suffixes, attached (`d4R-c4*`) or not, then
/// any other words, which are a comment (`d1K-c1 forced`, `n.b. ...`);
/// suffixes ending the comment (`d1K-c1 forced *`) still mark the move.
/// `glued`: the text starts right after the move with no space between,
/// where anything but a suffix or a separator is a malformed move.
fn read_after_move(after: &str, glued: bool, marks: &mut Marks) -> Result<(), MoveProblem> {
    let mut s = after;
    let mut separated = !glued;
    loop {
        let trimmed = s.trim_start();
        separated |= trimmed.len() != s.len();
        s = trimmed;
        let Some((n, check, mate)) = suffix_at(s) else {
            break;
        };
        marks.check |= check;
        marks.mate |= mate;
        s = &s[n..];
        separated = true;
    }
    let rest = s
        .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '.'))
        .trim_end();
    if rest.is_empty() {
        return Ok(());
    }
    if !separated && !s.starts_with([',', ';', '.']) {
        return Err(MoveProblem::Trailing(s.trim_end().to_string()));
    }
    let mut comment = rest;
    while let Some((head, last)) = comment.rsplit_once(char::is_whitespace) {
        if !suffix_word(last, marks) {
            break;
        }
        comment = head.trim_end();
    }
    marks.comment = Some(comment.to_string());
    Ok(())
}

/// Splits move text into its parts. Accepts both notations and the slips
/// found in the inventor's records (spaces around `x`, `(...)` for `<...>`,
/// a captured kind after `-`). What follows the move is read by
/// [`read_after_move`]: suffixes, and any other words as a comment.
fn parse_text(text: &str) -> Result<Parsed, MoveProblem> {
    let mut p = Parsed::default();
    let t = text.trim();
    if t.trim_end_matches([',', ';', '.']).is_empty() {
        return Err(MoveProblem::Empty);
    }
    let mut r = Reader::new(t);
    p.from = Some(r.square().ok_or_else(|| MoveProblem::NoOrigin {
        found: r.peek_text(2),
    })?);
    if matches!(r.peek(), Some('<' | '(')) {
        let close = if r.peek() == Some('<') { '>' } else { ')' };
        r.i += 1;
        p.contents = Some(r.crew(Some(close), &mut p)?);
    } else {
        p.crew = r.crew(None, &mut p)?;
    }
    match r.peek() {
        Some('-') => {}
        Some('x' | 'X' | ':') => p.capture = true,
        Some(c) => return Err(MoveProblem::Separator(c)),
        None => return Err(MoveProblem::NoSeparator),
    }
    r.i += 1;
    p.to = Some(r.square().ok_or_else(|| MoveProblem::NoDestination {
        found: r.peek_text(2),
    })?);
    r.captured(&mut p);
    if r.peek() == Some('=') {
        r.i += 1;
        r.promotions(&mut p)?;
    }
    if r.i < r.chars.len() {
        read_after_move(&t[r.offsets[r.i]..], !r.gap[r.i], &mut p.marks)?;
    }
    Ok(p)
}

/// The characters of a move's text without its whitespace (spaces inside
/// a move are optional), each with its byte offset in the text and whether
/// whitespace came before it (where a comment may begin); `i` is the next
/// one to read.
struct Reader {
    chars: Vec<char>,
    offsets: Vec<usize>,
    gap: Vec<bool>,
    i: usize,
}

impl Reader {
    fn new(t: &str) -> Reader {
        let mut r = Reader {
            chars: Vec::new(),
            offsets: Vec::new(),
            gap: Vec::new(),
            i: 0,
        };
        let mut space = false;
        for (o, c) in t.char_indices() {
            if c.is_whitespace() {
                space = true;
                continue;
            }
            r.chars.push(c);
            r.offsets.push(o);
            r.gap.push(space);
            space = false;
        }
        r
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    /// Up to `n` characters from the next one, for messages.
    fn peek_text(&self, n: usize) -> String {
        self.chars.iter().skip(self.i).take(n).collect()
    }

    /// A cell like `d2`; the reader moves past it only when it is one.
    fn square(&mut self) -> Option<Square> {
        let s: String = self.chars.get(self.i..self.i + 2)?.iter().collect();
        let sq = Square::parse(&s)?;
        self.i += 2;
        Some(sq)
    }

    /// A crew list: letters, each pawn optionally followed by `(X)`, its
    /// promotion. Moving crew (`close` none) are capitals and end at the
    /// first other character; a ship's contents end at `close`.
    fn crew(&mut self, close: Option<char>, p: &mut Parsed) -> Result<KindCounts, MoveProblem> {
        let chars = &self.chars;
        let mut crew = KindCounts::EMPTY;
        while self.i < chars.len() {
            let c = chars[self.i];
            if Some(c) == close {
                self.i += 1;
                return Ok(crew);
            }
            let Some(kind) = Kind::from_letter(c) else {
                if close.is_some() {
                    return Err(MoveProblem::ContentsLetter(c));
                }
                break;
            };
            if close.is_none() && !c.is_ascii_uppercase() {
                return Err(MoveProblem::Lowercase(c));
            }
            crew = crew.add(KindCounts::one(kind));
            self.i += 1;
            let i = self.i;
            if i + 2 < chars.len() && chars[i] == '(' && chars[i + 2] == ')' {
                let pk = Kind::from_letter(chars[i + 1])
                    .filter(|k| k.promotion_index().is_some())
                    .ok_or(MoveProblem::PromotionChoice(chars[i + 1]))?;
                if kind != Kind::Pawn {
                    return Err(MoveProblem::NotAPawn {
                        crew: c,
                        choice: chars[i + 1],
                    });
                }
                p.promos = p.promos.add_one(pk);
                p.promos_given = true;
                self.i += 3;
            }
        }
        match close {
            Some(cl) => Err(MoveProblem::Unclosed(cl)),
            None => Ok(crew),
        }
    }

    /// Whether the letter at `j` stands alone: the text ends after it, or
    /// a space, a period ending the word, or a non-letter follows.
    fn alone(&self, j: usize) -> bool {
        match self.chars.get(j + 1) {
            None => true,
            Some(_) if self.gap[j + 1] => true,
            Some('.') => self.chars.get(j + 2).is_none_or(|_| self.gap[j + 2]),
            Some(c) => !c.is_alphanumeric(),
        }
    }

    /// The captured kind: attached (`d5P`, `a5p`), or a letter standing as
    /// a word of its own (`d5 P`), or after the word `own` (`a5 own P`); a
    /// word such as `Paris` or `n.b.` after a space begins a comment.
    fn captured(&mut self, p: &mut Parsed) {
        let (chars, gap, i) = (&self.chars, &self.gap, self.i);
        let own = i + 3 < chars.len()
            && gap[i]
            && gap[i + 3]
            && chars[i..i + 3]
                .iter()
                .collect::<String>()
                .eq_ignore_ascii_case("own")
            && Kind::from_letter(chars[i + 3]).is_some()
            && self.alone(i + 3);
        if own {
            p.own = true;
            p.captured_letter = Some(chars[i + 3]);
            self.i += 4;
        } else if let Some(&c) = chars.get(i) {
            if Kind::from_letter(c).is_some() && (!gap[i] || self.alone(i)) {
                p.captured_letter = Some(c);
                self.i += 1;
            }
        }
    }

    /// The promotion choices after `=`, which must agree with any given
    /// in the crew's `P(X)`.
    fn promotions(&mut self, p: &mut Parsed) -> Result<(), MoveProblem> {
        let start = self.i;
        let mut promos = PromoCounts::NONE;
        while let Some(k) = self.peek().and_then(Kind::from_letter) {
            if k.promotion_index().is_none() {
                return Err(MoveProblem::PromotionChoice(self.chars[self.i]));
            }
            promos = promos.add_one(k);
            self.i += 1;
        }
        if self.i == start {
            return Err(MoveProblem::NoPromotion);
        }
        if p.promos_given && promos != p.promos {
            return Err(MoveProblem::PromotionsDiffer);
        }
        p.promos = promos;
        p.promos_given = true;
        Ok(())
    }
}
