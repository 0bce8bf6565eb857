//! A distribution in a player's words, for the one line of odds a page shows above its chart:
//! the range a roll lands in (with its rare tails and open-ended dice said as such, not as a
//! bare "−101 to 111+"), the average, and the likeliest result, or that every result is equally
//! likely (a flat d20 has no "most often").

/// A tail rarer than this (each side) is told apart from the range a roll almost always lands in.
pub const RARE_TAIL: f64 = 0.001;

/// What the words are made from: each value's chance in ascending value order, the chance that
/// open-ended dice put beyond the values listed, whether every value is exactly as likely as
/// every other, and the average.
#[derive(Clone, Debug)]
pub struct Shape<'a> {
    /// `(value, chance)`, ascending by value, chances above zero.
    pub chances: &'a [(i64, f64)],
    /// The chance beyond the listed values (open-ended dice: no upper limit). Zero otherwise.
    pub open: f64,
    /// Every listed value exactly equally likely (worked out exactly by the caller).
    pub flat: bool,
    /// The average.
    pub mean: f64,
    /// How the values (points) read: themselves, unless a division leaves fractions
    /// ([`crate::odds::Points`]).
    pub points: &'a crate::odds::Points,
}

/// A chance as a percentage with one decimal ("16.7%"), and "<0.1%" for what would read 0.0%.
fn percent(p: f64) -> String {
    if p > 0.0 && p < 0.0005 {
        "<0.1%".to_string()
    } else {
        format!("{:.1}%", 100.0 * p)
    }
}

/// A value (a point) as a page writes it: a minus sign, not a hyphen; 5.5 and 10/3 where a
/// division leaves fractions.
fn number(v: i64, points: &crate::odds::Points) -> String {
    points.value_of(v).to_string().replace('-', "−")
}

/// The range in words, and its rare tails apart: ("3 to 13", None); ("almost always 1 to 23
/// (99.9%)", "more than 23: open-ended, no upper limit"); ("almost always 19 to 51 (99.9%)",
/// "as low as 10 or as high as 60").
fn range(shape: &Shape) -> (String, Option<String>) {
    let c = shape.chances;
    let (lo, hi) = (c[0].0, c[c.len() - 1].0);
    // The first value past the rare low tail, and the last before the rare high tail (the
    // open-ended mass counts towards the high tail).
    let mut below = 0.0;
    let mut from = 0;
    while from + 1 < c.len() && below + c[from].1 <= RARE_TAIL {
        below += c[from].1;
        from += 1;
    }
    let mut above = shape.open;
    let mut to = c.len() - 1;
    while to > from && above + c[to].1 <= RARE_TAIL {
        above += c[to].1;
        to -= 1;
    }
    let (mut a, mut b) = (c[from].0, c[to].0);
    // Tails that shorten the range by little are no news: said as part of it.
    if shape.open == 0.0 && ((hi - lo) - (b - a)) < (4_i64).max((hi - lo) / 5) {
        (a, b) = (lo, hi);
    }
    if a == lo && b == hi && shape.open == 0.0 {
        return (
            format!(
                "{} to {}",
                number(lo, shape.points),
                number(hi, shape.points)
            ),
            None,
        );
    }
    if shape.open > RARE_TAIL && a == lo {
        // Open-ended dice that often go past the values listed: no "almost always".
        return (
            format!("{} or more", number(lo, shape.points)),
            Some("open-ended, no upper limit".to_string()),
        );
    }
    let mut rarely = Vec::new();
    if a > lo {
        rarely.push(format!("as low as {}", number(lo, shape.points)));
    }
    if shape.open > 0.0 {
        rarely.push(format!(
            "more than {}: open-ended, no upper limit",
            number(b, shape.points)
        ));
    } else if b < hi {
        rarely.push(format!("as high as {}", number(hi, shape.points)));
    }
    let kept = 1.0 - below - above;
    let within = if kept >= 0.9995 {
        "over 99.9%".to_string()
    } else {
        percent(kept)
    };
    let usual = if a == b {
        format!("almost always {} ({within})", number(a, shape.points))
    } else {
        format!(
            "almost always {} to {} ({within})",
            number(a, shape.points),
            number(b, shape.points)
        )
    };
    (usual, Some(rarely.join(" or ")))
}

/// The likeliest result in words: "most often 8 (16.7%)", "most often 6 or 7 (12.5% each)",
/// "most often 1 to 5 (16.7% each)", or nothing where results far apart tie.
fn likeliest(shape: &Shape) -> Option<String> {
    let top = shape.chances.iter().map(|(_, p)| *p).fold(0.0, f64::max);
    let tied: Vec<i64> = shape
        .chances
        .iter()
        .filter(|(_, p)| (top - p).abs() <= top * 1e-9)
        .map(|(v, _)| *v)
        .collect();
    match tied.as_slice() {
        [v] => Some(format!(
            "most often {} ({})",
            number(*v, shape.points),
            percent(top)
        )),
        [a, b] => Some(format!(
            "most often {} or {} ({} each)",
            number(*a, shape.points),
            number(*b, shape.points),
            percent(top)
        )),
        // A plateau: a run of results, each as likely as the likeliest.
        [a, .., b] if b - a + 1 == tied.len() as i64 => Some(format!(
            "most often {} to {} ({} each)",
            number(*a, shape.points),
            number(*b, shape.points),
            percent(top)
        )),
        _ => None,
    }
}

/// The whole line (without its title): "3 to 13, average 8.00, most often 8 (16.7%)";
/// "1 to 20, average 10.50, each equally likely (5.0%)"; "almost always 19 to 51 (99.9%),
/// average 35.00, most often 35 (7.3%); rarely as low as 10 or as high as 60".
pub fn summary(shape: &Shape) -> String {
    let Some(&(only, p)) = shape.chances.first() else {
        return "no result can be read".to_string();
    };
    if shape.chances.len() == 1 && shape.open == 0.0 {
        return format!("always {}", number(only, shape.points));
    }
    let average = format!("average {:.2}", shape.mean).replace('-', "−");
    if shape.flat && shape.open == 0.0 {
        let (lo, hi) = (only, shape.chances[shape.chances.len() - 1].0);
        let n = shape.chances.len();
        let each = if n as i64 == hi - lo + 1 {
            format!("each equally likely ({})", percent(p))
        } else {
            format!("each of its {n} results equally likely ({})", percent(p))
        };
        return format!(
            "{} to {}, {average}, {each}",
            number(lo, shape.points),
            number(hi, shape.points)
        );
    }
    let (usual, rarely) = range(shape);
    let mut line = format!("{usual}, {average}");
    if let Some(most) = likeliest(shape) {
        line.push_str(", ");
        line.push_str(&most);
    }
    if let Some(rarely) = rarely {
        line.push_str("; rarely ");
        line.push_str(&rarely);
    }
    line
}

#[cfg(test)]
mod tests {
    use crate::odds::notation::Notation;

    /// The summary of a notation's exact odds, as the pages and `odds --json` give it.
    fn of(text: &str) -> String {
        let n = Notation::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let d = n.distribution().unwrap_or_else(|e| panic!("{text}: {e}"));
        crate::rules::Odds::of("total", d).summary()
    }

    #[test]
    fn a_flat_die_says_each_result_is_equally_likely() {
        assert_eq!(
            of("1d20"),
            "1 to 20, average 10.50, each equally likely (5.0%)"
        );
        assert_eq!(
            of("1d20+5"),
            "6 to 25, average 15.50, each equally likely (5.0%)"
        );
        assert_eq!(
            of("1d6*2"),
            "2 to 12, average 7.00, each of its 6 results equally likely (16.7%)"
        );
        let always = crate::rules::Odds::of("total", crate::odds::Dist::constant(3));
        assert_eq!(always.summary(), "always 3");
    }

    #[test]
    fn a_curve_says_its_range_average_and_likeliest() {
        assert_eq!(of("2d6+1"), "3 to 13, average 8.00, most often 8 (16.7%)");
        // 3d6's tails (1 in 216) are not rare enough to leave out.
        assert_eq!(
            of("3d6"),
            "3 to 18, average 10.50, most often 10 or 11 (12.5% each)"
        );
        assert_eq!(
            of("1d4-3"),
            "−2 to 1, average −0.50, each equally likely (25.0%)"
        );
    }

    #[test]
    fn rare_tails_that_hardly_shorten_the_range_are_part_of_it() {
        // 4 and 40 are each 1 in 4,800, but leaving them out says little.
        assert_eq!(
            of("1d20+1d10+1d6+1d4"),
            "4 to 40, average 22.00, most often 21 to 23 (5.0% each)"
        );
    }

    #[test]
    fn rare_tails_and_open_ended_dice_are_said_in_words() {
        // 10d6: 10 and 60 each 1 in 60,466,176.
        assert_eq!(
            of("10d6"),
            "almost always 19 to 51 (99.9%), average 35.00, most often 35 (7.3%); \
             rarely as low as 10 or as high as 60"
        );
        // One exploding d6: 6s roll again, without end.
        assert_eq!(
            of("1d6!"),
            "almost always 1 to 23 (99.9%), average 4.20, most often 1 to 5 (16.7% each); \
             rarely more than 23: open-ended, no upper limit"
        );
    }
}
