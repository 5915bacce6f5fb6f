//! The game boundary: the three traits every game implements.
//!
//! - [`Game`]: one game with its variant settled (board size, ship capacity,
//!   ...). A small value, cheap to clone, that makes start positions, parses
//!   position text and says how positions are encoded for the network.
//! - [`GameState`]: one position. Everything the hot paths do (legal moves,
//!   apply, hash, outcome, encode) is a method of the state, so the search,
//!   the encoder and the trainer are generic over it and monomorphised: no
//!   virtual call and no allocation per node.
//! - [`GameMove`]: one move, `Copy`, with a compact `u32` code that the
//!   shards store.
//!
//! A state carries whatever it needs of its variant (a `&'static` table or
//! a few copied numbers), so the hot paths never need the [`Game`] value.
//! See `docs/games.md` for how to add a game.

use crate::{Encoding, GameMove, GameState};
use std::fmt::Debug;

/// One game, its variant settled. Built from the `[game]` section of a run
/// file (or `--game`) by the binary's registry.
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// A position of this game.
    type State: GameState<Move = Self::Move>;
    /// A move of this game.
    type Move: GameMove;

    /// The registry name, as written in `[game] name` and in every shard and
    /// checkpoint ("piratechnics", "connect4", ...).
    const NAME: &'static str;

    /// The variant's name, recorded beside [`Game::NAME`]; a checkpoint or
    /// shard of another variant is refused.
    fn variant(&self) -> &str;

    /// The start position of this variant.
    fn start(&self) -> Self::State;

    /// Reads the game's position text (the inverse of
    /// [`GameState::to_text`]) in this variant. The error says what is wrong.
    fn parse_state(&self, text: &str) -> Result<Self::State, crate::GameError>;

    /// The variant of this game that a position text is on, when it is not
    /// this one: files that mix board sizes (Pirate Chess's perft vectors)
    /// read each line in its own variant (`triad perft --suite`). `None`:
    /// read the text with `self` (the default).
    fn variant_for_text(&self, _text: &str) -> Option<Self> {
        None
    }

    /// The encoding contract of this variant.
    fn encoding(&self) -> Encoding {
        self.start().encoding()
    }

    /// The moves of a finished or unfinished game as a record in the
    /// game's own notation (`triad data export`): numbered move pairs, and
    /// a closing line for a resignation (`resigned` true). The default
    /// writes `N) white, black;` lines of [`GameState::move_text`]; games
    /// with a traditional notation override it.
    fn record_text(&self, history: &crate::History<Self::State>, resigned: bool) -> String {
        crate::write_numbered(history.start(), history.moves(), 1, resigned, |p, m, _| {
            p.move_text(m)
        })
    }

    /// Reads a game record in the game's own notation (the format
    /// [`Game::record_text`] writes) from `start`, checking every move
    /// (`triad replay`). The error names the line and the move. Default:
    /// [`crate::replay_numbered`].
    fn replay_record(
        &self,
        start: Self::State,
        text: &str,
    ) -> Result<crate::RecordReplay<Self::State>, crate::GameError> {
        crate::replay_numbered(start, text)
    }

    /// Reads a whole game written on one line (`triad data import --format
    /// lines`, one game a line) from `start`, checking every move; the
    /// rules give the outcome. Default: the moves' texts
    /// ([`GameState::parse_move`]) separated by spaces; Connect Four reads
    /// its move string (`4453…`, the first word of a line of Pons's files).
    fn replay_line(
        &self,
        start: Self::State,
        line: &str,
    ) -> Result<crate::RecordReplay<Self::State>, crate::GameError> {
        crate::replay_moves(start, line.split_whitespace())
    }

    /// Fixed positions for speed benchmarks (`triad bench search`), the
    /// same in every build so figures compare. Default: six positions of
    /// seeded random playouts from the start.
    fn bench_positions(&self) -> Vec<Self::State> {
        crate::random_positions(&self.start(), 6, 1, 40)
    }

    /// The game's benchmark suite, read from the folder `dir` (Connect
    /// Four: Pons's six `.moves` files). Default: an error saying that the
    /// game has none.
    fn read_suite(
        &self,
        dir: &std::path::Path,
    ) -> Result<Vec<crate::SuiteFile<Self::State>>, crate::GameError> {
        let _ = dir;
        Err(crate::GameError::record(
            None,
            format!("the game `{}` has no benchmark suite", Self::NAME),
        ))
    }

    /// An exclusive upper bound of the variant's move codes
    /// ([`GameMove::code`]): the size of a fixed action space indexed by
    /// code (the Python binding's `num_distinct_actions`). Default: 2^32,
    /// for games whose codes are sparse bit fields and have no dense index.
    fn action_codes(&self) -> u64 {
        1 << 32
    }

    /// How many symmetries [`GameState::transform`] knows, the identity (0)
    /// included; 1 when the game has none that preserve its rules.
    fn symmetries(&self) -> usize {
        1
    }
}

/// What identifies the game a network or a shard belongs to: the game's
/// registry name, its variant and its encoding version. Checkpoints and
/// shards record it; one of another game or variant is refused with a
/// message naming both.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameTag {
    pub name: String,
    pub variant: String,
    pub encoding_version: u32,
}

impl GameTag {
    /// The tag of a game value.
    pub fn of<G: Game>(game: &G) -> GameTag {
        GameTag {
            name: G::NAME.to_string(),
            variant: game.variant().to_string(),
            encoding_version: game.encoding().version,
        }
    }

    /// Whether `name`/`variant` are this game's.
    pub fn same_game(&self, name: &str, variant: &str) -> bool {
        self.name == name && self.variant == variant
    }
}

impl std::fmt::Display for GameTag {
    /// `name/variant`, e.g. `piratechnics/standard`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.name, self.variant)
    }
}
