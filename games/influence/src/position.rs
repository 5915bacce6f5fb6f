//! A position: the middle board's two armies, the two influence boards,
//! whose turn it is, which army Above helps, the move clock and the
//! incremental Zobrist hash (RULES.md §2–§9, §11.1).
//!
//! Everything is bit sets of 28 bits, so `Clone` is a plain copy of about
//! a hundred bytes and the search keeps its path on the stack.

use crate::rules::Rules;
use crate::tables::{diagonal_attacks, rook_attacks, KEYS, KING, KNIGHT, PAWN_ATTACKS};
use crate::types::{Army, Bits, Kind, Move, Piece, Player, Square, SQUARES};

/// Mailbox code of an empty square.
const EMPTY: u8 = 0;

/// One position of Influence Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// `1 + army*5 + kind` per square of the middle board, 0 when empty.
    mailbox: [u8; SQUARES],
    /// `[army][kind]` bit sets of the middle board.
    pieces: [[u32; 5]; 2],
    /// Every piece of each army.
    armies: [u32; 2],
    /// `[player]` princes on his influence board.
    princes: [u32; 2],
    /// `[player]` commander on his influence board (at most one bit).
    commanders: [u32; 2],
    turn: Player,
    /// The army Above helps; Below helps the other (fixed for the game).
    above_army: Army,
    /// Plies since the last capture or pawn move.
    clock: u16,
    /// Starts at 1, increases after each Below move.
    fullmove: u16,
    hash: u64,
    rules: Rules,
}

#[inline]
const fn code_of(p: Piece) -> u8 {
    1 + p.army as u8 * 5 + p.kind as u8
}

#[inline]
const fn piece_of(code: u8) -> Piece {
    let c = code - 1;
    Piece {
        army: if c < 5 { Army::White } else { Army::Black },
        kind: Kind::from_index((c % 5) as usize),
    }
}

impl Position {
    /// A position with nothing on any board, Above to move, helping `army`.
    pub(crate) fn empty(rules: Rules, above_army: Army) -> Position {
        let mut p = Position {
            mailbox: [EMPTY; SQUARES],
            pieces: [[0; 5]; 2],
            armies: [0; 2],
            princes: [0; 2],
            commanders: [0; 2],
            turn: Player::Above,
            above_army,
            clock: 0,
            fullmove: 1,
            hash: 0,
            rules,
        };
        p.hash = p.computed_hash();
        p
    }

    /// The start position of RULES.md §3, Above helping `above_army`.
    pub fn start(rules: Rules, above_army: Army) -> Position {
        let text = match above_army {
            Army::White => crate::START,
            Army::Black => crate::START_ABOVE_BLACK,
        };
        Position::parse(text, rules).expect("the start position parses")
    }

    // ----- accessors -----

    #[inline]
    pub fn turn(&self) -> Player {
        self.turn
    }
    /// The army `player` helps.
    #[inline]
    pub fn army_of(&self, player: Player) -> Army {
        match player {
            Player::Above => self.above_army,
            Player::Below => self.above_army.other(),
        }
    }
    /// The player who helps `army`.
    #[inline]
    pub fn helper_of(&self, army: Army) -> Player {
        if army == self.above_army {
            Player::Above
        } else {
            Player::Below
        }
    }
    #[inline]
    pub fn above_army(&self) -> Army {
        self.above_army
    }
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    #[inline]
    pub fn clock(&self) -> u16 {
        self.clock
    }
    #[inline]
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The middle piece on `s`.
    #[inline]
    pub fn piece_at(&self, s: Square) -> Option<Piece> {
        let c = self.mailbox[s.index()];
        (c != EMPTY).then(|| piece_of(c))
    }
    /// The bit set of `army`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, army: Army, kind: Kind) -> u32 {
        self.pieces[army.index()][kind.index()]
    }
    /// Every piece of `army`.
    #[inline]
    pub fn army_pieces(&self, army: Army) -> u32 {
        self.armies[army.index()]
    }
    /// Every occupied square of the middle board.
    #[inline]
    pub fn occupied(&self) -> u32 {
        self.armies[0] | self.armies[1]
    }
    #[inline]
    pub fn princes(&self, player: Player) -> u32 {
        self.princes[player.index()]
    }
    #[inline]
    pub fn commander(&self, player: Player) -> u32 {
        self.commanders[player.index()]
    }
    /// Every influence piece of `player`.
    #[inline]
    pub fn influence_pieces(&self, player: Player) -> u32 {
        self.princes[player.index()] | self.commanders[player.index()]
    }
    /// `army`'s king.
    #[inline]
    pub fn king(&self, army: Army) -> Square {
        Square::new(self.pieces[army.index()][Kind::King.index()].trailing_zeros() as u8)
    }

    // ----- influence and check (RULES.md §5, §8) -----

    /// The squares `player` influences: his commander's, and his princes'
    /// where the opponent has no commander (a prince is not stronger than a
    /// prince, and nothing is stronger than a commander).
    #[inline]
    pub fn influence(&self, player: Player) -> u32 {
        let (me, them) = (player.index(), 1 - player.index());
        self.commanders[me] | (self.princes[me] & !self.commanders[them])
    }

    /// The pieces of `army` that attack `s` on the middle board as it is
    /// (FIDE movement; a pawn attacks its two forward diagonals).
    #[inline]
    pub fn attackers(&self, s: Square, army: Army) -> u32 {
        let i = s.index();
        let p = &self.pieces[army.index()];
        let occ = self.occupied();
        let lines = p[Kind::Rook.index()] | p[Kind::Queen.index()];
        (KNIGHT[i] & p[Kind::Knight.index()])
            | (KING[i] & p[Kind::King.index()])
            // A pawn of `army` attacks `s` from where a pawn of the other
            // army on `s` would attack.
            | (PAWN_ATTACKS[army.other().index()][i] & p[Kind::Pawn.index()])
            | (rook_attacks(i, occ) & lines)
            | (diagonal_attacks(i, occ) & p[Kind::Queen.index()])
    }

    /// Whether `army`'s king is in check: the player who helps the other
    /// army influences a square holding a piece of the other army that
    /// attacks the king (RULES.md §8; pseudo-legal, as in chess).
    #[inline]
    pub fn army_in_check(&self, army: Army) -> bool {
        let enemy = army.other();
        let controlled = self.influence(self.helper_of(enemy)) & self.armies[enemy.index()];
        controlled != 0 && self.attackers(self.king(army), enemy) & controlled != 0
    }

    /// Whether the side to move's army is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.army_in_check(self.army_of(self.turn))
    }

    // ----- making moves -----

    #[inline]
    fn put(&mut self, s: Square, p: Piece) {
        self.mailbox[s.index()] = code_of(p);
        self.pieces[p.army.index()][p.kind.index()] |= s.bit();
        self.armies[p.army.index()] |= s.bit();
        self.hash ^= KEYS.piece[p.army.index()][p.kind.index()][s.index()];
    }

    #[inline]
    fn take(&mut self, s: Square, p: Piece) {
        self.mailbox[s.index()] = EMPTY;
        self.pieces[p.army.index()][p.kind.index()] &= !s.bit();
        self.armies[p.army.index()] &= !s.bit();
        self.hash ^= KEYS.piece[p.army.index()][p.kind.index()][s.index()];
    }

    /// Moves `player`'s influence piece on `from` to `to` (both on his board).
    #[inline]
    fn shift_influence(&mut self, player: Player, from: Square, to: Square) {
        let me = player.index();
        let kind = if self.commanders[me] & from.bit() != 0 {
            self.commanders[me] ^= from.bit() | to.bit();
            1
        } else {
            self.princes[me] ^= from.bit() | to.bit();
            0
        };
        self.hash ^= KEYS.influence[me][kind][from.index()] ^ KEYS.influence[me][kind][to.index()];
    }

    /// Plays `m`, a legal move, in place: boards, clock, turn and hash.
    #[inline]
    pub fn apply(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        if m.is_middle() {
            let code = self.mailbox[from.index()];
            debug_assert!(code != EMPTY, "no piece on {from}");
            let piece = piece_of(code);
            let target = self.mailbox[to.index()];
            self.take(from, piece);
            if target != EMPTY {
                self.take(to, piece_of(target));
            }
            let placed = match m.promotion().kind() {
                Some(k) => Piece {
                    army: piece.army,
                    kind: k,
                },
                None => piece,
            };
            self.put(to, placed);
            if m.is_accompanied() {
                self.shift_influence(self.turn, from, to);
            }
            if target != EMPTY || piece.kind == Kind::Pawn {
                self.clock = 0;
            } else {
                self.clock = self.clock.saturating_add(1);
            }
        } else {
            self.shift_influence(self.turn, from, to);
            self.clock = self.clock.saturating_add(1);
        }
        if self.turn == Player::Below {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = self.turn.other();
        self.hash ^= KEYS.below_to_move;
    }

    /// This position after `m`.
    #[inline]
    pub fn play(&self, m: Move) -> Position {
        let mut p = *self;
        p.apply(m);
        p
    }

    /// The hash computed from scratch (the incremental one must equal it).
    pub fn computed_hash(&self) -> u64 {
        let mut h = 0;
        for s in Bits(self.occupied()) {
            let p = piece_of(self.mailbox[s.index()]);
            h ^= KEYS.piece[p.army.index()][p.kind.index()][s.index()];
        }
        for pl in 0..2 {
            for s in Bits(self.princes[pl]) {
                h ^= KEYS.influence[pl][0][s.index()];
            }
            for s in Bits(self.commanders[pl]) {
                h ^= KEYS.influence[pl][1][s.index()];
            }
        }
        if self.turn == Player::Below {
            h ^= KEYS.below_to_move;
        }
        if self.above_army == Army::Black {
            h ^= KEYS.above_helps_black;
        }
        h
    }

    // ----- building positions (text, symmetries) -----

    pub(crate) fn set_piece(&mut self, s: Square, p: Piece) {
        if let Some(old) = self.piece_at(s) {
            self.take(s, old);
        }
        self.put(s, p);
    }

    pub(crate) fn set_influence(&mut self, player: Player, s: Square, commander: bool) {
        let me = player.index();
        if commander {
            self.commanders[me] |= s.bit();
        } else {
            self.princes[me] |= s.bit();
        }
        self.hash = self.computed_hash();
    }

    pub(crate) fn set_state(&mut self, turn: Player, clock: u16, fullmove: u16) {
        self.turn = turn;
        self.clock = clock;
        self.fullmove = fullmove;
        self.hash = self.computed_hash();
    }
}
