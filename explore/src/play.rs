//! Play and live analysis in the explorer. A game in the page is a start
//! (a position text, or the game's start) and the move texts played from
//! it; the server keeps no game, only the players it has seated (a network
//! is loaded once per spec). A reply comes from any player the command line
//! knows (`eval`'s player specs, built as `triad play` builds them); a game
//! is saved as a record in the game's notation (`triad replay` reads it)
//! and as a shard of its rows (`data`'s writer). The analysis is
//! `analysis` (the engine of `triad analysis`), its reports during
//! the search sent to the page as events, with the network's raw view and,
//! for a game with a solver, the exact value of every move beside it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use analysis::{Answer, Engine, Query};
use data::{GameRecord, ShardWriter, Source};
use eval::arena::players::{build_player, Player, PlayerSpec};
use game::{AlphaBetaState, Color, Game, GameState, History, Mark, MarkKind};
use model::Network;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::view::{last_move_mark, net_view, percent, Bad};

/// Seconds between the search's reports when the request names none.
pub const REPORT_EVERY: f64 = 0.25;
/// The shortest time between reports a request may ask for.
pub const MIN_REPORT_EVERY: f64 = 0.02;
/// Players kept seated (then they are seated anew).
const PLAYERS_KEPT: usize = 16;
/// Solved positions kept (then the cache starts again).
const SOLVED_KEPT: usize = 4096;
/// Moves of an analysis drawn on the board.
const MARKED_MOVES: usize = 6;

/// How play and analysis run: `triad explore`'s flags.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Where saved games go (created when the first is saved).
    pub games_dir: PathBuf,
    /// Seeds the players and the analysis (`triad analysis --seed`).
    pub seed: u64,
    /// The device of `net:` players and analyses.
    pub device: tch::Device,
    /// The networks a request may name (`net:NAME`), when requests may not
    /// name a checkpoint's path; `None`: any path the server can read.
    pub models: Option<crate::access::Models>,
}

/// The players seated so far, by spec, and the settings.
pub struct Play<G: Game> {
    pub options: PlayOptions,
    players: Mutex<HashMap<String, Box<dyn Player<G>>>>,
    /// The solver's answers by position text.
    solved: Arc<Mutex<HashMap<String, Value>>>,
    /// True while a position is being solved.
    solving: Arc<AtomicBool>,
}

/// A game on the page: where it started and the moves played since.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct GameLine {
    /// A position text; `None` or empty: the game's start.
    #[serde(default)]
    pub position: Option<String>,
    /// The moves from it, in the game's move text.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// `POST /api/play/reply`: the game and the player to move in it.
#[derive(Clone, Debug, Deserialize)]
pub struct ReplyRequest {
    #[serde(flatten)]
    pub game: GameLine,
    /// A player spec (`ab:depth=3`, `net:CKPT,sims=200`, `solver`, ...).
    pub player: String,
}

/// `POST /api/play/save`: the game and who played each side.
#[derive(Clone, Debug, Deserialize)]
pub struct SaveRequest {
    #[serde(flatten)]
    pub game: GameLine,
    /// The White player's name in the record (`human`, a spec).
    pub white: String,
    /// The Black player's name.
    pub black: String,
}

/// `GET /api/analyse?...`: the position and the analysis asked for.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct AnalyseRequest {
    /// A position text; `None` or empty: the game's start.
    #[serde(default)]
    pub position: Option<String>,
    /// The moves from it, as a JSON list of move texts (`["4","4"]`).
    #[serde(default)]
    pub moves: Option<String>,
    /// The player spec that analyses.
    pub player: String,
    /// Root visits (`maxVisits`); none: the player's own.
    pub visits: Option<u32>,
    /// Seconds between reports during the search.
    pub every: Option<f64>,
}

/// An analysis ready to run: its query and the player, both checked.
pub struct Prepared {
    pub spec: PlayerSpec,
    pub query: Query,
    line: GameLine,
}

/// The game of `line`, replayed: a bad position text or an illegal move is
/// bad input naming it.
fn replay<G: Game>(game: &G, line: &GameLine) -> Result<History<G::State>, Bad> {
    let text = line.position.as_deref().filter(|t| !t.trim().is_empty());
    let start = game::position_or_start(game, text).map_err(|source| Bad::Position { source })?;
    let r = game::replay_moves(start, line.moves.iter().map(String::as_str))
        .map_err(|source| Bad::Moves { source })?;
    Ok(r.history)
}

/// The position before the last move of `h` and that move.
fn before_last<S: GameState>(h: &History<S>) -> Option<(S, S::Move)> {
    let (&last, rest) = h.moves().split_last()?;
    let mut pos = h.start().clone();
    for &m in rest {
        pos.apply(m);
    }
    Some((pos, last))
}

/// The board of a game in play as the page draws it: the position, its
/// text, the side to move, the moves so far in canonical text, the legal
/// moves, the outcome, and the drawing (`marks` on it beside the last
/// move).
pub fn board_json<S: GameState>(h: &History<S>, marks: Vec<Mark>) -> Value {
    let pos = h.position();
    let mut walk = h.start().clone();
    let mut texts = Vec::with_capacity(h.moves().len());
    for &m in h.moves() {
        texts.push(walk.move_text(m));
        walk.apply(m);
    }
    let outcome = h.outcome();
    let mut legal = Vec::new();
    if outcome.is_none() {
        pos.legal_moves(&mut legal);
    }
    json!({
        "start": h.start().to_text(),
        "position": pos.to_text(),
        "side": pos.side().to_string(),
        "moves": texts,
        "legal": legal.iter().map(|&m| pos.move_text(m)).collect::<Vec<_>>(),
        "outcome": outcome.map(|o| format!("{} ({})", o.result, o.termination)),
        "result": outcome.map(|o| o.result.as_str()),
        "svg": board_svg(h, marks),
    })
}

/// The drawing of the position of `h`: its last move and `marks` on it.
fn board_svg<S: GameState>(h: &History<S>, marks: Vec<Mark>) -> String {
    let last = before_last(h).and_then(|(p, m)| p.move_cells(m));
    let mut all: Vec<Mark> = last_move_mark(last).into_iter().collect();
    all.extend(marks);
    game::draw::svg(&h.position().drawing(), &all)
}

/// `POST /api/play/board`: the board of a game on the page.
pub fn board<G: Game>(game: &G, line: &GameLine) -> Result<Value, Bad> {
    Ok(board_json(&replay(game, line)?, Vec::new()))
}

/// A player spec read from a request. With `models`, a `net:` player is
/// one of them by name (its checkpoint put in its place): a path, or a name
/// not offered, is bad input naming the names offered.
fn spec_of(text: &str, models: Option<&crate::access::Models>) -> Result<PlayerSpec, Bad> {
    let mut spec: PlayerSpec = text
        .trim()
        .parse()
        .map_err(|e: eval::EvalError| Bad::Player {
            reason: e.to_string(),
        })?;
    if let (PlayerSpec::Net(n), Some(models)) = (&mut spec, models) {
        let name = n.path.as_str();
        let path_like = name.contains(['/', '\\']) || name.ends_with(".safetensors");
        match models.get(name).filter(|_| !path_like) {
            Some(path) => n.path = path.display().to_string(),
            None => {
                let names: Vec<&str> = models.keys().map(String::as_str).collect();
                return Err(Bad::NetName {
                    given: n.path.clone(),
                    allowed: if names.is_empty() {
                        "none".into()
                    } else {
                        names.join(", ")
                    },
                });
            }
        }
    }
    Ok(spec)
}

/// The moves of an analysis request: a JSON list of move texts.
fn moves_of(text: Option<&str>) -> Result<Vec<String>, Bad> {
    match text.map(str::trim) {
        None | Some("") => Ok(Vec::new()),
        Some(t) => serde_json::from_str(t).map_err(|source| Bad::MovesJson { source }),
    }
}

impl<G: Game> Play<G>
where
    G::State: AlphaBetaState,
{
    /// No player seated yet.
    pub fn new(options: PlayOptions) -> Play<G> {
        Play {
            options,
            players: Mutex::new(HashMap::new()),
            solved: Arc::new(Mutex::new(HashMap::new())),
            solving: Arc::new(AtomicBool::new(false)),
        }
    }

    /// `POST /api/play/reply`: the move of `player` in the game, and the
    /// board after it. A spec that does not parse, a checkpoint of another
    /// game, or a game that is over is bad input.
    pub fn reply(&self, game: &G, req: &ReplyRequest) -> Result<Value, Bad> {
        let spec = spec_of(&req.player, self.options.models.as_ref())?;
        let history = replay(game, &req.game)?;
        if let Some(o) = history.outcome() {
            return Err(Bad::Over {
                result: o.result.to_string(),
                termination: o.termination.to_string(),
                what: "there is no move to reply",
            });
        }
        // One move at a time: the players share the machine. A player that
        // panicked leaves the lock poisoned; the players are then seated anew.
        let mut players = self.players.lock().unwrap_or_else(|poisoned| {
            self.players.clear_poison();
            let mut players = poisoned.into_inner();
            players.clear();
            players
        });
        let key = spec.to_string();
        if !players.contains_key(&key) {
            if players.len() >= PLAYERS_KEPT {
                players.clear();
            }
            let nets = players::factory::<G>(self.options.device);
            let player =
                build_player(game, &spec, self.options.seed, nets.as_deref()).map_err(|e| {
                    Bad::Player {
                        reason: e.to_string(),
                    }
                })?;
            players.insert(key.clone(), player);
        }
        let player = players.get_mut(&key).ok_or_else(|| Bad::Internal {
            what: "the player was not seated".into(),
        })?;
        let m = player.choose(&history);
        drop(players);
        if !history.position().is_legal(m) {
            return Err(Bad::Internal {
                what: format!("{key} chose an illegal move"),
            });
        }
        let text = history.position().move_text(m);
        let mut after = history;
        after.play(m);
        Ok(json!({"move": text, "player": key, "board": board_json(&after, Vec::new())}))
    }

    /// `POST /api/play/save`: the game written to the games folder as a
    /// record in the game's notation (`NAME-ID.txt`, read by `triad
    /// replay`) and as a shard of its rows (`NAME-ID.parquet`, source
    /// `match`, `model_id` the player of each side). Answers both paths and
    /// the record's text. A game without a move is bad input.
    pub fn save(&self, game: &G, req: &SaveRequest) -> Result<Value, Bad> {
        let history = replay(game, &req.game)?;
        if history.moves().is_empty() {
            return Err(Bad::NothingToSave);
        }
        let id = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let name = |s: &str| match s.trim() {
            "" => "human".to_string(),
            t => t.to_string(),
        };
        let (white, black) = (name(&req.white), name(&req.black));
        let record = GameRecord::unsearched(
            game,
            id,
            &history,
            history.outcome(),
            Source::Match,
            self.options.seed,
            |side| {
                if side == Color::White {
                    white.clone()
                } else {
                    black.clone()
                }
            },
        );
        let text = data::export_text(game, &record).map_err(|source| Bad::Record { source })?;
        let dir = &self.options.games_dir;
        std::fs::create_dir_all(dir).map_err(|source| Bad::GamesFolder {
            dir: dir.to_path_buf(),
            source,
        })?;
        let stem = format!("{}-{id}", G::NAME);
        let record_path = dir.join(format!("{stem}.txt"));
        fsio::write_atomic(&record_path, text.as_bytes()).map_err(|source| Bad::Write {
            path: record_path.clone(),
            source,
        })?;
        let shard_path = dir.join(format!("{stem}.parquet"));
        let mut writer = ShardWriter::create(&shard_path)?;
        writer.push_game(&record)?;
        writer.finish()?;
        Ok(json!({
            "game_id": id,
            "record": record_path.display().to_string(),
            "shard": shard_path.display().to_string(),
            "text": text,
            "plies": history.moves().len(),
        }))
    }

    /// Checks an analysis request: the player spec, the moves and the
    /// position (bad input names what was wrong) and the game not over.
    pub fn prepare(&self, game: &G, req: &AnalyseRequest) -> Result<Prepared, Bad> {
        let spec = spec_of(&req.player, self.options.models.as_ref())?;
        let line = GameLine {
            position: req.position.clone().filter(|t| !t.trim().is_empty()),
            moves: moves_of(req.moves.as_deref())?,
        };
        let history = replay(game, &line)?;
        if let Some(o) = history.outcome() {
            return Err(Bad::Over {
                result: o.result.to_string(),
                termination: o.termination.to_string(),
                what: "nothing to analyse",
            });
        }
        if let Some(v) = req.visits {
            if !(1..=analysis::MAX_VISITS).contains(&v) {
                return Err(Bad::Visits {
                    value: v,
                    max: analysis::MAX_VISITS,
                });
            }
        }
        let every = match req.every {
            None => REPORT_EVERY,
            Some(s) if s.is_finite() && (MIN_REPORT_EVERY..=60.0).contains(&s) => s,
            Some(s) => {
                return Err(Bad::Every {
                    value: s,
                    min: MIN_REPORT_EVERY,
                })
            }
        };
        let query = Query {
            id: "explore".into(),
            initial_position: line.position.clone(),
            moves: line.moves.clone(),
            max_visits: req.visits,
            max_time: None,
            analyze_turns: None,
            report_every: Some(every),
        };
        Ok(Prepared { spec, query, line })
    }

    /// The engine of a prepared analysis (a `net:` checkpoint is loaded
    /// here): bad input when the game cannot seat the player.
    pub fn engine<'g>(&self, game: &'g G, prepared: &Prepared) -> Result<Engine<'g, G>, Bad> {
        Ok(Engine::new(
            game,
            &prepared.spec,
            self.options.seed,
            self.options.device,
        )?)
    }

    /// Runs a prepared analysis, sending each event to `send` (which
    /// answers false once nobody listens, and the search stops): first
    /// `{"kind": "net"}`, the raw view of the player's network (or of
    /// `explore_net`, `--net`) when there is one; `{"kind": "search"}` with
    /// the answer as it stands every `every` seconds of a network search;
    /// `{"kind": "done"}` with the final answer; and `{"kind": "solver"}`
    /// with the exact score of every move when the game has a solver
    /// (computed beside the search, sent when ready: [`Play::solve`]). Each answer comes
    /// with the board, its best moves marked with their visits.
    pub fn run(
        &self,
        game: &G,
        engine: &mut Engine<'_, G>,
        prepared: &Prepared,
        explore_net: Option<&Mutex<Network>>,
        send: impl Fn(Value) -> bool + Clone + Send + 'static,
    ) {
        let history = match replay(game, &prepared.line) {
            Ok(h) => h,
            Err(e) => {
                send(json!({"kind": "error", "error": e.to_string()}));
                return;
            }
        };
        let pos = history.position();
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let raw = match &prepared.spec {
            PlayerSpec::Net(n) => crate::load_net(game, std::path::Path::new(&n.path))
                .ok()
                .and_then(|net| net_view(&net, pos, &legal))
                .map(|v| (v, n.path.clone())),
            _ => explore_net.and_then(|net| {
                let net = net.lock().ok()?;
                net_view(&net, pos, &legal).map(|v| (v, "--net".to_string()))
            }),
        };
        if let Some(((wdl, priors), name)) = raw {
            let mut moves: Vec<(String, f32)> = legal
                .iter()
                .zip(&priors)
                .map(|(&m, &p)| (pos.move_text(m), p))
                .collect();
            moves.sort_by(|a, b| b.1.total_cmp(&a.1));
            let sent = send(json!({
                "kind": "net",
                "name": name,
                "wdl": wdl,
                "winrate": wdl[0] + 0.5 * wdl[1],
                "moves": moves.iter().map(|(m, p)| json!({"move": m, "prior": p})).collect::<Vec<_>>(),
            }));
            if !sent {
                return;
            }
        }
        self.solve(pos, send.clone());
        let event = |kind: &str, a: &Answer| json!({"kind": kind, "answer": a, "svg": answer_svg(&history, a)});
        let r = engine.analyse(&prepared.query, &mut |a| send(event("search", a)));
        match r {
            Ok(a) => send(event("done", &a)),
            Err(e) => send(json!({"kind": "error", "error": e.error})),
        };
    }

    /// The solver's exact score of every move of `pos`, when the game has a
    /// solver: `{"kind": "solver"}` at once when this position was solved
    /// before, else `{"kind": "solving"}` and the scores from a thread of
    /// their own when they are ready (the search does not wait; near the
    /// start of a game the solver may take long). One position is solved
    /// at a time: while one is, `{"kind": "solver", "busy": true}`.
    fn solve(&self, pos: &G::State, send: impl Fn(Value) -> bool + Send + 'static) {
        let Some(mut solver) = G::State::solver(None, self.options.seed) else {
            return;
        };
        let key = pos.to_text();
        if let Some(v) = self.solved.lock().ok().and_then(|c| c.get(&key).cloned()) {
            send(v);
            return;
        }
        if self.solving.swap(true, Ordering::AcqRel) {
            send(json!({"kind": "solver", "busy": true, "moves": []}));
            return;
        }
        send(json!({"kind": "solving"}));
        let (solved, solving, pos) = (self.solved.clone(), self.solving.clone(), pos.clone());
        std::thread::spawn(move || {
            /// Clears the one-solve-at-a-time flag however the solve ends.
            struct Done(Arc<AtomicBool>);
            impl Drop for Done {
                fn drop(&mut self) {
                    self.0.store(false, Ordering::Release);
                }
            }
            let _done = Done(solving);
            let Some(mut scores) = solver.move_scores(&pos) else {
                return;
            };
            scores.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            let moves: Vec<Value> = scores
                .iter()
                .map(|&(m, s)| {
                    let winrate = match s.signum() {
                        1 => 1.0,
                        0 => 0.5,
                        _ => 0.0,
                    };
                    json!({"move": pos.move_text(m), "score": s, "winrate": winrate})
                })
                .collect();
            let v = json!({"kind": "solver", "moves": moves});
            if let Ok(mut c) = solved.lock() {
                if c.len() >= SOLVED_KEPT {
                    c.clear();
                }
                c.insert(key, v.clone());
            }
            send(v);
        });
    }
}

/// The board with an answer's best moves marked: the width their share of
/// the visits (of the moves shown, for players without visits), the label
/// their visits (or winrate).
fn answer_svg<S: GameState>(h: &History<S>, a: &Answer) -> String {
    let pos = h.position();
    let total: u32 = a.move_infos.iter().map(|m| m.visits).sum();
    let marks = a
        .move_infos
        .iter()
        .take(MARKED_MOVES)
        .filter_map(|info| {
            let m = pos.parse_move(&info.mv).ok()?;
            let (from, to) = pos.move_cells(m)?;
            let (weight, label) = if total > 0 {
                (info.visits as f32 / total as f32, info.visits.to_string())
            } else {
                let w = info.winrate.unwrap_or(0.5) as f32;
                (if info.order == 0 { 0.8 } else { 0.3 }, percent(w))
            };
            Some(Mark {
                from,
                to,
                weight,
                label,
                kind: MarkKind::Share,
            })
        })
        .collect();
    board_svg(h, marks)
}
