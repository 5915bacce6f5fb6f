//! The games behind one interface for the Python layer: [`DynGame`] and
//! [`DynState`], implemented once, generically, for every game of the
//! registry ([`of_any`] hands the concrete game to [`Bound`] through
//! `with_game!`). A Python call makes one virtual call here; the games'
//! own code under it stays monomorphised.

use crate::error::Error;
use game::{
    AlphaBetaState, Encoding, Game, GameError, GameMove, GameState, GameTag, History, Outcome,
};
use model::{CheckpointInfo, ModelConfig, Network};
use std::any::Any;
use std::path::Path;

/// The pyspiel player id of a finished game (`kTerminalPlayerId`).
pub const TERMINAL_PLAYER: i32 = -4;

/// One game and variant, as the Python `Game` sees it.
pub trait DynGame: Send + Sync {
    /// The registry name.
    fn name(&self) -> &'static str;
    /// The variant text.
    fn variant(&self) -> String;
    /// What the network's input looks like.
    fn encoding(&self) -> Encoding;
    /// The exclusive bound of the move codes (`Game::action_codes`).
    fn action_codes(&self) -> u64;
    /// A game from its start, or from a position text.
    fn new_state(&self, position: Option<&str>) -> Result<Box<dyn DynState>, GameError>;
    /// A game from a [`DynState::serialize`] text: its start, then its
    /// moves replayed and checked.
    fn deserialize(&self, text: &str) -> Result<Box<dyn DynState>, GameError>;
    /// The variant of this game a position text is on, when it is another
    /// (`Game::variant_for_text`).
    fn game_for_text(&self, text: &str) -> Option<Box<dyn DynGame>>;
    /// Encodes `states` (all of this game and variant) through the
    /// network's own batch encoder (`model::encode_batch`) into `out`.
    fn encode_with_model(&self, states: &[&dyn DynState], out: &mut [f32]) -> Result<(), Error>;
    /// The network's whole input for `states` (all of this game and
    /// variant), as `model::Encoder` lays a batch out: planes, and the
    /// legal moves padded to the most of any state.
    fn network_inputs(&self, states: &[&dyn DynState]) -> Result<NetworkInputs, Error>;
    /// A fresh network of `[model]`'s default shape for this game.
    fn fresh_network(&self, seed: u64) -> Box<dyn DynNet>;
    /// The checkpoint at `path`, which must be of this game and variant.
    fn load_network(&self, path: &std::path::Path) -> Result<Box<dyn DynNet>, Error>;
}

/// One game in progress (its start, moves and position), as the Python
/// `State` sees it.
pub trait DynState: Send + Sync {
    /// For [`DynGame::encode_with_model`], which needs the concrete type.
    fn as_any(&self) -> &dyn Any;
    /// An independent copy.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// The registry name of the game.
    fn game_name(&self) -> &'static str;
    /// The game's variant text.
    fn variant(&self) -> String;
    /// The game the state is of.
    fn game(&self) -> Box<dyn DynGame>;
    /// The legal moves' codes, in the game's order; none once the game is
    /// over.
    fn legal_actions(&self) -> &[u32];
    /// Plays the move of code `action`, if legal here.
    fn apply_action(&mut self, action: u32) -> Result<(), GameError>;
    /// 0 (first player) or 1, or [`TERMINAL_PLAYER`].
    fn current_player(&self) -> i32;
    /// The result by the rules, repetition included.
    fn outcome(&self) -> Option<Outcome>;
    /// The moves played since the start, as codes.
    fn history(&self) -> Vec<u32>;
    /// The move text of a code in this position (any decodable move).
    fn action_to_string(&self, action: u32) -> Result<String, GameError>;
    /// The code of a move text legal here.
    fn string_to_action(&self, text: &str) -> Result<u32, GameError>;
    /// The position's text (`--position`).
    fn position(&self) -> String;
    /// The start's text.
    fn start_position(&self) -> String;
    /// The position drawn as text.
    fn diagram(&self) -> String;
    /// How often the position has occurred in this game, this time included.
    fn repetitions(&self) -> u32;
    /// Writes the network's input planes (`Encoding::plane_len` floats).
    fn encode(&self, out: &mut [f32]);
    /// The alpha-beta engine's analysis of the position
    /// (`eval::analyze`, as `triad analyze`).
    fn analyze(&self, limits: eval::Limits, hash_mb: usize) -> eval::analyze::Analysis;
    /// Pure MCTS (`eval::Uct`, the player `mcts:sims=N`): the move it
    /// plays and its root edges `(code, visits, mean result)`.
    fn mcts(&self, spec: eval::MctsSpec, seed: u64) -> (Option<u32>, Vec<(u32, u32, f32)>);
    /// The move code a fresh player of `spec` (any `--player` spec:
    /// `random`, `ab:depth=N`, `mcts:sims=N`, `net:CKPT,sims=N,...`)
    /// chooses here, as `triad move` does (`eval::choose`).
    fn choose(
        &self,
        spec: &eval::arena::players::PlayerSpec,
        seed: u64,
        device: tch::Device,
    ) -> Result<u32, Error>;
}

/// A batch as the network reads it (`model::Encoder`'s arrays, flat).
pub struct NetworkInputs {
    /// `[B, planes, height, width]`.
    pub planes: Vec<f32>,
    /// `[B, M]` cell of each move's origin (0 in padding).
    pub move_from: Vec<i64>,
    /// `[B, M]` cell of each move's destination (0 in padding).
    pub move_to: Vec<i64>,
    /// `[B, M, move_features]`.
    pub move_features: Vec<f32>,
    /// `[B, M]`: a real move (true) or padding.
    pub mask: Vec<bool>,
    /// M, the most legal moves of any state.
    pub max_moves: usize,
}

/// The start text, a newline, then the move codes separated by spaces.
pub fn serialize(state: &dyn DynState) -> String {
    let moves: Vec<String> = state.history().iter().map(u32::to_string).collect();
    format!("{}\n{}", state.start_position(), moves.join(" "))
}

/// A game of the registry.
#[derive(Clone)]
pub struct Bound<G: Game>(pub G);

/// The registry's game as a [`DynGame`].
pub fn of_any(any: &registry::AnyGame) -> Box<dyn DynGame> {
    fn boxed<G: Game>(g: &G) -> Box<dyn DynGame>
    where
        G::State: AlphaBetaState,
    {
        Box::new(Bound(g.clone()))
    }
    registry::with_game!(any, |g| boxed(g))
}

/// One game in progress: the history the rules need for repetition, and
/// the legal moves and outcome of its position, kept after every move.
#[derive(Clone)]
pub struct Play<G: Game> {
    game: G,
    history: History<G::State>,
    moves: Vec<G::Move>,
    codes: Vec<u32>,
    outcome: Option<Outcome>,
}

impl<G: Game> Play<G> {
    fn new(game: G, start: G::State) -> Play<G> {
        let mut p = Play {
            game,
            history: History::new(start),
            moves: Vec::new(),
            codes: Vec::new(),
            outcome: None,
        };
        p.refresh();
        p
    }

    /// Recomputes the legal moves and outcome of the current position.
    fn refresh(&mut self) {
        let pos = self.history.position();
        pos.legal_moves(&mut self.moves);
        self.outcome = pos.terminal(!self.moves.is_empty(), self.history.repetition_count());
        if self.outcome.is_some() {
            self.moves.clear();
        }
        self.codes.clear();
        self.codes.extend(self.moves.iter().map(|m| m.code()));
    }

    /// The position now.
    pub fn state(&self) -> &G::State {
        self.history.position()
    }

    /// The game it is of.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// How often the position has occurred (at least 1), as the encoders
    /// take it.
    pub fn repetition_count(&self) -> u8 {
        self.history.repetition_count().clamp(1, 255) as u8
    }
}

fn no_move(action: u32, position: &str) -> GameError {
    GameError::illegal_move(
        action.to_string(),
        format!("action {action} is not a legal move in {position}"),
    )
}

impl<G: Game> Bound<G> {
    /// `s` as a state of this game and variant, else the error a batch of
    /// mixed games gives.
    fn own_state<'s>(&self, s: &'s dyn DynState) -> Result<&'s Play<G>, Error> {
        s.as_any()
            .downcast_ref::<Play<G>>()
            .filter(|p| p.game.variant() == self.0.variant())
            .ok_or_else(|| Error::MixedBatch {
                found: format!("{}/{}", s.game_name(), s.variant()),
                expected: format!("{}/{}", G::NAME, self.0.variant()),
            })
    }
}

impl<G: Game> DynGame for Bound<G>
where
    G::State: AlphaBetaState,
{
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn variant(&self) -> String {
        self.0.variant().to_string()
    }
    fn encoding(&self) -> Encoding {
        self.0.encoding()
    }
    fn action_codes(&self) -> u64 {
        self.0.action_codes()
    }
    fn new_state(&self, position: Option<&str>) -> Result<Box<dyn DynState>, GameError> {
        let start = game::position_or_start(&self.0, position)?;
        Ok(Box::new(Play::new(self.0.clone(), start)))
    }
    fn deserialize(&self, text: &str) -> Result<Box<dyn DynState>, GameError> {
        let (start, moves) = text.split_once('\n').ok_or_else(|| {
            GameError::record(
                None,
                "not a serialized state: a position line, then a line of move codes",
            )
        })?;
        let mut play = Play::new(self.0.clone(), self.0.parse_state(start)?);
        for word in moves.split_whitespace() {
            let code = word.parse::<u32>().map_err(|e| {
                GameError::record(
                    Some(2),
                    format!("{word:?} is not a move code (a whole number)"),
                )
                .because(e)
            })?;
            play.apply_action(code)?;
        }
        Ok(Box::new(play))
    }
    fn game_for_text(&self, text: &str) -> Option<Box<dyn DynGame>> {
        self.0
            .variant_for_text(text)
            .map(|g| Box::new(Bound(g)) as Box<dyn DynGame>)
    }
    fn network_inputs(&self, states: &[&dyn DynState]) -> Result<NetworkInputs, Error> {
        let mut enc = model::Encoder::<G::State>::new();
        for s in states {
            let play = self.own_state(*s)?;
            enc.push(play.state(), play.repetition_count());
        }
        enc.finish();
        Ok(NetworkInputs {
            planes: enc.planes().iter().copied().collect(),
            move_from: enc.move_from().iter().copied().collect(),
            move_to: enc.move_to().iter().copied().collect(),
            move_features: enc.move_features().iter().copied().collect(),
            mask: enc.mask().iter().copied().collect(),
            max_moves: enc.max_moves(),
        })
    }
    fn fresh_network(&self, seed: u64) -> Box<dyn DynNet> {
        fresh(&self.0, seed)
    }
    fn load_network(&self, path: &std::path::Path) -> Result<Box<dyn DynNet>, Error> {
        load(&self.0, path)
    }

    fn encode_with_model(&self, states: &[&dyn DynState], out: &mut [f32]) -> Result<(), Error> {
        let mut inputs = Vec::with_capacity(states.len());
        for s in states {
            let play = self.own_state(*s)?;
            inputs.push((play.state(), play.repetitions().min(255) as u8));
        }
        let planes = model::encode::encode_batch(&inputs);
        let flat = planes.as_slice().ok_or(Error::NotContiguous)?;
        if flat.len() != out.len() {
            return Err(Error::OutputSize {
                output: out.len(),
                batch: flat.len(),
            });
        }
        out.copy_from_slice(flat);
        Ok(())
    }
}

impl<G: Game> DynState for Play<G>
where
    G::State: AlphaBetaState,
{
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn game_name(&self) -> &'static str {
        G::NAME
    }
    fn variant(&self) -> String {
        self.game.variant().to_string()
    }
    fn game(&self) -> Box<dyn DynGame> {
        Box::new(Bound(self.game.clone()))
    }
    fn legal_actions(&self) -> &[u32] {
        &self.codes
    }
    fn apply_action(&mut self, action: u32) -> Result<(), GameError> {
        let Some(i) = self.codes.iter().position(|&c| c == action) else {
            return Err(no_move(action, &self.position()));
        };
        let m = self.moves[i];
        self.history.play(m);
        self.refresh();
        Ok(())
    }
    fn current_player(&self) -> i32 {
        if self.outcome.is_some() {
            TERMINAL_PLAYER
        } else {
            self.state().side().index() as i32
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    fn history(&self) -> Vec<u32> {
        self.history.moves().iter().map(|m| m.code()).collect()
    }
    fn action_to_string(&self, action: u32) -> Result<String, GameError> {
        let m = G::Move::from_code(action).ok_or_else(|| {
            GameError::unreadable_move(
                action.to_string(),
                format!("action {action} is not a move code of {}", G::NAME),
            )
        })?;
        Ok(self.state().move_text(m))
    }
    fn string_to_action(&self, text: &str) -> Result<u32, GameError> {
        let m = self.state().parse_move(text)?;
        if !self.moves.contains(&m) {
            return Err(GameError::illegal_move(
                text,
                format!("{text} is not a legal move in {}", self.position()),
            ));
        }
        Ok(m.code())
    }
    fn position(&self) -> String {
        self.state().to_text()
    }
    fn start_position(&self) -> String {
        self.history.start().to_text()
    }
    fn diagram(&self) -> String {
        self.state().diagram()
    }
    fn repetitions(&self) -> u32 {
        self.history.repetition_count().max(1)
    }
    fn encode(&self, out: &mut [f32]) {
        self.state()
            .encode_planes(self.repetitions().min(255) as u8, out);
    }
    fn analyze(&self, limits: eval::Limits, hash_mb: usize) -> eval::analyze::Analysis {
        eval::analyze::analyze(self.state(), limits, hash_mb, |_| {})
    }
    fn choose(
        &self,
        spec: &eval::arena::players::PlayerSpec,
        seed: u64,
        device: tch::Device,
    ) -> Result<u32, Error> {
        if self.outcome.is_some() {
            return Err(Error::GameOver);
        }
        let nets = ::players::factory::<G>(device);
        let choice =
            eval::choose::choose_move(&self.game, spec, seed, nets.as_deref(), self.state())?;
        let m = self.state().parse_move(&choice.text)?;
        Ok(m.code())
    }
    fn mcts(&self, spec: eval::MctsSpec, seed: u64) -> (Option<u32>, Vec<(u32, u32, f32)>) {
        let mut uct = eval::Uct::new(spec, seed);
        let best = uct.search(self.state()).map(|m| m.code());
        let edges = uct.root_edges().map(|(m, n, q)| (m.code(), n, q)).collect();
        (best, edges)
    }
}

/// A position's answer: its legal moves' probabilities and its W/D/L.
pub type Answer = (Vec<f32>, [f32; 3]);

/// One network of one game, behind one interface for Python.
pub trait DynNet: Send {
    /// Each state's move probabilities (its legal moves' order) and W/D/L.
    fn evaluate(&self, states: &[&dyn DynState]) -> Result<Vec<Answer>, Error>;
    /// Writes the checkpoint and its sidecar (whole files, atomically).
    fn save(&self, path: &Path, step: u64) -> Result<(), Error>;
    /// The game and variant it plays, `name/variant`.
    fn game_text(&self) -> String;
    /// Its parameters.
    fn parameters(&self) -> usize;
}

/// A network and the game it plays.
pub struct GameNet<G: Game> {
    game: G,
    net: Network,
}

/// A fresh network of the default `[model]` shape for `game`.
pub fn fresh<G: Game>(game: &G, seed: u64) -> Box<dyn DynNet> {
    let shape = model::Shape::of(&ModelConfig::default(), game.encoding());
    Box::new(GameNet {
        game: game.clone(),
        net: Network::with_shape(shape, tch::Device::Cpu, seed),
    })
}

/// The checkpoint at `path`, which must be of `game`.
pub fn load<G: Game>(game: &G, path: &Path) -> Result<Box<dyn DynNet>, Error> {
    let (net, _) = Network::load(path, &GameTag::of(game), tch::Device::Cpu)?;
    Ok(Box::new(GameNet {
        game: game.clone(),
        net,
    }))
}

impl<G: Game> DynNet for GameNet<G> {
    fn evaluate(&self, states: &[&dyn DynState]) -> Result<Vec<Answer>, Error> {
        let mut inputs = Vec::with_capacity(states.len());
        for s in states {
            let play = s
                .as_any()
                .downcast_ref::<Play<G>>()
                .filter(|p| p.game().variant() == self.game.variant())
                .ok_or_else(|| Error::OtherNetwork {
                    found: format!("{}/{}", s.game_name(), s.variant()),
                    expected: self.game_text(),
                })?;
            inputs.push((play.state(), play.repetition_count()));
        }
        if inputs.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self
            .net
            .evaluate(&inputs)
            .into_iter()
            .map(|e| (e.policy, e.wdl))
            .collect())
    }

    fn save(&self, path: &Path, step: u64) -> Result<(), Error> {
        let info = CheckpointInfo::new(&GameTag::of(&self.game), self.net.shape(), step);
        Ok(self.net.save(path, &info)?)
    }

    fn game_text(&self) -> String {
        format!("{}/{}", G::NAME, self.game.variant())
    }

    fn parameters(&self) -> usize {
        self.net.parameter_count()
    }
}
