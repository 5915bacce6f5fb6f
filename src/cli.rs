//! The commands' shared helpers and error live in the `cli` crate (as
//! ripgrep's live in `grep-cli`); `crate::cli::…` names them.

pub use ::cli::*;
