//! Many fractions over one denominator put in lowest terms at once.
//!
//! A dice distribution's denominator is a product of the dice's sides (`100d20!`: `20^1900`), so
//! its prime factors are a few small primes. The greatest common divisor of a numerator with it
//! is then read off each of those primes' multiplicity in the numerator, found by a binary
//! search over the prime's powers. Euclid's algorithm on 4,750-bit numbers, once per value, took
//! 97% of `dicetable odds "100d20!"`. A denominator with a prime factor above [`TRIAL_LIMIT`]
//! (none comes from dice) falls back to Euclid.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

/// Primes up to this are tried as factors of the denominator; dice have at most 100 sides.
const TRIAL_LIMIT: u32 = 1000;

/// The most limbs a table of one prime's powers may take (16 MB); a longer notation's
/// denominator has its powers multiplied from the squares instead.
const TABLE_LIMBS: f64 = 2.0e6;

/// Puts fractions over one denominator in lowest terms.
pub(super) struct Reducer {
    den: BigUint,
    /// The denominator's prime factorization, when every prime is at most [`TRIAL_LIMIT`].
    factors: Option<Vec<PrimePower>>,
}

/// A prime factor of the denominator, with what finding its multiplicity in a numerator needs.
struct PrimePower {
    prime: u32,
    /// Its multiplicity in the denominator.
    exponent: u64,
    /// `prime^(2^i)` for each `2^i <= exponent`.
    squares: Vec<BigUint>,
    /// `prime^0 ..= prime^exponent`, what is left of the denominator, when the table is not too
    /// large (empty for 2: a shift).
    powers: Vec<BigUint>,
}

impl PrimePower {
    fn new(prime: u32, exponent: u64) -> Self {
        let mut squares = vec![BigUint::from(prime)];
        while 1u64 << squares.len() <= exponent {
            let Some(last) = squares.last() else { break };
            squares.push(last * last);
        }
        let table_limbs = (exponent as f64).powi(2) * f64::from(prime).log2() / 128.0;
        let powers = if prime == 2 || table_limbs > TABLE_LIMBS {
            Vec::new()
        } else {
            std::iter::successors(Some(BigUint::one()), |p| Some(p * prime))
                .take(exponent as usize + 1)
                .collect()
        };
        PrimePower {
            prime,
            exponent,
            squares,
            powers,
        }
    }

    /// Divides `x` (not zero) by the prime as often as it divides it, up to the denominator's
    /// multiplicity; returns how many times. A binary search: one division per power of two
    /// (the numbers of dice weights hold a side's prime hundreds of times).
    fn remove_from(&self, x: &mut BigUint) -> u64 {
        if self.prime == 2 {
            let times = x.trailing_zeros().unwrap_or(0).min(self.exponent);
            *x >>= times;
            return times;
        }
        let mut removed = 0;
        for (i, square) in self.squares.iter().enumerate().rev() {
            let step = 1u64 << i;
            if removed + step > self.exponent || x.bits() < square.bits() {
                continue;
            }
            let (quotient, remainder) = x.div_rem(square);
            if remainder.is_zero() {
                *x = quotient;
                removed += step;
            }
        }
        removed
    }

    /// `prime^times` (`times <= exponent`), from the table or the squares.
    fn power(&self, times: u64) -> BigUint {
        if let Some(power) = self.powers.get(times as usize) {
            return power.clone();
        }
        let mut power = BigUint::one();
        for (i, square) in self.squares.iter().enumerate() {
            if times & (1 << i) != 0 {
                power *= square;
            }
        }
        power
    }
}

impl Reducer {
    /// Factors `den` once for every fraction over it.
    pub fn new(den: &BigUint) -> Self {
        Reducer {
            den: den.clone(),
            factors: small_factorization(den),
        }
    }

    /// `num / den` in lowest terms, as `(numerator, denominator)`; `0/1` for a zero numerator.
    pub fn reduce(&self, num: &BigUint) -> (BigUint, BigUint) {
        if num.is_zero() {
            return (BigUint::zero(), BigUint::one());
        }
        let Some(factors) = &self.factors else {
            let common = num.gcd(&self.den);
            return (num / &common, &self.den / &common);
        };
        let mut num = num.clone();
        // What is left of the denominator: the odd primes' powers multiplied, then shifted by
        // the twos.
        let mut den = BigUint::one();
        let mut twos = 0;
        for factor in factors {
            let left = factor.exponent - factor.remove_from(&mut num);
            if factor.prime == 2 {
                twos = left;
            } else {
                den *= factor.power(left);
            }
        }
        (num, den << twos)
    }
}

/// The prime factorization of `n` over primes up to [`TRIAL_LIMIT`], or `None` when some prime
/// factor is larger.
fn small_factorization(n: &BigUint) -> Option<Vec<PrimePower>> {
    if n.is_zero() {
        return None;
    }
    let mut rest = n.clone();
    let mut factors = Vec::new();
    for prime in primes_up_to(TRIAL_LIMIT) {
        if rest.is_one() {
            break;
        }
        let mut exponent = 0;
        // Whole powers that fit a limb at a time, then the remainder's own factors.
        let (chunk, chunk_exponent) = largest_power_in_a_limb(prime);
        loop {
            let (quotient, remainder) = rest.div_rem(&BigUint::from(chunk));
            if remainder.is_zero() {
                rest = quotient;
                exponent += chunk_exponent;
                continue;
            }
            let mut remainder = remainder.to_u64().unwrap_or(1);
            while remainder % u64::from(prime) == 0 {
                remainder /= u64::from(prime);
                rest /= prime;
                exponent += 1;
            }
            break;
        }
        if exponent > 0 {
            factors.push(PrimePower::new(prime, exponent));
        }
    }
    rest.is_one().then_some(factors)
}

/// `(prime^e, e)` with `prime^e` the largest power below `2^64`.
fn largest_power_in_a_limb(prime: u32) -> (u64, u64) {
    let (mut power, mut exponent) = (u64::from(prime), 1);
    while let Some(next) = power.checked_mul(u64::from(prime)) {
        power = next;
        exponent += 1;
    }
    (power, exponent)
}

fn primes_up_to(limit: u32) -> impl Iterator<Item = u32> {
    (2..=limit).filter(|&p| (2..p).take_while(|d| d * d <= p).all(|d| p % d != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_euclid(num: &BigUint, den: &BigUint) -> (BigUint, BigUint) {
        if num.is_zero() {
            return (BigUint::zero(), BigUint::one());
        }
        let common = num.gcd(den);
        (num / &common, den / &common)
    }

    #[test]
    fn a_denominator_of_dice_sides_is_factored() {
        let den = BigUint::from(20u32).pow(1900) * BigUint::from(6u32).pow(7);
        let factors = small_factorization(&den).expect("only small primes");
        let found: Vec<(u32, u64)> = factors.iter().map(|f| (f.prime, f.exponent)).collect();
        assert_eq!(found, vec![(2, 3807), (3, 7), (5, 1900)]);
        assert!(small_factorization(&(BigUint::from(1009u32) * 8u32)).is_none());
        assert!(small_factorization(&BigUint::zero()).is_none());
        assert_eq!(
            small_factorization(&BigUint::one()).map(|f| f.len()),
            Some(0)
        );
    }

    #[test]
    fn reduces_exactly_as_euclid() {
        let den = BigUint::from(100u32).pow(700) * BigUint::from(3u32).pow(50);
        let reducer = Reducer::new(&den);
        let five = BigUint::from(5u32);
        let nums = [
            BigUint::zero(),
            BigUint::one(),
            den.clone(),
            &den / 25u32,
            five.pow(1400) * 2u32.pow(31) * 3u32,
            five.pow(1401) * BigUint::from(2u32).pow(1500),
            BigUint::from(3u32).pow(60) * 7u32,
            (BigUint::from(10u32).pow(90) + 1u32) * 1024u32 * 81u32,
            &den - 1u32,
            BigUint::from(u64::MAX) * BigUint::from(u64::MAX) * 45u32,
        ];
        for num in &nums {
            assert_eq!(reducer.reduce(num), by_euclid(num, &den), "{num}");
        }
        // Powers multiplied from the squares, as for a denominator too long to tabulate.
        let mut untabled = Reducer::new(&den);
        if let Some(factors) = &mut untabled.factors {
            factors.iter_mut().for_each(|f| f.powers.clear());
        }
        for num in &nums {
            assert_eq!(untabled.reduce(num), by_euclid(num, &den), "{num}");
        }
        // A large prime in the denominator: Euclid.
        let odd = BigUint::from(1_000_003u32) * BigUint::from(6u32).pow(30);
        let reducer = Reducer::new(&odd);
        assert!(reducer.factors.is_none());
        let num = BigUint::from(1_000_003u32) * 36u32;
        assert_eq!(reducer.reduce(&num), by_euclid(&num, &odd));
    }
}
