//! Checking shards against the rules of their game (`triad data verify`,
//! the distributed trainer's ingestion, `triad train --data`): every game
//! of a shard is replayed from its first row through the game's rules, and
//! every row is compared with the replay. A shard's writer checks shape
//! (lengths, nulls); this checks that the rows tell the truth:
//!
//! - the file's metadata (game, variant, schema version) is readable and
//!   is the rows' game and variant;
//! - a game's rows are together in the file, plies 0, 1, 2, … in order
//!   and complete, and no game id is used by two games (in a shard, or
//!   across the shards checked together: [`GameIds`]);
//! - each row's position text, side to move, hash and repetition count are
//!   the replay's, its legal moves are the position's legal moves (as a
//!   set), and its chosen move is legal;
//! - the search columns agree with each other (visits and policy target
//!   one per legal move, a policy target that sums to 1, visits that sum
//!   to no more than the search could make (its simulations, or the
//!   previous ply's visits in a reused tree), a root value in
//!   [-1, 1] and a W/D/L that sums to 1, all null together or not at all);
//! - the result, termination and game length are the same on every row,
//!   the length is the number of rows, and at the last ply the result and
//!   termination are what the rules say (a game the rules end must say so;
//!   one they do not end ended by resignation of the side to move,
//!   max-length, adjudication, or is unfinished).
//!
//! The checks are generic over [`game::Game`]; the registry dispatches
//! over the games (`registry::verify_shards`). The replay is the data
//! crate's one ([`crate::record`]), the one [`GameRecord::replay`]
//! (`crate::GameRecord::replay`) uses. A [`Verifier`] keeps its buffers
//! between shards: after the first shard a row costs no allocation but
//! the replay's position text.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use game::{Game, GameMove, GameResult, GameState, GameTag, History, Termination};

use crate::reader::ShardReader;
use crate::record::{replay_rows, result_str, PositionRecord, ShardGame};

/// What kind of lie a [`Fault`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// The file cannot be read as a shard.
    Unreadable,
    /// The file's metadata (game, variant) disagrees with its rows or with
    /// the other shards.
    Metadata,
    /// A game id used by two games, or a game's rows not together.
    GameId,
    /// Plies out of order, missing or repeated.
    Plies,
    /// Position text or side to move other than the replay's.
    Position,
    /// Position hash other than the replay's.
    Hash,
    /// Repetition count other than the game's history gives.
    Repetitions,
    /// The chosen move is not a legal move of the position.
    IllegalMove,
    /// The legal moves are not the position's.
    LegalMoves,
    /// Search columns that disagree (lengths, sums, ranges, nulls).
    Search,
    /// Result, termination or game length other than the rules and the
    /// rows say.
    Result,
}

impl FaultKind {
    /// The name `--json` and the quarantine's reason give.
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::Unreadable => "unreadable",
            FaultKind::Metadata => "metadata",
            FaultKind::GameId => "game-id",
            FaultKind::Plies => "plies",
            FaultKind::Position => "position",
            FaultKind::Hash => "hash",
            FaultKind::Repetitions => "repetitions",
            FaultKind::IllegalMove => "illegal-move",
            FaultKind::LegalMoves => "legal-moves",
            FaultKind::Search => "search",
            FaultKind::Result => "result",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One lie found in a shard: its kind, the game and ply of the row (as the
/// row's columns say; `None` for a fault of the whole file) and one line
/// saying what disagrees with what.
#[derive(Debug, Clone, PartialEq)]
pub struct Fault {
    /// What kind of lie.
    pub kind: FaultKind,
    /// The row's `game_id` (`None`: a fault of the whole file).
    pub game_id: Option<u64>,
    /// The row's `ply` (`None`: a fault of the whole file or game).
    pub ply: Option<u32>,
    /// What disagrees with what, one line.
    pub message: String,
}

impl Fault {
    fn new(kind: FaultKind, r: &PositionRecord, message: String) -> Fault {
        Fault {
            kind,
            game_id: Some(r.game_id),
            ply: Some(r.ply),
            message,
        }
    }

    /// A fault of the whole file.
    pub fn file(kind: FaultKind, message: impl Into<String>) -> Fault {
        Fault {
            kind,
            game_id: None,
            ply: None,
            message: message.into(),
        }
    }

    /// The fault as JSON: `kind`, `game`, `ply` (null for a fault of the
    /// file), `message`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "kind": self.kind.as_str(),
            "game": self.game_id,
            "ply": self.ply,
            "message": self.message,
        })
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.game_id, self.ply) {
            (Some(g), Some(p)) => write!(f, "game {g} ply {p}: ")?,
            (Some(g), None) => write!(f, "game {g}: ")?,
            _ => {}
        }
        write!(f, "{} ({})", self.message, self.kind)
    }
}

/// What checking a set of rows found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    /// Games (distinct ids) in the rows.
    pub games: u64,
    /// Rows checked.
    pub rows: u64,
    /// The ids of the games, in order of first appearance (for
    /// [`GameIds::add`]).
    pub ids: Vec<u64>,
    /// The faults found, by game and ply (faults of the file first).
    pub faults: Vec<Fault>,
}

/// What checking one shard found.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardCheck {
    /// The shard checked.
    pub path: PathBuf,
    /// The game and variant of the file's metadata, if readable.
    pub game: Option<ShardGame>,
    /// What its rows gave.
    pub checked: Checked,
}

impl ShardCheck {
    /// A shard that could not be checked at all (unreadable, of a game
    /// that cannot be built), with the reason as its one fault.
    pub fn failed(path: &Path, kind: FaultKind, message: impl Into<String>) -> ShardCheck {
        ShardCheck {
            path: path.to_path_buf(),
            game: None,
            checked: Checked {
                faults: vec![Fault::file(kind, message)],
                ..Checked::default()
            },
        }
    }

    /// Whether the shard is sound (no fault).
    pub fn ok(&self) -> bool {
        self.checked.faults.is_empty()
    }

    /// The first fault as one line naming the file (`PATH: game G ply P:
    /// …`), `None` for a sound shard.
    pub fn first_fault(&self) -> Option<String> {
        let f = self.checked.faults.first()?;
        Some(format!("{}: {f}", self.path.display()))
    }

    /// The check as JSON: `file`, `game` (`name/variant`), `games`,
    /// `rows`, `faults` (each [`Fault::json`]).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "file": self.path.display().to_string(),
            "game": self.game.as_ref().map(|g| g.to_string()),
            "games": self.checked.games,
            "rows": self.checked.rows,
            "faults": self.checked.faults.iter().map(Fault::json).collect::<Vec<_>>(),
        })
    }
}

/// The game ids of the shards accepted so far, and the file each came
/// from: a game id in two shards of a run is two games sharing an id.
#[derive(Debug, Default, Clone)]
pub struct GameIds {
    ids: HashMap<u64, usize>,
    files: Vec<PathBuf>,
}

impl GameIds {
    /// The file already holding game `id`, if any.
    pub fn holder(&self, id: u64) -> Option<&Path> {
        self.ids.get(&id).map(|&f| self.files[f].as_path())
    }

    /// Records the games of a checked shard as taken (ids already taken
    /// keep their first file).
    pub fn add(&mut self, path: &Path, ids: &[u64]) {
        let f = self.files.len();
        self.files.push(path.to_path_buf());
        for &id in ids {
            self.ids.entry(id).or_insert(f);
        }
    }

    /// How many ids are taken.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether no id is taken.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// Checks the rows of one shard of `game` (see the module's header), with
/// fresh buffers; [`Verifier::records`] reuses them.
pub fn verify_records<G: Game>(game: &G, rows: &[PositionRecord]) -> Checked {
    Verifier::new(game).records(rows, &GameIds::default())
}

/// Checks the shard at `path` against `game` and against the ids of
/// `taken` (the run's other shards), with fresh buffers; see
/// [`Verifier::shard`].
pub fn verify_shard<G: Game>(game: &G, path: &Path, taken: &GameIds) -> ShardCheck {
    Verifier::new(game).shard(path, taken)
}

/// The checker of one game's shards, with the buffers it reuses.
pub struct Verifier<'g, G: Game> {
    game: &'g G,
    tag: GameTag,
    legal: Vec<G::Move>,
    expected: Vec<u32>,
    claimed: Vec<u32>,
    /// Game (index in `ids`) of each row.
    slot_of: Vec<u32>,
    slots: HashMap<u64, u32>,
    /// Runs of consecutive rows of one game: (slot, first row, rows).
    segments: Vec<(u32, u32, u32)>,
    /// Row indices grouped by game, file order within a game.
    order: Vec<u32>,
    /// The ply cap the run stops games at, when the caller knows it
    /// ([`Verifier::with_max_plies`]).
    run_cap: Option<u32>,
    /// The cap of the rows being checked: the run's, else the shard's own
    /// ([`crate::schema::MAX_PLIES_KEY`]).
    cap: Option<u32>,
}

impl<'g, G: Game> Verifier<'g, G> {
    /// A verifier of `game`'s shards (its game and variant), with empty
    /// buffers.
    pub fn new(game: &'g G) -> Verifier<'g, G> {
        Verifier {
            game,
            tag: GameTag::of(game),
            legal: Vec::new(),
            expected: Vec::new(),
            claimed: Vec::new(),
            slot_of: Vec::new(),
            slots: HashMap::new(),
            segments: Vec::new(),
            order: Vec::new(),
            run_cap: None,
            cap: None,
        }
    }

    /// Checks games stopped by the cap against `max_plies` (the run's
    /// `[selfplay] max_plies`), whatever a shard says: a shard whose own
    /// recorded cap differs is a metadata fault, and a game ended by
    /// `max-length` or `adjudication` at another length a result fault.
    pub fn with_max_plies(mut self, max_plies: u32) -> Self {
        self.run_cap = Some(max_plies);
        self
    }

    /// Reads the shard at `path` and checks its metadata and rows; a game
    /// id that `taken` holds is a fault. An unreadable file is a fault
    /// too, not an error: the answer is always a [`ShardCheck`].
    pub fn shard(&mut self, path: &Path, taken: &GameIds) -> ShardCheck {
        let reader = match ShardReader::open(path) {
            Ok(r) => r,
            Err(e) => return ShardCheck::failed(path, FaultKind::Unreadable, e.message),
        };
        let game = reader.game().cloned();
        let mut faults = Vec::new();
        if let Err(e) = reader.check_game(&self.tag) {
            faults.push(Fault::file(FaultKind::Metadata, e.message));
        }
        if let (Some(run), Some(own)) = (self.run_cap, reader.max_plies()) {
            if run != own {
                faults.push(Fault::file(
                    FaultKind::Metadata,
                    format!("the shard says its games stop at {own} plies; this run stops them at {run}"),
                ));
            }
        }
        self.cap = self.run_cap.or(reader.max_plies());
        let rows = match reader.read_records() {
            Ok(rows) => rows,
            Err(e) => return ShardCheck::failed(path, FaultKind::Unreadable, e.message),
        };
        let mut checked = self.records(&rows, taken);
        self.cap = None;
        faults.append(&mut checked.faults);
        checked.faults = faults;
        ShardCheck {
            path: path.to_path_buf(),
            game,
            checked,
        }
    }

    /// Checks the rows of one shard (see the module's header); a game id
    /// that `taken` holds is a fault.
    pub fn records(&mut self, rows: &[PositionRecord], taken: &GameIds) -> Checked {
        let mut out = Checked {
            rows: rows.len() as u64,
            ..Checked::default()
        };
        self.group(rows, &mut out);
        // Ids another shard holds: one fault per such shard, at the first
        // game, counting the others.
        let mut shared: Vec<(&Path, Vec<u64>)> = Vec::new();
        for &id in &out.ids {
            if let Some(other) = taken.holder(id) {
                match shared.iter_mut().find(|(p, _)| *p == other) {
                    Some((_, ids)) => ids.push(id),
                    None => shared.push((other, vec![id])),
                }
            }
        }
        for (other, ids) in shared {
            let first = self.slots[&ids[0]];
            let row = self.slot_of.iter().position(|&s| s == first);
            let more = match ids.len() {
                1 => String::new(),
                n => format!(" (and {} more of this shard's {n} games)", n - 1),
            };
            out.faults.push(Fault {
                kind: FaultKind::GameId,
                game_id: Some(ids[0]),
                ply: row.map(|i| rows[i].ply),
                message: format!(
                    "game id {}{more} is also a game of {}: two games share the id",
                    ids[0],
                    other.display()
                ),
            });
        }
        let order = std::mem::take(&mut self.order);
        let mut start = 0;
        while start < order.len() {
            let slot = self.slot_of[order[start] as usize];
            let end = order[start..]
                .iter()
                .position(|&i| self.slot_of[i as usize] != slot)
                .map_or(order.len(), |n| start + n);
            self.game_rows(rows, &order[start..end], &mut out.faults);
            start = end;
        }
        self.order = order;
        // By game and ply, faults of the whole file first.
        out.faults
            .sort_by_key(|f| (f.game_id.is_some(), f.game_id, f.ply));
        out
    }

    /// Assigns each row its game, finds games whose rows are not together,
    /// and orders the rows by game (`self.order`).
    fn group(&mut self, rows: &[PositionRecord], out: &mut Checked) {
        self.slots.clear();
        self.slot_of.clear();
        self.segments.clear();
        for (i, r) in rows.iter().enumerate() {
            let next = out.ids.len() as u32;
            let slot = *self.slots.entry(r.game_id).or_insert(next);
            if slot == next {
                out.ids.push(r.game_id);
            }
            self.slot_of.push(slot);
            match self.segments.last_mut() {
                Some((s, _, n)) if *s == slot => *n += 1,
                _ => self.segments.push((slot, i as u32, 1)),
            }
        }
        out.games = out.ids.len() as u64;
        if self.segments.len() > out.ids.len() {
            // Some game is in several places: report every place but its
            // longest (a moved row, a second game under the same id).
            self.segments.sort_by_key(|&(s, _, _)| s);
            let mut k = 0;
            while k < self.segments.len() {
                let s = self.segments[k].0;
                let end = self.segments[k..]
                    .iter()
                    .position(|x| x.0 != s)
                    .map_or(self.segments.len(), |n| k + n);
                let group = &self.segments[k..end];
                if group.len() > 1 {
                    let longest = group
                        .iter()
                        .enumerate()
                        .max_by_key(|(j, x)| (x.2, std::cmp::Reverse(*j)))
                        .map_or(0, |(j, _)| j);
                    for (j, &(_, first, n)) in group.iter().enumerate() {
                        if j != longest {
                            let r = &rows[first as usize];
                            out.faults.push(Fault::new(
                                FaultKind::GameId,
                                r,
                                format!(
                                    "{n} row(s) of game {} at row {first} of the file, apart from its other {} place(s): two games share the id, or rows were moved",
                                    r.game_id,
                                    group.len() - 1
                                ),
                            ));
                        }
                    }
                }
                k = end;
            }
        }
        self.order.clear();
        self.order.extend(0..rows.len() as u32);
        let slot_of = &self.slot_of;
        self.order.sort_by_key(|&i| slot_of[i as usize]);
    }

    /// Checks the rows of one game (`idx`: row indices in file order).
    fn game_rows(&mut self, rows: &[PositionRecord], idx: &[u32], faults: &mut Vec<Fault>) {
        let first = &rows[idx[0] as usize];
        let mut said = GameSaid::default();
        let mut carried = 0u64;
        for &i in idx {
            let r = &rows[i as usize];
            self.row_alone(r, first, idx.len(), &mut said, faults);
            carried = check_visit_budget(r, carried, faults);
        }
        let start = match first.state(self.game) {
            Ok(s) => s,
            Err(e) => {
                if first.is_game(&self.tag) {
                    faults.push(Fault::new(FaultKind::Position, first, e.to_string()));
                }
                return;
            }
        };
        let mut k = 0u32;
        let game = self.game;
        let (legal, expected, claimed) = (&mut self.legal, &mut self.expected, &mut self.claimed);
        let replay = replay_rows(
            start,
            idx.iter().map(|&i| &rows[i as usize]),
            |h: &History<G::State>, r| {
                let at = k;
                k += 1;
                check_row(game, h, r, at, legal, expected, claimed, faults)
            },
            |r| {
                let what = match G::Move::from_code(r.chosen_move) {
                    Some(_) => "is not a legal move of the position",
                    None => "is no move of the game",
                };
                Fault::new(
                    FaultKind::IllegalMove,
                    r,
                    format!("chosen move code {} {what}", r.chosen_move),
                )
            },
        );
        match replay {
            Ok(h) => check_end(
                &h,
                first,
                &rows[idx[idx.len() - 1] as usize],
                self.cap,
                faults,
            ),
            Err(f) => faults.push(f),
        }
    }

    /// The checks of a row that need no replay: its game and variant, the
    /// search columns, and the game's columns against the first row's
    /// (each of those said once a game, at the first row that breaks it).
    fn row_alone(
        &self,
        r: &PositionRecord,
        first: &PositionRecord,
        rows: usize,
        said: &mut GameSaid,
        faults: &mut Vec<Fault>,
    ) {
        if !r.is_game(&self.tag) && !std::mem::replace(&mut said.game, true) {
            faults.push(Fault::new(
                FaultKind::Metadata,
                r,
                format!("a {}/{} row in a shard of {}", r.game, r.variant, self.tag),
            ));
        }
        if let Err(e) = r.validate() {
            faults.push(Fault::new(FaultKind::Search, r, e.to_string()));
        }
        check_search(r, faults);
        if (r.result != first.result || r.termination != first.termination)
            && !std::mem::replace(&mut said.result, true)
        {
            faults.push(Fault::new(
                FaultKind::Result,
                r,
                format!(
                    "result {} {} where ply {} says {} {} (one game, one result)",
                    result_str(r.result),
                    r.termination,
                    first.ply,
                    result_str(first.result),
                    first.termination
                ),
            ));
        }
        if r.game_length as usize != rows && !std::mem::replace(&mut said.length, true) {
            faults.push(Fault::new(
                FaultKind::Result,
                r,
                format!("game_length {} for a game of {rows} row(s)", r.game_length),
            ));
        }
    }
}

/// Which of a game's once-a-game faults have been said.
#[derive(Default)]
struct GameSaid {
    game: bool,
    result: bool,
    length: bool,
}

/// The replay's checks of row `r`, the `at`-th of its game, on the
/// position before its move (`h`). A fault that makes the rest of the
/// replay meaningless (a ply or position that is not the replay's) is
/// returned and stops the game's replay; the others are pushed.
#[allow(clippy::too_many_arguments)]
fn check_row<G: Game>(
    _game: &G,
    h: &History<G::State>,
    r: &PositionRecord,
    at: u32,
    legal: &mut Vec<G::Move>,
    expected: &mut Vec<u32>,
    claimed: &mut Vec<u32>,
    faults: &mut Vec<Fault>,
) -> Result<(), Fault> {
    if r.ply != at {
        return Err(Fault::new(
            FaultKind::Plies,
            r,
            format!(
                "ply {} is the game's row {at}: plies out of order, missing or repeated",
                r.ply
            ),
        ));
    }
    let pos = h.position();
    let text = pos.to_text();
    if text != r.position {
        return Err(Fault::new(
            FaultKind::Position,
            r,
            format!(
                "position {:?} is not the replay's {text:?}",
                game::clip(&r.position, 200)
            ),
        ));
    }
    if r.side_to_move != pos.side() {
        faults.push(Fault::new(
            FaultKind::Position,
            r,
            format!(
                "side to move {} is not the position's {}",
                r.side_to_move,
                pos.side()
            ),
        ));
    }
    let hash = pos.hash();
    if r.position_hash != hash {
        faults.push(Fault::new(
            FaultKind::Hash,
            r,
            format!(
                "position hash {:#018x} is not the position's {hash:#018x}",
                r.position_hash
            ),
        ));
    }
    let count = h.repetition_count();
    if let Some(n) = r.repetitions.filter(|&n| n != count) {
        faults.push(Fault::new(
            FaultKind::Repetitions,
            r,
            format!("repetition {n} of its position; the game's history says {count}"),
        ));
    }
    pos.legal_moves(legal);
    expected.clear();
    expected.extend(legal.iter().map(|m| m.code()));
    expected.sort_unstable();
    claimed.clear();
    claimed.extend_from_slice(&r.legal_moves);
    claimed.sort_unstable();
    if expected != claimed {
        let missing = expected
            .iter()
            .filter(|c| claimed.binary_search(c).is_err())
            .count();
        let extra = claimed.len() + missing - expected.len();
        faults.push(Fault::new(
            FaultKind::LegalMoves,
            r,
            format!(
                "legal moves are not the position's: {missing} of its {} missing, {extra} listed that are not legal here or listed twice",
                expected.len()
            ),
        ));
    }
    Ok(())
}

/// The search columns of a row against each other.
fn check_search(r: &PositionRecord, faults: &mut Vec<Fault>) {
    let mut fault = |m: String| faults.push(Fault::new(FaultKind::Search, r, m));
    let searched = r.simulations.is_some();
    if r.visits.is_some() != searched || r.root_value.is_some() != searched {
        fault(format!(
            "simulations {}, visits {}, root value {}: the search columns are null together or not at all",
            if searched { "set" } else { "null" },
            if r.visits.is_some() { "set" } else { "null" },
            if r.root_value.is_some() { "set" } else { "null" },
        ));
    }
    if let Some(p) = &r.policy_target {
        let sum: f64 = p.iter().map(|&x| x as f64).sum();
        if p.iter().any(|x| !x.is_finite() || *x < 0.0)
            || (!p.is_empty() && (sum - 1.0).abs() > 1e-3)
        {
            fault(format!(
                "policy target sums to {sum:.4} (a distribution over the legal moves sums to 1, none negative)"
            ));
        }
    }
    if let Some(v) = r.root_value {
        if !(v.is_finite() && v.abs() <= 1.0 + 1e-4) {
            fault(format!("root value {v} is not in [-1, 1]"));
        }
    }
    if let Some(wdl) = r.root_wdl {
        let sum: f32 = wdl.iter().sum();
        if wdl.iter().any(|x| !x.is_finite() || *x < -1e-4) || (sum - 1.0).abs() > 1e-3 {
            fault(format!(
                "root W/D/L {wdl:?} sums to {sum:.4} (probabilities sum to 1)"
            ));
        }
    }
}

/// The visits of a row against what its search could have made: a fresh
/// root gets at most `simulations` visits, and a root whose subtree the
/// search reused from the previous ply (PUCT's tree reuse) starts with at
/// most the visits of the previous row's root, so a row's visits sum to at
/// most the larger of its simulations and the previous row's sum (`carried`),
/// plus one for the root's own evaluation. A searched row with no visits
/// and no policy target leaves the trainer nothing to learn the policy from.
/// Returns the row's sum, the next row's `carried`.
fn check_visit_budget(r: &PositionRecord, carried: u64, faults: &mut Vec<Fault>) -> u64 {
    let Some(visits) = &r.visits else {
        return 0;
    };
    let sum: u64 = visits.iter().map(|&v| u64::from(v)).sum();
    let simulations = u64::from(r.simulations.unwrap_or(0));
    let cap = simulations.max(carried) + 1;
    if sum > cap {
        faults.push(Fault::new(
            FaultKind::Search,
            r,
            format!(
                "visits sum to {sum}, more than the search could make: {simulations} simulations, or the previous ply's {carried} visits carried over in a reused tree"
            ),
        ));
    }
    if sum == 0 && !visits.is_empty() && r.policy_target.is_none() {
        faults.push(Fault::new(
            FaultKind::Search,
            r,
            "visits all 0 and no policy target: a searched row leaves no policy to learn".into(),
        ));
    }
    sum
}

/// The end of a game: the result and termination the rows give against
/// what the rules say after the last row's move.
fn check_end<S: GameState>(
    h: &History<S>,
    first: &PositionRecord,
    last: &PositionRecord,
    cap: Option<u32>,
    faults: &mut Vec<Fault>,
) {
    let said = format!("{} {}", result_str(first.result), first.termination);
    let mut fault = |m: String| faults.push(Fault::new(FaultKind::Result, last, m));
    match h.outcome() {
        Some(o) => {
            if first.result != Some(o.result) || first.termination != o.termination {
                fault(format!(
                    "the rules end the game after this ply with {} {}; the rows say {said}",
                    o.result, o.termination
                ));
            }
        }
        None => {
            let side = h.position().side();
            let ok = match first.termination {
                Termination::Resignation => first.result == Some(GameResult::win_for(!side)),
                Termination::MaxLength => first.result == Some(GameResult::Draw),
                Termination::Adjudication => {
                    first.result.is_some() && first.result != Some(GameResult::Draw)
                }
                Termination::Unfinished => true,
                _ => false,
            };
            if !ok {
                fault(format!(
                    "the rules do not end the game after this ply ({side} to move); the rows say {said}"
                ));
                return;
            }
            let capped = matches!(
                first.termination,
                Termination::MaxLength | Termination::Adjudication
            );
            let plies = h.ply() as u32;
            if let Some(cap) = cap.filter(|&c| capped && plies != c) {
                fault(format!(
                    "{said} after {plies} plies; the games of this shard stop at {cap}"
                ));
            }
        }
    }
}

/// What checking a set of shards found (`triad data verify`): one
/// [`ShardCheck`] per file, in the order checked, and the time it took.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// One check per file, in the order checked.
    pub shards: Vec<ShardCheck>,
    /// Seconds spent reading and checking.
    pub seconds: f64,
}

impl Report {
    /// Games checked (distinct ids per shard, summed).
    pub fn games(&self) -> u64 {
        self.shards.iter().map(|s| s.checked.games).sum()
    }

    /// Rows checked.
    pub fn rows(&self) -> u64 {
        self.shards.iter().map(|s| s.checked.rows).sum()
    }

    /// Faults found, in all files.
    pub fn faults(&self) -> usize {
        self.shards.iter().map(|s| s.checked.faults.len()).sum()
    }

    /// Files with at least one fault.
    pub fn bad_files(&self) -> usize {
        self.shards.iter().filter(|s| !s.ok()).count()
    }

    /// Rows checked per second.
    pub fn rows_per_s(&self) -> f64 {
        self.rows() as f64 / self.seconds.max(1e-9)
    }

    /// Whether every shard is sound.
    pub fn ok(&self) -> bool {
        self.shards.iter().all(ShardCheck::ok)
    }

    /// The report as `--json` prints it: `ok`, `files`, `bad_files`,
    /// `games`, `rows`, `faults` (a count), `seconds`, `rows_per_s`, and
    /// `shards`: each file with faults ([`ShardCheck::json`]).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "ok": self.ok(),
            "files": self.shards.len(),
            "bad_files": self.bad_files(),
            "games": self.games(),
            "rows": self.rows(),
            "faults": self.faults(),
            "seconds": self.seconds,
            "rows_per_s": self.rows_per_s(),
            "shards": self.shards.iter().filter(|s| !s.ok()).map(ShardCheck::json).collect::<Vec<_>>(),
        })
    }

    /// The report as text: one line per fault (`FILE: game G ply P: …
    /// (kind)`), then the summary line.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for s in &self.shards {
            for f in &s.checked.faults {
                out += &format!("{}: {f}\n", s.path.display());
            }
        }
        out += &format!(
            "{} file(s), {} games, {} rows checked in {:.2} s ({:.0} rows/s): {}\n",
            self.shards.len(),
            self.games(),
            self.rows(),
            self.seconds,
            self.rows_per_s(),
            if self.ok() {
                "no fault".to_string()
            } else {
                format!("{} fault(s) in {} file(s)", self.faults(), self.bad_files())
            }
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synthetic::random_game;
    use piratechnics::Piratechnics;

    fn rows(g: &Piratechnics) -> Vec<PositionRecord> {
        let start = g.start();
        (0..3)
            .flat_map(|id| random_game(g, id, &start, 5, 30).positions)
            .collect()
    }

    #[test]
    fn clean_rows_pass_and_each_lie_is_found_where_it_is() {
        let g = Piratechnics::standard();
        let clean = rows(&g);
        let checked = verify_records(&g, &clean);
        assert_eq!((checked.games, checked.rows), (3, clean.len() as u64));
        assert_eq!(checked.ids, vec![0, 1, 2]);
        assert!(checked.faults.is_empty(), "{:?}", checked.faults);
        assert_eq!(verify_records(&g, &[]), Checked::default());

        // One lie at a time: game 1's ply 5.
        let at = clean
            .iter()
            .position(|r| r.game_id == 1 && r.ply == 5)
            .unwrap();
        type Lie = (FaultKind, fn(&mut PositionRecord));
        let lies: [Lie; 4] = [
            (FaultKind::Hash, |r| r.position_hash ^= 1),
            (FaultKind::Repetitions, |r| r.repetitions = Some(2)),
            (FaultKind::IllegalMove, |r| r.chosen_move = u32::MAX),
            (FaultKind::Position, |r| r.position.push(' ')),
        ];
        for (kind, lie) in lies {
            let mut rows = clean.clone();
            lie(&mut rows[at]);
            let found = verify_records(&g, &rows).faults;
            assert_eq!(found.len(), 1, "{kind}: {found:?}");
            assert_eq!(
                (found[0].kind, found[0].game_id, found[0].ply),
                (kind, Some(1), Some(5)),
                "{found:?}"
            );
        }
    }

    #[test]
    fn ids_of_other_shards_are_faults_once_a_shard() {
        let g = Piratechnics::standard();
        let rows = rows(&g);
        let mut taken = GameIds::default();
        taken.add(Path::new("first.parquet"), &[1, 2]);
        let found = Verifier::new(&g).records(&rows, &taken).faults;
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].kind, found[0].game_id),
            (FaultKind::GameId, Some(1))
        );
        assert!(
            found[0].message.contains("first.parquet"),
            "{}",
            found[0].message
        );
    }
}
