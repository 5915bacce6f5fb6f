//! A game between a person and any player (`triad play`): the alpha-beta
//! engine, or any other [`Player`] (a network, MCTS, a solver, random). The
//! session's state and its answers to typed input, without the terminal.
//! The caller shows the board, reads lines and prints what comes back.

use crate::arena::players::Player;
use crate::search::{EngineSpec, Searcher};
use game::{AlphaBetaState, Color, Game, History};

/// The commands a player may type, for help texts.
pub const PLAY_HELP: &str = "commands: a move (d2-d4, c8BR-f5, f7BRxd5P, d2<PPP>-d4, ...), \
moves (list legal moves), undo (take back a move pair), help, quit";

/// What happens next in a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The game is over: `Game over: RESULT (TERMINATION)`.
    Over(String),
    /// The engine moved: `engine plays MOVE (score S, N nodes)` (the
    /// alpha-beta engine) or `engine plays MOVE (SECONDS s)` (any other
    /// player).
    EngineMoved(String),
    /// The person is to move.
    PersonToMove,
}

/// The answer to a line the person typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The person leaves.
    Quit,
    /// The position changed (a move, an undo): show it again.
    Redraw,
    /// The position did not change; print the text, if any.
    Stay(Option<String>),
}

/// A player's move in a game, as the session calls it.
type Chooser<S> = Box<dyn FnMut(&History<S>) -> <S as game::GameState>::Move + Send>;

/// The person's opponent.
enum Opponent<S: AlphaBetaState> {
    /// The alpha-beta engine, which reports its score and nodes.
    AlphaBeta(Box<Searcher<S>>, EngineSpec),
    /// Any other player, by its name (its spec as written).
    Other(Chooser<S>, String),
}

/// A game of a person against the engine.
pub struct PlaySession<S: AlphaBetaState> {
    game: History<S>,
    engine: Opponent<S>,
    person: Color,
}

impl<S: AlphaBetaState> PlaySession<S> {
    /// A game from `start`, the person playing `person`, the engine `spec`.
    pub fn new(start: S, spec: EngineSpec, person: Color) -> PlaySession<S> {
        PlaySession {
            game: History::new(start),
            engine: Opponent::AlphaBeta(Box::new(Searcher::<S>::from_spec(&spec)), spec),
            person,
        }
    }

    /// A game from `start` against `player` of game `G` (a network, MCTS,
    /// a solver, random: see `build_player`), called `name` in the
    /// greeting, the person playing `person`.
    pub fn with_player<G: Game<State = S, Move = S::Move>>(
        start: S,
        mut player: Box<dyn Player<G>>,
        name: String,
        person: Color,
    ) -> PlaySession<S> {
        PlaySession {
            game: History::new(start),
            engine: Opponent::Other(Box::new(move |h: &History<S>| player.choose(h)), name),
            person,
        }
    }

    /// `You play COLOR against ENGINE. COMMANDS`.
    pub fn greeting(&self) -> String {
        let name = match &self.engine {
            Opponent::AlphaBeta(_, spec) => spec.to_string(),
            Opponent::Other(_, name) => name.clone(),
        };
        format!("You play {} against {name}. {PLAY_HELP}", self.person)
    }

    /// The current position drawn as text.
    pub fn diagram(&self) -> String {
        self.game.position().diagram()
    }

    /// Ends the game, lets the engine move when it is its turn, or says the
    /// person is to move.
    pub fn step(&mut self) -> Result<Step, crate::EvalError> {
        if let Some(o) = self.game.outcome() {
            return Ok(Step::Over(format!(
                "Game over: {} ({})",
                o.result, o.termination
            )));
        }
        let pos = self.game.position().clone();
        if pos.side() == self.person {
            return Ok(Step::PersonToMove);
        }
        let (m, line) = match &mut self.engine {
            Opponent::AlphaBeta(engine, spec) => {
                let r = engine.search_game(&self.game, spec.limits, |_| {});
                let Some(m) = r.best else {
                    // Cannot happen: outcome() reported moves exist.
                    return Err(crate::PlayerError::NoMove.into());
                };
                let score = r.info.map(|i| i.score.to_string()).unwrap_or_default();
                let line = format!(
                    "engine plays {} (score {score}, {} nodes)",
                    pos.move_text(m),
                    r.nodes
                );
                (m, line)
            }
            Opponent::Other(choose, _) => {
                let t = std::time::Instant::now();
                let m = choose(&self.game);
                if !pos.is_legal(m) {
                    return Err(crate::PlayerError::IllegalChoice {
                        mv: pos.move_text(m),
                    }
                    .into());
                }
                let line = format!(
                    "engine plays {} ({:.2} s)",
                    pos.move_text(m),
                    t.elapsed().as_secs_f64()
                );
                (m, line)
            }
        };
        self.game.play(m);
        Ok(Step::EngineMoved(line))
    }

    /// Answers a line typed by the person: a move (canonical text or the
    /// game's notation), `moves`, `undo`, `help` or `?`, `quit` or `exit`.
    pub fn input(&mut self, line: &str) -> Reply {
        let pos = self.game.position().clone();
        match line.trim() {
            "" => Reply::Stay(None),
            "quit" | "exit" => Reply::Quit,
            "help" | "?" => Reply::Stay(Some(PLAY_HELP.to_string())),
            "moves" => {
                let moves = game::legal_move_texts(&pos);
                Reply::Stay(Some(format!(
                    "{} legal moves: {}",
                    moves.len(),
                    moves.join(" ")
                )))
            }
            "undo" => {
                // Back to the previous position with the person to move.
                let mut undone = 0;
                while self.game.undo().is_some() {
                    undone += 1;
                    if self.game.position().side() == self.person {
                        break;
                    }
                }
                if undone == 0 {
                    Reply::Stay(Some("nothing to undo".to_string()))
                } else {
                    Reply::Redraw
                }
            }
            text => match pos.parse_move(text) {
                Ok(m) if pos.is_legal(m) => {
                    self.game.play(m);
                    Reply::Redraw
                }
                Ok(m) => Reply::Stay(Some(format!(
                    "illegal move: {} (type `moves` for the list)",
                    pos.move_text(m)
                ))),
                Err(e) => Reply::Stay(Some(format!("{e} (type `help` or `moves`)"))),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;
    use game::Game;
    use piratechnics::Piratechnics;

    /// Commands that do not change the position stay, a move and an undo
    /// redraw, and the engine answers the person's move.
    #[test]
    fn a_session_answers_commands_and_moves() {
        let game = Piratechnics::standard();
        let mut s = PlaySession::new(
            game.start(),
            EngineSpec::new(Limits::depth(1)),
            Color::White,
        );
        assert!(
            s.greeting().starts_with("You play white against "),
            "{}",
            s.greeting()
        );
        assert_eq!(s.step().unwrap(), Step::PersonToMove);
        assert_eq!(s.input("  "), Reply::Stay(None));
        assert_eq!(s.input("quit"), Reply::Quit);
        assert_eq!(s.input("help"), Reply::Stay(Some(PLAY_HELP.to_string())));
        assert_eq!(
            s.input("undo"),
            Reply::Stay(Some("nothing to undo".to_string()))
        );
        let Reply::Stay(Some(moves)) = s.input("moves") else {
            panic!("moves")
        };
        assert!(moves.starts_with("60 legal moves: "), "{moves}");
        assert_eq!(s.input("d2-d4"), Reply::Redraw);
        assert!(matches!(s.step(), Ok(Step::EngineMoved(l)) if l.starts_with("engine plays ")));
        assert_eq!(s.input("undo"), Reply::Redraw);
        assert_eq!(s.step().unwrap(), Step::PersonToMove);
    }

    /// Any player can be the opponent: a random player answers the
    /// person's move with a legal move, and undo takes the pair back.
    #[test]
    fn a_session_against_any_player() {
        use crate::arena::players::{build_player, PlayerSpec};
        let game = Piratechnics::standard();
        let spec: PlayerSpec = "random".parse().unwrap();
        let player = build_player(&game, &spec, 3, None).unwrap();
        let mut s = PlaySession::with_player(game.start(), player, spec.to_string(), Color::Black);
        assert!(
            s.greeting().starts_with("You play black against random."),
            "{}",
            s.greeting()
        );
        let Ok(Step::EngineMoved(line)) = s.step() else {
            panic!("the engine moves first")
        };
        assert!(line.starts_with("engine plays "), "{line}");
        assert_eq!(s.step().unwrap(), Step::PersonToMove);
        assert_eq!(s.input("undo"), Reply::Redraw);
        assert_eq!(s.game.ply(), 0);
    }
}
