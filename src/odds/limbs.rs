//! Big numbers as fixed rows of 64-bit limbs, and polynomials as one array of such rows
//! ([`Rows`]). Arithmetic wraps at the row's width: a two's complement ring modulo
//! `2^(64·width)`. Sums, differences and products map to that ring exactly, so any computation
//! made only of them gives the true answer as long as the answer itself fits in the width, however
//! large or negative the numbers in between are. Used where the width of the answer is known in
//! advance (the exact odds' sums and keeps), to work with no allocation per number and with the
//! processor's add-with-carry.

use num_bigint::BigUint;

/// `out += a · b`, wrapping at `out`'s width (`b` is the short one).
pub(super) fn add_mul_limbs(out: &mut [u64], a: &[u64], b: &[u64]) {
    mul_accumulate::<false>(out, a, b);
}

/// `out -= a · b`, wrapping at `out`'s width (`b` is the short one).
pub(super) fn sub_mul_limbs(out: &mut [u64], a: &[u64], b: &[u64]) {
    mul_accumulate::<true>(out, a, b);
}

/// `out ± a · b`: each limb of `b` times `a`, the products' limbs added (or subtracted) with
/// one 64-bit carry (or borrow) that also takes the product's high limb: `x·y + out + carry`
/// never overflows 128 bits, so no flag has to live from one limb to the next.
fn mul_accumulate<const SUBTRACT: bool>(out: &mut [u64], a: &[u64], b: &[u64]) {
    for (shift, &y) in b.iter().enumerate() {
        if y == 0 {
            continue;
        }
        let y = u128::from(y);
        let mut carry = 0u64;
        let tail = out.get_mut(shift..).unwrap_or_default();
        let (body, rest) = tail.split_at_mut(a.len().min(tail.len()));
        if SUBTRACT {
            for (slot, &x) in body.iter_mut().zip(a) {
                let product = u128::from(x) * y + u128::from(carry);
                let (difference, borrow) = slot.overflowing_sub(product as u64);
                *slot = difference;
                carry = ((product >> 64) as u64) + u64::from(borrow);
            }
            for slot in rest {
                if carry == 0 {
                    break;
                }
                let (difference, borrow) = slot.overflowing_sub(carry);
                *slot = difference;
                carry = u64::from(borrow);
            }
        } else {
            for (slot, &x) in body.iter_mut().zip(a) {
                let sum = u128::from(x) * y + u128::from(*slot) + u128::from(carry);
                *slot = sum as u64;
                carry = (sum >> 64) as u64;
            }
            for slot in rest {
                if carry == 0 {
                    break;
                }
                let (sum, over) = slot.overflowing_add(carry);
                *slot = sum;
                carry = u64::from(over);
            }
        }
    }
}

/// `a += b`, little-endian limbs, wrapping at `a`'s length (`b` no longer, and read as a number
/// not negative when shorter).
pub(super) fn add_limbs(a: &mut [u64], b: &[u64]) {
    accumulate::<false>(a, b);
}

/// `a -= b`, little-endian limbs, wrapping at `a`'s length (two's complement when `a < b`; `b`
/// no longer, and read as a number not negative when shorter).
fn sub_limbs(a: &mut [u64], b: &[u64]) {
    accumulate::<true>(a, b);
}

/// `a ± b` with the processor's carry (or borrow), run on to the top of `a` when `b` is shorter.
fn accumulate<const SUBTRACT: bool>(a: &mut [u64], b: &[u64]) {
    let step = if SUBTRACT {
        sub_with_borrow
    } else {
        add_with_carry
    };
    let mut carry = 0u8;
    for (x, &y) in a.iter_mut().zip(b) {
        (carry, *x) = step(carry, *x, y);
    }
    for x in a.iter_mut().skip(b.len()) {
        if carry == 0 {
            break;
        }
        (carry, *x) = step(carry, *x, 0);
    }
}

/// `out = x + y`, little-endian limbs, wrapping at `out`'s length (`x` as long, `y` no longer,
/// read as a number not negative when shorter).
fn add_into(out: &mut [u64], x: &[u64], y: &[u64]) {
    let (low, high) = out.split_at_mut(y.len().min(out.len()));
    let mut carry = 0u8;
    for ((slot, &a), &b) in low.iter_mut().zip(x).zip(y) {
        (carry, *slot) = add_with_carry(carry, a, b);
    }
    for (slot, &a) in high.iter_mut().zip(&x[low.len()..]) {
        (carry, *slot) = add_with_carry(carry, a, 0);
    }
}

#[cfg(target_arch = "x86_64")]
fn add_with_carry(carry: u8, a: u64, b: u64) -> (u8, u64) {
    let mut out = 0;
    let carry = std::arch::x86_64::_addcarry_u64(carry, a, b, &mut out);
    (carry, out)
}

#[cfg(target_arch = "x86_64")]
fn sub_with_borrow(borrow: u8, a: u64, b: u64) -> (u8, u64) {
    let mut out = 0;
    let borrow = std::arch::x86_64::_subborrow_u64(borrow, a, b, &mut out);
    (borrow, out)
}

#[cfg(not(target_arch = "x86_64"))]
fn add_with_carry(carry: u8, a: u64, b: u64) -> (u8, u64) {
    let (s1, c1) = a.overflowing_add(b);
    let (s2, c2) = s1.overflowing_add(u64::from(carry));
    (u8::from(c1 | c2), s2)
}

#[cfg(not(target_arch = "x86_64"))]
fn sub_with_borrow(borrow: u8, a: u64, b: u64) -> (u8, u64) {
    let (d1, b1) = a.overflowing_sub(b);
    let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
    (u8::from(b1 | b2), d2)
}

/// A polynomial whose coefficients are two's complement rows of `width` limbs, laid out one
/// after the other from degree `start`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Rows {
    pub width: usize,
    pub start: usize,
    pub data: Vec<u64>,
}

impl Default for Rows {
    /// No coefficients, one limb wide.
    fn default() -> Self {
        Rows::zeros(1, 0, 0)
    }
}

impl Rows {
    /// `len` zero coefficients from degree `start`.
    pub fn zeros(width: usize, start: usize, len: usize) -> Self {
        Rows {
            width,
            start,
            data: vec![0; width * len],
        }
    }

    /// Non-negative coefficients from degree 0, wrapped to `width` limbs.
    pub fn from_biguints(width: usize, coefs: &[BigUint]) -> Self {
        let mut rows = Rows::zeros(width, 0, coefs.len());
        for (row, c) in rows.data.chunks_exact_mut(width).zip(coefs) {
            for (slot, digit) in row.iter_mut().zip(c.iter_u64_digits()) {
                *slot = digit;
            }
        }
        rows
    }

    /// The coefficients from degree 0 to the last one held, read as non-negative numbers (a
    /// negative one, its sign bit set, reads as 0: a weight never is).
    pub fn to_biguints(&self) -> Vec<BigUint> {
        let mut out = vec![BigUint::default(); self.start];
        out.extend(self.data.chunks_exact(self.width).map(|row| {
            if row.last().is_some_and(|top| top >> 63 == 1) {
                return BigUint::default();
            }
            BigUint::new(
                row.iter()
                    .flat_map(|&d| [d as u32, (d >> 32) as u32])
                    .collect(),
            )
        }));
        out
    }

    /// How many coefficients are held.
    pub fn len(&self) -> usize {
        self.data.len() / self.width
    }

    /// One past the highest degree held.
    pub fn end(&self) -> usize {
        self.start + self.len()
    }

    /// The coefficient at `start + i`.
    #[inline(always)]
    pub fn row(&self, i: usize) -> &[u64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    /// The coefficient at `start + i`, to change.
    #[inline(always)]
    pub fn row_mut(&mut self, i: usize) -> &mut [u64] {
        &mut self.data[i * self.width..(i + 1) * self.width]
    }

    /// Rows `to` and `from` (`to != from`), the first to change.
    #[inline(always)]
    pub fn pair_mut(&mut self, to: usize, from: usize) -> (&mut [u64], &[u64]) {
        let w = self.width;
        if to > from {
            let (low, high) = self.data.split_at_mut(to * w);
            (&mut high[..w], &low[from * w..(from + 1) * w])
        } else {
            let (low, high) = self.data.split_at_mut(from * w);
            (&mut low[to * w..(to + 1) * w], &high[..w])
        }
    }

    /// `self += other · x^shift`, holding more degrees if needed. `other`'s rows may be
    /// narrower (read as numbers not negative); an empty `self` takes `other`'s width.
    pub fn add_shifted(&mut self, other: &Rows, shift: usize) {
        if other.len() == 0 {
            return;
        }
        let from = other.start + shift;
        if self.len() == 0 {
            *self = Rows {
                width: other.width,
                start: from,
                data: other.data.clone(),
            };
            return;
        }
        self.hold(from, from + other.len());
        let offset = from - self.start;
        for i in 0..other.len() {
            add_limbs(self.row_mut(offset + i), other.row(i));
        }
    }

    /// `self += other · factor`, `other`'s rows read as numbers not negative (they may be
    /// narrower), holding more degrees if needed.
    pub fn add_times(&mut self, other: &Rows, factor: &[u64]) {
        if other.len() == 0 {
            return;
        }
        self.hold(other.start, other.end());
        let offset = other.start - self.start;
        for i in 0..other.len() {
            add_mul_limbs(self.row_mut(offset + i), other.row(i), factor);
        }
    }

    /// Grows (with zeros) to hold at least the degrees `lo..hi`.
    fn hold(&mut self, lo: usize, hi: usize) {
        let w = self.width;
        if lo < self.start {
            let mut data = vec![0; (self.start - lo) * w];
            data.append(&mut self.data);
            self.data = data;
            self.start = lo;
        }
        if hi > self.end() {
            self.data.resize((hi - self.start) * w, 0);
        }
    }

    /// Divides by `1 - x` as a power series, in place: each coefficient becomes the sum of those
    /// up to it.
    pub fn prefix_sums(&mut self) {
        self.prefix_sums_in(self.width);
    }

    /// [`Rows::prefix_sums`] when the rows below `first` are known to be 0.
    pub fn prefix_sums_from(&mut self, first: usize) {
        for i in first.max(1)..self.len() {
            let (to, from) = self.pair_mut(i, i - 1);
            add_limbs(to, from);
        }
    }

    /// [`Rows::prefix_sums`] on the low `active` limbs of each row (the rest known to stay 0).
    fn prefix_sums_in(&mut self, active: usize) {
        for i in 1..self.len() {
            let (to, from) = self.pair_mut(i, i - 1);
            add_limbs(&mut to[..active], &from[..active]);
        }
    }

    /// `self · (1 + x + … + x^(len-1))` as rows of `width` limbs (at least this one's; its
    /// coefficients read as numbers not negative), written over `out`'s memory (whatever it
    /// held), from the bottom in one pass: each coefficient is the one before it, plus one of
    /// `self` and minus another.
    pub fn times_window_to(&self, len: usize, width: usize, out: &mut Rows) {
        let n = self.len();
        let total = n + len - 1;
        out.reuse_as(width, self.start, total);
        for d in 0..total {
            match (d > 0, d < n) {
                (true, true) => {
                    let (to, from) = out.pair_mut(d, d - 1);
                    add_into(to, from, self.row(d));
                }
                (true, false) => {
                    let (to, from) = out.pair_mut(d, d - 1);
                    to.copy_from_slice(from);
                }
                (false, _) => {
                    let row = out.row_mut(d);
                    row.fill(0);
                    add_limbs(row, self.row(d));
                }
            }
            let row = out.row_mut(d);
            if let Some(e) = d.checked_sub(len).filter(|&e| e < n) {
                sub_limbs(row, self.row(e));
            }
        }
    }

    /// Reshapes to `len` rows of `width` limbs from degree `start`, keeping the memory: the rows
    /// hold whatever was there (zeros where it grew), so every row is to be written before it
    /// is read. Saves the allocation and the zeroing of the Horner's two large buffers at every
    /// step.
    pub fn reuse_as(&mut self, width: usize, start: usize, len: usize) {
        self.width = width;
        self.start = start;
        self.data.resize(width * len, 0);
    }

    /// [`Rows::times_window`] on the low `active` limbs of each row, for numbers known to fit
    /// in them (the rest stay 0).
    pub fn times_window_in(&mut self, len: usize, active: usize) {
        let new_len = self.len() + len - 1;
        self.data.resize(new_len * self.width, 0);
        self.prefix_sums_in(active);
        for i in (len..new_len).rev() {
            let (to, from) = self.pair_mut(i, i - len);
            sub_limbs(&mut to[..active], &from[..active]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    /// The signed number a two's complement row holds.
    fn signed(row: &[u64]) -> BigInt {
        let negative = row.last().is_some_and(|top| top >> 63 == 1);
        let digits: Vec<u32> = row
            .iter()
            .map(|&d| if negative { !d } else { d })
            .flat_map(|d| [d as u32, (d >> 32) as u32])
            .collect();
        let magnitude = BigUint::new(digits);
        if negative {
            -BigInt::from(magnitude + 1u32)
        } else {
            BigInt::from(magnitude)
        }
    }

    #[test]
    fn limb_rows_are_twos_complement() {
        assert_eq!(signed(&[5, 0]), BigInt::from(5));
        assert_eq!(signed(&[u64::MAX, u64::MAX]), BigInt::from(-1));
        let mut row = vec![3u64, 0];
        sub_limbs(&mut row, &[5, 0]);
        assert_eq!(signed(&row), BigInt::from(-2));
        add_limbs(&mut row, &[u64::MAX, 0]);
        assert_eq!(signed(&row), BigInt::from(u64::MAX) - 2);
        // (2^64 + 3) · (2^64 - 1) = 2^128 + 2^65 - 3, in three limbs.
        let mut out = vec![0u64; 3];
        add_mul_limbs(&mut out, &[3, 1], &[u64::MAX]);
        let expect = (BigInt::from(1) << 128) + (BigInt::from(1) << 65) - 3;
        assert_eq!(signed(&[out[0], out[1], out[2], 0]), expect);
    }

    #[test]
    fn multiply_add_and_subtract_wrap_like_integers() {
        // Four limbs: 2^256 wraps. Check against BigInt mod 2^256 for a spread of operands.
        let modulus = BigInt::from(1) << 256;
        let wrap = |v: BigInt| -> BigInt { ((v % &modulus) + &modulus) % &modulus };
        let as_row = |v: &BigInt| {
            let v = wrap(v.clone()).to_biguint().unwrap_or_default();
            let mut row = v.to_u64_digits();
            row.resize(4, 0);
            row
        };
        let unsigned = |row: &[u64]| wrap(signed(row));
        let values = [
            BigInt::from(0),
            BigInt::from(7),
            BigInt::from(u64::MAX),
            (BigInt::from(1) << 200) - 3,
            BigInt::from(11) - (BigInt::from(1) << 130),
            BigInt::from(-1),
        ];
        let scalars: [&[u64]; 4] = [&[3], &[u64::MAX], &[0, 1], &[5, u64::MAX, 2]];
        for a in &values {
            for out in &values {
                for b in scalars {
                    let b_int = BigInt::from(BigUint::new(
                        b.iter()
                            .flat_map(|&d| [d as u32, (d >> 32) as u32])
                            .collect(),
                    ));
                    let mut plus = as_row(out);
                    add_mul_limbs(&mut plus, &as_row(a), b);
                    assert_eq!(
                        unsigned(&plus),
                        wrap(out + a * &b_int),
                        "{out} + {a}·{b_int}"
                    );
                    let mut minus = as_row(out);
                    sub_mul_limbs(&mut minus, &as_row(a), b);
                    assert_eq!(
                        unsigned(&minus),
                        wrap(out - a * &b_int),
                        "{out} - {a}·{b_int}"
                    );
                }
            }
        }
    }

    #[test]
    fn narrower_numbers_carry_into_the_wider_row() {
        // A shorter operand is a number not negative: carries and borrows run to the top.
        let mut row = vec![u64::MAX, u64::MAX, 0];
        add_limbs(&mut row, &[1]);
        assert_eq!(row, [0, 0, 1]);
        sub_limbs(&mut row, &[1]);
        assert_eq!(row, [u64::MAX, u64::MAX, 0]);
        // (2^64 - 1)^2 = 2^128 - 2^65 + 1, then taken away again.
        let mut row = vec![0u64; 3];
        add_mul_limbs(&mut row, &[u64::MAX], &[u64::MAX]);
        assert_eq!(row, [1, u64::MAX - 1, 0]);
        sub_mul_limbs(&mut row, &[u64::MAX], &[u64::MAX]);
        assert_eq!(row, [0, 0, 0]);
        // A product wider than the row wraps at its width.
        let mut row = vec![0u64; 1];
        add_mul_limbs(&mut row, &[u64::MAX, 5], &[3, 7]);
        assert_eq!(row, [u64::MAX.wrapping_mul(3)]);
        let mut sum = vec![0u64; 3];
        add_into(&mut sum, &[u64::MAX, u64::MAX, 4], &[1]);
        assert_eq!(sum, [0, 0, 5]);
    }

    #[test]
    fn rows_add_and_multiply_by_a_window() {
        let n = |v: &[u32]| v.iter().map(|&x| BigUint::from(x)).collect::<Vec<_>>();
        let mut p = Rows::from_biguints(2, &n(&[1, 2, 3]));
        // (1 + 2x + 3x²)(1 + x + x²) = 1 + 3x + 6x² + 5x³ + 3x⁴.
        let mut wider = Rows::zeros(1, 0, 4);
        p.times_window_to(3, 3, &mut wider);
        assert_eq!(wider.to_biguints(), n(&[1, 3, 6, 5, 3]));
        p.times_window_in(3, 2);
        assert_eq!(p.to_biguints(), n(&[1, 3, 6, 5, 3]));
        let mut q = Rows::zeros(2, 0, 0);
        q.add_shifted(&p, 2);
        q.add_shifted(&Rows::from_biguints(2, &n(&[4])), 0);
        assert_eq!(q.to_biguints(), n(&[4, 0, 1, 3, 6, 5, 3]));
    }
}
