//! The game value and its moves: Connect Four on one board size (its
//! variant and `[game]` keys, [`DESCRIPTOR`]) and a move, the column a
//! stone drops into. The rules behind the game boundary are
//! `crate::boundary`; Pons's files and the solver use these types alone.

use crate::position::Size;
use game::{GameError, GameMove};

/// Connect Four on one board size (7×6 by default): the value the binary's
/// registry builds from `[game] name = "connect4"`.
#[derive(Clone, Debug)]
pub struct Connect4 {
    pub(crate) size: Size,
    pub(crate) variant: String,
}

impl Connect4 {
    /// The standard 7×6 game.
    pub fn standard() -> Connect4 {
        Connect4::sized(Size::STANDARD)
    }

    /// The game on another board.
    pub fn sized(size: Size) -> Connect4 {
        Connect4 {
            size,
            variant: size.to_string(),
        }
    }

    /// A named variant (`standard` is 7x6, or `WxH`), with `width` and
    /// `height` (the `[game]` keys) overriding it.
    pub fn named(
        variant: &str,
        width: Option<u32>,
        height: Option<u32>,
    ) -> Result<Connect4, GameError> {
        let base =
            match variant {
                "" | "standard" => Size::STANDARD,
                v => {
                    let (w, h) = v.split_once('x').ok_or_else(|| GameError::options("variant", {
                    format!("unknown variant {v:?}: connect4 has `standard` (7x6) or WxH, e.g. 8x7")
                }))?;
                    let num = |s: &str| {
                        s.parse::<u32>().map_err(|e| {
                            GameError::options(
                                "variant",
                                format!("variant {v:?}: {s:?} is not a number"),
                            )
                            .because(e)
                        })
                    };
                    Size::new(num(w)?, num(h)?)?
                }
            };
        let size = Size::new(
            width.unwrap_or(base.width as u32),
            height.unwrap_or(base.height as u32),
        )?;
        Ok(Connect4::sized(size))
    }

    pub fn size(&self) -> Size {
        self.size
    }
}

/// Connect Four in the registry: `[game] name = "connect4"`, its variants
/// (`standard`, 7x6, or `WxH`), and its keys `width` and `height`
/// (overriding the variant's).
pub const DESCRIPTOR: game::Descriptor<Connect4> = game::Descriptor {
    about: game::About {
        name: "connect4",
        variants: "standard (7x6), or WxH",
        keys: "width, height = 4..16 with width x (height + 1) <= 64",
    },
    build: from_options,
};

/// The game of a variant name and `[game]` keys ([`DESCRIPTOR`]).
fn from_options(variant: &str, options: &game::GameOptions) -> Result<Connect4, GameError> {
    let (width, height) = game::board_sides(options, "connect4", "4..16", |v| {
        (4..=16).contains(&v).then_some(v as u32)
    })?;
    Connect4::named(variant, width, height)
        .map_err(|e| GameError::options("variant", format!("game.variant: {e}")).because(e))
}

/// A move: the 0-based column a stone is dropped into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(pub u8);

impl GameMove for Column {
    #[inline]
    fn code(self) -> u32 {
        self.0 as u32
    }
    fn from_code(code: u32) -> Option<Column> {
        (code < crate::position::MAX_SIDE as u32).then_some(Column(code as u8))
    }
}
