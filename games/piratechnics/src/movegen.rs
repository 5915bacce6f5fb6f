//! Legal move generation (RULES.md §5, §6, §8).
//!
//! Moves are produced per own ship. For each kind of own crewman aboard we
//! compute where it reaches quietly and where it captures; a ship move goes to
//! any reached cell without a ship, and a crew move sends any sub-multiset of
//! the own crew that contains at least one crewman reaching the target. Each
//! distinct move is therefore produced once, whoever leads it.
//!
//! Legality (own king not in check afterwards) is decided cheaply: when the
//! mover is not in check, most moves cannot expose the king (the king does
//! not move, no enemy crew changes cell, and no cell on a line through the
//! king stops blocking); only the others get the bitboard test of
//! [`Position::king_safe_after`].

use crate::crew::{Crew, KindCounts, PromoCounts};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Kind, Piece, Square};

/// A reusable move buffer: generation clears it and refills it, so a search
/// allocates only while the buffer first grows.
pub type MoveList = Vec<Move>;

const KING_PIECES: u16 = (1 << 5) | (1 << 11);

/// What the moves of every ship need, the same for all of one side's ships.
struct MoveContext {
    us: Color,
    them: Color,
    /// The ships' capacity.
    cap: u32,
    in_check: bool,
    /// The cells on a line through the mover's king.
    king_lines: u64,
    /// The mover's promotion cells.
    promo_cells: u64,
    /// The cells without a ship.
    no_ship: u64,
}

/// A ship's crew, the mover's part of it, and where each kind of that part
/// reaches (indexed by kind): quietly, capturing, and the unions.
struct CrewReach {
    crew: Crew,
    own: KindCounts,
    quiet: [u64; 6],
    capt: [u64; 6],
    any_quiet: u64,
    any: u64,
}

impl CrewReach {
    /// The kinds (a bit per kind index) that reach cell `tb` quietly, and
    /// those that capture on it.
    #[inline]
    fn kinds_at(&self, tb: u64) -> (u8, u8) {
        let mut qk = 0u8;
        let mut ck = 0u8;
        for k in 0..6 {
            if self.quiet[k] & tb != 0 {
                qk |= 1 << k;
            }
            if self.capt[k] & tb != 0 {
                ck |= 1 << k;
            }
        }
        (qk, ck)
    }
}

impl Position {
    /// Where a crewman of `kind` and `color` on `sq` reaches without capturing.
    #[inline]
    pub(crate) fn quiet_reach(&self, color: Color, kind: Kind, sq: Square) -> u64 {
        let v = self.variant;
        match kind {
            Kind::Pawn => v.pawn_push(color, sq, self.crewed),
            Kind::Knight => v.knight[sq.index()].0,
            Kind::Bishop => v.bishop_reach(sq, self.crewed),
            Kind::Rook => v.rook_reach(sq, self.crewed),
            Kind::Queen => v.rook_reach(sq, self.crewed) | v.bishop_reach(sq, self.crewed),
            Kind::King => v.king[sq.index()].0,
        }
    }

    /// Where a crewman of `kind` and `color` on `sq` captures.
    #[inline]
    pub(crate) fn capture_reach(&self, color: Color, kind: Kind, sq: Square) -> u64 {
        match kind {
            Kind::Pawn => self.variant.pawn_capture[color.index()][sq.index()].0,
            _ => self.quiet_reach(color, kind, sq),
        }
    }

    /// Calls `f` with every legal move, each once.
    #[inline]
    pub fn for_each_legal(&self, mut f: impl FnMut(Move)) {
        let cx = self.move_context();
        let mut ships = self.colored[cx.us.index()];
        while ships != 0 {
            let s = Square::from_index(ships.trailing_zeros() as usize);
            ships &= ships - 1;
            let reach = self.crew_reach(cx.us, s);
            self.ship_moves(&cx, s, &reach, &mut f);
            self.crew_moves(&cx, s, &reach, &mut f);
        }
    }

    /// What the moves of every ship need, computed once per generation.
    #[inline]
    fn move_context(&self) -> MoveContext {
        let us = self.side;
        let v = self.variant;
        let ksq = self.kings[us.index()];
        MoveContext {
            us,
            them: !us,
            cap: v.capacity as u32,
            in_check: self.in_check(),
            // Cells on a line through our king: only there can vacating a
            // cell discover an attack.
            king_lines: v.rays[ksq.index()].iter().fold(0u64, |a, b| a | b.0),
            promo_cells: v.promotion[us.index()].0,
            no_ship: v.cells.0 & !self.ships,
        }
    }

    /// Where each kind of `us`'s crew on the ship on `s` reaches.
    #[inline]
    fn crew_reach(&self, us: Color, s: Square) -> CrewReach {
        let crew = self.cells[s.index()];
        let own = crew.color(us);
        let mut r = CrewReach {
            crew,
            own,
            quiet: [0u64; 6],
            capt: [0u64; 6],
            any_quiet: 0,
            any: 0,
        };
        for k in Kind::ALL {
            if own.get(k) > 0 {
                let q = self.quiet_reach(us, k, s);
                let c = self.capture_reach(us, k, s);
                r.quiet[k.index()] = q;
                r.capt[k.index()] = c;
                r.any_quiet |= q;
                r.any |= q | c;
            }
        }
        r
    }

    /// The legal moves of the ship on `s` (with its whole crew) to cells
    /// without a ship.
    #[inline]
    fn ship_moves(&self, cx: &MoveContext, s: Square, reach: &CrewReach, f: &mut impl FnMut(Move)) {
        let mut dests = reach.any_quiet & cx.no_ship;
        if let Some((y, x)) = self.reversal {
            if y == s {
                dests &= !x.bit();
            }
        }
        if dests == 0 {
            return;
        }
        let (crew, own) = (reach.crew, reach.own);
        let own_pawns = own.get(Kind::Pawn);
        let always_safe = !cx.in_check
            && own.get(Kind::King) == 0
            && crew.color(cx.them).is_empty()
            && cx.king_lines & s.bit() == 0;
        while dests != 0 {
            let t = Square::from_index(dests.trailing_zeros() as usize);
            dests &= dests - 1;
            let base = Move::ship(s, t, PromoCounts::NONE);
            if !always_safe && !self.king_safe_after(base) {
                continue;
            }
            if own_pawns > 0 && cx.promo_cells & t.bit() != 0 {
                PromoCounts::for_each_of_size(own_pawns, |p| f(Move::ship(s, t, p)));
            } else {
                f(base);
            }
        }
    }

    /// The legal crew moves from the ship on `s` to the other ships: the
    /// non-empty sub-multisets of its own crew, with their kind masks and
    /// sizes, computed once per ship.
    #[inline]
    fn crew_moves(&self, cx: &MoveContext, s: Square, reach: &CrewReach, f: &mut impl FnMut(Move)) {
        let (crew, own) = (reach.crew, reach.own);
        let mut subsets = [(KindCounts::EMPTY, 0u8, 0u32); 64];
        let mut n_sub = 0;
        own.for_each_subset(|m| {
            if !m.is_empty() {
                subsets[n_sub] = (m, m.kind_mask(), m.total());
                n_sub += 1;
            }
        });
        let subsets = &subsets[..n_sub];
        let own_total = own.total();
        let ship_total = crew.total();
        let vacate_matters = cx.king_lines & s.bit() != 0;

        let mut targets = reach.any & self.ships & !s.bit();
        while targets != 0 {
            let t = Square::from_index(targets.trailing_zeros() as usize);
            targets &= targets - 1;
            let tb = t.bit();
            let (qk, ck) = reach.kinds_at(tb);
            let tcrew = self.cells[t.index()];
            let t_total = tcrew.total();
            let capturable = tcrew.piece_mask() & !KING_PIECES;
            let promo_here = cx.promo_cells & tb != 0;

            for &(m, mask, size) in subsets {
                let king_moves = m.get(Kind::King) > 0;
                // Does the origin stop blocking?
                let vacates = size == ship_total && own_total == size;
                let quick = !(cx.in_check || king_moves || (vacates && vacate_matters));
                let pawns = m.get(Kind::Pawn);
                let mut emit = |captured: Option<Piece>| {
                    let base = Move::crew(s, t, m, captured, PromoCounts::NONE);
                    if !quick && !self.king_safe_after(base) {
                        return;
                    }
                    if promo_here && pawns > 0 {
                        PromoCounts::for_each_of_size(pawns, |p| {
                            f(Move::crew(s, t, m, captured, p))
                        });
                    } else {
                        f(base);
                    }
                };
                if mask & qk != 0 && size + t_total <= cx.cap {
                    emit(None);
                }
                if mask & ck != 0 && capturable != 0 && size + t_total <= cx.cap + 1 {
                    let mut cm = capturable;
                    while cm != 0 {
                        let i = cm.trailing_zeros() as usize;
                        cm &= cm - 1;
                        emit(Some(Piece::from_index(i)));
                    }
                }
            }
        }
    }

    /// Fills `buf` with the legal moves (clearing it first).
    #[inline]
    pub fn legal_moves(&self, buf: &mut MoveList) {
        buf.clear();
        self.for_each_legal(|m| buf.push(m));
    }

    /// The legal moves in a new vector (convenience; searches should reuse a
    /// buffer with [`Position::legal_moves`]).
    pub fn legal_move_vec(&self) -> MoveList {
        let mut v = Vec::with_capacity(128);
        self.legal_moves(&mut v);
        v
    }

    /// Number of legal moves.
    #[inline]
    pub fn count_legal(&self) -> u64 {
        let mut n = 0;
        self.for_each_legal(|_| n += 1);
        n
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        // Generation is cheap relative to the cases that need this.
        self.count_legal() > 0
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut found = false;
        self.for_each_legal(|x| found |= x == m);
        found
    }
}
