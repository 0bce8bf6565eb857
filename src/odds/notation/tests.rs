use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::*;
use crate::odds::Total;
use crate::odds::stop::{Abandoned, Cancel};

fn parse(s: &str) -> Notation {
    Notation::parse(s).unwrap_or_else(|e| panic!("{e}"))
}

fn dist(s: &str) -> Dist {
    parse(s)
        .distribution()
        .unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn p(s: &str, value: i64) -> String {
    dist(s).p(value).exact()
}

/// Every way the dice can fall, chain by chain (at most `longest` faces a chain), each read
/// by the same reader the physical throw uses: the distribution of the result, and the mass
/// of chains cut off.
fn brute_force(text: &str, longest: usize) -> (BTreeMap<Total, BigRational>, f64) {
    let n = parse(text);
    let dice = n.dice();
    let per_die: Vec<Vec<(Vec<u32>, BigRational)>> = dice
        .iter()
        .map(|d| {
            let mut done = Vec::new();
            let mut open = vec![(Vec::new(), BigRational::one())];
            while let Some((chain, p)) = open.pop() {
                if !chain.is_empty() && !d.needs_another(&chain) {
                    done.push((chain, p));
                    continue;
                }
                if chain.len() >= longest {
                    continue;
                }
                let sides = d.physical_sides();
                for face in 1..=sides {
                    let mut next = chain.clone();
                    next.push(face);
                    open.push((next, &p / BigRational::from_integer(sides.into())));
                }
            }
            done
        })
        .collect();
    let mut out: BTreeMap<Total, BigRational> = BTreeMap::new();
    let mut index = vec![0usize; dice.len()];
    loop {
        let chains: Vec<Vec<u32>> = index
            .iter()
            .zip(&per_die)
            .map(|(i, ways)| ways[*i].0.clone())
            .collect();
        let p: BigRational = index
            .iter()
            .zip(&per_die)
            .map(|(i, ways)| ways[*i].1.clone())
            .fold(BigRational::one(), |a, b| a * b);
        let result = n
            .evaluate(&chains)
            .unwrap_or_else(|e| panic!("{text} {chains:?}: {e}"));
        *out.entry(result.total).or_insert_with(BigRational::zero) += p;
        // Next combination.
        let mut d = 0;
        loop {
            if d == index.len() {
                let mass: BigRational = out.values().cloned().sum();
                let cut = (BigRational::one() - mass).to_f64().unwrap_or(1.0);
                return (out, cut);
            }
            index[d] += 1;
            if index[d] < per_die[d].len() {
                break;
            }
            index[d] = 0;
            d += 1;
        }
    }
}

/// The odds against brute force: exactly where nothing is cut off, else within what is cut.
fn agrees_with_brute_force(text: &str, longest: usize) {
    let (brute, cut) = brute_force(text, longest);
    let odds = dist(text);
    if cut == 0.0 {
        assert!(odds.truncated().to_f64() == 0.0, "{text}: truncated");
        let ours: BTreeMap<Total, BigRational> = odds
            .probabilities()
            .into_iter()
            .map(|(point, p)| {
                let (num, den) = p.parts();
                (odds.value_of(point), BigRational::new(num, den))
            })
            .collect();
        assert_eq!(ours, brute, "{text}");
    } else {
        let point = |t: Option<&Total>| t.and_then(|t| odds.point_of(*t)).unwrap_or(0);
        for v in odds.min_value().min(point(brute.keys().next()))
            ..=odds.max_value().max(point(brute.keys().last()))
        {
            let a = odds.p(v).to_f64();
            let b = brute
                .get(&odds.value_of(v))
                .and_then(|p| p.to_f64())
                .unwrap_or(0.0);
            assert!(
                (a - b).abs() <= cut + 1e-12,
                "{text}: P({v}) = {a} against {b} (cut {cut})"
            );
        }
    }
}

#[test]
fn every_form_agrees_with_every_way_the_dice_can_fall() {
    let exact = [
        "2d6+3",
        "3d4kh2",
        "4d4dl1",
        "3d4dh1",
        "3d4kl1",
        "3d6>5",
        "4d6<2",
        "3d6=6",
        "3d6>4f1",
        "4dF",
        "3d3",
        "2d2+1d3",
        "2d4ro1",
        "2d6ro<2",
        "3d4cs>3cf2",
        "3d4sd",
        "4d4min2",
        "3d4max3",
        "{3d4+2}>9",
        "{1d6+1, 1d8}kh1",
        "{1d4, 1d6, 1d8}kh2",
        "{1d4, 1d6, 1d8}dl1>4",
        "{2d4+1d6}k2",
        "{2d4+1d6}dh1",
        "2d6*2",
        "floor(3d6/2)",
        "ceil(2d4/3)",
        "round(2d4/3)",
        "1d6%3",
        "abs(1d4-1d6)",
        "(1d4+1)*1d3",
        "-1d4+floor(1d6/4)",
        "2d6[slashing]+1d6[fire]",
        "{2d4>3, 1d6}",
        "3d4kh2>3",
        "3d4dl1>2f1",
    ];
    for text in exact {
        agrees_with_brute_force(text, 4);
    }
    // Rerolls until the face no longer matches, explosions: chains without end, cut off.
    let open_ended = [
        ("2d4r1", 7),
        ("2d4r<2", 7),
        ("2d4!", 7),
        ("2d4!>3", 6),
        ("2d4!!", 7),
        ("2d4!p", 7),
        ("2d4!kh1", 6),
        ("3d4!kl2", 5),
        ("2d4!dl1", 6),
        ("2d4!pkh1", 6),
        ("2d4!<1", 7),
        ("3d4!>3>3", 5),
        ("2d4!!>3kh1", 6),
        ("{2d4!+1d4}k2", 5),
        ("2d4r1!", 6),
        ("2dF!", 6),
    ];
    for (text, longest) in open_ended {
        agrees_with_brute_force(text, longest);
    }
}

#[test]
fn roll20s_readings() {
    // Target numbers count dice: 8d10>7 is the dice showing 7 or more.
    assert_eq!(parse("8d10>7").measure(), Measure::Successes);
    assert_eq!(p("1d10>7", 1), "2/5");
    assert_eq!(p("1d10<3", 1), "3/10");
    // Failures subtract: 1d6>5f1 is -1 on a 1.
    assert_eq!(p("1d6>5f1", -1), "1/6");
    // A group of one roll and a roll of nothing compares its total (Roll20's idiom): one
    // success when 15 or more, shown as the check it is.
    let check = parse("{3d6+5,0d0}>15");
    assert_eq!(check.check().map(|c| c.target), Some(15));
    assert_eq!(
        check.p_success().map(|p| p.exact()),
        Some(dist("3d6").p_where(|v| v >= 10).exact())
    );
    // A group of one die compares its total too: counting each die is the same.
    assert_eq!(parse("{1d20+5}>15").check().map(|c| c.target), Some(15));
    // A comparison after a total is refused, with the way to write it.
    let refused = Notation::parse("1d20+5>15").expect_err("a total compared");
    assert!(
        refused.message.contains("{1d20+5,0d0}>15"),
        "{}",
        refused.message
    );
    // !! compounds, ! adds dice of their own: with a keep they differ.
    assert_ne!(dist("2d6!kh1"), dist("2d6!!kh1"));
    assert_eq!(dist("2d6!"), dist("2d6!!"));
    // Rerolls: 1d6r1 never shows a 1; ro once: a 1 one time in 36.
    assert_eq!(p("1d6r1", 1), "0");
    assert_eq!(p("1d6r1", 2), "1/5");
    assert_eq!(p("1d6ro1", 1), "1/36");
    // Fate dice: -1, 0, +1 each a third.
    assert_eq!(p("1dF", -1), "1/3");
    assert_eq!(p("4dF", 4), "1/81");
    // d% is d100.
    assert_eq!(p("d%", 100), "1/100");
    // Penetrating: 1d6!p is 6 + (d6 - 1): 6 + 0 never happens without a second 6.
    assert_eq!(p("1d6!p", 6), "1/36");
    assert_eq!(p("1d6!p", 7), "1/36");
    // Math: floor, round halves up, remainder with the sign of the left side.
    assert_eq!(p("floor(1d4/2)", 0), "1/4");
    // 1/2 and 1 round to 1, 3/2 and 2 to 2.
    assert_eq!(p("round(1d4/2)", 1), "1/2");
    assert_eq!(p("round(1d4/2)", 2), "1/2");
    assert_eq!(p("-1d4%3", -1), "1/2");
}

#[test]
fn reading_faces_shows_every_die() {
    let n = parse("4d6dl1+1");
    let r = n
        .evaluate(&[vec![2], vec![6], vec![1], vec![5]])
        .expect("ok");
    assert_eq!(r.total, 14);
    let kept: Vec<(i64, bool)> = r.dice.iter().map(|d| (d.value, d.kept)).collect();
    assert_eq!(kept, vec![(2, true), (6, true), (1, false), (5, true)]);
    assert_eq!(r.shown, "(2+6★+(1☠)+5)+1 = 14");
    // Rerolled faces are struck through; explosions are dice of their own.
    let n = parse("2d6r1!");
    assert_eq!(
        n.dice()
            .iter()
            .map(|d| d.needs_another(&[1]))
            .collect::<Vec<_>>(),
        vec![true, true]
    );
    let r = n.evaluate(&[vec![1, 6, 2], vec![3]]).expect("ok");
    assert_eq!(r.total, 11);
    assert_eq!(r.shown, "(~1~6!★+2+3) = 11");
    assert!(r.dice[1].extra);
    // Successes and failures.
    let r = parse("4d10>7f1")
        .evaluate(&[vec![9], vec![1], vec![7], vec![3]])
        .expect("ok");
    assert_eq!((r.total, r.measure), (Total::whole(1), Measure::Successes));
    assert_eq!(r.shown, "(9✔+1✖☠+7✔+3) = 1 success");
    // Compounding: one die.
    let r = parse("1d6!!").evaluate(&[vec![6, 6, 3]]).expect("ok");
    assert_eq!(
        (r.total, r.shown.as_str()),
        (Total::whole(15), "(15=6+6+3★) = 15")
    );
    // A check.
    let r = parse("{1d20+5}>15").evaluate(&[vec![9]]).expect("ok");
    assert_eq!((r.total, r.success), (Total::whole(14), Some(false)));
    assert_eq!(r.shown, "{(9)+5} = 14, failure");
    // Fate dice: faces 1 and 6 are −, 2 and 5 blank, 3 and 4 +.
    let r = parse("4dF")
        .evaluate(&[vec![1], vec![2], vec![3], vec![4]])
        .expect("ok");
    assert_eq!(
        (r.total, r.shown.as_str()),
        (Total::whole(1), "(−, 0, +, +) = 1")
    );
    // A d3 is a cube marked 1, 2, 3, 3, 2, 1 (each number on opposite faces).
    let r = parse("1d3").evaluate(&[vec![4]]).expect("ok");
    assert_eq!(r.total, 3);
    // Labels stay with their dice.
    let r = parse("1d6[fire]+2").evaluate(&[vec![4]]).expect("ok");
    assert_eq!(r.dice[0].label.as_deref(), Some("fire"));
    assert_eq!(r.shown, "(4)[fire]+2 = 6");
    // Faces that do not fit.
    assert!(parse("d6").evaluate(&[vec![7]]).is_err());
    assert!(
        parse("d6!").evaluate(&[vec![6]]).is_err(),
        "a 6 is thrown again"
    );
    assert!(parse("d6").evaluate(&[vec![3, 4]]).is_err());
    assert_eq!(rethrows(&parse("d6!").dice(), &[vec![6, 6]]), vec![0]);
}

/// The exact distribution of a notation as `(value, chance)` with each value exact.
fn exact_values(text: &str) -> BTreeMap<Total, BigRational> {
    let d = dist(text);
    d.probabilities()
        .into_iter()
        .map(|(point, p)| {
            let (num, den) = p.parts();
            (d.value_of(point), BigRational::new(num, den))
        })
        .collect()
}

#[test]
fn a_division_left_unrounded_keeps_its_fraction() {
    let fraction = |n: i64, d: i64| Total::fraction(n.into(), d.into()).expect("a fraction");
    let share = |n: i64, d: i64| BigRational::new(n.into(), d.into());
    // 3d6/2: each of the 216 ways, halved, counted here.
    let mut expected: BTreeMap<Total, BigRational> = BTreeMap::new();
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                *expected.entry(fraction(a + b + c, 2)).or_default() += share(1, 216);
            }
        }
    }
    assert_eq!(exact_values("3d6/2"), expected);
    assert_eq!(dist("3d6/2").value_of(0).to_string(), "1.5");
    assert_eq!(
        exact_values("3d6/2").get(&fraction(11, 2)),
        Some(&share(27, 216))
    );
    // 1d6/1d4: 24 pairs, every quotient exact (1/4, 1/3, ..., 6); points of 1/12.
    let mut expected: BTreeMap<Total, BigRational> = BTreeMap::new();
    for a in 1..=6 {
        for b in 1..=4 {
            *expected.entry(fraction(a, b)).or_default() += share(1, 24);
        }
    }
    assert_eq!(exact_values("1d6/1d4"), expected);
    assert_eq!(exact_values("1d6/1d4").len(), 16, "the distinct quotients");
    // Halves and thirds added: (1d4)/2 + 1 + 1d6/3, 24 ways.
    let mut expected: BTreeMap<Total, BigRational> = BTreeMap::new();
    for a in 1..=4 {
        for b in 1..=6 {
            let sixths = 3 * a + 6 + 2 * b;
            *expected.entry(fraction(sixths, 6)).or_default() += share(1, 24);
        }
    }
    assert_eq!(exact_values("1d4/2+1+1d6/3"), expected);
    // A division that always comes out whole stays in whole points.
    assert_eq!(dist("(2d6*2)/2"), dist("2d6"));
    // A rounding still rounds, a fraction inside it included.
    assert!(dist("floor(3d6/2)").is_whole());
    // Read from faces: the total is the fraction, written as a player reads it.
    let r = parse("3d6/2")
        .evaluate(&[vec![6], vec![3], vec![2]])
        .expect("ok");
    assert_eq!(r.total, fraction(11, 2));
    assert_eq!(r.shown, "(6★+3+2)/2 = 5.5");
    let r = parse("1d6/3").evaluate(&[vec![1]]).expect("ok");
    assert_eq!(
        (r.total, r.shown.as_str()),
        (fraction(1, 3), "(1☠)/3 = 1/3")
    );
    let r = parse("-1d4/2").evaluate(&[vec![3]]).expect("ok");
    assert_eq!(r.total.to_string(), "-1.5");
    // Every result read is one the odds give a chance.
    for a in 1..=6 {
        for b in 1..=4 {
            let r = parse("1d6/1d4").evaluate(&[vec![a], vec![b]]).expect("ok");
            let d = dist("1d6/1d4");
            let point = d.point_of(r.total).expect("on a point");
            assert_eq!(
                d.p(point).exact(),
                exact_values("1d6/1d4")[&r.total].to_string()
            );
        }
    }
    // In words, with the fractions: halves of 3d6.
    assert_eq!(
        crate::rules::Odds::of("total", dist("3d6/2")).summary(),
        "1.5 to 9, average 5.25, most often 5 or 5.5 (12.5% each)"
    );
    assert_eq!(dist("3d6/2").mean(), 5.25);
    // Quotients as fine as 1/19 beside 1/20: every one of 1d20/1d20's counted, by hand too.
    let mut expected: BTreeMap<Total, BigRational> = BTreeMap::new();
    for a in 1..=20 {
        for b in 1..=20 {
            *expected.entry(fraction(a, b)).or_default() += share(1, 400);
        }
    }
    assert_eq!(exact_values("1d20/1d20"), expected);
    assert_eq!(exact_values("1d20/1d20")[&Total::whole(1)], share(20, 400));
    assert_eq!(
        exact_values("1d100/1d100").len(),
        6087,
        "the distinct quotients"
    );
}

#[test]
fn dice_that_never_stop_are_refused() {
    for (text, says) in [
        ("1d6r<6", "never stop"),
        ("1d6!>1", "explodes on every face"),
        ("1d6r<3!>4", "never stop"),
        ("{3d6/2}>4", "round a division inside it"),
        ("floor({3d6/2,1d4})", "round a division inside it"),
        ("(7/2)d6", "must be a whole number"),
        ("2d(7/2)", "must be a whole number"),
        ("2**(4/2)", "whole number"),
        ("floor(3d6/(1d4-1))", "can be 0"),
        ("1d6%(1d2-1)", "can be 0"),
        ("1000000*1000000*1000000", "±1000000000000"),
        ("3d6f1", "target number"),
        ("1d6min4max2", "above max"),
        ("{1d6+2}k1", "dice added together"),
        ("1d6rr", "compare"),
    ] {
        match Notation::parse(text) {
            Ok(n) => {
                // `1d6rr` rerolls 1s twice over: allowed.
                assert_eq!(text, "1d6rr", "{text} parsed as {n:?}");
            }
            Err(e) => assert!(e.message.contains(says), "{text}: {}", e.message),
        }
    }
    assert!(
        Notation::parse("1d6ro<6").is_ok(),
        "rerolled once, it stops"
    );
}

#[test]
fn a_shared_distribution_is_worked_out_once_for_everyone_asking() {
    let barrier = std::sync::Barrier::new(2);
    let (a, b) = std::thread::scope(|scope| {
        let ask = || {
            barrier.wait();
            parse("30d20!!kh15").shared_distribution()
        };
        let first = scope.spawn(ask);
        let second = scope.spawn(ask);
        (first.join(), second.join())
    });
    let (Ok(Ok(a)), Ok(Ok(b))) = (a, b) else {
        panic!("a thread asking for the distribution failed");
    };
    assert!(Arc::ptr_eq(&a, &b));
    let c = parse(" 30d20!!kh15[fire] ")
        .shared_distribution()
        .expect("odds");
    assert!(Arc::ptr_eq(&a, &c), "spaces and labels change no dice");
    assert_eq!(*a, dist("30d20!!kh15"));
    let other = parse("30d20!!kh14").shared_distribution().expect("odds");
    assert!(!Arc::ptr_eq(&a, &other));
}

/// Stops at its `at`-th check, counting the checks made.
struct StopAt {
    at: u32,
    checks: std::cell::Cell<u32>,
}

impl StopAt {
    fn new(at: u32) -> Self {
        StopAt {
            at,
            checks: std::cell::Cell::new(0),
        }
    }
}

impl Stop for StopAt {
    type Stopped = u32;

    fn check(&self) -> Result<(), u32> {
        let made = self.checks.get() + 1;
        self.checks.set(made);
        if made >= self.at { Err(made) } else { Ok(()) }
    }
}

#[test]
fn terms_of_the_same_dice_are_one_term() {
    assert_eq!(dist("3d6!+2d6!"), Dist::open_ended_sum(6, 5));
    assert_eq!(dist("2d4+3d4"), Dist::die(4).repeat_sum(5));
    let d = dist("1d6-1d6");
    assert_eq!(
        (d.min_value(), d.max_value(), d.p(0).exact()),
        (-5, 5, "1/6".to_string())
    );
}

#[test]
fn a_long_keep_stops_at_the_check_that_says_stop() {
    let stop = StopAt::new(5);
    assert_eq!(
        parse("100d100!!kh50").distribution_until(&stop),
        Err(OddsError::Stopped(5))
    );
    let stop = StopAt::new(u32::MAX);
    let n = parse("5d10!!kh3 - 2");
    assert_eq!(n.distribution_until(&stop).ok(), n.distribution().ok());
    assert!(stop.checks.get() > 5, "{} checks", stop.checks.get());
}

#[test]
fn cancelling_from_another_thread_stops_the_work() {
    /// A cancel handle that says when the work first asks it.
    struct Asked {
        cancel: Cancel,
        first: std::sync::mpsc::SyncSender<()>,
    }
    impl Stop for Asked {
        type Stopped = Abandoned;
        fn check(&self) -> Result<(), Abandoned> {
            let _ = self.first.try_send(());
            self.cancel.check()
        }
    }
    let cancel = Cancel::new();
    let (first, asked) = std::sync::mpsc::sync_channel(1);
    let stop = Asked {
        cancel: cancel.clone(),
        first,
    };
    let work = std::thread::spawn(move || parse("100d100!!kh50").distribution_until(&stop));
    assert_eq!(asked.recv(), Ok(()));
    cancel.cancel();
    let Ok(result) = work.join() else {
        panic!("the work panicked");
    };
    assert_eq!(result, Err(OddsError::Stopped(Abandoned)));
}

#[test]
fn a_shared_distribution_stopped_half_way_is_worked_out_by_the_next_asker() {
    let n = parse("12d10!!kh6 + 1");
    assert_eq!(
        n.shared_distribution_until(&StopAt::new(3)),
        Err(OddsError::Stopped(3))
    );
    let kept = n.shared_distribution().expect("odds");
    assert_eq!(*kept, dist("12d10!!kh6 + 1"));
    let cancelled = Cancel::new();
    cancelled.cancel();
    let again = n.shared_distribution_until(&cancelled).expect("kept");
    assert!(Arc::ptr_eq(&kept, &again));
}

#[test]
fn keeps_over_exploding_dice_count_each_explosion_as_a_die() {
    // 2d6!kh1: the highest single die, an explosion's 6 counting on its own.
    let d = dist("2d6!kh1");
    assert_eq!(d.max_value(), 6);
    // P(6) = 1 - (5/6)^2 = 11/36: any first throw a 6 (less what explodes past the cut).
    assert!((d.p(6).to_f64() - 11.0 / 36.0).abs() < 1e-13);
    // The big keeps still work, by the number of explosions.
    let big = dist("100d100!kh50");
    assert!(big.truncated().to_f64() < 1e-12);
    assert!((big.mean() - 3787.0).abs() < 50.0, "{}", big.mean());
    // Successes over exploding dice count each throw.
    assert_eq!(p("1d6!6>6", 0), "5/6");
    assert!(dist("2d4!>3").truncated().to_f64() < 1e-12);
    // Too large to follow: refused with the reason, not a wrong number.
    let e = parse("60d20!<2kh30").distribution().expect_err("too large");
    assert!(e.to_string().contains("more than"), "{e}");
}

#[test]
fn notations_are_capped_before_they_are_read() {
    let nested = |depth: usize| format!("{}1d6{}", "{".repeat(depth), "}".repeat(depth));
    assert!(Notation::parse(&nested(MAX_DEPTH)).is_ok());
    let too_deep = Notation::parse(&nested(MAX_DEPTH + 1)).expect_err("too deep");
    assert_eq!(
        (too_deep.position, too_deep.message.as_str()),
        (
            MAX_DEPTH,
            "groups, brackets and functions nest at most 8 deep"
        )
    );
    let attack = nested(5_300);
    let refused = Notation::parse(&attack).expect_err("too long");
    assert_eq!(
        refused.message,
        format!(
            "a notation has at most 256 characters (this one has {})",
            attack.len()
        )
    );
    let deep = format!("{}1", "(".repeat(255));
    assert_eq!(
        Notation::parse(&deep).map_err(|e| e.message),
        Err("groups, brackets and functions nest at most 8 deep".to_string())
    );
    let terms = vec!["1"; MAX_TERMS].join("+");
    assert!(Notation::parse(&terms).is_ok());
    assert_eq!(
        Notation::parse(&format!("{terms}+1")).map_err(|e| e.message),
        Err("a notation has at most 32 terms".to_string())
    );
}

#[test]
fn errors_point_at_the_character() {
    let cases = [
        ("3d6+x", 4),
        ("3d", 2),
        ("3d1", 2),
        ("3d101", 2),
        ("3d6kh4", 5),
        ("{d6,d6}kh3", 9),
        ("{d6,d6", 6),
        ("", 0),
        ("1d0", 2),
        ("2d6 2", 4),
        ("101d6", 0),
        ("2d6q", 3),
        ("flor(1d6)", 0),
        ("1d6[fire", 8),
    ];
    for (text, at) in cases {
        match Notation::parse(text) {
            Ok(n) => panic!("{text:?} parsed as {n:?}"),
            Err(e) => assert_eq!(e.position, at, "{text:?}: {e}"),
        }
    }
    let e = Notation::parse("3d6+x")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert_eq!(
        e,
        "bad dice notation at character 5: expected dice like 2d6, a number or a group {...}, found 'x'\n  3d6+x\n      ^"
    );
}

#[test]
fn target_and_failure_refusals_name_the_roll_or_the_group() {
    let cases = [
        ("3d6>4>5", 5, "a roll has one target number"),
        ("3d6>4f1f2", 7, "a roll has one failure number"),
        ("3d6>4f", 6, "expected the failing faces, like f1 or f<2"),
        (
            "3d6f1",
            0,
            "failures (f) are counted with a target number: 3d6>4f1",
        ),
        ("{3d6}>4>5", 7, "a group has one target number"),
        ("{3d6}>4f1f2", 9, "a group has one failure number"),
        ("{3d6}>4f", 8, "expected the failing totals, like f<10"),
        (
            "{3d6}f<5",
            0,
            "failures (f) are counted with a target number: {3d6+5}>15f<5",
        ),
    ];
    for (text, at, message) in cases {
        match Notation::parse(text) {
            Ok(n) => panic!("{text:?} parsed as {n:?}"),
            Err(e) => assert_eq!((e.position, e.message.as_str()), (at, message), "{text:?}"),
        }
    }
}

#[test]
fn odds_sum_to_one_and_report_what_is_cut() {
    for text in [
        "3d6!p",
        "4d10!>8",
        "5d10!kh3",
        "3d6r<2",
        "2d20ro1kh1",
        "{4d6+3d8}k4",
    ] {
        let d = dist(text);
        let total: BigUint = d.iter().map(|(_, w)| w.clone()).sum();
        let cut = d.truncated().to_f64();
        assert!(cut < 1e-12, "{text}: cut {cut}");
        assert!(total <= *d.denom(), "{text}");
    }
}

/// `count / total` in lowest terms, as [`crate::odds::dist::Prob::exact`] writes it.
fn fraction(count: u64, total: u64) -> String {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let g = gcd(count, total);
    match count {
        0 => "0".to_string(),
        c if c == total => "1".to_string(),
        c => format!("{}/{}", c / g, total / g),
    }
}

/// Every way `n` dice of `sides` can fall, each counted by `score`: how many ways give each
/// result (the test's own count, apart from the program's).
fn ways(n: u32, sides: u64, score: impl Fn(&[u64]) -> i64) -> BTreeMap<i64, u64> {
    let mut out = BTreeMap::new();
    let mut faces = vec![1u64; n as usize];
    loop {
        *out.entry(score(&faces)).or_insert(0) += 1;
        let mut i = 0;
        loop {
            if i == faces.len() {
                return out;
            }
            if faces[i] < sides {
                faces[i] += 1;
                break;
            }
            faces[i] = 1;
            i += 1;
        }
    }
}

/// Asserts the notation's exact distribution is the ways counted, over `total`.
fn assert_ways(text: &str, ways: &BTreeMap<i64, u64>) {
    let total: u64 = ways.values().sum();
    let d = dist(text);
    let got: Vec<(i64, String)> = d.iter().map(|(v, _)| (v, d.p(v).exact())).collect();
    let want: Vec<(i64, String)> = ways
        .iter()
        .map(|(v, w)| (*v, fraction(*w, total)))
        .collect();
    assert_eq!(got, want, "{text}");
}

#[test]
fn forms_roll20_accepts_are_read_as_roll20_reads_them() {
    // Several critical markers: 1d20cs20cs10 marks a 20 and a 10, and still a 1 as a failure.
    let n = parse("1d20cs20cs10");
    let critical = |face: u32| {
        n.evaluate(&[vec![face]])
            .map(|r| r.dice[0].critical)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    assert_eq!(
        [critical(20), critical(10), critical(15), critical(1)],
        [
            Some(Critical::Success),
            Some(Critical::Success),
            None,
            Some(Critical::Failure)
        ]
    );
    assert_ways("1d20cs20cs10", &ways(1, 20, |f| f[0] as i64));
    // The power: 1d4**2 squares the die; right to left, 2**3**2 is 2 to the 9th.
    assert_ways("1d4**2", &ways(1, 4, |f| (f[0] * f[0]) as i64));
    assert_eq!(p("2**3**2", 512), "1");
    assert_eq!(p("-2**2", -4), "1");
    assert_ways("2**1d4", &ways(1, 4, |f| 1 << f[0]));
    assert!(
        Notation::parse("2**(1d4-2)").is_err(),
        "a negative exponent"
    );
    // Counts and sides worked out from numbers.
    let two_d6 = ways(2, 6, |f| (f[0] + f[1]) as i64);
    assert_ways("(1+1)d6", &two_d6);
    assert_ways("2d(2+4)", &two_d6);
    assert_ways("(3-1)d(3*2)", &two_d6);
    assert!(Notation::parse("(1d2)d6").is_err(), "a count thrown");
    // No dice: nothing, as in Roll20.
    assert_eq!(p("0d6+3", 3), "1");
    assert_eq!(p("0d0", 0), "1");
    assert!(Notation::parse("1d0").is_err(), "a die of no sides");
    // A target no face meets counts 0, with a note showing the total's compare.
    let never = parse("2d6>8");
    assert_eq!(p("2d6>8", 0), "1");
    assert!(
        never.notes().iter().any(|n| n.contains("{2d6,0d0}>8")),
        "{:?}",
        never.notes()
    );
    assert!(parse("2d6>5").notes().is_empty());
}

#[test]
fn a_group_of_one_roll_with_a_target_counts_each_die() {
    // Roll20: "{3d20+5}>21 – roll 3 d20's, for each roll add 5 and then count a success for
    // each result of 21 or more".
    assert_ways(
        "{3d20+5}>21",
        &ways(3, 20, |f| f.iter().filter(|v| **v + 5 >= 21).count() as i64),
    );
    assert_ways(
        "{3d6+1}<3",
        &ways(3, 6, |f| f.iter().filter(|v| **v < 3).count() as i64),
    );
    // Mixed dice, counted by hand: a d6 meets 4+2 on 6 (1 in 6), a d8 on 6, 7, 8 (3 in 8).
    let d = dist("{2d6+1d8-2}>4");
    let (a, b) = (1.0 / 6.0, 3.0 / 8.0);
    let expect = [
        (1.0 - a) * (1.0 - a) * (1.0 - b),
        2.0 * a * (1.0 - a) * (1.0 - b) + (1.0 - a) * (1.0 - a) * b,
        a * a * (1.0 - b) + 2.0 * a * (1.0 - a) * b,
        a * a * b,
    ];
    for (k, want) in expect.iter().enumerate() {
        let got = d.p(k as i64).to_f64();
        assert!((got - want).abs() < 1e-15, "{k}: {got} against {want}");
    }
    // Exploding: each extra throw is a die of its own and counts on its own.
    let one_die = |p_meets: f64, p_explodes: f64| {
        // Successes of one exploding die, by a sum over how many times it explodes (the
        // exploding face meets the target here): k explosions, then a face that does not
        // explode, which meets the target with the chance left.
        let mut out = vec![0.0; 40];
        let p_stop_meets = p_meets - p_explodes;
        let p_stop_misses = 1.0 - p_meets;
        for k in 0..38usize {
            let reach = p_explodes.powi(k as i32);
            out[k] += reach * p_stop_misses;
            out[k + 1] += reach * p_stop_meets;
        }
        out
    };
    let convolve = |a: &[f64], b: &[f64]| {
        let mut out = vec![0.0; a.len() + b.len()];
        for (i, x) in a.iter().enumerate() {
            for (j, y) in b.iter().enumerate() {
                out[i + j] += x * y;
            }
        }
        out
    };
    let die = one_die(3.0 / 6.0, 1.0 / 6.0);
    let two = convolve(&die, &die);
    let d = dist("{2d6!}>4");
    for (k, want) in two.iter().enumerate().take(12) {
        let got = d.p(k as i64).to_f64();
        assert!(
            (got - want).abs() < 1e-13,
            "{{2d6!}}>4 {k}: {got} against {want}"
        );
    }
    // Compounding: each die's added throws reach 8 when the first is a 6 and the next is not a
    // 1 (6 + 2 or more): 1/6 × 5/6 = 5/36, five dice.
    let d = dist("{5d6!!}>8");
    for k in 0..=5i32 {
        let choose = [1.0, 5.0, 10.0, 10.0, 5.0, 1.0][k as usize];
        let want = choose * (5.0f64 / 36.0).powi(k) * (31.0f64 / 36.0).powi(5 - k);
        let got = d.p(i64::from(k)).to_f64();
        assert!((got - want).abs() < 1e-13, "{k}: {got} against {want}");
    }
    // A group whose dice can never count gets a note with Roll20's way to compare a total.
    let never = parse("{3d6+5}>15");
    assert_eq!(p("{3d6+5}>15", 0), "1");
    assert!(
        never.notes().iter().any(|n| n.contains("{3d6+5,0d0}>15")),
        "{:?}",
        never.notes()
    );
    // The idiom: a total compared, a check; 3d6 of 10 or more, counted by hand.
    let idiom = parse("{3d6+5,0d0}>15");
    let meets = ways(3, 6, |f| i64::from(f.iter().sum::<u64>() >= 10));
    assert_eq!(
        idiom.p_success().map(|p| p.exact()),
        Some(fraction(meets[&1], 216))
    );
    assert!(idiom.notes().is_empty());
    let r = idiom.evaluate(&[vec![6], vec![3], vec![1]]).expect("reads");
    assert_eq!(r.shown, "{(6★+3+1☠)+5, 0} = 15, success");
    // Read as Roll20: the thrown faces, each marked.
    let r = parse("{3d20+5}>21")
        .evaluate(&[vec![16], vec![15], vec![20]])
        .expect("reads");
    assert_eq!(r.total, 2);
    assert_eq!(
        r.dice.iter().map(|d| d.success).collect::<Vec<_>>(),
        [true, false, true]
    );
}

#[test]
fn matching_dice_are_shown_and_counted() {
    // Sets of at least `at_least` dice showing one value, counted by hand over every fall.
    let sets = |faces: &[u64], at_least: usize| {
        let mut by_value = BTreeMap::new();
        for f in faces {
            *by_value.entry(*f).or_insert(0usize) += 1;
        }
        by_value.values().filter(|n| **n >= at_least).count() as i64
    };
    assert_ways("2d6mt", &ways(2, 6, |f| sets(f, 2)));
    assert_eq!(p("2d6mt", 1), "1/6");
    assert_ways("4d6mt", &ways(4, 6, |f| sets(f, 2)));
    assert_ways("4d6mt3", &ways(4, 6, |f| sets(f, 3)));
    assert_ways("5d4mt", &ways(5, 4, |f| sets(f, 2)));
    // Rerolled 1s: each die is 2 to 6, alike.
    assert_ways("3d6r1mt", &ways(3, 5, |f| sets(f, 2)));
    // m shows the matches; the total is the sum.
    assert_ways("3d6m", &ways(3, 6, |f| f.iter().sum::<u64>() as i64));
    let r = parse("3d6m")
        .evaluate(&[vec![2], vec![5], vec![2]])
        .expect("reads");
    assert_eq!(r.total, 9);
    assert_eq!(
        r.dice.iter().map(|d| d.matched).collect::<Vec<_>>(),
        [true, false, true]
    );
    let r = parse("2d6mt").evaluate(&[vec![3], vec![3]]).expect("reads");
    assert_eq!((r.total, r.measure), (Total::whole(1), Measure::Matches));
    assert_eq!(r.shown, "(3≡+3≡) = 1 match");
    // What mt cannot be read with, refused with the reason.
    for (text, why) in [
        ("4d6mt>3", shape::MATCH_REFUSALS[0]),
        ("4d6kh3mt", shape::MATCH_REFUSALS[1]),
        ("4d6!mt", shape::MATCH_REFUSALS[2]),
    ] {
        let e = Notation::parse(text).expect_err(text);
        assert_eq!(e.message, why, "{text}");
    }
    assert!(Notation::parse("4d6m1").is_err(), "a match of one die");
}
