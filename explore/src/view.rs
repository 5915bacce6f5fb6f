//! What the explorer page shows, as JSON: a position with the moves played
//! from it (and the network's view), and one game step by step. Generic
//! over the game; the server (`lib.rs`) and the static page of `triad
//! openings --html` both build their answers here, so they show the same.

use std::ops::RangeInclusive;
use std::sync::Mutex;

use data::explore::{line_hash, ExploreIndex, Key};
use game::{CellRef, Game, GameMove, GameState, Mark, MarkKind};
use model::Network;
use serde_json::{json, Value};

/// Everything a request needs: the game, the index, the network.
pub struct Explorer<G: Game> {
    pub game: G,
    pub index: ExploreIndex,
    /// The `--net` checkpoint and its file name.
    pub net: Option<(Mutex<Network>, String)>,
}

/// What a position request asks for.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct PositionQuery {
    /// Index of the start position (`info.starts`).
    #[serde(default)]
    pub start: u32,
    /// Move codes from the start, comma-separated.
    #[serde(default)]
    pub line: String,
    /// `position` (transpositions merged, the default) or `line`.
    #[serde(default)]
    pub by: Option<String>,
    /// Group range, both ends included (indices into `info.groups`).
    pub from: Option<u32>,
    pub to: Option<u32>,
    /// Arrows on the board: `share` (default), `prior`, `none`.
    #[serde(default)]
    pub marks: Option<String>,
}

/// A bad request: the message says what was wrong.
pub use crate::refusal::Refusal as Bad;

/// Reads `1,2,3` into codes.
fn parse_line(text: &str) -> Result<Vec<u32>, Bad> {
    text.split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.trim().parse::<u32>().map_err(|_| Bad::MoveCode {
                text: s.to_string(),
            })
        })
        .collect()
}

/// The `by` of a position request: merge transpositions (`position`, the
/// default) or follow the line (`line`).
fn parse_by(by: Option<&str>) -> Result<bool, Bad> {
    match by {
        None | Some("position") => Ok(false),
        Some("line") => Ok(true),
        Some(other) => Err(Bad::By {
            value: other.to_string(),
        }),
    }
}

/// The moves played per group, summed over `played` (`groups` entries).
fn group_totals(played: &[data::explore::MoveStats], groups: usize) -> Vec<u64> {
    let mut totals = vec![0u64; groups];
    for m in played {
        for (t, c) in totals.iter_mut().zip(&m.by_group) {
            *t += c;
        }
    }
    totals
}

/// The mover's score and its 95% interval (normal approximation over
/// per-game scores 1, ½, 0) from White/draw/Black counts.
pub fn score_interval(results: &[u64; 4], side_is_white: bool) -> Option<(f64, f64, f64)> {
    let (w, d, b) = (results[0] as f64, results[1] as f64, results[2] as f64);
    let n = w + d + b;
    if n == 0.0 {
        return None;
    }
    let wins = if side_is_white { w } else { b };
    let mean = (wins + 0.5 * d) / n;
    let second = (wins + 0.25 * d) / n;
    let var = (second - mean * mean).max(0.0);
    let half = 1.96 * (var / n).sqrt();
    Some((mean, (mean - half).max(0.0), (mean + half).min(1.0)))
}

/// The mark of the move that led to a position (its cells, if drawn).
pub(crate) fn last_move_mark(cells: Option<(CellRef, CellRef)>) -> Option<Mark> {
    cells.map(|(from, to)| Mark {
        from,
        to,
        weight: 0.3,
        label: String::new(),
        kind: MarkKind::LastMove,
    })
}

/// A network's W/D/L of `pos` (the side to move's) and its prior per
/// legal move (`legal`, in the order `legal_moves` gives); `None` when no
/// move is legal.
pub(crate) fn net_view<S: GameState>(
    net: &Network,
    pos: &S,
    legal: &[S::Move],
) -> Option<([f32; 3], Vec<f32>)> {
    if legal.is_empty() {
        return None;
    }
    let e = net.evaluate(&[(pos, 1u8)]).pop()?;
    Some((e.wdl, e.policy))
}

/// A share as a short label: `42%`, `0.7%`.
pub(crate) fn percent(x: f32) -> String {
    if x < 0.095 {
        format!("{:.1}%", 100.0 * x)
    } else {
        format!("{:.0}%", 100.0 * x)
    }
}

fn result_text(r: u8) -> &'static str {
    match r {
        0 => "1-0",
        1 => "1/2-1/2",
        2 => "0-1",
        _ => "*",
    }
}

impl<G: Game> Explorer<G> {
    /// The index's groups as a range, `from`/`to` clipped to it.
    fn groups(&self, from: Option<u32>, to: Option<u32>) -> RangeInclusive<u32> {
        let last = self.index.groups.len().saturating_sub(1) as u32;
        from.unwrap_or(0).min(last)..=to.unwrap_or(last).min(last)
    }

    /// What the page needs first: the game, starts, groups, warnings.
    pub fn info(&self) -> Value {
        json!({
            "game": G::NAME,
            "variant": self.game.variant(),
            "starts": self.index.starts,
            "groups": self.index.groups,
            "shards": self.index.shards.len(),
            "games": self.index.games.len(),
            "rows": self.index.row_count,
            "warnings": self.index.warnings,
            "net": self.net.as_ref().map(|(_, name)| name.clone()),
        })
    }

    /// Replays `line` from start `start`: the position, the texts of the
    /// moves, and the last move's cells.
    pub fn replay(&self, start: u32, line: &[u32]) -> Result<ReplayedLine<G::State>, Bad> {
        let text = self
            .index
            .starts
            .get(start as usize)
            .ok_or(Bad::NoStart { start })?;
        let mut pos = self
            .game
            .parse_state(text)
            .map_err(|source| Bad::StartPosition { source })?;
        let mut texts = Vec::with_capacity(line.len());
        let mut last = None;
        for (ply, &code) in line.iter().enumerate() {
            let m = G::Move::from_code(code)
                .filter(|&m| pos.is_legal(m))
                .ok_or(Bad::IllegalCode { ply, code })?;
            texts.push(pos.move_text(m));
            last = pos.move_cells(m);
            pos.apply(m);
        }
        Ok(ReplayedLine {
            position: pos,
            texts,
            last,
            start_text: text.clone(),
        })
    }

    /// The position at the end of a line, the moves played from it with
    /// their results, the network's view, and the first games through it.
    pub fn position(&self, q: &PositionQuery, with_games: bool) -> Result<Value, Bad> {
        let codes = parse_line(&q.line)?;
        let by_line = parse_by(q.by.as_deref())?;
        let r = self.replay(q.start, &codes)?;
        let pos = &r.position;
        let key = if by_line {
            Key::Line(line_hash(&r.start_text, &codes))
        } else {
            Key::Position(pos.hash())
        };
        let groups = self.groups(q.from, q.to);
        let played = self.index.moves(key, groups.clone());
        let total: u64 = played.iter().map(|m| m.games).sum();
        let group_totals = group_totals(&played, self.index.groups.len());
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let net = self.evaluate(pos, &legal);
        let moves = self.move_rows(pos, &played, total, &legal, &net);
        let marks = self.marks(q.marks.as_deref(), pos, &r, &played, total, &net, &legal)?;
        let svg = game::draw::svg(&pos.drawing(), &marks);
        let outcome = pos.outcome(1);
        let mut out = json!({
            "start": q.start,
            "line": codes,
            "line_text": r.texts,
            "by": if by_line { "line" } else { "position" },
            "position": pos.to_text(),
            "side": pos.side().to_string(),
            "outcome": outcome.map(|o| format!("{} ({})", o.result, o.termination)),
            "svg": svg,
            "games": self.index.distinct_games(key, groups.clone()),
            "moves_played": total,
            "groups": [groups.start(), groups.end()],
            "group_totals": group_totals,
            "moves": moves,
            "net": net.as_ref().map(|(wdl, _)| json!({"wdl": wdl})),
        });
        if with_games {
            let (list, count) = self.index.games_at(key, groups, 100);
            out["game_list"] = Value::Array(
                list.iter()
                    .map(|g| self.game_entry(g.game, g.ply))
                    .collect(),
            );
            out["game_count"] = json!(count);
        }
        Ok(out)
    }

    /// The moves of the position's table: each move played (its games,
    /// results, score interval, and prior when there is a network), then,
    /// with a network, the legal moves the games never played, so that
    /// the network's view is whole.
    fn move_rows(
        &self,
        pos: &G::State,
        played: &[data::explore::MoveStats],
        total: u64,
        legal: &[G::Move],
        net: &Option<([f32; 3], Vec<f32>)>,
    ) -> Vec<Value> {
        let white = pos.side() == game::Color::White;
        let prior_of = |code: u32| -> Option<f32> {
            let (_, priors) = net.as_ref()?;
            legal
                .iter()
                .position(|m| m.code() == code)
                .map(|i| priors[i])
        };
        let mut moves: Vec<Value> = played
            .iter()
            .map(|m| {
                let mv = G::Move::from_code(m.code).filter(|&mv| pos.is_legal(mv));
                let score = score_interval(&m.results, white);
                json!({
                    "code": m.code,
                    "text": mv.map_or_else(|| format!("#{}", m.code), |mv| pos.move_text(mv)),
                    "legal": mv.is_some(),
                    "games": m.games,
                    "share": if total > 0 { m.games as f64 / total as f64 } else { 0.0 },
                    "white": m.results[0],
                    "draws": m.results[1],
                    "black": m.results[2],
                    "unfinished": m.results[3],
                    "score": score.map(|s| s.0),
                    "low": score.map(|s| s.1),
                    "high": score.map(|s| s.2),
                    "mean_length": m.mean_length(),
                    "by_group": m.by_group,
                    "prior": prior_of(m.code),
                })
            })
            .collect();
        if let Some((_, priors)) = net {
            for (i, &m) in legal.iter().enumerate() {
                if !played.iter().any(|p| p.code == m.code()) {
                    moves.push(json!({
                        "code": m.code(), "text": pos.move_text(m), "legal": true,
                        "games": 0, "share": 0.0, "white": 0, "draws": 0, "black": 0,
                        "unfinished": 0, "score": null, "low": null, "high": null,
                        "mean_length": 0.0, "by_group": vec![0; self.index.groups.len()],
                        "prior": priors[i],
                    }));
                }
            }
        }
        moves
    }

    fn game_entry(&self, game: u32, ply: u32) -> Value {
        let g = &self.index.games[game as usize];
        json!({
            "index": game,
            "game_id": g.game_id,
            "shard": self.index.shards[g.shard as usize].display().to_string(),
            "result": result_text(g.result),
            "length": g.length,
            "group": self.index.groups.get(g.group as usize),
            "ply": ply,
        })
    }

    /// The network's W/D/L and prior per legal move, if there is a network.
    fn evaluate(&self, pos: &G::State, legal: &[G::Move]) -> Option<([f32; 3], Vec<f32>)> {
        let (net, _) = self.net.as_ref()?;
        if legal.is_empty() {
            return None;
        }
        let net = net.lock().ok()?;
        net_view(&net, pos, legal)
    }

    #[allow(clippy::too_many_arguments)]
    fn marks(
        &self,
        which: Option<&str>,
        pos: &G::State,
        r: &ReplayedLine<G::State>,
        played: &[data::explore::MoveStats],
        total: u64,
        net: &Option<([f32; 3], Vec<f32>)>,
        legal: &[G::Move],
    ) -> Result<Vec<Mark>, Bad> {
        let mut marks: Vec<Mark> = last_move_mark(r.last).into_iter().collect();
        let mut add = |m: G::Move, weight: f32, kind: MarkKind| {
            if let Some((from, to)) = pos.move_cells(m) {
                marks.push(Mark {
                    from,
                    to,
                    weight,
                    label: percent(weight),
                    kind,
                });
            }
        };
        match which {
            None | Some("share") => {
                for m in played.iter().take(6) {
                    let Some(mv) = G::Move::from_code(m.code).filter(|&mv| pos.is_legal(mv)) else {
                        continue;
                    };
                    if total > 0 && m.games > 0 {
                        add(mv, m.games as f32 / total as f32, MarkKind::Share);
                    }
                }
            }
            Some("prior") => {
                if let Some((_, priors)) = net {
                    let mut order: Vec<usize> = (0..legal.len()).collect();
                    order.sort_by(|&a, &b| priors[b].total_cmp(&priors[a]));
                    for &i in order.iter().take(6) {
                        add(legal[i], priors[i], MarkKind::Prior);
                    }
                }
            }
            Some("none") => {}
            Some(other) => {
                return Err(Bad::Marks {
                    value: other.to_string(),
                })
            }
        }
        Ok(marks)
    }

    /// One game, ply by ply: each position drawn with the search's visit
    /// shares and the move played.
    pub fn game(&self, index: u32) -> Result<Value, Bad> {
        let g = self
            .index
            .games
            .get(index as usize)
            .ok_or(Bad::NoGame { index })?;
        let path = &self.index.shards[g.shard as usize];
        let reader = data::ShardReader::open(path)?;
        let mut rows: Vec<data::PositionRecord> = reader
            .read_records()?
            .into_iter()
            .filter(|r| r.game_id == g.game_id)
            .collect();
        rows.sort_by_key(|r| r.ply);
        let mut plies = Vec::with_capacity(rows.len() + 1);
        let mut last: Option<(CellRef, CellRef)> = None;
        let mut final_pos = None;
        for row in &rows {
            let pos = (self.game.parse_state(&row.position)).map_err(|source| Bad::Row {
                path: path.to_path_buf(),
                game_id: g.game_id,
                ply: row.ply,
                source,
            })?;
            let chosen = G::Move::from_code(row.chosen_move).filter(|&m| pos.is_legal(m));
            let mut marks: Vec<Mark> = last_move_mark(last).into_iter().collect();
            let mut visits_json = Vec::new();
            if let Some(visits) = &row.visits {
                let sum: u32 = visits.iter().sum();
                let mut order: Vec<usize> = (0..visits.len()).collect();
                order.sort_by(|&a, &b| visits[b].cmp(&visits[a]));
                for (k, &i) in order.iter().enumerate() {
                    let Some(m) =
                        G::Move::from_code(row.legal_moves[i]).filter(|&m| pos.is_legal(m))
                    else {
                        continue;
                    };
                    if visits[i] == 0 {
                        continue;
                    }
                    let share = visits[i] as f32 / sum.max(1) as f32;
                    visits_json.push(
                        json!({"text": pos.move_text(m), "visits": visits[i], "share": share}),
                    );
                    if k < 6 {
                        if let Some((from, to)) = pos.move_cells(m) {
                            marks.push(Mark {
                                from,
                                to,
                                weight: share,
                                label: percent(share),
                                kind: MarkKind::Share,
                            });
                        }
                    }
                }
            }
            plies.push(json!({
                "ply": row.ply,
                "side": pos.side().to_string(),
                "move": chosen.map(|m| pos.move_text(m)),
                "visits": visits_json,
                "root_value": row.root_value,
                "model": row.model_id,
                "svg": game::draw::svg(&pos.drawing(), &marks),
            }));
            last = chosen.and_then(|m| pos.move_cells(m));
            final_pos = chosen.map(|m| pos.play(m));
        }
        if let Some(pos) = final_pos {
            let marks: Vec<Mark> = last_move_mark(last).into_iter().collect();
            plies.push(json!({
                "ply": rows.len(),
                "side": pos.side().to_string(),
                "move": null,
                "visits": [],
                "root_value": null,
                "model": null,
                "svg": game::draw::svg(&pos.drawing(), &marks),
            }));
        }
        let termination = rows.first().map(|r| r.termination.to_string());
        let mut entry = self.game_entry(index, 0);
        entry["termination"] = json!(termination);
        entry["plies"] = Value::Array(plies);
        Ok(entry)
    }
}

/// A line replayed from its start.
pub struct ReplayedLine<S: GameState> {
    pub position: S,
    pub texts: Vec<String>,
    /// The last move's cells on the drawing.
    pub last: Option<(CellRef, CellRef)>,
    pub start_text: String,
}
