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

use crate::crew::{KindCounts, PromoCounts};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Kind, Piece, Square};

/// A reusable move buffer: generation clears it and refills it, so a search
/// allocates only while the buffer first grows.
pub type MoveList = Vec<Move>;

const KING_PIECES: u16 = (1 << 5) | (1 << 11);

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
    ///
    /// One function on purpose: split into a move context, each ship's
    /// crew reach, its ship moves and its crew moves (`#[inline]` helpers,
    /// the same moves in the same order), the release binary's
    /// `triad perft --depth 5` ran 4% slower (A/B wall 1.041, range
    /// 1.035-1.069, 5 interleaved pairs), so the split was taken back.
    #[inline]
    pub fn for_each_legal(&self, mut f: impl FnMut(Move)) {
        let us = self.side;
        let them = !us;
        let v = self.variant;
        let cap = v.capacity as u32;
        let ksq = self.kings[us.index()];
        let in_check = self.in_check();
        // Cells on a line through our king: only there can vacating a cell
        // discover an attack.
        let king_lines = {
            let r = &v.rays[ksq.index()];
            r.iter().fold(0u64, |a, b| a | b.0)
        };
        let promo_cells = v.promotion[us.index()].0;
        let no_ship = v.cells.0 & !self.ships;

        let mut ships = self.colored[us.index()];
        while ships != 0 {
            let s = Square::from_index(ships.trailing_zeros() as usize);
            ships &= ships - 1;
            let crew = self.cells[s.index()];
            let own = crew.color(us);
            let own_pawns = own.get(Kind::Pawn);
            let has_king = own.get(Kind::King) > 0;

            let mut quiet = [0u64; 6];
            let mut capt = [0u64; 6];
            let mut any_quiet = 0u64;
            let mut any = 0u64;
            for k in Kind::ALL {
                if own.get(k) > 0 {
                    let q = self.quiet_reach(us, k, s);
                    let c = self.capture_reach(us, k, s);
                    quiet[k.index()] = q;
                    capt[k.index()] = c;
                    any_quiet |= q;
                    any |= q | c;
                }
            }

            // Ship moves.
            let mut dests = any_quiet & no_ship;
            if let Some((y, x)) = self.reversal {
                if y == s {
                    dests &= !x.bit();
                }
            }
            if dests != 0 {
                let always_safe = !in_check
                    && !has_king
                    && crew.color(them).is_empty()
                    && king_lines & s.bit() == 0;
                while dests != 0 {
                    let t = Square::from_index(dests.trailing_zeros() as usize);
                    dests &= dests - 1;
                    let base = Move::ship(s, t, PromoCounts::NONE);
                    if !always_safe && !self.king_safe_after(base) {
                        continue;
                    }
                    if own_pawns > 0 && promo_cells & t.bit() != 0 {
                        PromoCounts::for_each_of_size(own_pawns, |p| f(Move::ship(s, t, p)));
                    } else {
                        f(base);
                    }
                }
            }

            // Crew moves: the non-empty sub-multisets of own crew, with their
            // kind masks and sizes, computed once per ship.
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
            let vacate_matters = king_lines & s.bit() != 0;

            let mut targets = any & self.ships & !s.bit();
            while targets != 0 {
                let t = Square::from_index(targets.trailing_zeros() as usize);
                targets &= targets - 1;
                let tb = t.bit();
                let mut qk = 0u8;
                let mut ck = 0u8;
                for k in 0..6 {
                    if quiet[k] & tb != 0 {
                        qk |= 1 << k;
                    }
                    if capt[k] & tb != 0 {
                        ck |= 1 << k;
                    }
                }
                let tcrew = self.cells[t.index()];
                let t_total = tcrew.total();
                let capturable = tcrew.piece_mask() & !KING_PIECES;
                let promo_here = promo_cells & tb != 0;

                for &(m, mask, size) in subsets {
                    let king_moves = m.get(Kind::King) > 0;
                    // Does the origin stop blocking?
                    let vacates = size == ship_total && own_total == size;
                    let quick = !(in_check || king_moves || (vacates && vacate_matters));
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
                    if mask & qk != 0 && size + t_total <= cap {
                        emit(None);
                    }
                    if mask & ck != 0 && capturable != 0 && size + t_total <= cap + 1 {
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
