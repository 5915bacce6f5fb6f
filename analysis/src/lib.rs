//! The analysis engine (`triad analysis`): one JSON query per line in, one
//! JSON answer per line out, in the shape of KataGo's analysis engine, so
//! that programs written for KataGo can script triad (docs/analysis.md).
//!
//! A query names a position (`initialPosition`, a position text, or the
//! game's start, then `moves`, a list of move texts) and a budget
//! (`maxVisits`, `maxTime`); the answer echoes its `id` and reports each
//! move's `visits`, `winrate`, `prior` and `pv` (`moveInfos`) and the
//! root's (`rootInfo`). A query that cannot be answered gets `{"id",
//! "error"}` and the engine goes on.
//!
//! With a network player (`net:CKPT,sims=N`) up to [`MAX_IN_FLIGHT`]
//! queries are searched at once, in lockstep as matches are
//! (`players::lockstep`): every search runs until its next leaf needs the
//! network, the waiting leaves go through the one network as a batch, and
//! a query is answered as soon as its search is done, so answers may come
//! in another order than the queries. Every other player (`ab:`, `mcts:`,
//! `solver`, `random`) answers each query when it is read, in order.

use eval::analyze::line_text;
use eval::arena::players::{NetSpec, Player, PlayerSpec, RandomPlayer};
use eval::search::{Limits, Score, Searcher};
use eval::uct::{MctsSpec, Uct};
use game::{AlphaBetaState, Color, Game, GameState, History, PerfectPlayer};
use mcts::{
    Evaluator, MoveStats, NetworkEvaluator, Request, Rng, Search, SearchParams, Symmetrized,
};
use players::{player_search, search_config};
use serde::Serialize;
use serde_json::Value;
use std::io::BufRead;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Queries (turns) searched at once with a network player; more wait in
/// the input until one is answered.
pub const MAX_IN_FLIGHT: usize = 64;

/// Most moves of a principal variation reported.
pub const PV_LEN: usize = 16;

/// The most visits a query may ask for.
pub const MAX_VISITS: u32 = 1 << 24;

/// Centipawns at which an `ab:` score reads as a 73% winrate
/// (`1 / (1 + e^-1)`): the leaf hint's scale ([`players::HINT_SCALE`]).
pub const CP_SCALE: f32 = players::HINT_SCALE;

/// Why the engine could not start or stopped: a player it cannot seat
/// (bad input) or its input failing while read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A `net:` player's checkpoint that cannot be loaded for this game.
    #[error("--player: {source}")]
    Checkpoint {
        /// The checkpoint's path as the spec gives it.
        path: String,
        #[source]
        source: model::CheckpointError,
    },
    /// A `symmetry=` option asked of a game without symmetries.
    #[error(transparent)]
    Symmetry(#[from] players::SymmetryError),
    /// `solver` asked of a game that has none.
    #[error("--player {spec}: the game `{game}` has no solver")]
    NoSolver {
        /// The player spec as written.
        spec: String,
        /// The game's name.
        game: &'static str,
    },
    /// Reading the queries failed.
    #[error("reading the input: {source}")]
    Read {
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// Whether the user can fix it (a player that cannot be seated), as
    /// against a failure while working.
    pub fn is_input(&self) -> bool {
        !matches!(self, Error::Read { .. })
    }
}

/// One query as read from its line (KataGo's field names).
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    /// Echoed in every answer.
    pub id: String,
    /// A position text (`initialPosition`); `None`: the game's start.
    pub initial_position: Option<String>,
    /// Move texts played from the initial position (`moves`).
    pub moves: Vec<String>,
    /// Root visits of a network or `mcts:` search (`maxVisits`); `None`:
    /// the player's own.
    pub max_visits: Option<u32>,
    /// Seconds of search at most (`maxTime`).
    pub max_time: Option<f64>,
    /// The turns to analyse (`analyzeTurns`): positions after that many of
    /// `moves`; `None`: the last.
    pub analyze_turns: Option<Vec<usize>>,
    /// Seconds between answers during a network search
    /// (`reportDuringSearchEvery`), each with `isDuringSearch: true`.
    pub report_every: Option<f64>,
}

/// What a line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// Analyse a position.
    Analyse(Query),
    /// `{"id", "action": "terminate", "terminateId"}`: stop the searches of
    /// that query (answered as they stand, with `isDuringSearch: false`).
    Terminate { id: String, target: String },
    /// `{"id", "action": "query_version"}`.
    Version { id: String },
}

/// A refused line: the query's id when it could be read, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub id: Option<String>,
    pub error: String,
}

impl Refusal {
    fn new(id: Option<&str>, error: impl Into<String>) -> Refusal {
        Refusal {
            id: id.map(str::to_string),
            error: error.into(),
        }
    }

    /// The error line, `{"id": ID, "error": WHY}` (`id` null when the line
    /// had none).
    pub fn to_json(&self) -> String {
        serde_json::json!({"id": self.id, "error": self.error}).to_string()
    }
}

/// Reads one line of the protocol. Unknown fields are ignored (KataGo's
/// `rules`, `komi`, `boardXSize` ... mean nothing here).
pub fn parse_line(line: &str) -> Result<Line, Refusal> {
    let v: Value = serde_json::from_str(line)
        .map_err(|e| Refusal::new(None, format!("the line is not JSON: {e}")))?;
    let Some(obj) = v.as_object() else {
        return Err(Refusal::new(None, "a query is a JSON object"));
    };
    let id = match obj.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => return Err(Refusal::new(None, "the query has no `id` (a string)")),
    };
    let refuse = |e: String| Refusal::new(Some(&id), e);
    if let Some(action) = obj.get("action") {
        return match action.as_str() {
            Some("query_version") => Ok(Line::Version { id }),
            Some("terminate") => match obj.get("terminateId").and_then(Value::as_str) {
                Some(t) => Ok(Line::Terminate {
                    target: t.to_string(),
                    id,
                }),
                None => Err(refuse("`terminate` needs `terminateId`".into())),
            },
            _ => Err(refuse(
                "unknown `action` (known: terminate, query_version)".into(),
            )),
        };
    }
    let initial_position = match obj.get("initialPosition") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(refuse("`initialPosition` must be a position text".into())),
    };
    let mut moves = Vec::new();
    match obj.get("moves") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                moves.push(move_item(item).ok_or_else(|| {
                    refuse(format!(
                        "moves[{i}] must be a move text or a [player, move] pair"
                    ))
                })?);
            }
        }
        Some(_) => return Err(refuse("`moves` must be a list of move texts".into())),
    }
    let max_visits = match obj.get("maxVisits") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .filter(|&n| (1..=MAX_VISITS as u64).contains(&n))
                .ok_or_else(|| refuse(format!("`maxVisits` must be 1..={MAX_VISITS}")))?
                as u32,
        ),
    };
    let seconds = |key: &str| -> Result<Option<f64>, Refusal> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_f64()
                .filter(|&s| s > 0.0 && s <= 86_400.0)
                .map(Some)
                .ok_or_else(|| refuse(format!("`{key}` must be seconds above 0, at most 86400"))),
        }
    };
    let max_time = seconds("maxTime")?;
    let report_every = seconds("reportDuringSearchEvery")?;
    let analyze_turns = match obj.get("analyzeTurns") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => {
            let turns = items
                .iter()
                .map(|t| t.as_u64().filter(|&t| t as usize <= moves.len()))
                .collect::<Option<Vec<u64>>>()
                .ok_or_else(|| {
                    refuse(format!(
                        "`analyzeTurns` must list turns 0..={}",
                        moves.len()
                    ))
                })?;
            if turns.is_empty() {
                return Err(refuse("`analyzeTurns` is empty".into()));
            }
            Some(turns.into_iter().map(|t| t as usize).collect())
        }
        Some(_) => return Err(refuse("`analyzeTurns` must be a list of turns".into())),
    };
    Ok(Line::Analyse(Query {
        id,
        initial_position,
        moves,
        max_visits,
        max_time,
        analyze_turns,
        report_every,
    }))
}

/// A move of `moves`: its text, or KataGo's `[player, move]` pair (the
/// player is not checked: the rules say whose turn it is).
fn move_item(item: &Value) -> Option<String> {
    match item {
        Value::String(s) => Some(s.clone()),
        Value::Array(pair) if pair.len() == 2 && pair[0].is_string() => {
            pair[1].as_str().map(str::to_string)
        }
        _ => None,
    }
}

/// One move of an answer (an element of `moveInfos`).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveInfo {
    /// The move in canonical text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Visits of its subtree (0 for players that do not count visits).
    pub visits: u32,
    /// Expected score for the side to move, in [0, 1]: win 1, draw 1/2,
    /// loss 0 (`null` for `random`).
    pub winrate: Option<f64>,
    /// Share of draws in its value (network searches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawrate: Option<f64>,
    /// The network's prior (uniform for `random`; `null` for players
    /// without one).
    pub prior: Option<f64>,
    /// The principal variation, this move first.
    pub pv: Vec<String>,
    /// Rank: 0 is the move the player would play.
    pub order: usize,
    /// The player's own score: Pons's for the solver (positive: a win),
    /// centipawns for `ab:`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// Mate in N moves for `ab:` (N < 0: the side to move is mated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
}

/// The root of an answer (`rootInfo`).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RootInfo {
    /// Visits of the root (1 + its children's).
    pub visits: u32,
    /// The search's expected score for the side to move.
    pub winrate: Option<f64>,
    /// Its share of draws (network searches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawrate: Option<f64>,
    /// The network's own value of the root, before search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_winrate: Option<f64>,
    /// The network's own draw probability of the root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_drawrate: Option<f64>,
    /// `white` or `black`: the side to move, whose view every winrate is.
    pub current_player: String,
    /// The position analysed, in the game's text.
    pub position: String,
}

/// One answer line.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    pub id: String,
    /// Moves played from the initial position to the position analysed.
    pub turn_number: usize,
    /// True for the reports of `reportDuringSearchEvery`.
    pub is_during_search: bool,
    pub move_infos: Vec<MoveInfo>,
    pub root_info: RootInfo,
}

impl Answer {
    /// The answer as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// One position to analyse: a turn of a query.
struct Turn<S: GameState> {
    id: String,
    number: usize,
    history: History<S>,
    max_visits: Option<u32>,
    max_time: Option<f64>,
    report_every: Option<f64>,
}

/// The positions a query asks for, each checked: a position text the game
/// refuses, an illegal move or a turn where the game is over is refused.
fn turns<G: Game>(game: &G, q: &Query) -> Result<Vec<Turn<G::State>>, Refusal> {
    let refuse = |e: String| Refusal::new(Some(&q.id), e);
    let start = game::position_or_start(game, q.initial_position.as_deref())
        .map_err(|e| refuse(format!("initialPosition: {e}")))?;
    let replay = game::replay_moves(start, q.moves.iter().map(String::as_str))
        .map_err(|e| refuse(format!("moves: {e}")))?;
    let last = q.moves.len();
    let numbers = q.analyze_turns.clone().unwrap_or_else(|| vec![last]);
    let all = replay.history.moves();
    let mut out = Vec::with_capacity(numbers.len());
    for n in numbers {
        let mut h = History::new(replay.history.start().clone());
        for &m in &all[..n] {
            h.play(m);
        }
        if let Some(o) = h.outcome() {
            return Err(refuse(format!(
                "the game is over after {n} moves ({} {}): nothing to analyse",
                o.result, o.termination
            )));
        }
        out.push(Turn {
            id: q.id.clone(),
            number: n,
            history: h,
            max_visits: q.max_visits,
            max_time: q.max_time,
            report_every: q.report_every,
        });
    }
    Ok(out)
}

/// A winrate in [0, 1] from a value in [-1, 1], to six decimals (the
/// search's single precision gives no more).
fn winrate(value: f32) -> f64 {
    six(((1.0 + value as f64) / 2.0).clamp(0.0, 1.0))
}

/// `x` to six decimals: single-precision figures without their noise
/// (`0.2` rather than `0.19999998807907104`).
fn six(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// `white` or `black`.
fn side_name(c: Color) -> String {
    c.to_string()
}

/// The player the engine analyses with, built once.
enum Analyst<S: AlphaBetaState> {
    Random(u64),
    AlphaBeta(Box<Searcher<S>>, Limits),
    Mcts(MctsSpec, u64),
    Solver(Box<dyn PerfectPlayer<S>>),
    Net(Box<NetEngine<S>>),
}

/// A network player's search settings and its evaluator.
struct NetEngine<S: GameState> {
    spec: NetSpec,
    evaluator: Box<dyn Evaluator<S> + Send>,
    seed: u64,
}

/// The analysis engine of one player for one game.
pub struct Engine<'a, G: Game>
where
    G::State: AlphaBetaState,
{
    game: &'a G,
    analyst: Analyst<G::State>,
}

impl<'a, G: Game> Engine<'a, G>
where
    G::State: AlphaBetaState,
{
    /// The engine of `spec` (any player spec; a `net:` checkpoint is loaded
    /// on `device`), seeded by `seed`. A spec the game cannot seat (the
    /// solver of a game without one) or a checkpoint of another game is
    /// bad input.
    pub fn new(
        game: &'a G,
        spec: &PlayerSpec,
        seed: u64,
        device: tch::Device,
    ) -> Result<Engine<'a, G>, Error> {
        if let PlayerSpec::Net(n) = spec {
            let tag = game::GameTag::of(game);
            let (net, _) = model::Network::load(std::path::Path::new(&n.path), &tag, device)
                .map_err(|source| Error::Checkpoint {
                    path: n.path.clone(),
                    source,
                })?;
            let symmetries = players::symmetry_use(n, game)?;
            return Ok(Engine::with_evaluator(
                game,
                n.clone(),
                Box::new(Symmetrized::with(NetworkEvaluator::packed(net), symmetries)),
                seed,
            ));
        }
        let analyst = match spec {
            PlayerSpec::Random => Analyst::Random(seed),
            PlayerSpec::AlphaBeta(s) => {
                let mut searcher = Searcher::from_spec(s);
                if s.random > 0 {
                    searcher.set_random(s.random, s.seed ^ seed);
                }
                Analyst::AlphaBeta(Box::new(searcher), s.limits)
            }
            PlayerSpec::Mcts(s) => Analyst::Mcts(*s, seed),
            PlayerSpec::Solver(depth) => match G::State::solver(*depth, seed) {
                Some(s) => Analyst::Solver(s),
                None => {
                    return Err(Error::NoSolver {
                        spec: spec.to_string(),
                        game: G::NAME,
                    })
                }
            },
            PlayerSpec::Net(_) => unreachable!("loaded above"),
        };
        Ok(Engine { game, analyst })
    }

    /// The engine of a network player whose leaves `evaluator` answers
    /// (tests give it a network-free one).
    pub fn with_evaluator(
        game: &'a G,
        spec: NetSpec,
        evaluator: Box<dyn Evaluator<G::State> + Send>,
        seed: u64,
    ) -> Engine<'a, G> {
        Engine {
            game,
            analyst: Analyst::Net(Box::new(NetEngine {
                spec,
                evaluator,
                seed,
            })),
        }
    }

    /// Answers every line of `input` on `out`, one line each (without the
    /// newline), until the input ends and every search is answered, or
    /// `out` returns false (nobody reads any more). A line that is not
    /// UTF-8 or not a query gets an error line; reading the input failing
    /// is an error.
    pub fn serve(
        &mut self,
        input: impl BufRead + Send,
        out: &mut dyn FnMut(&str) -> bool,
    ) -> Result<(), Error> {
        let (tx, rx) = mpsc::sync_channel::<std::io::Result<Vec<u8>>>(MAX_IN_FLIGHT);
        std::thread::scope(|scope| {
            scope.spawn(move || {
                for line in input.split(b'\n') {
                    let stop = match line {
                        Ok(l) => tx.send(Ok(l)).is_err(),
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            true
                        }
                    };
                    if stop {
                        return;
                    }
                }
            });
            let result = self.serve_lines(&rx, out);
            // The reader stops at its next line once nobody receives.
            drop(rx);
            result
        })
    }

    fn serve_lines(
        &mut self,
        rx: &mpsc::Receiver<std::io::Result<Vec<u8>>>,
        out: &mut dyn FnMut(&str) -> bool,
    ) -> Result<(), Error> {
        let mut searches: Vec<NetTurn<G::State>> = Vec::new();
        let mut ended = false;
        let mut state = RoundState::default();
        loop {
            while !ended && searches.len() < MAX_IN_FLIGHT {
                let msg = if searches.is_empty() {
                    rx.recv().ok()
                } else {
                    match rx.try_recv() {
                        Ok(m) => Some(m),
                        Err(mpsc::TryRecvError::Empty) => break,
                        Err(mpsc::TryRecvError::Disconnected) => None,
                    }
                };
                let Some(msg) = msg else {
                    ended = true;
                    break;
                };
                let bytes = msg.map_err(|source| Error::Read { source })?;
                let line = match String::from_utf8(bytes) {
                    Ok(l) => l,
                    Err(_) => {
                        if !out(&Refusal::new(None, "the line is not UTF-8 text").to_json()) {
                            return Ok(());
                        }
                        continue;
                    }
                };
                if line.trim().is_empty() {
                    continue;
                }
                for answer in self.accept(&line, &mut searches) {
                    if !out(&answer) {
                        return Ok(());
                    }
                }
            }
            if searches.is_empty() {
                if ended {
                    return Ok(());
                }
                continue;
            }
            let Analyst::Net(net) = &mut self.analyst else {
                unreachable!("only network searches stay in flight")
            };
            for answer in round(net.evaluator.as_mut(), &mut searches, &mut state) {
                if !out(&answer.to_json()) {
                    return Ok(());
                }
            }
        }
    }

    /// Answers one line at once (every player but a network), or starts
    /// its searches (a network); returns the lines to write now.
    fn accept(&mut self, line: &str, searches: &mut Vec<NetTurn<G::State>>) -> Vec<String> {
        let q = match parse_line(line) {
            Ok(Line::Analyse(q)) => q,
            Ok(Line::Version { id }) => {
                return vec![serde_json::json!({"id": id, "action": "query_version",
                    "version": env!("CARGO_PKG_VERSION")})
                .to_string()]
            }
            Ok(Line::Terminate { id, target }) => {
                let mut lines = Vec::new();
                searches.retain(|s| {
                    if s.turn.id == target {
                        lines.push(s.answer(false).to_json());
                        false
                    } else {
                        true
                    }
                });
                lines.push(
                    serde_json::json!({"id": id, "action": "terminate", "terminateId": target})
                        .to_string(),
                );
                return lines;
            }
            Err(r) => return vec![r.to_json()],
        };
        let turns = match turns(self.game, &q) {
            Ok(t) => t,
            Err(r) => return vec![r.to_json()],
        };
        match &mut self.analyst {
            Analyst::Net(net) => {
                for t in turns {
                    searches.push(NetTurn::new(self.game, net, t));
                }
                Vec::new()
            }
            other => turns
                .into_iter()
                .map(|t| analyse_now::<G>(other, &t).to_json())
                .collect(),
        }
    }

    /// Analyses the one position `query` names (its last turn, or the one
    /// turn of `analyzeTurns`) and answers it, typed: [`Engine::serve`] for
    /// a caller in the same program (the explorer). During a network
    /// search `report` gets the answer as it stands every
    /// `reportDuringSearchEvery` seconds (`is_during_search: true`); its
    /// returning false stops the search, which is then answered as it
    /// stands. Every other player answers at once, without reports. The
    /// search is the one `serve` runs for the same query, seeded alike, so
    /// both answer the same.
    pub fn analyse(
        &mut self,
        query: &Query,
        report: &mut dyn FnMut(&Answer) -> bool,
    ) -> Result<Answer, Refusal> {
        let mut turns = turns(self.game, query)?;
        let (Some(turn), true) = (turns.pop(), turns.is_empty()) else {
            return Err(Refusal::new(
                Some(&query.id),
                "`analyzeTurns`: one turn at a time here",
            ));
        };
        let net = match &mut self.analyst {
            Analyst::Net(net) => net,
            other => return Ok(analyse_now::<G>(other, &turn)),
        };
        let mut searches = vec![NetTurn::new(self.game, net, turn)];
        let mut state = RoundState::default();
        loop {
            for answer in round(net.evaluator.as_mut(), &mut searches, &mut state) {
                if !answer.is_during_search {
                    return Ok(answer);
                }
                if !report(&answer) {
                    if let Some(s) = searches.first() {
                        return Ok(s.answer(false));
                    }
                }
            }
            if searches.is_empty() {
                return Err(Refusal::new(Some(&query.id), "the search ended unanswered"));
            }
        }
    }

    /// Answers the lines of `input` and returns them all (tests, one-off
    /// callers): [`Engine::serve`] collected, except that every line is
    /// read before the first search step, so the network queries among
    /// them (up to [`MAX_IN_FLIGHT`]) always search together, however the
    /// threads are scheduled.
    pub fn answer_all(&mut self, input: &str) -> Result<Vec<String>, Error> {
        let (tx, rx) = mpsc::channel::<std::io::Result<Vec<u8>>>();
        for line in input.split('\n') {
            // The receiver lives until the end of this call.
            let _ = tx.send(Ok(line.as_bytes().to_vec()));
        }
        drop(tx);
        let mut lines = Vec::new();
        self.serve_lines(&rx, &mut |l| {
            lines.push(l.to_string());
            true
        })?;
        Ok(lines)
    }
}

/// Buffers of a round, kept across rounds.
#[derive(Default)]
struct RoundState {
    policy: Vec<f32>,
    wdl: Vec<[f32; 3]>,
}

/// A network search of one turn in flight.
struct NetTurn<S: GameState> {
    turn: Turn<S>,
    search: Search<S>,
    rng: Rng,
    waiting: bool,
    done: bool,
    started: Instant,
    next_report: Option<Instant>,
}

impl<S: AlphaBetaState> NetTurn<S> {
    fn new<G: Game<State = S>>(game: &G, net: &NetEngine<S>, turn: Turn<S>) -> NetTurn<S> {
        let config = search_config(&net.spec);
        let mut search = player_search(&config, &game.start());
        let visits = turn.max_visits.unwrap_or(net.spec.sims);
        search.begin(
            &turn.history,
            SearchParams {
                simulations: visits,
                noise: false,
            },
        );
        let started = Instant::now();
        // A time-limited player (`net:…,movetime=MS`) stops on its clock
        // too, after one simulation at least, whichever of its time and
        // the query's `maxTime`/`maxVisits` comes first.
        if let Some(ms) = net.spec.movetime {
            search.stop_at(started + Duration::from_millis(ms));
        }
        NetTurn {
            next_report: turn
                .report_every
                .map(|s| started + Duration::from_secs_f64(s)),
            rng: Rng::new(net.seed ^ turn.number as u64),
            turn,
            search,
            waiting: false,
            done: false,
            started,
        }
    }

    /// The answer from the search as it stands.
    fn answer(&self, during: bool) -> Answer {
        let pos = self.turn.history.position();
        let mut stats = Vec::new();
        self.search.root_stats(&mut stats);
        let mut visited: Vec<&MoveStats<S::Move>> = stats.iter().filter(|s| s.visits > 0).collect();
        visited.sort_by(|a, b| {
            let key = |s: &MoveStats<S::Move>| s.proven.unwrap_or(0.0);
            key(b)
                .total_cmp(&key(a))
                .then(b.visits.cmp(&a.visits))
                .then(b.value.total_cmp(&a.value))
        });
        let mut pv = Vec::new();
        let move_infos = visited
            .iter()
            .enumerate()
            .map(|(order, s)| {
                self.search.principal_variation(s.mv, PV_LEN, &mut pv);
                MoveInfo {
                    mv: pos.move_text(s.mv),
                    visits: s.visits,
                    winrate: Some(winrate(s.proven.unwrap_or(s.value))),
                    drawrate: Some(six(s.draw as f64)),
                    prior: Some(six(s.prior as f64)),
                    pv: line_text(pos, &pv),
                    order,
                    score: None,
                    mate: None,
                }
            })
            .collect();
        let (v, d) = self.search.root_value();
        let (rv, rd) = self.search.root_network_value();
        let expanded = self.search.root_visit_count() > 0;
        Answer {
            id: self.turn.id.clone(),
            turn_number: self.turn.number,
            is_during_search: during,
            move_infos,
            root_info: RootInfo {
                visits: self.search.root_visit_count(),
                winrate: Some(winrate(v)),
                drawrate: Some(six(d as f64)),
                raw_winrate: expanded.then(|| winrate(rv)),
                raw_drawrate: expanded.then_some(six(rd as f64)),
                current_player: side_name(pos.side()),
                position: pos.to_text(),
            },
        }
    }
}

/// One lockstep round of the network searches in flight: each runs until
/// its next leaf needs the network (or it is done), the waiting leaves go
/// through the network as one batch, in order; returns the answers of the
/// searches that finished (removed) and the reports that fell due.
fn round<S: AlphaBetaState>(
    evaluator: &mut dyn Evaluator<S>,
    searches: &mut Vec<NetTurn<S>>,
    state: &mut RoundState,
) -> Vec<Answer> {
    for s in searches.iter_mut() {
        if !s.waiting && !s.done {
            s.waiting = s.search.step(None, &mut s.rng);
            s.done = !s.waiting;
        }
    }
    let waiting: Vec<usize> = (0..searches.len())
        .filter(|&i| searches[i].waiting)
        .collect();
    if !waiting.is_empty() {
        let batch: Vec<Request<'_, S>> = waiting
            .iter()
            .map(|&i| searches[i].search.request())
            .collect();
        evaluator.evaluate(&batch, &mut state.policy, &mut state.wdl);
        let mut offset = 0;
        for (b, &i) in waiting.iter().enumerate() {
            let s = &mut searches[i];
            let len = s.search.request().moves.len();
            s.search
                .provide(&state.policy[offset..offset + len], state.wdl[b]);
            offset += len;
            s.waiting = false;
        }
    }
    let now = Instant::now();
    let mut lines = Vec::new();
    for s in searches.iter_mut() {
        let expanded = s.search.root_visit_count() > 1;
        if let Some(limit) = s.turn.max_time {
            if expanded && now.duration_since(s.started).as_secs_f64() >= limit {
                s.done = true;
            }
        }
        if s.done {
            continue;
        }
        if let (Some(at), Some(every)) = (s.next_report, s.turn.report_every) {
            if now >= at && expanded {
                lines.push(s.answer(true));
                s.next_report = Some(now + Duration::from_secs_f64(every));
            }
        }
    }
    searches.retain(|s| {
        if s.done {
            lines.push(s.answer(false));
            false
        } else {
            true
        }
    });
    lines
}

/// The answer of a player that is not a network, searched at once.
fn analyse_now<G: Game>(analyst: &mut Analyst<G::State>, turn: &Turn<G::State>) -> Answer
where
    G::State: AlphaBetaState,
{
    let (move_infos, root_info) = match analyst {
        Analyst::Random(seed) => random_answer::<G>(*seed, turn),
        Analyst::AlphaBeta(searcher, limits) => alpha_beta_answer(searcher, limits, turn),
        Analyst::Mcts(spec, seed) => mcts_answer(spec, *seed, turn),
        Analyst::Solver(solver) => solver_answer(solver.as_mut(), turn),
        Analyst::Net(_) => unreachable!("network turns are searched in rounds"),
    };
    Answer {
        id: turn.id.clone(),
        turn_number: turn.number,
        is_during_search: false,
        move_infos,
        root_info,
    }
}

/// The root's line of an answer of `pos` with `visits` and `winrate`.
fn root_of<S: GameState>(pos: &S, visits: u32, winrate: Option<f64>) -> RootInfo {
    RootInfo {
        visits,
        winrate,
        drawrate: None,
        raw_winrate: None,
        raw_drawrate: None,
        current_player: side_name(pos.side()),
        position: pos.to_text(),
    }
}

/// A move's line with nothing measured yet: its text, its place
/// `order` and a one-move principal variation.
fn info_of<S: GameState>(pos: &S, mv: S::Move, order: usize) -> MoveInfo {
    MoveInfo {
        mv: pos.move_text(mv),
        visits: 0,
        winrate: None,
        drawrate: None,
        prior: None,
        pv: vec![pos.move_text(mv)],
        order,
        score: None,
        mate: None,
    }
}

/// `random`: every legal move at the same prior, the one it would play
/// first.
fn random_answer<G: Game>(seed: u64, turn: &Turn<G::State>) -> (Vec<MoveInfo>, RootInfo) {
    let pos = turn.history.position();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut player = RandomPlayer::<G::Move>::new(seed ^ turn.number as u64);
    let chosen = Player::<G>::choose(&mut player, &turn.history);
    moves.sort_by_key(|&m| m != chosen);
    let n = moves.len() as f64;
    let infos = moves
        .iter()
        .enumerate()
        .map(|(i, &m)| MoveInfo {
            prior: Some(1.0 / n),
            ..info_of(pos, m, i)
        })
        .collect();
    (infos, root_of(pos, 0, None))
}

/// `ab:`: the best move with its score, as a winrate, and its line.
fn alpha_beta_answer<S: AlphaBetaState>(
    searcher: &mut Searcher<S>,
    limits: &Limits,
    turn: &Turn<S>,
) -> (Vec<MoveInfo>, RootInfo) {
    let pos = turn.history.position();
    let limits = match turn.max_time {
        Some(s) => Limits {
            depth: None,
            nodes: None,
            movetime: Some(((s * 1000.0) as u64).max(1)),
        },
        None => *limits,
    };
    let r = searcher.search_game(&turn.history, limits, |_| {});
    let (score, mate, wr) = match r.info.as_ref().map(|i| i.score) {
        Some(Score::Cp(cp)) => (
            Some(cp),
            None,
            six(game::win_probability(cp as f32, CP_SCALE) as f64),
        ),
        Some(Score::Mate(n)) => (None, Some(n), if n > 0 { 1.0 } else { 0.0 }),
        None => (None, None, 0.5),
    };
    let infos = r
        .best
        .map(|m| MoveInfo {
            winrate: Some(wr),
            score,
            mate,
            pv: r
                .info
                .as_ref()
                .map_or_else(|| vec![pos.move_text(m)], |i| line_text(pos, &i.pv)),
            ..info_of(pos, m, 0)
        })
        .into_iter()
        .collect();
    (infos, root_of(pos, 0, Some(wr)))
}

/// `mcts:`: the visited moves, the chosen one first, then by visits and
/// value.
fn mcts_answer<S: AlphaBetaState>(
    spec: &MctsSpec,
    seed: u64,
    turn: &Turn<S>,
) -> (Vec<MoveInfo>, RootInfo) {
    let pos = turn.history.position();
    let spec = MctsSpec {
        sims: turn.max_visits.unwrap_or(spec.sims),
        ..*spec
    };
    let mut uct = Uct::<S>::new(spec, seed ^ turn.number as u64);
    let best = uct.search(pos);
    let mut edges: Vec<(S::Move, u32, f32)> = uct.root_edges().filter(|e| e.1 > 0).collect();
    edges.sort_by(|a, b| {
        (Some(b.0) == best)
            .cmp(&(Some(a.0) == best))
            .then(b.1.cmp(&a.1))
            .then(b.2.total_cmp(&a.2))
    });
    let total: u32 = edges.iter().map(|e| e.1).sum();
    let mean = edges.iter().map(|e| e.1 as f32 * e.2).sum::<f32>() / total.max(1) as f32;
    let infos = edges
        .iter()
        .enumerate()
        .map(|(i, &(m, n, q))| MoveInfo {
            visits: n,
            winrate: Some(winrate(q)),
            ..info_of(pos, m, i)
        })
        .collect();
    (infos, root_of(pos, total, Some(winrate(mean))))
}

/// `solver`: every move with its exact score, best first, the best with
/// its line.
fn solver_answer<S: AlphaBetaState>(
    solver: &mut dyn PerfectPlayer<S>,
    turn: &Turn<S>,
) -> (Vec<MoveInfo>, RootInfo) {
    let pos = turn.history.position();
    let mut scored = solver.move_scores(pos).unwrap_or_else(|| {
        let (m, s) = solver.choose(pos);
        vec![(m, s)]
    });
    // Best first; equal scores keep the solver's order.
    scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    let solved = |s: i32| match s.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    };
    let best = scored.first().map(|&(_, s)| solved(s));
    let infos = scored
        .iter()
        .enumerate()
        .map(|(i, &(m, s))| {
            let pv = if i == 0 {
                solver_line(solver, &turn.history, m)
            } else {
                vec![pos.move_text(m)]
            };
            MoveInfo {
                winrate: Some(solved(s)),
                score: Some(s),
                pv,
                ..info_of(pos, m, i)
            }
        })
        .collect();
    (infos, root_of(pos, 0, best))
}

/// The solver's line from `first`: its best reply to each move after,
/// until the game ends or [`PV_LEN`] moves.
fn solver_line<S: GameState>(
    solver: &mut dyn PerfectPlayer<S>,
    history: &History<S>,
    first: S::Move,
) -> Vec<String> {
    let start = history.position().clone();
    let mut h = history.clone();
    let mut line = vec![first];
    h.play(first);
    while line.len() < PV_LEN && h.outcome().is_none() {
        let (m, _) = solver.choose(h.position());
        h.play(m);
        line.push(m);
    }
    line_text(&start, &line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcts::UniformEvaluator;
    use piratechnics::Piratechnics;

    /// An evaluator that counts its batches and their widths.
    struct Counting {
        batches: std::sync::Arc<std::sync::Mutex<Vec<usize>>>,
    }

    impl<S: GameState> Evaluator<S> for Counting {
        fn evaluate(
            &mut self,
            batch: &[Request<'_, S>],
            policy: &mut Vec<f32>,
            wdl: &mut Vec<[f32; 3]>,
        ) {
            self.batches.lock().unwrap().push(batch.len());
            UniformEvaluator.evaluate(batch, policy, wdl);
        }
    }

    /// Queries of a network player are searched together (their leaves in
    /// shared batches), each answered once with its own id, its visits as
    /// asked, its moves ranked and a line from each; a refused query names
    /// what was wrong and the rest are answered.
    #[test]
    fn network_queries_are_batched_and_each_answered() {
        let game = Piratechnics::standard();
        let batches = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut engine = Engine::with_evaluator(
            &game,
            NetSpec::new("uniform", 16),
            Box::new(Counting {
                batches: batches.clone(),
            }),
            1,
        );
        let mut input = String::new();
        for i in 0..8 {
            input.push_str(&format!(
                "{{\"id\":\"q{i}\",\"moves\":[\"d2-d4\"],\"maxVisits\":{}}}\n",
                20 + i
            ));
        }
        input.push_str("{\"id\":\"bad\",\"moves\":[\"z9-z9\"]}\n");
        input.push_str("{\"id\":\"last\"}\n");
        let lines = engine.answer_all(&input).unwrap();
        assert_eq!(lines.len(), 10, "{lines:?}");
        let answers: Vec<Value> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let bad = answers
            .iter()
            .find(|a| a["id"] == "bad")
            .expect("an error line");
        assert!(
            bad["error"].as_str().unwrap().starts_with("moves: move 1"),
            "{bad}"
        );
        for i in 0..8 {
            let a = answers
                .iter()
                .find(|a| a["id"] == format!("q{i}"))
                .expect("every query answered");
            assert_eq!(a["rootInfo"]["visits"], 21 + i, "{a}");
            assert_eq!(a["rootInfo"]["currentPlayer"], "black");
            let infos = a["moveInfos"].as_array().unwrap();
            let sum: u64 = infos.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
            assert_eq!(sum, 20 + i, "{a}");
            let visits: Vec<u64> = infos
                .iter()
                .map(|m| m["visits"].as_u64().unwrap())
                .collect();
            assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{visits:?}");
            assert!(infos.iter().all(|m| m["pv"][0] == m["move"]));
        }
        let last = answers.iter().find(|a| a["id"] == "last").unwrap();
        assert_eq!(last["rootInfo"]["visits"], 17);
        assert!(
            batches.lock().unwrap().iter().any(|&b| b > 1),
            "leaves of several queries share a batch"
        );
    }

    /// A `net:…,movetime=MS` player without `sims=` or `maxVisits` stops
    /// on its clock: one answer, within its time plus a generous margin
    /// (an upper bound, not a speed), after one simulation at least.
    #[test]
    fn a_movetime_player_answers_on_its_clock() {
        let game = Piratechnics::standard();
        let spec = match "net:uniform,movetime=40".parse::<PlayerSpec>().unwrap() {
            PlayerSpec::Net(n) => n,
            other => panic!("{other:?}"),
        };
        let mut engine = Engine::with_evaluator(&game, spec, Box::new(UniformEvaluator), 5);
        let started = Instant::now();
        let lines = engine.answer_all("{\"id\":\"t\"}\n").unwrap();
        let took = started.elapsed();
        assert!(took <= Duration::from_millis(40 + 250), "{took:?}");
        assert_eq!(lines.len(), 1, "{lines:?}");
        let a: Value = serde_json::from_str(&lines[0]).unwrap();
        assert!(a["rootInfo"]["visits"].as_u64().unwrap() >= 2, "{a}");
    }

    /// The typed call reports during the search with growing visits, ends
    /// with the answer `serve` gives for the same query, stops early when
    /// the report says so, and refuses a bad query naming it.
    #[test]
    fn analyse_reports_while_it_searches_and_stops_when_asked() {
        let game = Piratechnics::standard();
        let engine = |sims| {
            Engine::with_evaluator(
                &game,
                NetSpec::new("uniform", sims),
                Box::new(UniformEvaluator),
                3,
            )
        };
        let line = r#"{"id":"q","moves":["d2-d4"],"maxVisits":3000}"#;
        let Ok(Line::Analyse(mut query)) = parse_line(line) else {
            panic!("a query")
        };
        let served: Value = serde_json::from_str(&engine(8).answer_all(line).unwrap()[0]).unwrap();
        // Reports at every round: as often as the clock allows.
        query.report_every = Some(1e-9);
        let mut reports = Vec::new();
        let done = engine(8)
            .analyse(&query, &mut |a| {
                assert!(a.is_during_search);
                reports.push(a.root_info.visits);
                true
            })
            .unwrap();
        assert!(reports.len() >= 2, "{reports:?}");
        assert!(reports.windows(2).all(|w| w[0] < w[1]), "{reports:?}");
        assert!(!done.is_during_search);
        let done: Value = serde_json::from_str(&done.to_json()).unwrap();
        assert_eq!(done["moveInfos"], served["moveInfos"]);
        assert_eq!(done["rootInfo"]["visits"], 3001);
        // A report answered false stops the search where it stands.
        let mut seen = 0;
        let stopped = engine(8)
            .analyse(&query, &mut |_| {
                seen += 1;
                seen < 3
            })
            .unwrap();
        assert!(
            stopped.root_info.visits < 3001,
            "{}",
            stopped.root_info.visits
        );
        assert!(!stopped.is_during_search);
        query.moves = vec!["z9-z9".into()];
        let refused = engine(8).analyse(&query, &mut |_| true).unwrap_err();
        assert!(refused.error.starts_with("moves: move 1"), "{refused:?}");
    }

    /// Lines that are not queries are refused with what was wrong.
    #[test]
    fn bad_lines_are_refused_naming_the_field() {
        let e = |l: &str| parse_line(l).unwrap_err();
        assert_eq!(e("[1]").error, "a query is a JSON object");
        assert_eq!(e("{}").id, None);
        let r = e(r#"{"id":"x","maxVisits":0}"#);
        assert_eq!(r.id.as_deref(), Some("x"));
        assert!(r.error.contains("maxVisits"));
        assert!(e(r#"{"id":"x","moves":["a"],"analyzeTurns":[2]}"#)
            .error
            .contains("analyzeTurns"));
        assert!(e(r#"{"id":"x","maxTime":-1}"#).error.contains("maxTime"));
        let Ok(Line::Analyse(q)) = parse_line(r#"{"id":7,"moves":[["B","d2-d4"]],"komi":7.5}"#)
        else {
            panic!("a KataGo-style query")
        };
        assert_eq!(
            (q.id.as_str(), q.moves.as_slice()),
            ("7", &["d2-d4".to_string()][..])
        );
    }
}
