//! Chess's fast paths held to their plain twins, for the test suite and the fuzz targets
//! (`fuzz/`) alike: lichess's comments read at fixed offsets ([`commands::clock_and_eval`]'s
//! fast way, [`commands::lichess_comment`], [`commands::lichess_clock`]) against the general
//! scan of a comment's commands.
//!
//! Not part of the crate's interface: hidden from its documentation, and free to change.

use notation::differential::Disagreement;

use crate::commands::{self, Eval};

/// Reads `written`, a comment as written between its braces, every way there is, and
/// holds each fast way to the general scan of its commands (`[%clk]`, `[%clock]`,
/// `[%eval]` found one by one):
/// - [`commands::clock_and_eval`] of the comment's text (what is between the braces,
///   folded as the reader folds it, and as written);
/// - [`commands::lichess_comment`] of the comment as written, where it reads it: the text
///   it gives is the folded text, and its clock and evaluation are the scan's;
/// - [`commands::lichess_clock`] of its 16 bytes, when it has 16 and reads them: the
///   scan's clock, with no evaluation.
///
/// Returns whether a fast way read the comment (the general scan is then not looked at).
pub fn comment_agrees(written: &str) -> Result<bool, Disagreement> {
    let mut folded = String::new();
    let text = notation::collapsed(written, &mut folded);
    let mut fast = false;
    for comment in [text, written] {
        let scanned = commands::found_one_by_one(comment);
        fast |= commands::read_as_lichess_writes(comment);
        Disagreement::check(
            format_args!("the clock and evaluation of {comment:?}"),
            &commands::clock_and_eval(comment),
            &scanned,
        )?;
    }
    let scanned = commands::found_one_by_one(text);
    if let Some((lichess_text, clock, eval)) = commands::lichess_comment(written) {
        fast = true;
        Disagreement::check(
            format_args!("the text lichess_comment gives of {written:?}"),
            &lichess_text,
            &text,
        )?;
        Disagreement::check(
            format_args!("what lichess_comment reads in {written:?}"),
            &(clock, eval),
            &scanned,
        )?;
    }
    if let Ok(sixteen) = <&[u8; 16]>::try_from(written.as_bytes())
        && let Some(clock) = commands::lichess_clock(sixteen)
    {
        fast = true;
        Disagreement::check(
            format_args!("what lichess_clock reads in {written:?}"),
            &(Some(clock), None::<Eval>),
            &scanned,
        )?;
    }
    Ok(fast)
}
