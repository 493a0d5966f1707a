//! Perft counts from the start positions.
//!
//! The published counts must match exactly: the project's reference table
//! (International, English, Russian, Brazilian, Italian, Spanish, Pool,
//! Canadian, Frisian with duplicate captures kept, Turkish) and further
//! counts from the perft threads of the FMJD and shashki.com forums as
//! tabulated in the dctl library's tests (deeper 8×8 counts, Czech, Thai
//! rules from the usual three-row start, Frisian with duplicates merged,
//! 14×14, and positions with kings). Counts up to about a million nodes run
//! with `cargo test`; deeper ones are `#[ignore]`d (run them with
//! `cargo test --release -p pdn --test perft -- --ignored`).

use pdn::perft::{Duplicates, count_with};
use pdn::{Position, Variant};

fn check(variant: Variant, expected: &[(u32, u64)]) {
    let pos = Position::new(variant);
    for &(depth, nodes) in expected {
        assert_eq!(pos.perft(depth), nodes, "{variant} perft({depth})");
    }
}

fn from_one(counts: &[u64]) -> Vec<(u32, u64)> {
    (1..).zip(counts.iter().copied()).collect()
}

#[test]
fn international() {
    check(
        Variant::International,
        &from_one(&[9, 81, 658, 4265, 27117, 167140, 1049442]),
    );
}

#[test]
#[ignore = "6.5 and 41 million nodes"]
fn international_deep() {
    check(Variant::International, &[(8, 6483961), (9, 41022423)]);
}

#[test]
fn english() {
    check(
        Variant::English,
        &from_one(&[7, 49, 302, 1469, 7361, 36768, 179740, 845931]),
    );
}

#[test]
fn russian() {
    check(
        Variant::Russian,
        &from_one(&[7, 49, 302, 1469, 7482, 37986, 190146, 929899]),
    );
}

#[test]
fn brazilian() {
    check(
        Variant::Brazilian,
        &from_one(&[7, 49, 302, 1469, 7473, 37628, 187302, 907830]),
    );
}

#[test]
fn italian() {
    check(
        Variant::Italian,
        &from_one(&[7, 49, 302, 1469, 7361, 36473, 177532, 828783]),
    );
}

#[test]
fn spanish() {
    check(Variant::Spanish, &[(6, 36473), (7, 177532), (8, 828783)]);
}

#[test]
fn pool() {
    // Differs from Russian at depth 8 only because a man passing the far
    // row mid-capture is not crowned in pool.
    check(Variant::Pool, &[(5, 7482), (8, 929896)]);
}

#[test]
fn canadian() {
    check(
        Variant::Canadian,
        &from_one(&[11, 121, 1222, 10053, 79049, 584100]),
    );
}

#[test]
fn frisian_with_duplicates() {
    check(
        Variant::Frisian,
        &from_one(&[9, 81, 658, 3880, 21345, 103584, 550314]),
    );
}

#[test]
fn turkish() {
    check(Variant::Turkish, &from_one(&[8, 64, 708, 7538, 85090]));
}

#[test]
#[ignore = "4 to 41 million nodes"]
fn eight_by_eight_deep() {
    check(Variant::English, &[(9, 3963680)]);
    check(Variant::Russian, &[(9, 4570586)]);
    check(Variant::Brazilian, &[(9, 4431766)]);
    check(Variant::Pool, &[(9, 4570534)]);
    check(Variant::Czech, &[(9, 3963671)]);
    check(Variant::Spanish, &[(9, 3860866)]);
    check(Variant::Italian, &[(9, 3860875)]);
    check(Variant::Canadian, &[(7, 4369366), (8, 31839056)]);
}

#[test]
fn czech() {
    // Equal to English until kings appear; a king capture first differs at 9.
    check(
        Variant::Czech,
        &from_one(&[7, 49, 302, 1469, 7361, 36768, 179740, 845931]),
    );
}

#[test]
fn thai_rules_from_three_rows() {
    // Thai rules from the usual 8x8 start (3 rows each), as published.
    let counts = [7, 49, 302, 1469, 7361, 36768, 179740, 845931];
    check_fen(Variant::Thai, "B:W1-12:B21-32", Duplicates::Merge, &counts);
}

#[test]
#[ignore = "4 million nodes"]
fn thai_rules_from_three_rows_deep() {
    let pos = Position::from_fen_str(Variant::Thai, "B:W1-12:B21-32").expect("fen");
    assert_eq!(pos.perft(9), 3963648);
}

#[test]
fn frisian_with_duplicates_merged() {
    let counts = [9, 81, 658, 3874, 21265, 102431, 540126];
    check_fen(
        Variant::Frisian,
        "W:W31-50:B1-20",
        Duplicates::Merge,
        &counts,
    );
}

#[test]
fn international_rules_on_14x14() {
    let gt = pdn::GameType::parse("20,W,14,14,N2,0").expect("14x14");
    let pos = Position::start(gt);
    for (depth, nodes) in (1..).zip([13, 169, 2042, 20513, 195333]) {
        assert_eq!(pos.perft(depth), nodes, "14x14 perft({depth})");
    }
}

/// Counts computed by this crate for variants without published numbers;
/// they guard against regressions but are not independently verified.
#[test]
fn unverified_regressions() {
    check(
        Variant::Portuguese,
        &from_one(&[7, 49, 302, 1469, 7361, 36473, 177532, 828783]),
    );
    check(Variant::Thai, &from_one(&[7, 49, 392, 3136, 26592, 218695]));
    check(
        Variant::Spantsiretti,
        &from_one(&[9, 81, 658, 4265, 27132, 168316]),
    );
    check(Variant::Turkish, &[(6, 931312)]);
}

fn check_fen(variant: Variant, fen: &str, duplicates: Duplicates, counts: &[u64]) {
    let pos = Position::from_fen_str(variant, fen).expect(fen);
    for (depth, &nodes) in (1..).zip(counts) {
        assert_eq!(
            count_with(&pos, depth, duplicates),
            nodes,
            "{variant} {fen} perft({depth})"
        );
    }
}

/// Positions with kings from the perft thread of the FMJD forum
/// (laatste.info), as tabulated in the test suite of the dctl library.
const RANDOM178: &str = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46";
const WOLDOUBY: &str = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38";

#[test]
fn international_positions() {
    check_fen(
        Variant::International,
        RANDOM178,
        Duplicates::Merge,
        &[14, 55, 1168, 5432, 87195, 629010],
    );
    check_fen(
        Variant::International,
        WOLDOUBY,
        Duplicates::Merge,
        &[6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050, 377436],
    );
}

#[test]
#[ignore = "9 million nodes and more"]
fn international_positions_deep() {
    check_fen(
        Variant::International,
        RANDOM178,
        Duplicates::Merge,
        &[14, 55, 1168, 5432, 87195, 629010, 9041010, 86724219],
    );
    check_fen(
        Variant::International,
        WOLDOUBY,
        Duplicates::Merge,
        &[
            6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050, 377436, 1910989, 9872645,
        ],
    );
}

/// Ed Gilbert's Italian positions (from the same source), counted with
/// duplicate captures kept as published.
const GILBERT1: &str = "W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3";
const GILBERT2: &str = "B:W30,21,22,17,20,K6:B25,28,9,5,1,3";

#[test]
fn italian_positions() {
    check_fen(
        Variant::Italian,
        GILBERT1,
        Duplicates::Keep,
        &[
            5, 13, 42, 107, 360, 1099, 3736, 12495, 43686, 164177, 628686,
        ],
    );
    check_fen(
        Variant::Italian,
        GILBERT2,
        Duplicates::Keep,
        &[6, 47, 271, 1916, 10810, 73137, 389809],
    );
    // Merging the duplicate captures removes four leaves at depth 10.
    let pos = Position::from_fen_str(Variant::Italian, GILBERT1).expect("fen");
    assert_eq!(pos.perft(10), 164173);
}

#[test]
#[ignore = "2.5 million nodes and more"]
fn italian_positions_deep() {
    check_fen(
        Variant::Italian,
        GILBERT2,
        Duplicates::Keep,
        &[6, 47, 271, 1916, 10810, 73137, 389809, 2469050, 12803372],
    );
}

#[test]
fn divide_sums_to_perft() {
    for variant in Variant::ALL {
        let pos = Position::new(variant);
        let divided = pdn::perft::divide(&pos, 3);
        assert_eq!(
            divided.iter().map(|(_, n)| n).sum::<u64>(),
            pos.perft(3),
            "{variant}"
        );
    }
}
