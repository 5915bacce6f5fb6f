//! train
