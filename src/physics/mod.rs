//! Throwing and settling: the tray, seeded throws, settled and cocked dice.

pub mod tray;
