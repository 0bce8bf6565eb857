//! The numbers a move or a scene gives the rules, each checked against the range the rules
//! accept before any arithmetic is done with it. A number out of its range is refused with the
//! field and the range: never wrapped, saturated or dropped, so no move reads as another one.
//! One check serves scripts, scenes, the window, the roll API and the room protocol, since all
//! of them reach the rules through [`super::table::TableState`] and [`super::scene::Scene`].

/// The largest size (either sign) of a target, difficulty, DC or modifier that a move or a
/// scene gives: far past anything the five texts use, and small enough that no sum of them
/// overflows.
pub const MOST_NUMBER: i64 = 1_000;

/// The most a count a move or a scene gives (action dice, extra dice, Advantages, skill dice)
/// may be: no count can ask for more dice than a throw holds ([`crate::dice::MOST_IN_A_THROW`],
/// the one cap of every throw).
pub const MOST_COUNT: i64 = crate::dice::MOST_IN_A_THROW as i64;

/// A number given to the rules, with the range they accept for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounded {
    /// Where the number was given, in the words of the move or scene ("modifier", "Fred's skill
    /// Dodge").
    pub field: String,
    /// The number as given (wide enough for any integer field).
    pub value: i128,
    /// The least it may be.
    pub low: i64,
    /// The most it may be.
    pub high: i64,
}

impl Bounded {
    /// A target, difficulty, DC or modifier: within ±[`MOST_NUMBER`].
    pub fn number(field: impl Into<String>, value: i64) -> Bounded {
        Bounded::within(field, i128::from(value), -MOST_NUMBER, MOST_NUMBER)
    }

    /// A count of dice or of things that add dice: 0 to [`MOST_COUNT`].
    pub fn count(field: impl Into<String>, value: impl Into<i128>) -> Bounded {
        Bounded::within(field, value.into(), 0, MOST_COUNT)
    }

    /// Any range.
    pub fn within(field: impl Into<String>, value: i128, low: i64, high: i64) -> Bounded {
        Bounded {
            field: field.into(),
            value,
            low,
            high,
        }
    }
}

/// A number outside the range the rules accept for it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field} is {value}: it must be from {low} to {high}")]
pub struct OutOfRange {
    /// Where it was given.
    pub field: String,
    /// The number as given.
    pub value: i128,
    /// The least it may be.
    pub low: i64,
    /// The most it may be.
    pub high: i64,
}

/// The first number out of its range, if any.
pub fn check(numbers: impl IntoIterator<Item = Bounded>) -> Result<(), OutOfRange> {
    match numbers
        .into_iter()
        .find(|b| b.value < i128::from(b.low) || b.value > i128::from(b.high))
    {
        Some(b) => Err(OutOfRange {
            field: b.field,
            value: b.value,
            low: b.low,
            high: b.high,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_number_out_of_range_is_named_with_its_range() {
        assert_eq!(check([Bounded::number("modifier", 1_000)]), Ok(()));
        let err = check([
            Bounded::count("extra", 3u32),
            Bounded::number("modifier", i64::MAX),
            Bounded::count("advantages", u32::MAX),
        ])
        .expect_err("out of range");
        assert_eq!(
            err.to_string(),
            "modifier is 9223372036854775807: it must be from -1000 to 1000"
        );
        let err = check([Bounded::count("advantages", u32::MAX)]).expect_err("too many");
        assert_eq!(
            err.to_string(),
            "advantages is 4294967295: it must be from 0 to 100"
        );
    }
}
