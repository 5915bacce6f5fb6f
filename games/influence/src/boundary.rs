//! Influence Chess behind the game boundary (`game::Game`,
//! `game::GameState`, `game::GameMove`). The inherent methods of
//! [`Position`] and [`Move`] do the work; these impls route the traits to
//! them.

use crate::encode::{encode_move, encode_planes, ENCODING_VERSION, MOVE_FEATURES, PLANES};
use crate::rules::Options;
use crate::types::Move;
use crate::Position;
use game::GameError;
use game::{Color, Encoding, GameState, Outcome};

/// Influence Chess under one set of `[game]` options: the value the
/// binary's registry builds from `[game] name = "influence"`.
#[derive(Clone, Debug)]
pub struct Influence {
    options: Options,
    /// `standard`, then `,key=value` for every option that differs from the
    /// book (the text shards and checkpoints record).
    variant: String,
}

impl Influence {
    /// The rule book's game, Above helping White.
    pub fn standard() -> Influence {
        Influence::with_options(Options::default())
    }

    /// The game under `options`.
    pub fn with_options(options: Options) -> Influence {
        let mut variant = String::from("standard");
        for part in options.non_default() {
            variant.push(',');
            variant.push_str(&part);
        }
        Influence { options, variant }
    }

    /// The game of a `[game]` section: `variant` (only `standard`) and the
    /// game's own keys as text (`("commander", "two")`). Errors name the
    /// key and what it may be.
    pub fn named<'a>(
        variant: &str,
        keys: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Influence, GameError> {
        if !matches!(variant, "" | "standard") {
            return Err(GameError::options("variant", format!(
                "game.variant: unknown influence variant {variant:?}: it has `standard`; the rule book's alternatives are [game] keys ({})",
                crate::rules::KEYS.map(|k| k.0).join(", ")
            )));
        }
        let mut options = Options::default();
        for (k, v) in keys {
            options.set(k, v)?;
        }
        Ok(Influence::with_options(options))
    }

    pub fn options(&self) -> &Options {
        &self.options
    }
}

/// Influence Chess in the registry: `[game] name = "influence"`, its one
/// variant (`standard`, the rule book's decisions), and the rule book's
/// alternatives as keys (docs/games/influence.md).
pub const DESCRIPTOR: game::Descriptor<Influence> = game::Descriptor {
    about: game::About {
        name: "influence",
        variants: "standard (the rule book's decisions)",
        keys: "commander, knight_accompaniment, promotion, safe_kings, stalemate, move_limit, repetition, army (docs/games/influence.md)",
    },
    build: from_options,
};

/// The game of a variant name and `[game]` keys ([`DESCRIPTOR`]): the keys
/// take text (`two`, `true`, `200`), which [`Influence::named`] checks.
fn from_options(variant: &str, options: &game::GameOptions) -> Result<Influence, GameError> {
    let keys: Vec<(&str, String)> = options
        .iter()
        .map(|(k, v)| (k.as_str(), v.text()))
        .collect();
    Influence::named(variant, keys.iter().map(|(k, v)| (*k, v.as_str())))
}

impl game::Game for Influence {
    type State = Position;
    type Move = Move;
    const NAME: &'static str = "influence";

    fn variant(&self) -> &str {
        &self.variant
    }
    fn start(&self) -> Position {
        Position::start(self.options.rules, self.options.army)
    }
    /// Reads a position string under this game's rules (the army field of
    /// the text wins over the `army` key: it is part of the position).
    fn parse_state(&self, text: &str) -> Result<Position, GameError> {
        Position::parse(text, self.options.rules)
    }
    /// Numbered move pairs of §11.2 move text, as every game's default
    /// record, with the columns named after the players (Above moves first;
    /// "White" and "Black" are the armies here).
    fn record_text(&self, history: &game::History<Position>, resigned: bool) -> String {
        let start = history.start();
        game::write_numbered(
            start,
            history.moves(),
            start.fullmove() as usize,
            resigned,
            |p, m, _| p.move_text(m),
        )
        .replacen("\tWhite\t\tBlack", "\tAbove\t\tBelow", 1)
    }

    /// Reads [`game::Game::record_text`]'s format; lines without a move
    /// number (the column line, the header `triad data export` writes) are
    /// skipped.
    fn replay_record(
        &self,
        start: Position,
        text: &str,
    ) -> Result<game::RecordReplay<Position>, GameError> {
        let numbered = |line: &str| {
            line.trim()
                .split_once(')')
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        };
        // Skipped lines stay as blank lines so errors keep their line numbers.
        let moves: Vec<&str> = text
            .lines()
            .map(|l| if numbered(l) { l } else { "" })
            .collect();
        game::replay_numbered(start, &moves.join("\n"))
    }

    /// Six middle-game positions, evenly spaced among the positions of
    /// seeded random games from move 20 on, not in check, where someone
    /// influences a middle piece (the default's first plies are all influence moves, with no
    /// middle piece under anyone's influence yet).
    fn bench_positions(&self) -> Vec<Position> {
        let busy: Vec<Position> = game::random_positions(&self.start(), 2000, 1, 120)
            .into_iter()
            .filter(|p| {
                p.fullmove() >= 20
                    && !p.in_check()
                    && p.count_legal() >= 10
                    && (p.influence(crate::Player::Above) | p.influence(crate::Player::Below))
                        & p.occupied()
                        != 0
            })
            .collect();
        let step = (busy.len() / 6).max(1);
        busy.into_iter().step_by(step).take(6).collect()
    }

    /// The identity, the file mirror, the rank flip with the armies
    /// swapped, and both (docs/games/influence.md).
    fn symmetries(&self) -> usize {
        crate::symmetry::SYMMETRIES
    }
    /// The fixed action index of RULES.md §10: codes are `0..ACTIONS`.
    fn action_codes(&self) -> u64 {
        crate::types::ACTIONS as u64
    }
}

impl GameState for Position {
    type Move = Move;
    // legal_moves, has_legal_move, count_legal_moves, is_legal, apply,
    // play, hash and reversible_plies: the position's own methods.
    game::forward_game_state!();

    #[inline]
    fn side(&self) -> Color {
        self.turn().seat()
    }
    #[inline]
    fn terminal(&self, has_legal_move: bool, repetitions: u32) -> Option<Outcome> {
        Position::terminal(self, has_legal_move, repetitions)
    }
    /// A mate in one (or a stalemate, where stalemate loses): the cheap
    /// check test first.
    #[inline]
    fn is_winning_move(&self, m: Move) -> bool {
        let after = self.play(m);
        (after.rules().stalemate_loses || after.in_check()) && !after.has_legal_move()
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
        Encoding {
            planes: PLANES,
            move_features: MOVE_FEATURES,
            height: crate::types::RANKS as usize,
            width: crate::types::FILES as usize,
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
        crate::symmetry::transform_move(m, sym)
    }
}

game::forward_game_move!(Move);
