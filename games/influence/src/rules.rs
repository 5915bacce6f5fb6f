//! The switchable readings of the rule book (RULES.md Appendix A) that cost
//! little: each is a `[game]` key, its default the book's decision. Every
//! key set to something other than its default is written into the variant
//! text (`standard,commander=two,stalemate=loss`), which shards and
//! checkpoints record, so data of one reading is never mixed with another.
//!
//! Not offered, and why:
//! - A1, A2, A7, A9 and the ✗ parts of A4: the source's diagrams contradict
//!   them (Appendix A marks them ✗).
//! - A5's bishop: a piece kind neither army has; it would widen every
//!   table, text and plane for a reading nobody proposed on purpose.
//! - A6 (the player who helps the pawn's army chooses the promotion): a
//!   choice by the player *not* to move, which a move list cannot express.
//! - A10's hidden assignment: an imperfect-information game. The coin
//!   itself is outside the engine: a game value has one start, so the
//!   `army` key picks the side of the coin (see [`Options::army`]).
//! - A14 (letter case): notation only, no rule changes.

use crate::types::{Army, Promotion};
use game::GameError;

/// How the commander moves on its own board (A3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommanderStep {
    /// One or two squares along a line, the square passed over empty (the
    /// book's decision: a queen limited to two squares).
    Line,
    /// Exactly two squares along a line, the square passed over empty
    /// (lame dabbaba + alfil).
    Two,
    /// One or two squares along a line, jumping allowed.
    Jump,
}

/// The rules in force: a few bytes, copied into every position so the hot
/// paths never look anything up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub commander: CommanderStep,
    /// A4: whether the influence piece may go along with a knight move.
    pub knight_accompaniment: bool,
    /// A5: queen, rook and knight (false: queen only).
    pub underpromotion: bool,
    /// A8: no player may move a king of either army onto a square where
    /// that king would be in check (the book: only the mover's own army's
    /// king is protected).
    pub safe_kings: bool,
    /// A11: a stalemated player loses (the book: a draw).
    pub stalemate_loses: bool,
    /// A12: plies without a capture or pawn move that draw (0: no limit).
    pub move_limit: u16,
    /// A13: threefold repetition draws.
    pub repetition: bool,
}

impl Rules {
    /// The rule book's decisions.
    pub const BOOK: Rules = Rules {
        commander: CommanderStep::Line,
        knight_accompaniment: true,
        underpromotion: true,
        safe_kings: false,
        stalemate_loses: false,
        move_limit: 100,
        repetition: true,
    };

    /// The promotions a pawn reaching its last rank may choose, in move
    /// order.
    #[inline]
    pub fn promotions(&self) -> &'static [Promotion] {
        if self.underpromotion {
            &[Promotion::Queen, Promotion::Rook, Promotion::Knight]
        } else {
            &[Promotion::Queen]
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::BOOK
    }
}

/// The `[game]` keys of Influence Chess: the rules and the army Above helps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    pub rules: Rules,
    /// The army Above helps in the start position (`army = "w"` or `"b"`).
    /// The book draws it by coin before the first move (§4); a game value
    /// has one start, so this key says which side the coin fell on (default
    /// White, the position string of RULES.md §3).
    pub army: Army,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            rules: Rules::BOOK,
            army: Army::White,
        }
    }
}

/// The keys, their values and what each means (for errors and docs).
pub const KEYS: [(&str, &str); 8] = [
    (
        "commander",
        "\"line\" (1 or 2 squares, no jumping; default), \"two\" (exactly 2), \"jump\" (1 or 2, jumping)",
    ),
    (
        "knight_accompaniment",
        "true (default) or false: may the influence piece go along with a knight move",
    ),
    ("promotion", "\"qrn\" (default) or \"q\" (queen only)"),
    (
        "safe_kings",
        "false (default) or true: no king of either army may move into check",
    ),
    ("stalemate", "\"draw\" (default) or \"loss\""),
    (
        "move_limit",
        "plies without capture or pawn move that draw: 100 (default), 200, ..., 0 for none",
    ),
    ("repetition", "true (default) or false: threefold repetition draws"),
    ("army", "\"w\" (default) or \"b\": the army Above helps"),
];

fn boolean(key: &str, value: &str) -> Result<bool, GameError> {
    match value {
        "true" | "yes" => Ok(true),
        "false" | "no" => Ok(false),
        other => Err(GameError::options(
            key,
            format!("game.{key}: {other:?} is not true or false"),
        )),
    }
}

impl Options {
    /// Sets one `[game]` key from its text (`true`, `"two"`, `200`: the
    /// registry passes TOML values as text). The error names the key and
    /// the values it takes.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), GameError> {
        let r = &mut self.rules;
        match key {
            "commander" => {
                r.commander = match value {
                    "line" => CommanderStep::Line,
                    "two" => CommanderStep::Two,
                    "jump" => CommanderStep::Jump,
                    other => {
                        return Err(GameError::options(
                            key,
                            format!(
                                "game.commander: {other:?} is not \"line\", \"two\" or \"jump\""
                            ),
                        ))
                    }
                }
            }
            "knight_accompaniment" => r.knight_accompaniment = boolean(key, value)?,
            "promotion" => {
                r.underpromotion = match value.to_ascii_lowercase().as_str() {
                    "qrn" => true,
                    "q" => false,
                    other => {
                        return Err(GameError::options(
                            key,
                            format!("game.promotion: {other:?} is not \"qrn\" or \"q\""),
                        ))
                    }
                }
            }
            "safe_kings" => r.safe_kings = boolean(key, value)?,
            "stalemate" => {
                r.stalemate_loses = match value {
                    "draw" => false,
                    "loss" => true,
                    other => {
                        return Err(GameError::options(
                            key,
                            format!("game.stalemate: {other:?} is not \"draw\" or \"loss\""),
                        ))
                    }
                }
            }
            "move_limit" => {
                r.move_limit = value
                    .parse::<u16>()
                    .ok()
                    .filter(|&n| n <= 10_000)
                    .ok_or_else(|| {
                        GameError::options(key, {
                            format!(
                                "game.move_limit: {value:?} is not a ply count 0..10000 (0: none)"
                            )
                        })
                    })?
            }
            "repetition" => r.repetition = boolean(key, value)?,
            "army" => {
                self.army = match value {
                    "w" | "white" => Army::White,
                    "b" | "black" => Army::Black,
                    other => {
                        return Err(GameError::options(
                            key,
                            format!("game.army: {other:?} is not \"w\" or \"b\""),
                        ))
                    }
                }
            }
            other => {
                let keys: Vec<_> = KEYS.iter().map(|k| k.0).collect();
                return Err(GameError::options(
                    other,
                    format!(
                        "game.{other}: unknown key for influence (its keys: {})",
                        keys.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The keys that differ from the book, as `key=value` in [`KEYS`]
    /// order: what the variant text appends to `standard`.
    pub fn non_default(&self) -> Vec<String> {
        let (r, b) = (&self.rules, &Rules::BOOK);
        let mut out = Vec::new();
        if r.commander != b.commander {
            out.push(format!(
                "commander={}",
                match r.commander {
                    CommanderStep::Line => "line",
                    CommanderStep::Two => "two",
                    CommanderStep::Jump => "jump",
                }
            ));
        }
        if r.knight_accompaniment != b.knight_accompaniment {
            out.push(format!("knight_accompaniment={}", r.knight_accompaniment));
        }
        if r.underpromotion != b.underpromotion {
            out.push("promotion=q".to_string());
        }
        if r.safe_kings != b.safe_kings {
            out.push(format!("safe_kings={}", r.safe_kings));
        }
        if r.stalemate_loses != b.stalemate_loses {
            out.push("stalemate=loss".to_string());
        }
        if r.move_limit != b.move_limit {
            out.push(format!("move_limit={}", r.move_limit));
        }
        if r.repetition != b.repetition {
            out.push(format!("repetition={}", r.repetition));
        }
        if self.army != Army::White {
            out.push("army=b".to_string());
        }
        out
    }
}
