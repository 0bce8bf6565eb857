//! Glue between dice notation and physical throws: which physical dice a notation's dice are
//! (a d100 is two), and how settled faces extend each die's chain of faces.

use super::SettledDie;
use crate::dice::{self, DieKind};
use crate::rules::notation::NotationDie;

/// The physical dice for notation dice `which`, in order.
pub fn physical_dice(dice: &[NotationDie], which: &[usize]) -> Result<Vec<DieKind>, String> {
    let mut out = Vec::new();
    for &i in which {
        let die = dice.get(i).ok_or("no such die in the notation")?;
        out.extend(dice::physical_dice(die.sides)?);
    }
    Ok(out)
}

/// Adds the faces of a throw of notation dice `which` (settled in the same order) to their
/// chains; returns the slowest settle time and the re-throws of each die thrown.
pub fn record_faces(
    dice: &[NotationDie],
    which: &[usize],
    settled: &[SettledDie],
    chains: &mut [Vec<u32>],
) -> Vec<(f32, u32)> {
    let mut settled = settled.iter();
    let mut out = Vec::new();
    for &i in which {
        let parts: Vec<&SettledDie> = dice::physical_dice(dice[i].sides)
            .unwrap_or_default()
            .iter()
            .filter_map(|_| settled.next())
            .collect();
        let values: Vec<u32> = parts.iter().map(|d| d.value).collect();
        chains[i].push(dice::rules_face(dice[i].sides, &values));
        out.push((
            parts.iter().map(|d| d.settle_time).fold(0.0, f32::max),
            parts.iter().map(|d| d.rethrows.total()).sum(),
        ));
    }
    out
}

/// The faces of rules dice of these sizes from their physical dice, settled in the same order.
pub fn rules_faces(sides: &[u32], settled: &[SettledDie]) -> Vec<u32> {
    let mut settled = settled.iter();
    sides
        .iter()
        .map(|&s| {
            let values: Vec<u32> = dice::physical_dice(s)
                .unwrap_or_default()
                .iter()
                .filter_map(|_| settled.next().map(|d| d.value))
                .collect();
            dice::rules_face(s, &values)
        })
        .collect()
}
