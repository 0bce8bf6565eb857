use super::*;

fn frac(p: &Prob) -> String {
    p.exact()
}

#[test]
fn two_d6_by_hand() {
    let d = Dist::die(6).repeat_sum(2);
    assert_eq!(frac(&d.p(7)), "1/6");
    assert_eq!(frac(&d.p(2)), "1/36");
    assert_eq!(frac(&d.p_where(|v| v >= 10)), "1/6");
    assert_eq!(d.mean(), 7.0);
    assert_eq!(d.truncated(), Prob::zero());
}

#[test]
fn keep_highest_two_of_three_d6() {
    // 3d6 keep the best 2: P(12) = P(at least two sixes) = (3*5 + 1)/216 = 16/216 = 2/27.
    let d = Dist::die(6).keep_highest(3, 2);
    assert_eq!(frac(&d.p(12)), "2/27");
    // P(2): at least two ones and the third ... no: best two both 1 means all three are 1.
    assert_eq!(frac(&d.p(2)), "1/216");
}

#[test]
fn advantage_on_d20() {
    // 2d20 keep highest: P(20) = 1 - (19/20)^2 = 39/400; P(1) = 1/400.
    let d = Dist::die(20).keep_highest(2, 1);
    assert_eq!(frac(&d.p(20)), "39/400");
    assert_eq!(frac(&d.p(1)), "1/400");
    let low = Dist::die(20).keep_lowest(2, 1);
    assert_eq!(frac(&low.p(1)), "39/400");
}

#[test]
fn open_ended_d6_by_hand() {
    let d = Dist::die(6).open_ended();
    assert_eq!(frac(&d.p(5)), "1/6");
    assert_eq!(frac(&d.p(7)), "1/36");
    assert_eq!(d.p(6), Prob::zero());
    assert_eq!(d.p(12), Prob::zero());
    assert_eq!(frac(&d.p(13)), "1/216");
    let cut = d.truncated().to_f64();
    assert!(cut > 0.0 && cut < 1e-14, "cut off {cut}");
}

#[test]
fn max_and_min_of_mixed_dice() {
    // max(d8, d6): P(max <= 6) = 6/8 * 1 = 3/4, so P(max >= 7) = 1/4; P(max = 1) = 1/48.
    let m = Dist::max_of(&[Dist::die(8), Dist::die(6)]);
    assert_eq!(frac(&m.p_where(|v| v >= 7)), "1/4");
    assert_eq!(frac(&m.p(1)), "1/48");
    let lo = Dist::min_of(&[Dist::die(8), Dist::die(8)]);
    assert_eq!(frac(&lo.p(8)), "1/64");
    assert_eq!(frac(&lo.p(1)), "15/64");
}

#[test]
fn chances_as_floats_without_reducing() {
    let d = Dist::die(6).repeat_sum(2);
    let chances = d.chances();
    assert_eq!(chances.len(), 11);
    assert_eq!(chances[5], (7, 6.0 / 36.0));
    let huge = Dist::die(20).open_ended().repeat_sum(60);
    let sum: f64 = huge.chances().iter().map(|(_, p)| p).sum();
    assert!((sum - 1.0).abs() < 1e-9, "{sum}");
    let (value, p) = huge.chances()[0];
    assert_eq!(value, 60);
    assert!((p - 0.05f64.powi(60)).abs() < 1e-80, "{p}");
}

#[test]
fn difference_of_two_d6() {
    let d = Dist::die(6).sub(&Dist::die(6));
    assert_eq!(frac(&d.p(0)), "1/6");
    assert_eq!(frac(&d.p(5)), "1/36");
    assert_eq!(d.min_value(), -5);
}

fn brute_keep(sides: u32, n: u32, k: u32, highest: bool) -> Vec<(i64, u64)> {
    let mut counts = std::collections::BTreeMap::new();
    let total = (sides as u64).pow(n);
    for mut code in 0..total {
        let mut faces: Vec<i64> = (0..n)
            .map(|_| {
                let f = (code % sides as u64) as i64 + 1;
                code /= sides as u64;
                f
            })
            .collect();
        faces.sort_unstable();
        if highest {
            faces.reverse();
        }
        let sum: i64 = faces[..k as usize].iter().sum();
        *counts.entry(sum).or_insert(0u64) += 1;
    }
    counts.into_iter().collect()
}

/// Keep-highest or -lowest of `n` copies of any distribution (truncated ones included), by
/// enumerating every combination of its values.
fn brute_keep_dist(die: &Dist, n: u32, k: u32, highest: bool) -> Dist {
    let values: Vec<(i64, BigUint)> = die.iter().map(|(v, w)| (v, w.clone())).collect();
    let mut pairs = Vec::new();
    let mut index = vec![0usize; n as usize];
    loop {
        let mut faces: Vec<i64> = index.iter().map(|&i| values[i].0).collect();
        let weight: BigUint = index.iter().map(|&i| values[i].1.clone()).product();
        faces.sort_unstable();
        if highest {
            faces.reverse();
        }
        pairs.push((faces[..k as usize].iter().sum(), weight));
        let mut d = 0;
        while d < index.len() {
            index[d] += 1;
            if index[d] < values.len() {
                break;
            }
            index[d] = 0;
            d += 1;
        }
        if d == index.len() {
            break;
        }
    }
    Dist::from_pairs(pairs, die.denom().pow(n))
}

#[test]
fn keep_of_truncated_open_ended_dice_agrees_with_brute_force() {
    // Open-ended to a depth of 3 (the mass of three tops in a row cut): 15 values of a d6!,
    // 11 of a d4! to depth 4; every kept count.
    for (die, n) in [
        (Dist::die(6).open_ended_to_depth(3), 4),
        (Dist::die(4).open_ended_to_depth(4), 4),
        (Dist::die(10).open_ended_to_depth(2), 3),
    ] {
        for k in 1..=n {
            for highest in [true, false] {
                let fast = if highest {
                    die.keep_highest(n, k)
                } else {
                    die.keep_lowest(n, k)
                };
                let brute = brute_keep_dist(&die, n, k, highest);
                assert_eq!(fast.denom(), brute.denom());
                assert_eq!(
                    fast.probabilities(),
                    brute.probabilities(),
                    "{n} dice keep {k}, highest {highest}"
                );
            }
        }
    }
}

#[test]
fn keep_by_runs_equals_keep_by_walking_every_value() {
    let weighted = Dist::from_pairs(
        [
            (-2, BigUint::from(3u32)),
            (-1, BigUint::from(3u32)),
            (1, BigUint::from(5u32)),
            (2, BigUint::from(1u32)),
            (3, BigUint::from(1u32)),
        ],
        BigUint::from(13u32),
    );
    for (die, n) in [
        (Dist::die(6), 7),
        (Dist::die(20), 5),
        (Dist::die(2), 9),
        (Dist::die(6).open_ended(), 5),
        (Dist::die(20).open_ended(), 3),
        (Dist::die(2).open_ended(), 4),
        (Dist::die(10).neg(), 4),
        (Dist::die(6).open_ended().neg(), 4),
        (Dist::die(3).open_ended_to_depth(4).shift(-7), 5),
        (weighted, 5),
    ] {
        let runs = super::super::keep::runs(&die.weights);
        for k in 1..=n {
            let Ok(by_runs) = die.keep_highest_by_runs(&runs, n, k, &Never);
            let Ok(by_walk) = die.keep_highest_by_walk(n, k, &Never);
            assert_eq!(by_runs, by_walk, "{n} of {die:?} keep {k}");
        }
    }
}

#[test]
fn dice_added_by_their_structure_equal_the_dense_product() {
    let totals = [
        Dist::constant(3),
        Dist::die(6).keep_highest(4, 3),
        Dist::die(4).open_ended().repeat_sum(3).shift(-20),
        Dist::from_pairs([(2, 5u32.into()), (9, 1u32.into())], 7u32.into()),
    ];
    for total in &totals {
        for (sides, n, open_ended) in [
            (6, 3, false),
            (20, 2, false),
            (1, 4, false),
            (6, 4, true),
            (10, 2, true),
            (3, 5, true),
        ] {
            let dice = if open_ended {
                Dist::open_ended_sum(sides, n)
            } else {
                Dist::die(sides).repeat_sum(n)
            };
            assert_eq!(
                total.plus_dice(sides, n, open_ended, false),
                total.add(&dice),
                "+{n}d{sides} {open_ended}"
            );
            assert_eq!(
                total.plus_dice(sides, n, open_ended, true),
                total.sub(&dice),
                "-{n}d{sides} {open_ended}"
            );
        }
    }
}

#[test]
fn probabilities_are_the_reduced_fractions() {
    use crate::odds::notation::Notation;
    for text in ["3d6", "4d6kh3", "20d20!", "10d10!kh3", "2d6+1d8-3", "d4"] {
        let Ok(n) = Notation::parse(text) else {
            panic!("{text} parses");
        };
        let d = n.distribution().expect("odds");
        let by_euclid: Vec<(i64, Prob)> = d
            .iter()
            .map(|(v, w)| (v, Prob::new(w.clone(), d.denom().clone())))
            .collect();
        assert_eq!(d.probabilities(), by_euclid, "{text}");
    }
    // 3d6: 27 of 216 ways to roll 10 is 1/8.
    let three = Notation::parse("3d6")
        .expect("parses")
        .distribution()
        .expect("odds");
    assert_eq!(
        three.probabilities()[7],
        (10, Prob::new(1u32.into(), 8u32.into()))
    );
    // A denominator with a large prime factor falls back to Euclid.
    let odd = Dist::from_pairs(
        [(1, BigUint::from(2018u32)), (2, 3u32.into())],
        1009u32 * BigUint::from(4u32),
    );
    let exact: Vec<String> = odd.probabilities().iter().map(|(_, p)| p.exact()).collect();
    assert_eq!(exact, ["1/2", "3/4036"]);
}

#[test]
fn keep_by_runs_on_narrowed_rows_equals_the_walk_for_many_open_ended_dice() {
    // 14d6! to depth 18: answers of 11 limbs, each level's rows narrowed by its common
    // factor and each Horner step by its bound, both ways round (keep highest and lowest).
    let die = Dist::die(6).open_ended();
    for (die, n, k) in [(die.clone(), 14, 6), (die.neg(), 14, 6), (die, 14, 13)] {
        let runs = super::super::keep::runs(&die.weights);
        let Ok(by_runs) = die.keep_highest_by_runs(&runs, n, k, &Never);
        let Ok(by_walk) = die.keep_highest_by_walk(n, k, &Never);
        assert_eq!(by_runs, by_walk, "{n} of {die:?} keep {k}");
    }
}

fn total_mass(d: &Dist) -> Prob {
    d.probabilities()
        .iter()
        .fold(d.truncated(), |acc, (_, p)| acc.plus(p))
}

proptest::proptest! {
    #[test]
    fn keep_agrees_with_brute_force(sides in 2u32..=8, n in 1u32..=5, k_seed in 0u32..5, highest: bool) {
        let k = k_seed % n + 1;
        let die = Dist::die(sides);
        let d = if highest { die.keep_highest(n, k) } else { die.keep_lowest(n, k) };
        let denom = BigUint::from(sides).pow(n);
        proptest::prop_assert_eq!(d.denom(), &denom);
        for (value, count) in brute_keep(sides, n, k, highest) {
            proptest::prop_assert_eq!(d.weight(value), BigUint::from(count), "value {}", value);
        }
        proptest::prop_assert_eq!(d.truncated(), Prob::zero());
    }

    #[test]
    fn keep_by_runs_equals_the_walk_for_open_ended_dice_of_many_limbs(
        sides in 2u32..=12, n in 6u32..=12, k_seed in 0u32..12, depth in 2u32..=6, highest: bool,
    ) {
        // Answers of several limbs: every run's rows narrowed by its own bounds.
        let k = k_seed % n + 1;
        let die = Dist::die(sides).open_ended_to_depth(depth);
        let die = if highest { die } else { die.neg() };
        let runs = super::super::keep::runs(&die.weights);
        let Ok(by_runs) = die.keep_highest_by_runs(&runs, n, k, &Never);
        let Ok(by_walk) = die.keep_highest_by_walk(n, k, &Never);
        proptest::prop_assert_eq!(by_runs, by_walk);
    }

    #[test]
    fn every_distribution_sums_to_one(sides in 2u32..=20, n in 1u32..=6, open: bool, k_seed in 0u32..6, shift in -5i64..5) {
        let die = if open { Dist::die(sides).open_ended() } else { Dist::die(sides) };
        let k = k_seed % n + 1;
        for d in [
            die.repeat_sum(n),
            die.keep_highest(n, k),
            die.keep_lowest(n, k),
            die.sub(&Dist::die(6)).shift(shift),
            Dist::max_of(&[die.clone(), Dist::die(8)]),
            Dist::min_of(&[die.clone(), Dist::die(4)]),
        ] {
            proptest::prop_assert_eq!(total_mass(&d), Prob::one());
            proptest::prop_assert!(d.truncated().to_f64() < 1e-12, "cut {}", d.truncated().to_f64());
        }
    }
}
