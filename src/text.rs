//! Words for numbers on screen: plurals that agree ("1 action die", "3 action dice") and exact
//! fractions short enough to read (a long one is shown as a percentage, kept exact for copying).

/// A noun with its indefinite article: "an aspect check", "a reaction".
pub fn indefinite(noun: &str) -> String {
    let vowel = noun
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {noun}", if vowel { "an" } else { "a" })
}

/// A name's possessive: "Fred's", "the Goons'" (a plural name ending in s takes the
/// apostrophe alone).
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// `count` with the singular or plural noun: "1 die", "0 dice", "2 dice".
pub fn plural(count: impl Into<i64>, one: &str, many: &str) -> String {
    let n = count.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Items in a sentence: "a", "a and b", "a, b and c".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The longest label of a throw, bytes: a room's and the window's API's alike.
pub const LABEL_BYTES: usize = 200;

/// Whether a name or a label can be shown as it is, on a page, an overlay or a terminal: none of
/// its characters a format character (a direction override, a zero-width joiner), a control (an
/// escape code, a newline), a line or paragraph separator, a private-use, surrogate or
/// unassigned one.
pub fn shows_as_is(text: &str) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    !text.chars().any(|c| {
        matches!(
            get_general_category(c),
            GeneralCategory::Format
                | GeneralCategory::Control
                | GeneralCategory::PrivateUse
                | GeneralCategory::Surrogate
                | GeneralCategory::Unassigned
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        )
    })
}

/// The most characters an error message keeps of what it refuses: a line, never the upload.
pub const MOST_QUOTED: usize = 240;

/// A message as an error shows it: its first line, at most [`MOST_QUOTED`] characters (cut with
/// "…"), so that a refusal that quotes what it read (a file's value, a field's name) never sends
/// a whole upload back.
pub fn one_line(message: &str) -> String {
    let first = message.lines().next().unwrap_or("");
    let cut = message.lines().nth(1).is_some();
    match first.char_indices().nth(MOST_QUOTED) {
        Some((end, _)) => format!("{}…", &first[..end]),
        None if cut => format!("{first}…"),
        None => first.to_string(),
    }
}

/// Digits in an exact fraction ("7775/7776" has 8).
pub fn digits(exact: &str) -> usize {
    exact.chars().filter(char::is_ascii_digit).count()
}

/// The longest exact fraction shown as it is, in digits.
pub const MAX_SHOWN_DIGITS: usize = 12;

/// A chance for a line of text: "95.00% (19/20)" when the fraction is short, "42.86%" when it
/// has more than 12 digits (then the exact fraction is offered apart: hover, copy).
pub fn chance(percent: &str, exact: &str) -> String {
    if digits(exact) <= MAX_SHOWN_DIGITS {
        format!("{percent} ({exact})")
    } else {
        percent.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles_agree() {
        assert_eq!(indefinite("aspect check"), "an aspect check");
        assert_eq!(indefinite("reaction"), "a reaction");
    }

    #[test]
    fn plurals_agree() {
        assert_eq!(plural(1, "action die", "action dice"), "1 action die");
        assert_eq!(plural(0u32, "action die", "action dice"), "0 action dice");
        assert_eq!(plural(3, "success", "successes"), "3 successes");
    }

    #[test]
    fn long_fractions_become_percentages() {
        assert_eq!(chance("95.00%", "19/20"), "95.00% (19/20)");
        assert_eq!(chance("99.99%", "7775/7776"), "99.99% (7775/7776)");
        // 12 digits still shown; 13 not.
        assert_eq!(chance("50.00%", "123456/123456"), "50.00% (123456/123456)");
        assert_eq!(chance("42.86%", "1105116947/2578606213"), "42.86%");
    }
}
