//! The position: ships and crew on the board, side to move, the forbidden
//! reversal, the no-capture clock, and an incrementally updated hash.
//!
//! Copy-make: [`Position::play`] returns a new position. A position is a few
//! hundred bytes with no heap data, so a copy is a `memcpy`, and searches keep
//! their history on the stack.

use crate::crew::{Crew, KindCounts};
use crate::moves::Move;
use crate::types::{Bitboard, Color, Kind, Piece, Square};
use crate::variant::Variant;
use crate::zobrist::keys;

#[derive(Clone)]
pub struct Position {
    pub(crate) variant: &'static Variant,
    pub(crate) cells: [Crew; 64],
    /// Cells with a ship.
    pub(crate) ships: u64,
    /// Cells with a ship that carries at least one crewman (these block lines).
    pub(crate) crewed: u64,
    /// Cells whose ship carries at least one of each piece (index `color*6+kind`).
    pub(crate) pieces: [u64; 12],
    /// Cells whose ship carries at least one crewman of each colour.
    pub(crate) colored: [u64; 2],
    pub(crate) kings: [Square; 2],
    pub(crate) side: Color,
    pub(crate) reversal: Option<(Square, Square)>,
    pub(crate) clock: u16,
    pub(crate) fullmove: u16,
    pub(crate) hash: u64,
}

impl PartialEq for Position {
    /// Equal boards, side, reversal, clock and move number.
    fn eq(&self, o: &Position) -> bool {
        std::ptr::eq(self.variant, o.variant)
            && self.cells == o.cells
            && self.ships == o.ships
            && self.side == o.side
            && self.reversal == o.reversal
            && self.clock == o.clock
            && self.fullmove == o.fullmove
    }
}
impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_tfen())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The standard start position.
    pub fn start() -> Position {
        Position::start_of(Variant::standard())
    }

    /// The start position of a variant.
    pub fn start_of(variant: &'static Variant) -> Position {
        Position::from_tfen_in(&variant.start_tfen, variant)
            .expect("a variant's start position parses")
    }

    /// An empty board (no ships) of a variant, for building positions.
    pub(crate) fn empty(variant: &'static Variant) -> Position {
        Position {
            variant,
            cells: [Crew::EMPTY; 64],
            ships: 0,
            crewed: 0,
            pieces: [0; 12],
            colored: [0; 2],
            kings: [Square::from_index(0); 2],
            side: Color::White,
            reversal: None,
            clock: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    #[inline]
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }
    /// `Some((y, x))`: the ship on `y` may not sail to `x` this turn.
    #[inline]
    pub fn reversal(&self) -> Option<(Square, Square)> {
        self.reversal
    }
    /// Plies since the last capture.
    #[inline]
    pub fn clock(&self) -> u16 {
        self.clock
    }
    #[inline]
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }
    /// Zobrist hash of board, side to move and forbidden reversal (the
    /// repetition identity of RULES.md §7; clocks excluded).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }
    /// The crew of the ship on `sq`, or `None` where there is no ship.
    #[inline]
    pub fn ship_at(&self, sq: Square) -> Option<Crew> {
        (self.ships & sq.bit() != 0).then(|| self.cells[sq.index()])
    }
    /// Cells with a ship.
    #[inline]
    pub fn ships(&self) -> Bitboard {
        Bitboard(self.ships)
    }
    /// Cells whose ship has crew (these block lines).
    #[inline]
    pub fn crewed(&self) -> Bitboard {
        Bitboard(self.crewed)
    }
    /// Cells whose ship carries at least one `piece`.
    #[inline]
    pub fn cells_with(&self, piece: Piece) -> Bitboard {
        Bitboard(self.pieces[piece.index()])
    }
    /// Cells whose ship carries at least one crewman of `color`.
    #[inline]
    pub fn cells_of(&self, color: Color) -> Bitboard {
        Bitboard(self.colored[color.index()])
    }

    /// Counts of each piece on the board.
    pub fn material(&self) -> [u32; 12] {
        let mut m = [0u32; 12];
        for sq in Bitboard(self.crewed) {
            for (p, n) in self.cells[sq.index()].pieces() {
                m[p.index()] += n;
            }
        }
        m
    }

    /// Puts a ship with `crew` on `sq` (or changes its crew), keeping every
    /// derived bitboard and the hash up to date.
    #[inline]
    pub(crate) fn set_ship(&mut self, sq: Square, crew: Crew) {
        let i = sq.index();
        let bit = sq.bit();
        let old = self.cells[i];
        let k = keys();
        self.hash ^= k.cell(sq, self.ships & bit != 0, old) ^ k.cell(sq, true, crew);
        self.cells[i] = crew;
        self.ships |= bit;
        self.update_bits(sq, old, crew);
    }

    /// Removes the ship on `sq`.
    #[inline]
    pub(crate) fn clear_ship(&mut self, sq: Square) {
        let i = sq.index();
        let old = self.cells[i];
        self.hash ^= keys().cell(sq, self.ships & sq.bit() != 0, old);
        self.cells[i] = Crew::EMPTY;
        self.ships &= !sq.bit();
        self.update_bits(sq, old, Crew::EMPTY);
    }

    #[inline]
    fn update_bits(&mut self, sq: Square, old: Crew, new: Crew) {
        let bit = sq.bit();
        let mut diff = old.piece_mask() ^ new.piece_mask();
        while diff != 0 {
            let p = diff.trailing_zeros() as usize;
            self.pieces[p] ^= bit;
            diff &= diff - 1;
        }
        if new.is_empty() {
            self.crewed &= !bit;
        } else {
            self.crewed |= bit;
        }
        for c in Color::ALL {
            if new.color(c).is_empty() {
                self.colored[c.index()] &= !bit;
            } else {
                self.colored[c.index()] |= bit;
            }
        }
    }

    /// Recomputes the hash from scratch (tests compare it with the
    /// incremental one).
    pub fn compute_hash(&self) -> u64 {
        let k = keys();
        let mut h = 0;
        for sq in Bitboard(self.ships) {
            h ^= k.cell(sq, true, self.cells[sq.index()]);
        }
        if self.side == Color::Black {
            h ^= k.black_to_move;
        }
        h ^ k.reversal(self.reversal)
    }

    /// Whether `color` has a crewman on another ship that could capture into
    /// `sq` (capacity ignored), with `crewed` as the blocking cells and
    /// `pieces` as that colour's piece bitboards.
    #[inline]
    pub(crate) fn attacked_with(&self, sq: Square, by: Color, crewed: u64, p: &[u64; 6]) -> bool {
        let v = self.variant;
        let i = sq.index();
        if v.knight[i].0 & p[Kind::Knight.index()] != 0
            || v.king[i].0 & p[Kind::King.index()] != 0
            || v.pawn_attackers[by.index()][i].0 & p[Kind::Pawn.index()] != 0
        {
            return true;
        }
        let rq = p[Kind::Rook.index()] | p[Kind::Queen.index()];
        if rq != 0 && v.rook_reach(sq, crewed) & rq != 0 {
            return true;
        }
        let bq = p[Kind::Bishop.index()] | p[Kind::Queen.index()];
        bq != 0 && v.bishop_reach(sq, crewed) & bq != 0
    }

    #[inline]
    pub(crate) fn color_pieces(&self, c: Color) -> &[u64; 6] {
        let s = c.index() * 6;
        self.pieces[s..s + 6].try_into().expect("six kinds")
    }

    /// Whether `by` attacks `sq` in this position.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked_with(sq, by, self.crewed, self.color_pieces(by))
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_attacked(self.kings[self.side.index()], !self.side)
    }

    /// Number of enemy crewmen giving check to the side to move.
    pub fn checkers(&self) -> u32 {
        let us = self.side;
        let them = !us;
        let ksq = self.kings[us.index()];
        let v = self.variant;
        let i = ksq.index();
        let p = self.color_pieces(them);
        let mut cells = v.knight[i].0 & p[1]
            | v.king[i].0 & p[5]
            | v.pawn_attackers[them.index()][i].0 & p[0]
            | v.rook_reach(ksq, self.crewed) & (p[3] | p[4])
            | v.bishop_reach(ksq, self.crewed) & (p[2] | p[4]);
        let mut n = 0;
        // Count crewmen (several attackers may share a ship).
        while cells != 0 {
            let s = Square::from_index(cells.trailing_zeros() as usize);
            cells &= cells - 1;
            let crew = self.cells[s.index()].color(them);
            for k in Kind::ALL {
                let cnt = crew.get(k);
                if cnt == 0 {
                    continue;
                }
                let reach = match k {
                    Kind::Knight => v.knight[s.index()].0,
                    Kind::King => v.king[s.index()].0,
                    Kind::Pawn => v.pawn_capture[them.index()][s.index()].0,
                    Kind::Rook => v.rook_reach(s, self.crewed),
                    Kind::Bishop => v.bishop_reach(s, self.crewed),
                    Kind::Queen => v.rook_reach(s, self.crewed) | v.bishop_reach(s, self.crewed),
                };
                if reach & ksq.bit() != 0 {
                    n += cnt;
                }
            }
        }
        n
    }

    /// Plays a move that must be legal in this position and returns the result.
    #[inline]
    pub fn play(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.apply(m);
        p
    }

    /// Plays a move in place. The move must be legal (see
    /// [`Position::is_legal`]); applying anything else corrupts the position.
    pub fn apply(&mut self, m: Move) {
        let us = self.side;
        let k = keys();
        self.hash ^= k.reversal(self.reversal);
        let mut captured = false;
        if m.is_ship() {
            let mut crew = self.cells[m.from.index()];
            if !m.promo.is_empty() {
                let pawns = crew.color(us).get(Kind::Pawn);
                crew = crew
                    .sub(us, KindCounts::one(Kind::Pawn).with(Kind::Pawn, pawns))
                    .add(us, m.promo.as_kinds());
            }
            self.clear_ship(m.from);
            self.set_ship(m.to, crew);
            for c in Color::ALL {
                if crew.color(c).get(Kind::King) > 0 {
                    self.kings[c.index()] = m.to;
                }
            }
            self.reversal = Some((m.to, m.from));
        } else {
            let src = self.cells[m.from.index()].sub(us, m.moving);
            self.set_ship(m.from, src);
            let mut dst = self.cells[m.to.index()];
            if let Some(p) = m.captured() {
                dst = dst.remove_piece(p);
                captured = true;
            }
            let arriving = if m.promo.is_empty() {
                m.moving
            } else {
                m.moving.with(Kind::Pawn, 0).add(m.promo.as_kinds())
            };
            self.set_ship(m.to, dst.add(us, arriving));
            if m.moving.get(Kind::King) > 0 {
                self.kings[us.index()] = m.to;
            }
            self.reversal = None;
        }
        self.hash ^= k.reversal(self.reversal) ^ k.black_to_move;
        self.clock = if captured {
            0
        } else {
            self.clock.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = !us;
    }

    /// Whether the side to move's king is safe after `m` (which must be
    /// pseudo-legal). Works on bitboards only: no copy of the position.
    #[inline]
    pub(crate) fn king_safe_after(&self, m: Move) -> bool {
        let us = self.side;
        let them = !us;
        let mut crewed = self.crewed;
        let mut enemy = *self.color_pieces(them);
        let mut ksq = self.kings[us.index()];
        let from = m.from.bit();
        let to = m.to.bit();
        if m.is_ship() {
            let crew = self.cells[m.from.index()];
            crewed = (crewed & !from) | to;
            let theirs = crew.color(them);
            if !theirs.is_empty() {
                for k in Kind::ALL {
                    if theirs.get(k) > 0 {
                        enemy[k.index()] = (enemy[k.index()] & !from) | to;
                    }
                }
            }
            if crew.color(us).get(Kind::King) > 0 {
                ksq = m.to;
            }
        } else {
            if self.cells[m.from.index()].total() == m.moving.total() {
                crewed &= !from;
            }
            crewed |= to;
            if let Some(p) = m.captured() {
                if p.color == them && self.cells[m.to.index()].count(p) == 1 {
                    enemy[p.kind.index()] &= !to;
                }
            }
            if m.moving.get(Kind::King) > 0 {
                ksq = m.to;
            }
        }
        !self.attacked_with(ksq, them, crewed, &enemy)
    }
}
