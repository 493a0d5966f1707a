//! UCI's `info` lines read into what they carry.

use crate::Score;

/// What one UCI `info` line carries of what an analysis keeps. A line updates only what it
/// gives: an engine may send the depth, the score and the principal variation on separate
/// lines, and the latest of each is the search's.
///
/// Tokens that do not read (a keyword without its value, a number that is not one) are
/// passed over, whatever the engine printed.
///
/// ```
/// use engine::{Info, Score};
///
/// let line = "info depth 10 seldepth 13 multipv 1 score cp 31 lowerbound nodes 20024 pv e2e4 e7e5";
/// let info = Info::parse(line).expect("an info line");
/// assert_eq!(info.depth, Some(10));
/// assert_eq!(info.score, Some(Score::Centipawns(31)));
/// assert_eq!(info.nodes, Some(20024));
/// assert_eq!(info.pv, Some(vec!["e2e4".to_owned(), "e7e5".to_owned()]));
///
/// // A malformed line gives what it can: here nothing.
/// assert_eq!(Info::parse("info depth x score mate"), Some(Info::default()));
/// assert_eq!(Info::parse("bestmove e2e4"), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`: the depth searched, in plies.
    pub depth: Option<u32>,
    /// `nodes`: the nodes searched so far.
    pub nodes: Option<u64>,
    /// `score cp N` or `score mate N`, a bound (`lowerbound`, `upperbound`) taken as given.
    pub score: Option<Score>,
    /// `pv`: the principal variation, the rest of the line; `None` when the line gives no
    /// move after `pv`.
    pub pv: Option<Vec<String>>,
    /// `multipv`: which of several principal variations the line is about (1 is the best).
    pub multipv: Option<u32>,
}

impl Info {
    /// Reads a line as an `info` line, or gives `None` when it is another line.
    pub fn parse(line: &str) -> Option<Info> {
        let mut tokens = line.split_ascii_whitespace();
        if tokens.next() != Some("info") {
            return None;
        }
        let mut info = Info::default();
        // A keyword whose value does not read is passed over; its value, if any, is then
        // taken as the next keyword and passed over as an unknown one.
        let mut tokens = tokens.peekable();
        while let Some(keyword) = tokens.next() {
            match keyword {
                "depth" => info.depth = read_number(&mut tokens).or(info.depth),
                "nodes" => info.nodes = read_number(&mut tokens).or(info.nodes),
                "multipv" => info.multipv = read_number(&mut tokens).or(info.multipv),
                "score" => info.score = read_score(&mut tokens).or(info.score),
                "pv" => {
                    let pv: Vec<String> = tokens.by_ref().map(str::to_owned).collect();
                    if !pv.is_empty() {
                        info.pv = Some(pv);
                    }
                }
                // What follows is free text, or moves of another line than the principal one.
                "string" | "refutation" | "currline" => break,
                _ => {}
            }
        }
        Some(info)
    }
}

/// The next token as a number, consumed only if it is one.
fn read_number<'a, T: std::str::FromStr>(
    tokens: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
) -> Option<T> {
    let number = tokens.peek()?.parse().ok()?;
    tokens.next();
    Some(number)
}

/// `cp N` or `mate N` after `score`, consumed as far as it reads.
fn read_score<'a>(
    tokens: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
) -> Option<Score> {
    let kind = *tokens.peek()?;
    if kind != "cp" && kind != "mate" {
        return None;
    }
    tokens.next();
    let value: i32 = read_number(tokens)?;
    Some(if kind == "cp" {
        Score::Centipawns(value)
    } else {
        Score::Mate(value)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Info {
        Info::parse(line).expect("an info line")
    }

    #[test]
    fn a_full_line_of_stockfish() {
        let info = parse(
            "info depth 9 seldepth 9 multipv 1 score cp -31 nodes 8541 nps 610071 hashfull 5 tbhits 0 time 14 pv g1f3 c7c5",
        );
        assert_eq!(
            info,
            Info {
                depth: Some(9),
                nodes: Some(8541),
                score: Some(Score::Centipawns(-31)),
                pv: Some(vec!["g1f3".into(), "c7c5".into()]),
                multipv: Some(1),
            }
        );
    }

    #[test]
    fn mates_both_ways_and_mated_now() {
        assert_eq!(parse("info score mate 3").score, Some(Score::Mate(3)));
        assert_eq!(parse("info score mate -2").score, Some(Score::Mate(-2)));
        assert_eq!(
            parse("info depth 0 score mate 0"),
            Info {
                depth: Some(0),
                score: Some(Score::Mate(0)),
                ..Info::default()
            }
        );
    }

    #[test]
    fn bounds_are_taken_as_scores() {
        assert_eq!(
            parse("info depth 8 score cp -24 upperbound nodes 1001").score,
            Some(Score::Centipawns(-24))
        );
    }

    #[test]
    fn malformed_tokens_are_passed_over() {
        assert_eq!(parse("info score cp"), Info::default());
        assert_eq!(parse("info pv"), Info::default());
        assert_eq!(parse("info depth x score mate"), Info::default());
        assert_eq!(parse("info score cp 99999999999 nodes -3"), Info::default());
        // The keyword after a value that does not read is still read.
        assert_eq!(parse("info depth nodes 12").nodes, Some(12));
        assert_eq!(
            parse("info score centipawns 5 depth 4 score mate"),
            Info {
                depth: Some(4),
                ..Info::default()
            }
        );
    }

    #[test]
    fn free_text_carries_nothing() {
        assert_eq!(parse("info string depth 5 score cp 3"), Info::default());
        assert_eq!(Info::parse("infos depth 5"), None);
        assert_eq!(Info::parse(""), None);
    }
}
