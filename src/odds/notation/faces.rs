//! A notation die's faces: the value of each, in face order, and its name.

use super::Die;

/// Each face's value, in face order (a cube's faces 1 to 6, opposite faces adding up to 7): a
/// d3 is a cube marked 1, 1, 2, 2, 3, 3 with each number on two opposite faces, as real d3s
/// are; a Fate die the same with −, blank, +; a d2 has 1 and 2 on two pairs of opposite faces
/// and one of each on the third.
pub(super) fn die_values(die: Die) -> Vec<i64> {
    match die {
        Die::Fate => vec![-1, 0, 1, 1, 0, -1],
        Die::Numbered(2) => vec![1, 2, 1, 2, 2, 1],
        Die::Numbered(3) => vec![1, 2, 3, 3, 2, 1],
        Die::Numbered(s) => (1..=i64::from(s)).collect(),
    }
}

pub(super) fn die_name(die: Die) -> String {
    match die {
        Die::Numbered(s) => format!("d{s}"),
        Die::Fate => "dF".to_string(),
    }
}

pub(super) fn die_top(die: Die) -> i64 {
    die_values(die).into_iter().max().unwrap_or(1)
}

pub(super) fn die_bottom(die: Die) -> i64 {
    die_values(die).into_iter().min().unwrap_or(1)
}
