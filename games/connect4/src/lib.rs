//! Connect Four (in progress).
