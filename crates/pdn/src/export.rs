//! Writing PDN: the export options of PDN 3.0.

use notation::WriteOptions;

/// The PDN "mandatory" tags (pdntags.rst) in their order, with the values written when a
/// game has none: `Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`.
pub const PDN_ROSTER: &[(&str, &str)] = &[
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// How [`notation::write_game`] writes PDN 3.0: the [`PDN_ROSTER`] first, lines of fewer
/// than 80 characters, move strengths glued to their moves (`32-28!`, never `32-28 !`)
/// and the other glyphs as `$n` (a forced move is `$7`, never `*`, which ends a game).
///
/// With [`DraughtsRules`](crate::DraughtsRules) rules, moves are written in their shortest
/// PDN 3.0 form with the game type's capture separator, and the result in the game
/// type's own tokens (`2-0`, `0-2`, `1-1` in international draughts).
pub const PDN_WRITE: WriteOptions = WriteOptions {
    line_width: 80,
    suffix_symbols: true,
    reduced: false,
    variations: true,
    roster: PDN_ROSTER,
};
