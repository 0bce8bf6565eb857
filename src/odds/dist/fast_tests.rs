use super::*;

/// The old way: the die's distribution, then binary powering of the schoolbook product.
fn slow_sum(die: &Dist, n: u32) -> Dist {
    let mut result = Dist::constant(0);
    for _ in 0..n {
        let mut weights = vec![BigUint::zero(); result.weights.len() + die.weights.len() - 1];
        for (i, a) in result.weights.iter().enumerate() {
            for (j, b) in die.weights.iter().enumerate() {
                weights[i + j] += a * b;
            }
        }
        result = Dist {
            min: result.min + die.min,
            weights,
            denom: &result.denom * &die.denom,
            values: Points::WHOLE,
        }
        .trimmed();
    }
    result
}

#[test]
fn fair_dice_sums_equal_the_convolution() {
    for (sides, n) in [(6, 1), (6, 3), (2, 7), (10, 12), (20, 5), (100, 3), (1, 4)] {
        let die = Dist::die(sides);
        assert_eq!(die.repeat_sum(n), slow_sum(&die, n), "{n}d{sides}");
    }
    let coin = Dist::from_pairs(
        [(0, BigUint::from(3u32)), (1, BigUint::from(3u32))],
        BigUint::from(6u32),
    );
    assert_eq!(coin.repeat_sum(5), slow_sum(&coin, 5));
}

#[test]
fn open_ended_sums_equal_the_convolution() {
    for (sides, n) in [(6, 1), (6, 4), (2, 3), (10, 5), (20, 3), (4, 9), (100, 2)] {
        let die = Dist::die(sides).open_ended();
        assert_eq!(
            Dist::open_ended_sum(sides, n),
            slow_sum(&die, n),
            "{n}d{sides}!"
        );
    }
}
