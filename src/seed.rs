//! Seed mixing (SplitMix64): one seed and a salt make another, the same on every machine. The
//! roll path derives each throw's seed from its roll's with it (`crate::roll::throw_seed`), the
//! fairness lab its lab throws', and the rules their seeded tie-breaks. A leaf: it knows
//! nothing of dice, rules or physics.

/// Mixes `salt` into `seed` (SplitMix64's finaliser over `seed ^ salt * golden ratio`).
pub fn mix(seed: u64, salt: u64) -> u64 {
    let mut z = seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of throw `n` of a roll seeded with `seed`: the first (n = 0) uses the roll's seed;
/// follow-up throws (open-ended dice, friction, a second roll) and lab throws derive theirs, so
/// each can be thrown again on its own.
pub fn throw_seed(seed: u64, n: u32) -> u64 {
    if n == 0 {
        seed
    } else {
        mix(seed, u64::from(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_throw_keeps_the_roll_seed_and_the_others_are_mixed() {
        assert_eq!(throw_seed(7, 0), 7);
        assert_eq!(throw_seed(7, 1), mix(7, 1));
        assert_ne!(throw_seed(7, 1), throw_seed(7, 2));
        // Pinned: every replay code and room log depends on these values.
        assert_eq!(mix(0, 0), 0xE220_A839_7B1D_CDAF);
    }
}
