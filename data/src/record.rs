//! The row type of a shard, the grouping of rows into games, and the game
//! and variant a shard belongs to.

use crate::error::RowFault;
use std::fmt;
use std::sync::Arc;

use game::{Color, Game, GameMove, GameResult, GameState, GameTag, History, Termination};

use crate::schema::UNFINISHED_RESULT;

/// Where a game came from: the `source` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// Self-play: every row was searched (`"selfplay"`).
    SelfPlay,
    /// An evaluation match (`"match"`): rows of a player without a search
    /// (random, alpha-beta) have null search columns.
    Match,
    /// A game from elsewhere (a record file, another program; `"imported"`).
    Imported,
}

impl Source {
    pub const ALL: [Source; 3] = [Source::SelfPlay, Source::Match, Source::Imported];

    /// The text stored in the `source` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::SelfPlay => "selfplay",
            Source::Match => "match",
            Source::Imported => "imported",
        }
    }

    pub fn parse(s: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The `result` column's text of a result: `1-0`, `0-1`, `1/2-1/2`, or `*`
/// for `None` (unfinished).
pub fn result_str(result: Option<GameResult>) -> &'static str {
    result.map_or(UNFINISHED_RESULT, GameResult::as_str)
}

/// Reads the `result` column's text: `Some(None)` for `*`, `None` for an
/// unknown text.
pub fn parse_result(s: &str) -> Option<Option<GameResult>> {
    if s == UNFINISHED_RESULT {
        Some(None)
    } else {
        GameResult::parse(s).map(Some)
    }
}

/// The game and variant of a shard (the `game` and `variant` columns, the
/// same on every row of a shard): what a run checks before it trains on or
/// extends a set of shards. Shown as `name/variant`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShardGame {
    /// The game's registry name (`game::Game::NAME`), e.g. `piratechnics`.
    pub name: String,
    /// The variant (`game::Game::variant`), e.g. `standard`.
    pub variant: String,
}

impl ShardGame {
    pub fn new(name: impl Into<String>, variant: impl Into<String>) -> ShardGame {
        ShardGame {
            name: name.into(),
            variant: variant.into(),
        }
    }

    /// The game and variant of a game value.
    pub fn of<G: Game>(game: &G) -> ShardGame {
        ShardGame::new(G::NAME, game.variant())
    }

    /// Whether this is the game and variant of `tag`.
    pub fn matches(&self, tag: &GameTag) -> bool {
        tag.same_game(&self.name, &self.variant)
    }
}

impl From<&GameTag> for ShardGame {
    fn from(tag: &GameTag) -> ShardGame {
        ShardGame::new(tag.name.clone(), tag.variant.clone())
    }
}

impl fmt::Display for ShardGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.name, self.variant)
    }
}

/// One position of a game: one row of a shard (see `docs/data.md`, schema
/// version 2). `Option` fields are the nullable columns.
#[derive(Debug, Clone, PartialEq)]
pub struct PositionRecord {
    /// The game's registry name (`game::Game::NAME`). Every row of a shard
    /// has the same; the reader shares one allocation between rows.
    pub game: Arc<str>,
    /// The game's variant (`game::Game::variant`), the same on every row of
    /// a shard.
    pub variant: Arc<str>,
    /// Unique within a run; every row of a game carries it.
    pub game_id: u64,
    /// Plies since the game's first recorded position (0: `position` is the
    /// start).
    pub ply: u32,
    pub side_to_move: Color,
    /// The position before `chosen_move`, in the game's position text
    /// (`GameState::to_text`; TFEN for PiRaTeKnIcS). Version 1's `tfen`.
    pub position: String,
    /// How many times this position had occurred in its game, this time
    /// included (1: first occurrence), as `History::repetition_count` counts
    /// it: the number the network's input and the repetition rule use.
    /// `None` when unknown (every version 1 row; see
    /// [`GameRecord::fill_repetitions`]); encode it as 1.
    pub repetitions: Option<u32>,
    /// `GameState::hash()` of `position` (equal for positions the rules
    /// treat as the same for repetition).
    pub position_hash: u64,
    /// `GameMove::code()` of every legal move, in the game's order.
    pub legal_moves: Vec<u32>,
    /// Root visit count of each move of `legal_moves` (same length); `None`
    /// where no search ran.
    pub visits: Option<Vec<u32>>,
    /// Improved policy target (e.g. Gumbel completed-Q), one per legal move;
    /// `None` when the search gave visit counts only, or no search ran.
    pub policy_target: Option<Vec<f32>>,
    /// Search value of the root for the side to move, in [-1, 1]; `None`
    /// where no search ran.
    pub root_value: Option<f32>,
    /// Search win, draw, loss probabilities for the side to move; `None`
    /// where no search ran.
    pub root_wdl: Option<[f32; 3]>,
    /// `GameMove::code()` of the move played.
    pub chosen_move: u32,
    /// Final result of the game; `None` for an unfinished game (`*`). The
    /// same on every row of a game.
    pub result: Option<GameResult>,
    /// How the game ended (`Unfinished` exactly when `result` is `None`).
    pub termination: Termination,
    /// Number of plies in the whole game (the same on every row of a game).
    pub game_length: u32,
    /// Where the game came from.
    pub source: Source,
    /// The player that moved: the network's checkpoint name, or a player
    /// spec (`random`, `ab:depth=2`) in a match.
    pub model_id: String,
    /// Search simulations for this position; `None` where no search ran.
    pub simulations: Option<u32>,
    /// Move-selection temperature at this ply (0 where no search ran).
    pub temperature: f32,
    /// Whether this position got the full search (false: a cheap search,
    /// playout-cap randomisation, or none; such rows are usually not policy
    /// targets).
    pub full_search: bool,
    /// Seed of the game's random stream.
    pub seed: u64,
}

impl PositionRecord {
    /// This row's `fault`, naming its game and ply.
    pub fn fault(&self, fault: RowFault) -> crate::RecordError {
        crate::RecordError::Row {
            game_id: self.game_id,
            ply: self.ply,
            fault,
        }
    }

    /// Checks the invariants a writer must not break: a game and variant,
    /// parallel lists of the same length, a positive repetition count, the
    /// W/D/L present with the root value, and `result` unfinished exactly
    /// when `termination` is.
    pub fn validate(&self) -> Result<(), crate::RecordError> {
        let at = |fault| crate::RecordError::Row {
            game_id: self.game_id,
            ply: self.ply,
            fault,
        };
        if self.game.is_empty() || self.variant.is_empty() {
            return Err(at(RowFault::EmptyName));
        }
        if let Some(v) = &self.visits {
            if v.len() != self.legal_moves.len() {
                return Err(at(RowFault::Visits {
                    found: v.len(),
                    legal: self.legal_moves.len(),
                }));
            }
        }
        if let Some(p) = &self.policy_target {
            if p.len() != self.legal_moves.len() {
                return Err(at(RowFault::Policy {
                    found: p.len(),
                    legal: self.legal_moves.len(),
                }));
            }
        }
        if self.repetitions == Some(0) {
            return Err(at(RowFault::ZeroRepetitions));
        }
        if (self.result.is_none()) != (self.termination == Termination::Unfinished) {
            return Err(at(RowFault::ResultTermination {
                result: result_str(self.result).to_string(),
                termination: self.termination,
            }));
        }
        Ok(())
    }

    /// Whether this row is of `tag`'s game and variant.
    pub fn is_game(&self, tag: &GameTag) -> bool {
        tag.same_game(&self.game, &self.variant)
    }

    /// The row's game and variant.
    pub fn shard_game(&self) -> ShardGame {
        ShardGame::new(&*self.game, &*self.variant)
    }

    /// The row's position in `game`, which must be the row's game and
    /// variant.
    pub fn state<G: Game>(&self, game: &G) -> Result<G::State, crate::RecordError> {
        if !self.is_game(&GameTag::of(game)) {
            return Err(self.fault(RowFault::OtherGame {
                row: format!("{}/{}", self.game, self.variant),
                game: format!("{}/{}", G::NAME, game.variant()),
            }));
        }
        game.parse_state(&self.position).map_err(|source| {
            self.fault(RowFault::BadPosition {
                position: self.position.clone(),
                source,
            })
        })
    }

    /// This sample under symmetry `sym` of its game (`0..game.symmetries()`;
    /// 0 is the identity): position, hash, legal moves and chosen move
    /// transformed; the search statistics stay with their moves (same
    /// order), so the result is another valid training sample. The replay
    /// window draws a symmetry per sample; the consumer applies it (here or
    /// directly on the decoded position).
    pub fn transformed<G: Game>(
        &self,
        game: &G,
        sym: usize,
    ) -> Result<PositionRecord, crate::RecordError> {
        if sym >= game.symmetries() {
            return Err(crate::RecordError::Symmetry {
                sym,
                game: format!("{}/{}", G::NAME, game.variant()),
                count: game.symmetries(),
            });
        }
        let pos = self.state(game)?;
        let transform = |code: u32| {
            G::Move::from_code(code)
                .map(|m| pos.transform_move(m, sym).code())
                .ok_or_else(|| self.fault(RowFault::MoveCode(code)))
        };
        let image = pos.transform(sym);
        Ok(PositionRecord {
            position: image.to_text(),
            position_hash: image.hash(),
            legal_moves: self
                .legal_moves
                .iter()
                .map(|&c| transform(c))
                .collect::<Result<_, _>>()?,
            chosen_move: transform(self.chosen_move)?,
            ..self.clone()
        })
    }

    /// The game's final score from the side to move's point of view:
    /// 1 win, 0 draw, -1 loss; `None` for an unfinished game.
    pub fn outcome_for_side_to_move(&self) -> Option<f32> {
        self.result
            .map(|r| 2.0 * r.score_for(self.side_to_move) - 1.0)
    }
}

/// All rows of one game, in ply order.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    pub game_id: u64,
    pub positions: Vec<PositionRecord>,
}

impl GameRecord {
    /// Groups the rows of one game: sorts by ply and checks that they are
    /// plies 0, 1, 2, ... of the same game (same id, game and variant).
    pub fn from_rows(mut rows: Vec<PositionRecord>) -> Result<GameRecord, crate::RecordError> {
        let Some(first) = rows.first() else {
            return Err(crate::RecordError::NoRows);
        };
        let game_id = first.game_id;
        let (game, variant) = (first.game.clone(), first.variant.clone());
        rows.sort_by_key(|r| r.ply);
        for (i, r) in rows.iter().enumerate() {
            if r.game_id != game_id {
                return Err(crate::RecordError::MixedGames {
                    first: game_id,
                    other: r.game_id,
                });
            }
            if r.game != game || r.variant != variant {
                return Err(crate::RecordError::MixedVariants {
                    game_id,
                    first: format!("{game}/{variant}"),
                    other: format!("{}/{}", r.game, r.variant),
                });
            }
            if r.ply as usize != i {
                return Err(crate::RecordError::MissingPly {
                    game_id,
                    expected: i,
                    found: r.ply,
                });
            }
        }
        Ok(GameRecord {
            game_id,
            positions: rows,
        })
    }

    /// The rows of a game played without a search (a match player's, an
    /// imported record's): one per move of `history`, with the legal moves,
    /// repetition counts and hashes of its positions, `outcome` on every
    /// row (`None`: unfinished), the search columns null, temperature 0,
    /// and `model_id(side)` naming the player of each side.
    pub fn unsearched<G: Game>(
        game: &G,
        game_id: u64,
        history: &History<G::State>,
        outcome: Option<game::Outcome>,
        source: Source,
        seed: u64,
        model_id: impl Fn(Color) -> String,
    ) -> GameRecord {
        let name: Arc<str> = Arc::from(G::NAME);
        let variant: Arc<str> = Arc::from(game.variant());
        let length = history.moves().len() as u32;
        let mut walk = History::new(history.start().clone());
        let mut rows = Vec::with_capacity(history.moves().len());
        let mut legal = Vec::new();
        for (ply, &m) in history.moves().iter().enumerate() {
            let pos = walk.position();
            pos.legal_moves(&mut legal);
            let side = pos.side();
            rows.push(PositionRecord {
                game: name.clone(),
                variant: variant.clone(),
                game_id,
                ply: ply as u32,
                side_to_move: side,
                position: pos.to_text(),
                repetitions: Some(walk.repetition_count()),
                position_hash: pos.hash(),
                legal_moves: legal.iter().map(|x| x.code()).collect(),
                visits: None,
                policy_target: None,
                root_value: None,
                root_wdl: None,
                chosen_move: m.code(),
                result: outcome.map(|o| o.result),
                termination: outcome.map_or(Termination::Unfinished, |o| o.termination),
                game_length: length,
                source,
                model_id: model_id(side),
                simulations: None,
                temperature: 0.0,
                full_search: false,
                seed,
            });
            walk.play(m);
        }
        GameRecord {
            game_id,
            positions: rows,
        }
    }

    /// The game and variant of the rows.
    pub fn shard_game(&self) -> ShardGame {
        self.positions[0].shard_game()
    }

    /// The position the game started from (ply 0's `position`).
    pub fn start_position(&self) -> &str {
        &self.positions[0].position
    }

    /// The final result; `None` for an unfinished game.
    pub fn result(&self) -> Option<GameResult> {
        self.positions[0].result
    }

    pub fn termination(&self) -> Termination {
        self.positions[0].termination
    }

    /// The moves played, as codes.
    pub fn move_codes(&self) -> Vec<u32> {
        self.positions.iter().map(|r| r.chosen_move).collect()
    }

    /// Cuts the game to its first `plies` rows (if longer) and marks it
    /// unfinished (`*`, `unfinished`, `game_length = plies`).
    pub fn truncate(&mut self, plies: usize) {
        if self.positions.len() <= plies {
            return;
        }
        self.positions.truncate(plies);
        for r in &mut self.positions {
            r.result = None;
            r.termination = Termination::Unfinished;
            r.game_length = plies as u32;
        }
    }

    /// Recovers the game in `game` (which must be the rows' game and
    /// variant): parses ply 0's position and plays every chosen move,
    /// checking that it is legal, that each row's position text is the
    /// position reached and that each known repetition count is the one the
    /// game's history gives. Returns the history (start, moves, hashes);
    /// playing the last row's move gives its final position.
    pub fn replay<G: Game>(&self, game: &G) -> Result<History<G::State>, crate::RecordError> {
        let start = self.positions[0].state(game)?;
        let at = |r: &PositionRecord, fault| crate::RecordError::Row {
            game_id: self.game_id,
            ply: r.ply,
            fault,
        };
        replay_rows(
            start,
            &self.positions,
            |history, r| {
                let text = history.position().to_text();
                if text != r.position {
                    return Err(at(
                        r,
                        RowFault::Position {
                            row: r.position.clone(),
                            replayed: text,
                        },
                    ));
                }
                let count = history.repetition_count();
                if r.repetitions.is_some_and(|n| n != count) {
                    return Err(at(
                        r,
                        RowFault::Repetition {
                            row: r.repetitions.unwrap_or(0),
                            history: count,
                        },
                    ));
                }
                Ok(())
            },
            |r| at(r, RowFault::IllegalChosen(r.chosen_move)),
        )
    }

    /// Sets every row's `repetitions` from the game's history (for rows
    /// read from version 1 shards, which did not record it). Fails as
    /// [`GameRecord::replay`] does, except that the counts already there
    /// are replaced, not checked.
    pub fn fill_repetitions<G: Game>(&mut self, game: &G) -> Result<(), crate::RecordError> {
        for r in &mut self.positions {
            r.repetitions = None;
        }
        let history = self.replay(game)?;
        let mut walk = History::new(history.start().clone());
        for (r, &m) in self.positions.iter_mut().zip(history.moves()) {
            r.repetitions = Some(walk.repetition_count());
            walk.play(m);
        }
        Ok(())
    }

    /// A header for a text export of the game: lines without a move number,
    /// which record readers skip.
    ///
    /// ```text
    /// Game 1 (200 plies, piratechnics/standard): 1/2-1/2 max-length
    /// Model random, 64 simulations, seed 7, selfplay
    /// Start [rbn][qrb][kbn][rbn]/... w - 0 1
    /// ```
    pub fn header(&self) -> String {
        let first = &self.positions[0];
        let search = match first.simulations {
            Some(n) => format!("{n} simulations"),
            None => "no search".to_string(),
        };
        format!(
            "Game {} ({} plies, {}/{}): {} {}\nModel {}, {search}, seed {}, {}\nStart {}\n",
            self.game_id,
            self.positions.len(),
            first.game,
            first.variant,
            result_str(self.result()),
            self.termination(),
            first.model_id,
            first.seed,
            first.source,
            first.position
        )
    }
}

/// The one replay of a game's rows, for [`GameRecord::replay`] and the
/// verifier ([`crate::verify`]): from `start`, for each row calls
/// `at_row(history, row)` on the position before the row's move (its error
/// stops the replay), then plays the row's chosen move, which must be a
/// legal move of that position (else the error `illegal(row)`). Returns the
/// history, whose position is the one after the last row's move.
pub(crate) fn replay_rows<'a, S: GameState, E>(
    start: S,
    rows: impl IntoIterator<Item = &'a PositionRecord>,
    mut at_row: impl FnMut(&History<S>, &'a PositionRecord) -> Result<(), E>,
    illegal: impl Fn(&'a PositionRecord) -> E,
) -> Result<History<S>, E> {
    let mut history = History::new(start);
    for r in rows {
        at_row(&history, r)?;
        let m = S::Move::from_code(r.chosen_move)
            .filter(|&m| history.position().is_legal(m))
            .ok_or_else(|| illegal(r))?;
        history.play(m);
    }
    Ok(history)
}

/// Groups rows into games (rows of a game need not be contiguous), ordered
/// by first appearance.
pub fn group_games(rows: Vec<PositionRecord>) -> Result<Vec<GameRecord>, crate::RecordError> {
    let mut order: Vec<u64> = Vec::new();
    let mut by_id: std::collections::HashMap<u64, Vec<PositionRecord>> = Default::default();
    for r in rows {
        let entry = by_id.entry(r.game_id).or_insert_with(|| {
            order.push(r.game_id);
            Vec::new()
        });
        entry.push(r);
    }
    order
        .into_iter()
        .map(|id| GameRecord::from_rows(by_id.remove(&id).unwrap_or_default()))
        .collect()
}
