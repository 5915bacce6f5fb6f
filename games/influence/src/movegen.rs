//! Legal moves (RULES.md §6–§8): influence moves of the mover's own pieces,
//! middle moves of either army from the squares he influences, each with
//! and without the influence piece going along, filtered by the check rule
//! (the mover's army's king must not be in check afterwards).
//!
//! One generator feeds a sink, so listing (into the caller's buffer),
//! counting (perft's last ply) and "is there any" (the end test) share the
//! same code and none of them allocates.
//!
//! Legality is decided without playing where the rules allow it: a prince
//! moving on its own board changes nobody's influence (the opponent's
//! influence depends only on the mover's *commander*), so it is legal
//! exactly when the mover is not in check now; a commander move changes only
//! the opponent's influence, tested against the king's attackers of the
//! unchanged middle board. Middle moves are played on a copy and tested.

use crate::position::Position;
use crate::rules::CommanderStep;
use crate::tables::{diagonal_attacks, rook_attacks};
use crate::tables::{BETWEEN, COMMANDER_TWO, KING, KNIGHT, PAWN_ATTACKS, PAWN_PUSH};
use crate::types::{Bits, Kind, Move, Promotion, Square};

impl Position {
    /// Where `player`'s commander on `s` may go on his own board, whose
    /// pieces are `own`.
    #[inline]
    fn commander_targets(&self, s: Square, own: u32) -> u32 {
        let i = s.index();
        let one = KING[i] & !own;
        let mut two = 0;
        for t in Bits(COMMANDER_TWO[i] & !own) {
            if self.rules().commander == CommanderStep::Jump || BETWEEN[i][t.index()] & own == 0 {
                two |= t.bit();
            }
        }
        match self.rules().commander {
            CommanderStep::Two => two,
            CommanderStep::Line | CommanderStep::Jump => one | two,
        }
    }

    /// The middle-board squares the piece on `s` can move to (FIDE
    /// movement, own pieces block, kings are never taken).
    #[inline]
    fn middle_targets(&self, s: Square, kind: Kind, army: crate::Army) -> u32 {
        let i = s.index();
        let occ = self.occupied();
        let kings = self.pieces(crate::Army::White, Kind::King)
            | self.pieces(crate::Army::Black, Kind::King);
        let enemy = self.army_pieces(army.other());
        let reach = match kind {
            Kind::Pawn => {
                return (PAWN_PUSH[army.index()][i] & !occ)
                    | (PAWN_ATTACKS[army.index()][i] & enemy & !kings)
            }
            Kind::Knight => KNIGHT[i],
            Kind::King => KING[i],
            Kind::Rook => rook_attacks(i, occ),
            Kind::Queen => rook_attacks(i, occ) | diagonal_attacks(i, occ),
        };
        reach & !self.army_pieces(army) & !kings
    }

    /// Feeds every legal move to `emit`, in the fixed order (prince moves,
    /// commander moves, middle moves by origin square), until `emit`
    /// returns false. Returns false when stopped.
    #[inline]
    pub(crate) fn generate<F: FnMut(Move) -> bool>(&self, mut emit: F) -> bool {
        let me = self.turn();
        let mine = self.army_of(me);
        let enemy = mine.other();
        let own = self.influence_pieces(me);
        let checked = self.in_check();

        // Influence moves. A prince move changes nobody's influence.
        if !checked {
            for s in Bits(self.princes(me)) {
                for t in Bits(KING[s.index()] & !own) {
                    if !emit(Move::influence(s, t)) {
                        return false;
                    }
                }
            }
        }
        // A commander move changes the opponent's influence only.
        let king_attackers = self.attackers(self.king(mine), enemy);
        let opp = me.other();
        for s in Bits(self.commander(me)) {
            for t in Bits(self.commander_targets(s, own)) {
                let their = self.commander(opp) | (self.princes(opp) & !t.bit());
                if king_attackers & their == 0 && !emit(Move::influence(s, t)) {
                    return false;
                }
            }
        }

        // Middle moves from every influenced occupied square.
        let promotions = self.rules().promotions();
        for s in Bits(self.influence(me) & self.occupied()) {
            let piece = self.piece_at(s).expect("an occupied square");
            let by_commander = self.commander(me) & s.bit() != 0;
            let may_accompany = piece.kind != Kind::Knight || self.rules().knight_accompaniment;
            for t in Bits(self.middle_targets(s, piece.kind, piece.army)) {
                let accompany =
                    may_accompany && own & t.bit() == 0 && BETWEEN[s.index()][t.index()] & own == 0;
                let promoting = piece.kind == Kind::Pawn && t.rank() == piece.army.last_rank();
                let choices: &[Promotion] = if promoting {
                    promotions
                } else {
                    &[Promotion::None]
                };
                for &p in choices {
                    let plain = Move::middle(s, t, p, false);
                    if self.middle_is_legal(plain, piece.kind, piece.army) && !emit(plain) {
                        return false;
                    }
                    if accompany {
                        let along = Move::middle(s, t, p, true);
                        // A prince going along changes nobody's influence:
                        // the same verdict as without it.
                        let ok = if by_commander {
                            self.middle_is_legal(along, piece.kind, piece.army)
                        } else {
                            self.middle_is_legal(plain, piece.kind, piece.army)
                        };
                        if ok && !emit(along) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// Whether middle move `m` of a `kind` of `army` leaves the mover's
    /// army's king out of check (and, under `safe_kings`, a moved king of
    /// the other army too).
    #[inline]
    fn middle_is_legal(&self, m: Move, kind: Kind, army: crate::Army) -> bool {
        let after = self.play(m);
        let mine = self.army_of(self.turn());
        if after.army_in_check(mine) {
            return false;
        }
        !(self.rules().safe_kings
            && kind == Kind::King
            && army != mine
            && after.army_in_check(army))
    }

    /// Clears `out` and fills it with every legal move.
    #[inline]
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.generate(|m| {
            out.push(m);
            true
        });
    }

    /// The number of legal moves, without listing them.
    #[inline]
    pub fn count_legal(&self) -> u64 {
        let mut n = 0;
        self.generate(|_| {
            n += 1;
            true
        });
        n
    }

    /// Whether the side to move has a legal move (stops at the first).
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        !self.generate(|_| false)
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        !self.generate(|x| x != m)
    }
}
