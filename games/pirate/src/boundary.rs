//! Pirate Chess behind the game boundary (`game::Game`, `game::GameState`,
//! `game::GameMove`). The inherent methods of [`Position`] and [`Move`] do
//! the work; these impls route the traits to them.

use crate::encode::{encode_move, encode_planes, ENCODING_VERSION, MOVE_FEATURES, PLANES};
use crate::geometry::Size;
use crate::position::Position;
use crate::types::Move;
use game::GameError;
use game::{Color, Encoding, GameState, Outcome};

/// Pirate Chess on one board size: the value the binary's registry builds
/// from `[game] name = "pirate"`.
#[derive(Clone, Debug)]
pub struct Pirate {
    size: Size,
    /// `WxH`, the text shards and checkpoints record.
    variant: String,
}

impl Pirate {
    /// The game on a board of `size`.
    pub fn sized(size: Size) -> Pirate {
        Pirate {
            size,
            variant: size.to_string(),
        }
    }

    /// The default game, 8 × 8.
    pub fn standard() -> Pirate {
        Pirate::sized(Size::DEFAULT)
    }

    /// The game of a `[game]` section: a variant (`standard`, which is
    /// 8x8, or `WxH`) with the `width` and `height` keys overriding it.
    /// Errors say what is allowed.
    pub fn named(
        variant: &str,
        width: Option<u32>,
        height: Option<u32>,
    ) -> Result<Pirate, GameError> {
        let base = match variant {
            "" | "standard" => Size::DEFAULT,
            v => Size::parse(v).map_err(|e| {
                let message = format!(
                    "unknown pirate variant {v:?}: pirate has `standard` (8x8) or WxH ({e})"
                );
                GameError::options("variant", message).because(e)
            })?,
        };
        let size = Size::new(
            width.unwrap_or(base.width as u32),
            height.unwrap_or(base.height as u32),
        )?;
        Ok(Pirate::sized(size))
    }

    pub fn size(&self) -> Size {
        self.size
    }
}

/// Pirate Chess in the registry: `[game] name = "pirate"`, its variants
/// (`standard`, 8x8, or `WxH`), and its keys `width` and `height` (even,
/// 6..16, overriding the variant's).
pub const DESCRIPTOR: game::Descriptor<Pirate> = game::Descriptor {
    about: game::About {
        name: "pirate",
        variants: "standard (8x8), or WxH",
        keys: "width, height = even, 6..16 (docs/games/pirate.md)",
    },
    build: from_options,
};

/// The game of a variant name and `[game]` keys ([`DESCRIPTOR`]).
fn from_options(variant: &str, options: &game::GameOptions) -> Result<Pirate, GameError> {
    let (width, height) = game::board_sides(options, "pirate", "(even, 6..16)", |v| {
        u32::try_from(v)
            .ok()
            .filter(|v| (6..=16).contains(v) && v.is_multiple_of(2))
    })?;
    Pirate::named(variant, width, height)
        .map_err(|e| GameError::options("variant", format!("game.variant: {e}")).because(e))
}

impl game::Game for Pirate {
    type State = Position;
    type Move = Move;
    const NAME: &'static str = "pirate";

    fn variant(&self) -> &str {
        &self.variant
    }
    fn start(&self) -> Position {
        Position::start(self.size)
    }
    /// Reads a position string; it must be of this game's board size.
    fn variant_for_text(&self, text: &str) -> Option<Pirate> {
        Position::parse(text)
            .ok()
            .filter(|p| p.size() != self.size)
            .map(|p| Pirate::sized(p.size()))
    }

    fn parse_state(&self, text: &str) -> Result<Position, GameError> {
        let p = Position::parse(text)?;
        if p.size() != self.size {
            return Err(GameError::position(text, format!(
                "the position is on a {} board but this game is played on {} (set [game] width and height, or --game pirate/{})",
                p.size(),
                self.size,
                p.size()
            )));
        }
        Ok(p)
    }
    /// Numbered lines with tabs between the two moves (the default record
    /// separates them with `,`, which this game's move text uses).
    fn record_text(&self, history: &game::History<Position>, resigned: bool) -> String {
        crate::record::write(history, resigned)
    }

    /// Reads [`game::Game::record_text`]'s format back, checking every turn.
    fn replay_record(
        &self,
        start: Position,
        text: &str,
    ) -> Result<game::RecordReplay<Position>, GameError> {
        crate::record::replay(start, text)
    }

    /// Six middle-game positions of seeded random games (attacks preferred
    /// half of the time, so that fleets meet), the same in every build.
    fn bench_positions(&self) -> Vec<Position> {
        middle_game_positions(self.size, 6, 1)
    }

    /// The board's mirror images with the middle-ranked types renamed
    /// (docs/games/pirate.md): 8 on a square board, 4 otherwise.
    fn symmetries(&self) -> usize {
        crate::symmetry::count(crate::geometry::Geometry::of(self.size))
    }
}

impl GameState for Position {
    type Move = Move;
    // legal_moves, has_legal_move, count_legal_moves, is_legal, apply,
    // play, hash and reversible_plies: the position's own methods.
    game::forward_game_state!();

    #[inline]
    fn side(&self) -> Color {
        Position::side(self).seat()
    }
    #[inline]
    fn terminal(&self, has_legal_move: bool, repetitions: u32) -> Option<Outcome> {
        Position::terminal(self, has_legal_move, repetitions)
    }
    /// A win at once: an attack that eliminates (§8.1), or, only where
    /// the opponent has no reserve and no ship that can anchor, a turn that
    /// leaves it no legal turn (§8.2). The cheap tests first.
    #[inline]
    fn is_winning_move(&self, m: Move) -> bool {
        let them = Position::side(self).other();
        let may_stall = self.reserve_mask(them) == 0 && self.togglable_count(them) == 0;
        if !m.is_attack() && !may_stall {
            return false;
        }
        let after = self.play(m);
        after.eliminated(them) || (may_stall && !after.has_legal_move())
    }
    fn to_text(&self) -> String {
        Position::to_text(self)
    }
    fn diagram(&self) -> String {
        Position::diagram(self)
    }
    fn drawing(&self) -> game::Drawing {
        crate::draw::drawing(self)
    }
    fn move_cells(&self, m: Move) -> Option<(game::CellRef, game::CellRef)> {
        crate::draw::move_cells(self, m)
    }
    fn move_text(&self, m: Move) -> String {
        Position::move_text(self, m)
    }
    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        Position::parse_move(self, text)
    }
    fn encoding(&self) -> Encoding {
        let s = self.size();
        Encoding {
            planes: PLANES,
            move_features: MOVE_FEATURES,
            height: s.height as usize,
            width: s.width as usize,
            version: ENCODING_VERSION,
            mirror: false,
        }
    }
    #[inline]
    fn encode_planes(&self, repetitions: u8, out: &mut [f32]) {
        encode_planes(self, repetitions, out)
    }
    #[inline]
    fn encode_move(&self, m: Move, features: &mut [f32]) -> (usize, usize) {
        encode_move(self, m, features)
    }
    fn transform(&self, sym: usize) -> Position {
        crate::symmetry::transform(self, sym)
    }
    fn transform_move(&self, m: Move, sym: usize) -> Move {
        crate::symmetry::transform_move(self, m, sym)
    }
}

game::forward_game_move!(Move);

/// `n` positions of seeded random games on `size`, at plies 20, 24, 28, …
/// (a game that ends sooner gives its last position with a legal turn):
/// random turns, an attack half of the time when there is one, so that
/// the fleets meet as in real play (uniform turns are nearly all deploys
/// and toggles). Deterministic in `seed`.
pub fn middle_game_positions(size: Size, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = game::SplitMix::new(seed);
    let mut moves = Vec::new();
    let mut attacks = Vec::new();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let mut p = Position::start(size);
        let mut last = p.clone();
        for _ in 0..20 + 4 * i {
            p.legal_moves(&mut moves);
            if moves.is_empty() || p.terminal(true, 1).is_some() {
                break;
            }
            last = p.clone();
            attacks.clear();
            attacks.extend(moves.iter().copied().filter(|m| m.is_attack()));
            let m = if !attacks.is_empty() && rng.below(2) == 0 {
                attacks[rng.below(attacks.len() as u64) as usize]
            } else {
                moves[rng.below(moves.len() as u64) as usize]
            };
            p.apply(m);
        }
        out.push(if p.has_legal_move() && p.terminal(true, 1).is_none() {
            p
        } else {
            last
        });
    }
    out
}
