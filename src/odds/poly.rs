//! Fast exact polynomial arithmetic for [`super::dist::Dist`]: the distribution of a sum is a
//! product of polynomials, and the sums players type (`100d100`, `50d10!`) are powers.
//!
//! - A sum of `n` fair dice: each die multiplies by `1 + x + … + x^(s-1)`, which is a running
//!   window sum (O(length) additions a die, not a convolution), and the result is symmetric, so
//!   only half is computed.
//! - `n` open-ended dice: the die is `U(x) · G(x^s)` with `U` the faces below the top and `G` a
//!   geometric series in the top face, so its power is `U^n · G^n(x^s)`, both window sums; the
//!   product is taken one residue class mod `s` at a time with small numbers, then scaled.
//! - Any other product: Kronecker substitution (the coefficients packed into one big integer,
//!   one big multiplication, unpacked) once it beats the schoolbook product. A product too
//!   large for one multiplication to end within a few tenths of a second is taken in blocks
//!   ([`multiply_until`]), asking between them whether anyone still wants it, and one past
//!   [`MOST_PACKED_BITS`] is not worked out at all.

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::limbs::Rows;

/// The coefficients of `(1 + x + … + x^(faces-1))^n`: how many ways `n` dice numbered
/// `0..faces` make each sum.
pub fn window_power(faces: usize, n: u32) -> Vec<BigUint> {
    let mut p = vec![BigUint::one()];
    let mut next: Vec<BigUint> = Vec::new();
    if faces <= 1 {
        return p;
    }
    for _ in 0..n {
        let len = p.len() + faces - 1;
        // Symmetric: compute the first half, mirror the rest.
        let half = len.div_ceil(2);
        next.resize(len, BigUint::zero());
        let mut acc = BigUint::zero();
        for (i, slot) in next.iter_mut().enumerate().take(half) {
            if let Some(v) = p.get(i) {
                acc += v;
            }
            if i >= faces
                && let Some(v) = p.get(i - faces)
            {
                acc -= v;
            }
            slot.clone_from(&acc);
        }
        for i in half..len {
            let (lo, hi) = next.split_at_mut(i);
            hi[0].clone_from(&lo[len - 1 - i]);
        }
        std::mem::swap(&mut p, &mut next);
    }
    p
}

/// `p` times the polynomial of the sum of `n` open-ended dice of `sides` faces thrown at most
/// `depth` deep, over the denominator `sides^(depth·n)`: value `j·sides + v` (v in 1..sides) of
/// one die weighs `sides^(depth-1-j)`. Index 0 is `p`'s index 0 plus `n` (every die showing 1);
/// `p = [1]` gives the dice alone. Window sums throughout, where a dense product of two large
/// distributions took seconds (`100d6!+100d6!`).
pub fn times_open_ended_power(p: Vec<BigUint>, sides: u32, depth: u32, n: u32) -> Vec<BigUint> {
    let s = sides as usize;
    let d = depth as usize;
    // p · U^n: n dice over 1..sides-1, as sums from n.
    let low = times_window_power(p, s - 1, n);
    // G^n: n counts of top faces, each 0..depth-1; N(m) ways to make m tops in all. Its
    // product with each residue class is taken as n running window sums, not a product.
    let k_max = n as usize * (d - 1);
    // Weight of m tops: sides^(K - m) N(m), K = n (depth - 1). Coefficient at x^(n + r + s q):
    // Σ_k low[r + s k] · sides^(K - (q - k)) · N(q - k)
    //   = sides^(K - q) · Σ_k (low[r + s k] · sides^k) · N(q - k).
    let powers = powers(&BigUint::from(sides), k_max + low.len() / s + 1);
    let len = low.len() + s * k_max;
    let mut out = vec![BigUint::zero(); len];
    for r in 0..s.min(low.len()) {
        let scaled: Vec<BigUint> = low
            .iter()
            .skip(r)
            .step_by(s)
            .enumerate()
            .map(|(k, w)| w * &powers[k])
            .collect();
        let conv = times_window_power(scaled, d, n);
        for (q, c) in conv.into_iter().enumerate() {
            if c.is_zero() {
                continue;
            }
            let idx = r + s * q;
            if idx < len && q <= k_max {
                out[idx] = c * &powers[k_max - q];
            } else if idx < len {
                // q beyond K only when low reaches past one turn of `s`: every term then holds
                // sides^(q-K) (N(q-k) is 0 for q - k > K), so the division is exact.
                out[idx] = c / &powers[q - k_max];
            }
        }
    }
    out
}

/// `base^0 ..= base^n`.
pub fn powers(base: &BigUint, n: usize) -> Vec<BigUint> {
    let mut out = vec![BigUint::one()];
    for i in 1..=n {
        let next = &out[i - 1] * base;
        out.push(next);
    }
    out
}

/// `p · (1 + x + … + x^(faces-1))^n`: `n` window sums, each a running sum and a difference in
/// place. The coefficients are laid out as rows of 64-bit limbs in one array, each pass working
/// on as many limbs as the numbers have grown to: no allocation per coefficient, and carries
/// handled by the processor's add-with-carry.
pub fn times_window_power(p: Vec<BigUint>, faces: usize, n: u32) -> Vec<BigUint> {
    if faces <= 1 || p.is_empty() {
        return p;
    }
    // After each pass every coefficient, and every running sum, is at most Σp · faces^pass.
    let total_bits = p.iter().sum::<BigUint>().bits();
    let face_bits = u64::from(usize::BITS - faces.leading_zeros());
    let limbs_after =
        |passes: u32| (total_bits + u64::from(passes) * face_bits).div_ceil(64) as usize + 1;
    let width = limbs_after(n);
    let len = p.len() + n as usize * (faces - 1);
    let mut rows = Rows::from_biguints(width, &p);
    rows.data.reserve(len * width - rows.data.len());
    for pass in 1..=n {
        rows.times_window_in(faces, limbs_after(pass).min(width));
    }
    // The spare top limb keeps every row's sign bit clear.
    rows.to_biguints()
}

/// Below this many coefficient products, the schoolbook product is faster.
const KRONECKER_FROM: usize = 4_096;

/// The product of two polynomials (coefficients from degree 0).
pub fn multiply(a: &[BigUint], b: &[BigUint]) -> Vec<BigUint> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    if a.len().saturating_mul(b.len()) < KRONECKER_FROM || a.len().min(b.len()) < 8 {
        return schoolbook(a, b);
    }
    kronecker(a, b)
}

/// The packed size (bits) of an operand one multiplication takes without a check: about
/// 0.3 s of work on the 2-core test machine (a 134-Mbit product took 18 s in one piece).
const BLOCK_BITS: u64 = 1 << 23;
/// The largest packed operand worked out at all: beyond it a product takes minutes, and its
/// odds are refused as too large at once rather than cut off by a deadline.
pub const MOST_PACKED_BITS: u64 = 1 << 26;

/// Why [`multiply_until`] gave no product.
#[derive(Debug, PartialEq, Eq)]
pub enum Unworked<S> {
    /// The stop said to stop.
    Stopped(S),
    /// An operand packs into this many bits, more than [`MOST_PACKED_BITS`].
    TooLarge(u64),
}

/// [`multiply`], asking `stop` between blocks: a large product is taken as products of blocks
/// of `BLOCK_BITS` (8 Mbit), so whoever stops waiting frees the core within one block.
pub fn multiply_until<S: crate::odds::stop::Stop>(
    a: &[BigUint],
    b: &[BigUint],
    stop: &S,
) -> Result<Vec<BigUint>, Unworked<S::Stopped>> {
    if a.is_empty() || b.is_empty() {
        return Ok(Vec::new());
    }
    if a.len().saturating_mul(b.len()) < KRONECKER_FROM || a.len().min(b.len()) < 8 {
        return Ok(schoolbook(a, b));
    }
    let slot = slot_digits(a, b);
    let packed = |p: &[BigUint]| p.len() as u64 * slot as u64 * 32;
    let largest = packed(a).max(packed(b));
    if largest > MOST_PACKED_BITS {
        return Err(Unworked::TooLarge(largest));
    }
    if largest <= BLOCK_BITS {
        return Ok(kronecker(a, b));
    }
    let block = ((BLOCK_BITS / (slot as u64 * 32)).max(1)) as usize;
    let mut out = vec![BigUint::zero(); a.len() + b.len() - 1];
    for (i, a_part) in a.chunks(block).enumerate() {
        for (j, b_part) in b.chunks(block).enumerate() {
            stop.check().map_err(Unworked::Stopped)?;
            let at = (i + j) * block;
            for (k, c) in packed_product(a_part, b_part, slot).into_iter().enumerate() {
                out[at + k] += c;
            }
        }
    }
    Ok(out)
}

fn schoolbook(a: &[BigUint], b: &[BigUint]) -> Vec<BigUint> {
    let mut out = vec![BigUint::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            if !y.is_zero() {
                out[i + j] += x * y;
            }
        }
    }
    out
}

/// Packs each polynomial's coefficients into slots of one big integer wide enough that no
/// coefficient of the product can spill into the next, multiplies once, and unpacks.
fn kronecker(a: &[BigUint], b: &[BigUint]) -> Vec<BigUint> {
    packed_product(a, b, slot_digits(a, b))
}

/// The 32-bit digits a slot of `a · b`'s packing takes: wide enough for any coefficient of
/// the product (of the whole operands, so also of any of their blocks).
fn slot_digits(a: &[BigUint], b: &[BigUint]) -> usize {
    let bits = |p: &[BigUint]| p.iter().map(BigUint::bits).max().unwrap_or(0);
    let terms = a.len().min(b.len()) as u64;
    let slot_bits = bits(a) + bits(b) + u64::from(64 - terms.leading_zeros()) + 1;
    slot_bits.div_ceil(32) as usize
}

/// `a · b` by Kronecker substitution with slots of `slot` digits.
fn packed_product(a: &[BigUint], b: &[BigUint], slot: usize) -> Vec<BigUint> {
    let pack = |p: &[BigUint]| {
        let mut digits = vec![0u32; p.len() * slot];
        for (i, c) in p.iter().enumerate() {
            for (k, d) in c.to_u32_digits().into_iter().enumerate() {
                digits[i * slot + k] = d;
            }
        }
        BigUint::new(digits)
    };
    let product = pack(a) * pack(b);
    let digits = product.to_u32_digits();
    (0..a.len() + b.len() - 1)
        .map(|i| {
            let from = (i * slot).min(digits.len());
            let to = ((i + 1) * slot).min(digits.len());
            BigUint::from_slice(&digits[from..to])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(v: &[u64]) -> Vec<BigUint> {
        v.iter().map(|&x| BigUint::from(x)).collect()
    }

    #[test]
    fn three_d6_by_hand() {
        // Ways to make 3..=18 with 3d6.
        assert_eq!(
            window_power(6, 3),
            n(&[1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1])
        );
        assert_eq!(window_power(6, 0), n(&[1]));
        assert_eq!(window_power(1, 5), n(&[1]));
        assert_eq!(times_window_power(n(&[1]), 6, 3), window_power(6, 3));
        // (2 + x)(1 + x + x²)² = 2 + 5x + 8x² + 7x³ + 4x⁴ + x⁵.
        assert_eq!(times_window_power(n(&[2, 1]), 3, 2), n(&[2, 5, 8, 7, 4, 1]));
    }

    #[test]
    fn kronecker_equals_schoolbook() {
        let a: Vec<BigUint> = (0..150u64)
            .map(|i| BigUint::from(i * 7919 + 3).pow(3 + (i % 5) as u32))
            .collect();
        let b: Vec<BigUint> = (0..90u64).map(|i| BigUint::from(i * 104_729 + 1)).collect();
        assert_eq!(kronecker(&a, &b), schoolbook(&a, &b));
        assert_eq!(multiply(&a, &b), schoolbook(&a, &b));
        let zeros = n(&[0, 0, 5, 0]);
        assert_eq!(kronecker(&zeros, &a), schoolbook(&zeros, &a));
    }

    #[test]
    fn a_product_in_blocks_equals_the_product_in_one_piece() {
        use crate::odds::stop::Never;
        // Coefficients of 2^18 bits: 20 of them pack past a block, so they are taken in blocks.
        let big = |n: u64, seed: u64| -> Vec<BigUint> {
            (0..n)
                .map(|i| (BigUint::one() << (1u32 << 18)) * BigUint::from(i * seed + 1) + i)
                .collect()
        };
        let (a, b) = (big(20, 7), big(13, 11));
        assert_eq!(multiply_until(&a, &b, &Never), Ok(schoolbook(&a, &b)));
        let wide: Vec<BigUint> = (0..70u64)
            .map(|i| (BigUint::one() << (1u32 << 20)) + i)
            .collect();
        assert!(matches!(
            multiply_until(&wide, &wide, &Never),
            Err(Unworked::TooLarge(bits)) if bits > MOST_PACKED_BITS
        ));
    }
}
