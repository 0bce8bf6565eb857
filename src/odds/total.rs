//! A notation's result as an exact number: a whole number almost always, a fraction where a
//! division is left unrounded (`3d6/2` can be 5.5, `1d6/3` can be 1/3), as Roll20 keeps it.
//! Written the way a player reads it (5, 5.5, 10/3), and stored the same way: a whole number as
//! a JSON number (so every record made before fractions reads and writes byte for byte as it
//! did), a fraction as its exact text ("11/2").

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An exact result: `numerator / denominator` in lowest terms, the denominator 1 or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Total {
    numerator: i64,
    denominator: i64,
}

/// Why a text is not a total.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a total: a whole number or a fraction like 11/2")]
pub struct TotalError(String);

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

impl Total {
    /// A whole number.
    pub const fn whole(value: i64) -> Self {
        Total {
            numerator: value,
            denominator: 1,
        }
    }

    /// `numerator / denominator` in lowest terms; None for a denominator of 0 or a value whose
    /// lowest terms do not fit 64 bits.
    pub fn fraction(numerator: i128, denominator: i128) -> Option<Self> {
        if denominator == 0 {
            return None;
        }
        let divisor = gcd(numerator, denominator);
        let sign = if denominator < 0 { -1 } else { 1 };
        Some(Total {
            numerator: i64::try_from(sign * numerator / divisor).ok()?,
            denominator: i64::try_from(sign * denominator / divisor).ok()?,
        })
    }

    /// An exact ratio in lowest terms; None when it does not fit 64 bits.
    pub fn of_ratio(ratio: &num_rational::BigRational) -> Option<Self> {
        use num_traits::ToPrimitive;
        Total::fraction(ratio.numer().to_i128()?, ratio.denom().to_i128()?)
    }

    /// The whole number, when it is one.
    pub fn as_whole(self) -> Option<i64> {
        (self.denominator == 1).then_some(self.numerator)
    }

    /// The numerator in lowest terms.
    pub fn numerator(self) -> i64 {
        self.numerator
    }

    /// The denominator in lowest terms (1 for a whole number).
    pub fn denominator(self) -> i64 {
        self.denominator
    }

    /// As a float, for charts and JSON readers that want a number.
    pub fn to_f64(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }

    /// As a JSON number for readers that chart it: a whole number exactly, a fraction as the
    /// nearest float (its exact text beside it is the caller's to add).
    pub fn to_json_number(self) -> serde_json::Value {
        match self.as_whole() {
            Some(whole) => serde_json::Value::from(whole),
            None => serde_json::Value::from(self.to_f64()),
        }
    }

    /// The exact text: "5", "-3/2", "10/3".
    pub fn exact(self) -> String {
        if self.denominator == 1 {
            self.numerator.to_string()
        } else {
            format!("{}/{}", self.numerator, self.denominator)
        }
    }

    /// The decimal digits after the point when the value ends in at most six of them (a
    /// denominator of only 2s and 5s): 5.5, 0.25; None for 10/3.
    fn decimal(self) -> Option<String> {
        let mut rest = self.denominator;
        let mut places = 0u32;
        let (mut twos, mut fives) = (0u32, 0u32);
        while rest % 2 == 0 {
            rest /= 2;
            twos += 1;
        }
        while rest % 5 == 0 {
            rest /= 5;
            fives += 1;
        }
        if rest != 1 {
            return None;
        }
        places += twos.max(fives);
        if places > 6 {
            return None;
        }
        let scale = 10i128.pow(places);
        let scaled = i128::from(self.numerator) * scale / i128::from(self.denominator);
        let sign = if scaled < 0 { "-" } else { "" };
        let size = scaled.abs();
        Some(format!(
            "{sign}{}.{:0width$}",
            size / scale,
            size % scale,
            width = places as usize
        ))
    }
}

impl From<i64> for Total {
    fn from(value: i64) -> Self {
        Total::whole(value)
    }
}

/// A total is a whole number when it equals one: `result.total == 14`.
impl PartialEq<i64> for Total {
    fn eq(&self, other: &i64) -> bool {
        self.as_whole() == Some(*other)
    }
}

/// Compared with a whole number: `result.total >= 15`.
impl PartialOrd<i64> for Total {
    fn partial_cmp(&self, other: &i64) -> Option<Ordering> {
        Some(self.cmp(&Total::whole(*other)))
    }
}

impl Ord for Total {
    fn cmp(&self, other: &Self) -> Ordering {
        (i128::from(self.numerator) * i128::from(other.denominator))
            .cmp(&(i128::from(other.numerator) * i128::from(self.denominator)))
    }
}

impl PartialOrd for Total {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// As a player reads it: 5, 5.5, -0.25, and a fraction that never ends as a fraction, 10/3.
impl fmt::Display for Total {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.decimal() {
            Some(text) if self.denominator != 1 => f.write_str(&text),
            _ => f.write_str(&self.exact()),
        }
    }
}

impl FromStr for Total {
    type Err = TotalError;

    /// "5", "-3", "11/2" (any fraction, put in lowest terms), "5.5".
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let refused = || TotalError(text.to_string());
        let text = text.trim();
        if let Some((top, bottom)) = text.split_once('/') {
            let top: i128 = top.trim().parse().map_err(|_| refused())?;
            let bottom: i128 = bottom.trim().parse().map_err(|_| refused())?;
            return Total::fraction(top, bottom).ok_or_else(refused);
        }
        if let Some((whole, digits)) = text.split_once('.') {
            if digits.is_empty() || digits.len() > 12 || !digits.chars().all(|c| c.is_ascii_digit())
            {
                return Err(refused());
            }
            let negative = whole.trim_start().starts_with('-');
            let whole: i128 = whole.parse().map_err(|_| refused())?;
            let scale = 10i128.pow(digits.len() as u32);
            let part: i128 = digits.parse().map_err(|_| refused())?;
            let size = whole.abs() * scale + part;
            return Total::fraction(if negative { -size } else { size }, scale).ok_or_else(refused);
        }
        text.parse::<i64>().map(Total::whole).map_err(|_| refused())
    }
}

impl Serialize for Total {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.as_whole() {
            Some(whole) => serializer.serialize_i64(whole),
            None => serializer.serialize_str(&self.exact()),
        }
    }
}

impl<'de> Deserialize<'de> for Total {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Whole(i64),
            Text(String),
        }
        match Written::deserialize(deserializer)? {
            Written::Whole(whole) => Ok(Total::whole(whole)),
            Written::Text(text) => text.parse().map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_are_written_as_players_read_them() {
        let shown = |n, d| Total::fraction(n, d).expect("fraction").to_string();
        assert_eq!(shown(11, 2), "5.5");
        assert_eq!(shown(-3, 2), "-1.5");
        assert_eq!(shown(-1, 4), "-0.25");
        assert_eq!(shown(1, 40), "0.025");
        assert_eq!(shown(10, 3), "10/3");
        assert_eq!(shown(-10, -2), "5");
        assert_eq!(shown(3, -6), "-0.5");
        assert_eq!(Total::fraction(1, 0), None);
        assert_eq!(Total::fraction(1, 3).expect("third").exact(), "1/3");
    }

    #[test]
    fn totals_order_and_read_back() {
        let third = Total::fraction(1, 3).expect("third");
        let half = Total::fraction(1, 2).expect("half");
        assert!(third < half && half < Total::whole(1) && Total::whole(-1) < third);
        for text in ["5", "-3", "11/2", "5.5", "-0.25", "10/3", "-7/21"] {
            let total: Total = text.parse().expect(text);
            assert_eq!(total.exact().parse::<Total>(), Ok(total), "{text}");
        }
        assert_eq!(
            "5.5".parse::<Total>().map(Total::exact),
            Ok("11/2".to_string())
        );
        assert_eq!(
            "-7/21".parse::<Total>().map(Total::exact),
            Ok("-1/3".to_string())
        );
        for bad in ["", "x", "1/0", "1.", "1.2.3", "1/x"] {
            assert!(bad.parse::<Total>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_whole_total_is_stored_as_before_and_a_fraction_as_its_text() {
        let json =
            serde_json::to_string(&[Total::whole(14), Total::fraction(11, 2).expect("half")])
                .expect("json");
        assert_eq!(json, r#"[14,"11/2"]"#);
        let back: Vec<Total> = serde_json::from_str(&json).expect("read");
        assert_eq!(
            back,
            [Total::whole(14), Total::fraction(11, 2).expect("half")]
        );
        assert!(serde_json::from_str::<Total>(r#""eleven""#).is_err());
    }
}
