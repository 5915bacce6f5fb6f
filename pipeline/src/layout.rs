//! The one layout of a run: the names of generations, shard folders,
//! networks and match records ([`data::layout`], re-exported here so that
//! every name in a run comes from one place). The old layout of
//! distributed runs and its upgrade are [`crate::scale::upgrade`].

pub use data::layout::*;
