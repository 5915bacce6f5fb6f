//! A game between a person and the alpha-beta engine (`triad play`): the
//! session's state and its answers to typed input, without the terminal.
//! The caller shows the board, reads lines and prints what comes back.

use crate::search::{EngineSpec, Searcher};
use game::{AlphaBetaState, Color, History};

/// The commands a player may type, for help texts.
pub const PLAY_HELP: &str = "commands: a move (d2-d4, c8BR-f5, f7BRxd5P, d2<PPP>-d4, ...), \
moves (list legal moves), undo (take back a move pair), help, quit";

/// What happens next in a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The game is over: `Game over: RESULT (TERMINATION)`.
    Over(String),
    /// The engine moved: `engine plays MOVE (score S, N nodes)`.
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

/// A game of a person against the engine.
pub struct PlaySession<S: AlphaBetaState> {
    game: History<S>,
    engine: Searcher<S>,
    spec: EngineSpec,
    person: Color,
}

impl<S: AlphaBetaState> PlaySession<S> {
    /// A game from `start`, the person playing `person`, the engine `spec`.
    pub fn new(start: S, spec: EngineSpec, person: Color) -> PlaySession<S> {
        PlaySession {
            game: History::new(start),
            engine: Searcher::<S>::from_spec(&spec),
            spec,
            person,
        }
    }

    /// `You play COLOR against ENGINE. COMMANDS`.
    pub fn greeting(&self) -> String {
        format!(
            "You play {} against {}. {PLAY_HELP}",
            self.person, self.spec
        )
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
        let r = self
            .engine
            .search_game(&self.game, self.spec.limits, |_| {});
        let Some(m) = r.best else {
            // Cannot happen: outcome() reported moves exist.
            return Err(crate::EvalError::Player("engine found no move".to_string()));
        };
        let score = r.info.map(|i| i.score.to_string()).unwrap_or_default();
        let line = format!(
            "engine plays {} (score {score}, {} nodes)",
            pos.move_text(m),
            r.nodes
        );
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
        assert_eq!(s.step(), Ok(Step::PersonToMove));
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
        assert_eq!(s.step(), Ok(Step::PersonToMove));
    }
}
