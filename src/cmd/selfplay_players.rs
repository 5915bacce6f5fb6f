//! Where network players for matches come from. The `selfplay` crate owns
//! the search a network plays with; until it provides a player factory,
//! `net:` players report that they are unavailable.

use eval::arena::players::NetFactory;

/// The factory for `net:` players, if this build has one.
pub fn factory() -> Option<Box<dyn NetFactory>> {
    None
}
