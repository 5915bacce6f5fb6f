//! A game in progress: its start, its moves and the hash of every position,
//! which is the history the rules need for repetition.

use crate::{GameState, Outcome};

/// How many times the last hash occurs among the last `window + 1` entries,
/// every second one (the same side to move): positions before the last
/// irreversible move cannot repeat it.
pub fn repetitions(hashes: &[u64], window: u32) -> u32 {
    let Some(&last) = hashes.last() else { return 0 };
    let window = (window as usize + 1).min(hashes.len());
    hashes[hashes.len() - window..]
        .iter()
        .rev()
        .step_by(2)
        .filter(|&&h| h == last)
        .count() as u32
}

/// A game: its start, its moves and the hash of every position so far.
#[derive(Clone, Debug)]
pub struct History<S: GameState> {
    start: S,
    position: S,
    moves: Vec<S::Move>,
    /// Hash of the start and of the position after each move.
    hashes: Vec<u64>,
}

impl<S: GameState> History<S> {
    pub fn new(start: S) -> History<S> {
        let h = start.hash();
        History {
            position: start.clone(),
            start,
            moves: Vec::new(),
            hashes: vec![h],
        }
    }

    pub fn start(&self) -> &S {
        &self.start
    }
    pub fn position(&self) -> &S {
        &self.position
    }
    pub fn moves(&self) -> &[S::Move] {
        &self.moves
    }
    /// Hashes of every position of the game, the current one last.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Plays a move that must be legal (checked in debug builds; use
    /// [`History::try_play`] for moves from outside).
    pub fn play(&mut self, m: S::Move) {
        debug_assert!(self.position.is_legal(m), "illegal move {m:?}");
        self.position.apply(m);
        self.moves.push(m);
        self.hashes.push(self.position.hash());
    }

    /// Plays `m` if it is legal here.
    pub fn try_play(&mut self, m: S::Move) -> Result<(), crate::GameError> {
        if !self.position.is_legal(m) {
            let text = self.position.move_text(m);
            let message = format!("{text} is not legal in {}", self.position.to_text());
            return Err(crate::GameError::illegal_move(text, message));
        }
        self.play(m);
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<S::Move> {
        let m = self.moves.pop()?;
        self.hashes.pop();
        let mut p = self.start.clone();
        for &x in &self.moves {
            p.apply(x);
        }
        self.position = p;
        Some(m)
    }

    /// How many times the current position has occurred, this time included.
    pub fn repetition_count(&self) -> u32 {
        repetitions(&self.hashes, self.position.reversible_plies())
    }

    /// The result if the game is over by the rules, else `None`.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome(self.repetition_count())
    }
}
