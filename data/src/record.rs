//! The row type of a shard and the grouping of rows into games.

use piratechnics::{Color, Move, Position};

use crate::schema::{RESULTS, TERMINATIONS};

/// One searched position: one row of a shard (see `docs/data.md`).
#[derive(Debug, Clone, PartialEq)]
pub struct PositionRecord {
    /// Unique within a run; every row of a game carries it.
    pub game_id: u64,
    /// Plies since the game's first recorded position (0 = `tfen` is the start).
    pub ply: u32,
    pub side_to_move: Color,
    /// The position before `chosen_move`, in TFEN.
    pub tfen: String,
    /// `Position::hash()` of `tfen` (Zobrist of board, side and reversal).
    pub position_hash: u64,
    /// `Move::code()` of every legal move, in the search's order.
    pub legal_moves: Vec<u32>,
    /// Root visit count of each move in `legal_moves` (same length).
    pub visits: Vec<u32>,
    /// Improved policy target (e.g. Gumbel completed-Q), one per legal move;
    /// `None` when the search produced only visit counts.
    pub policy_target: Option<Vec<f32>>,
    /// Search value of the root for the side to move, in [-1, 1].
    pub root_value: f32,
    /// Win, draw, loss probabilities for the side to move.
    pub root_wdl: [f32; 3],
    /// `Move::code()` of the move played.
    pub chosen_move: u32,
    /// Final result of the game: "1-0", "0-1", "1/2-1/2", or "*" if unfinished.
    pub result: String,
    /// How the game ended (one of [`TERMINATIONS`]).
    pub termination: String,
    /// Number of plies in the whole game (the same on every row of a game).
    pub game_length: u32,
    pub model_id: String,
    pub simulations: u32,
    pub temperature: f32,
    /// Whether this position got the full search (false: a cheap search,
    /// playout-cap randomisation; such rows are usually not policy targets).
    pub full_search: bool,
    /// Seed of the game's random stream.
    pub seed: u64,
}

impl PositionRecord {
    /// Checks the invariants a writer must not break: parallel lists of the
    /// same length and known result and termination strings.
    pub fn validate(&self) -> Result<(), String> {
        if self.visits.len() != self.legal_moves.len() {
            return Err(format!(
                "game {} ply {}: {} visit counts for {} legal moves",
                self.game_id,
                self.ply,
                self.visits.len(),
                self.legal_moves.len()
            ));
        }
        if let Some(p) = &self.policy_target {
            if p.len() != self.legal_moves.len() {
                return Err(format!(
                    "game {} ply {}: {} policy targets for {} legal moves",
                    self.game_id,
                    self.ply,
                    p.len(),
                    self.legal_moves.len()
                ));
            }
        }
        if !RESULTS.contains(&self.result.as_str()) {
            return Err(format!(
                "game {} ply {}: unknown result {:?} (expected one of {:?})",
                self.game_id, self.ply, self.result, RESULTS
            ));
        }
        if !TERMINATIONS.contains(&self.termination.as_str()) {
            return Err(format!(
                "game {} ply {}: unknown termination {:?} (expected one of {:?})",
                self.game_id, self.ply, self.termination, TERMINATIONS
            ));
        }
        Ok(())
    }

    /// This sample under the file mirror (a↔f): position, hash, legal moves
    /// and chosen move mirrored; the search statistics stay with their moves
    /// (same order), so the result is another valid training sample. The
    /// replay window marks samples to mirror; the consumer calls this.
    pub fn mirrored(&self) -> Result<PositionRecord, String> {
        let pos = Position::from_tfen(&self.tfen)
            .map_err(|e| format!("game {} ply {}: bad TFEN: {e}", self.game_id, self.ply))?;
        let variant = pos.variant();
        let mirror_code = |code: u32| {
            Move::from_code(code)
                .map(|m| m.mirror(variant).code())
                .ok_or_else(|| {
                    format!(
                        "game {} ply {}: bad move code {code}",
                        self.game_id, self.ply
                    )
                })
        };
        let mirrored = pos.mirror();
        Ok(PositionRecord {
            tfen: mirrored.to_tfen(),
            position_hash: mirrored.hash(),
            legal_moves: self
                .legal_moves
                .iter()
                .map(|&c| mirror_code(c))
                .collect::<Result<_, _>>()?,
            chosen_move: mirror_code(self.chosen_move)?,
            ..self.clone()
        })
    }

    /// The game's final score from the side to move's point of view:
    /// 1 win, 0 draw, -1 loss; `None` for an unfinished game.
    pub fn outcome_for_side_to_move(&self) -> Option<f32> {
        let white = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => -1.0,
            "1/2-1/2" => 0.0,
            _ => return None,
        };
        Some(match self.side_to_move {
            Color::White => white,
            Color::Black => -white,
        })
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
    /// plies 0, 1, 2, ... of the same game.
    pub fn from_rows(mut rows: Vec<PositionRecord>) -> Result<GameRecord, String> {
        let Some(first) = rows.first() else {
            return Err("a game needs at least one row".into());
        };
        let game_id = first.game_id;
        rows.sort_by_key(|r| r.ply);
        for (i, r) in rows.iter().enumerate() {
            if r.game_id != game_id {
                return Err(format!("rows of games {game_id} and {} mixed", r.game_id));
            }
            if r.ply as usize != i {
                return Err(format!(
                    "game {game_id}: ply {i} missing (found ply {} instead)",
                    r.ply
                ));
            }
        }
        Ok(GameRecord {
            game_id,
            positions: rows,
        })
    }

    /// The position the game started from (TFEN of ply 0).
    pub fn start_tfen(&self) -> &str {
        &self.positions[0].tfen
    }

    pub fn result(&self) -> &str {
        &self.positions[0].result
    }

    pub fn termination(&self) -> &str {
        &self.positions[0].termination
    }

    /// The moves played, as codes.
    pub fn move_codes(&self) -> Vec<u32> {
        self.positions.iter().map(|r| r.chosen_move).collect()
    }

    /// Recovers the game: starts from ply 0's TFEN and plays every chosen
    /// move, checking that it is legal and that each row's TFEN matches the
    /// position reached. Returns the start position and the moves.
    pub fn replay(&self) -> Result<(Position, Vec<Move>), String> {
        let start = Position::from_tfen(self.start_tfen())
            .map_err(|e| format!("game {}: bad start TFEN: {e}", self.game_id))?;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.positions.len());
        for r in &self.positions {
            if pos.to_tfen() != r.tfen {
                return Err(format!(
                    "game {} ply {}: row TFEN {} differs from the replayed position {}",
                    self.game_id,
                    r.ply,
                    r.tfen,
                    pos.to_tfen()
                ));
            }
            let m = Move::from_code(r.chosen_move)
                .filter(|&m| pos.is_legal(m))
                .ok_or_else(|| {
                    format!(
                        "game {} ply {}: chosen move code {} is not legal",
                        self.game_id, r.ply, r.chosen_move
                    )
                })?;
            pos.apply(m);
            moves.push(m);
        }
        Ok((start, moves))
    }

    /// The game in the inventor's notation, with check (`*`) and mate (`**`)
    /// marks, a header of non-numbered lines (which readers skip), and
    /// `resigns.` when the game ended by resignation.
    pub fn to_inventor(&self) -> Result<String, String> {
        let game = self;
        let (start, moves) = self.replay()?;
        let start = &start;
        let first = &game.positions[0];
        let mut out = format!(
            "Game {} ({} plies): {} {}\nModel {}, {} simulations, seed {}\nStart {}\n\n\tWhite\t\tBlack\n",
            game.game_id,
            moves.len(),
            game.result(),
            game.termination(),
            first.model_id,
            first.simulations,
            first.seed,
            start.to_tfen()
        );
        let mut pos = start.clone();
        let mut number = start.fullmove().max(1) as usize;
        let mut line = String::new();
        if start.side() == Color::Black {
            line = format!("{number})\t,\t");
        }
        for &m in &moves {
            let mut text = pos.move_to_inventor(m);
            let white = pos.side() == Color::White;
            pos.apply(m);
            if pos.in_check() {
                text.push_str(if !pos.has_legal_move() { " **" } else { " *" });
            }
            if white {
                line = format!("{number})\t{text},\t");
            } else {
                line.push_str(&format!("\t{text};\n"));
                out.push_str(&line);
                line.clear();
                number += 1;
            }
        }
        if !line.is_empty() {
            out.push_str(line.trim_end_matches([',', '\t']));
            out.push_str(";\n");
        }
        if game.termination() == "resignation" {
            let side = if pos.side() == Color::White {
                ""
            } else {
                "\t,"
            };
            out.push_str(&format!("{number}){side}\tresigns.\n"));
        }
        Ok(out)
    }
}

/// Groups rows into games (rows of a game need not be contiguous), ordered
/// by first appearance.
pub fn group_games(rows: Vec<PositionRecord>) -> Result<Vec<GameRecord>, String> {
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
