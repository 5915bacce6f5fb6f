//! One position and one move of a game: [`GameState`] (everything the
//! hot paths do is a method of the state, so the search, the encoder and
//! the trainer are generic over it and monomorphised: no virtual call and
//! no allocation per node), [`GameMove`] (a `Copy` move with a compact
//! `u32` code that the shards store) and the network's [`Encoding`] of a
//! position. The game itself, [`crate::Game`], builds on these.

use crate::{Color, Outcome};
use std::fmt::Debug;
use std::hash::Hash;

/// What the network's input looks like for a game and variant: planes of
/// `height × width` cells, and `move_features` numbers per legal move
/// besides its two cells (the legal-move scorer of ARCHITECTURE.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// Input planes per position.
    pub planes: usize,
    /// Numbers per legal move besides its origin and destination cells.
    pub move_features: usize,
    /// Board cells seen by the network, rows and columns.
    pub height: usize,
    pub width: usize,
    /// Bumped by a game whenever a plane or a move feature changes meaning,
    /// so that old checkpoints refuse to load instead of misreading inputs.
    pub version: u32,
    /// Whether the game's symmetry 1 is a left-right flip of the planes
    /// (column `c` to `width - 1 - c`, every plane) that maps each move's
    /// cells the same way and leaves its features as they are: then a
    /// mirror-equivariant network (`[model] mirror`) answers the mirror
    /// image exactly as the position, mirrored. Connect Four's is.
    pub mirror: bool,
}

impl Encoding {
    /// Cells of the board (`height * width`).
    #[inline]
    pub fn cells(&self) -> usize {
        self.height * self.width
    }
    /// Floats of one position's planes.
    #[inline]
    pub fn plane_len(&self) -> usize {
        self.planes * self.cells()
    }
}

/// One position of a game.
///
/// Positions are copy-make friendly: `Clone` is expected to be a plain
/// memory copy (no heap data), so searches keep their paths on the stack.
pub trait GameState: Clone + Send + Sync + Debug + PartialEq + 'static {
    type Move: GameMove;

    /// Who moves.
    fn side(&self) -> Color;

    /// Clears `out` and fills it with every legal move, in the game's fixed
    /// order (the order encodings and stored visit counts follow).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Whether there is at least one legal move (games override this with a
    /// test that stops at the first move).
    fn has_legal_move(&self) -> bool {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        !v.is_empty()
    }

    /// The number of legal moves (perft's last ply; games may count
    /// without listing).
    fn count_legal_moves(&self) -> u64 {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v.len() as u64
    }

    /// Whether `m` is legal here (for moves that come from outside).
    fn is_legal(&self, m: Self::Move) -> bool {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v.contains(&m)
    }

    /// Plays a legal move in place.
    fn apply(&mut self, m: Self::Move);

    /// This position after `m` (copy-make).
    #[inline]
    fn play(&self, m: Self::Move) -> Self {
        let mut p = self.clone();
        p.apply(m);
        p
    }

    /// The position's hash: equal for positions the rules treat as the same
    /// for repetition (move clocks excluded). Kept incrementally by games
    /// that can.
    fn hash(&self) -> u64;

    /// Plies since the last irreversible move: positions further back in the
    /// game cannot repeat this one (0 for games without repetition).
    fn reversible_plies(&self) -> u32;

    /// The result by the rules, given whether the side to move has a legal
    /// move (callers on hot paths have just generated them) and how often
    /// this position has occurred in its game, this time included.
    /// The one home of every terminal rule of the game.
    fn terminal(&self, has_legal_move: bool, repetitions: u32) -> Option<Outcome>;

    /// The result by the rules, or `None` while the game goes on.
    #[inline]
    fn outcome(&self, repetitions: u32) -> Option<Outcome> {
        self.terminal(self.has_legal_move(), repetitions)
    }

    /// Whether playing `m` wins at once (a mate in one, a line of four): the
    /// search's mate check. Games override the default (play, then ask the
    /// rules with no repetition) with a cheaper test.
    #[inline]
    fn is_winning_move(&self, m: Self::Move) -> bool {
        let after = self.play(m);
        matches!(after.outcome(1), Some(o) if o.result == crate::GameResult::win_for(self.side()))
    }

    /// The game's position text (TFEN, a move sequence, ...).
    fn to_text(&self) -> String;

    /// The position drawn as text for a terminal (`triad show`, `triad
    /// play`), ending with a newline. Default: the position text.
    fn diagram(&self) -> String {
        format!("{}\n", self.to_text())
    }

    /// The position as a picture (`triad show --svg`, `triad explore`):
    /// boards, what stands on each cell, a caption; [`crate::draw::svg`]
    /// renders it. Default: the [`GameState::diagram`] as text.
    fn drawing(&self) -> crate::Drawing {
        crate::draw::text_drawing(&self.diagram())
    }

    /// The cells of [`GameState::drawing`] that a legal move `m` goes from
    /// and to (the same cell twice for a drop or a Connect Four column),
    /// for arrows and visit shares on the board. Default: `None` (the move
    /// is listed but not drawn).
    fn move_cells(&self, m: Self::Move) -> Option<(crate::CellRef, crate::CellRef)> {
        let _ = m;
        None
    }

    /// The game's text of a legal move `m` in this position.
    fn move_text(&self, m: Self::Move) -> String;

    /// Reads a move in the game's move text; the error says what is wrong.
    fn parse_move(&self, text: &str) -> Result<Self::Move, crate::GameError>;

    /// The encoding contract of this position's variant (as
    /// [`Game::encoding`]): what [`GameState::encode_planes`] and
    /// [`GameState::encode_move`] write.
    fn encoding(&self) -> Encoding;

    /// Writes the input planes of this position into `out`
    /// (`Encoding::plane_len` floats, plane-major), seen from the side to
    /// move. `repetitions` as in [`GameState::terminal`] (0 is read as 1).
    fn encode_planes(&self, repetitions: u8, out: &mut [f32]);

    /// Writes the per-move features of `m` into `features`
    /// (`Encoding::move_features` floats) and returns the cells (indices
    /// into the `height × width` grid the planes use) of its origin and
    /// destination, which the policy head reads from the trunk.
    fn encode_move(&self, m: Self::Move, features: &mut [f32]) -> (usize, usize);

    /// This position under symmetry `sym` (`0..Game::symmetries()`; 0 is the
    /// identity). Used for augmentation: the rules must be invariant under it.
    fn transform(&self, sym: usize) -> Self {
        debug_assert_eq!(sym, 0, "this game has no symmetries");
        self.clone()
    }

    /// `m`, a move of this position, under symmetry `sym`: a move of
    /// `self.transform(sym)`.
    fn transform_move(&self, m: Self::Move, sym: usize) -> Self::Move {
        debug_assert_eq!(sym, 0, "this game has no symmetries");
        m
    }
}

/// One move: small, `Copy`, with a compact code that round-trips.
pub trait GameMove: Copy + Eq + Ord + Hash + Debug + Send + Sync + 'static {
    /// The compact code stored in shards.
    fn code(self) -> u32;
    /// Decodes a [`GameMove::code`]; `None` for a value no move has.
    fn from_code(code: u32) -> Option<Self>;
}
