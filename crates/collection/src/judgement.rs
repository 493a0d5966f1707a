//! What lichess reads into engine evaluations: each side's winning chances, the glyph of a
//! move that lowers its mover's (inaccuracy `?!`, mistake `?`, blunder `??`), and each
//! player's accuracy over a game.
//!
//! Scores are from White's side, in centipawns clamped to ±1000, a mate counting as the
//! clamp's end (lichess's conventions, `lichess-conventions.md` of the project's material).
//!
//! ```
//! use collection::judgement::{Judgement, judge};
//! use pgn::commands::Score;
//! // White goes from +0.30 to −2.50: a blunder.
//! let judged = judge(Score::Centipawns(30), Score::Centipawns(-250), true);
//! assert_eq!(judged, Some(Judgement::Blunder));
//! // Black lets a mate in 3 against it become a mate in 5: nothing lost.
//! assert_eq!(judge(Score::Mate(3), Score::Mate(5), false), None);
//! ```

use notation::{GameTree, LineId, Nag, NodeId};
use pgn::commands::Score;

use crate::rules::FormatRules;

/// Where centipawns are clamped, and what a mate counts as.
pub const CEILING: i32 = 1000;

/// The centipawns lichess takes for the start position, before White's first move.
pub const INITIAL_CENTIPAWNS: i32 = 15;

/// A score as centipawns for White, clamped to ±[`CEILING`], a mate for either side
/// counting as the clamp's end. `None` for `#0`, which says no side.
pub fn centipawns(score: Score) -> Option<i32> {
    match score {
        Score::Centipawns(cp) => Some(cp.clamp(-CEILING, CEILING)),
        Score::Mate(n) if n > 0 => Some(CEILING),
        Score::Mate(n) if n < 0 => Some(-CEILING),
        Score::Mate(_) => None,
    }
}

/// White's winning chances at `cp` centipawns (clamped), in [−1, 1]:
/// `2 / (1 + exp(−0.00368208 × cp)) − 1`.
pub fn winning_chances(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-CEILING, CEILING));
    2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0
}

/// White's win percentage at `cp` centipawns: `50 + 50 × winning chances`.
pub fn win_percent(cp: i32) -> f64 {
    50.0 + 50.0 * winning_chances(cp)
}

/// How bad a move was, by how much it lowered its mover's winning chances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// By at least 0.1: `?!`.
    Inaccuracy,
    /// By at least 0.2: `?`.
    Mistake,
    /// By at least 0.3: `??`.
    Blunder,
}

impl Judgement {
    /// The judgement of a fall of `drop` in the mover's winning chances, if it is one.
    pub fn of_drop(drop: f64) -> Option<Judgement> {
        if drop >= 0.3 {
            Some(Judgement::Blunder)
        } else if drop >= 0.2 {
            Some(Judgement::Mistake)
        } else if drop >= 0.1 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// Its glyph: `$6` (`?!`), `$2` (`?`) or `$4` (`??`).
    pub fn nag(self) -> Nag {
        Nag(match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        })
    }

    /// The word lichess says it with: `Inaccuracy`, `Mistake`, `Blunder`.
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }

    /// Whether the engine's better line is shown beside the move: for a mistake or a
    /// blunder.
    pub fn shows_better_line(self) -> bool {
        self >= Judgement::Mistake
    }
}

/// The judgement of a move by its mover (White when `white_moved`), from the scores (for
/// White) before and after it; `None` for a move that lost less than 0.1 of its mover's
/// winning chances, or when a score says no side (`#0`).
pub fn judge(before: Score, after: Score, white_moved: bool) -> Option<Judgement> {
    judge_centipawns(centipawns(before)?, centipawns(after)?, white_moved)
}

/// [`judge`], from centipawns for White.
pub fn judge_centipawns(before: i32, after: i32, white_moved: bool) -> Option<Judgement> {
    let for_mover = |cp: i32| {
        let chances = winning_chances(cp);
        if white_moved { chances } else { -chances }
    };
    Judgement::of_drop(for_mover(before) - for_mover(after))
}

/// A move's accuracy, in [0, 100], from its mover's win percentages before and after it:
/// `103.1668 × exp(−0.04354 × fall) − 3.1669`, plus the point lichess adds for the
/// uncertainty of its analysis, and 100 when nothing fell.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let fall = before - after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * fall).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Each player's accuracy over a game, as lichess gives it: the mean of a mean of the
/// moves' accuracies weighted by how volatile the game was around each move (the standard
/// deviation of the win percentages in a window of them, between 0.5 and 12) and their
/// harmonic mean.
///
/// `after_each_move` holds the centipawns for White after each move of the main line, the
/// first player's first; `white_first` says whether White made the first move. `None` for a
/// player with no move.
pub fn game_accuracy(white_first: bool, after_each_move: &[i32]) -> Accuracy {
    let wins: Vec<f64> = std::iter::once(INITIAL_CENTIPAWNS)
        .chain(after_each_move.iter().copied())
        .map(win_percent)
        .collect();
    let size = (after_each_move.len() / 10).clamp(2, 8);
    // As many windows as moves: the first ones repeat the first window.
    let first = &wins[..size.min(wins.len())];
    let repeated = size.min(wins.len()).saturating_sub(2);
    let windows = std::iter::repeat_n(first, repeated).chain(sliding(&wins, size));
    let weights = windows.map(|window| standard_deviation(window).clamp(0.5, 12.0));
    let mut by_player: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, weight)) in wins.windows(2).zip(weights).enumerate() {
        let white = (i % 2 == 0) == white_first;
        let (before, after) = (pair[0], pair[1]);
        // Each player's win percentage is 100 less White's.
        let accuracy = if white {
            move_accuracy(before, after)
        } else {
            move_accuracy(100.0 - before, 100.0 - after)
        };
        by_player[usize::from(!white)].push((accuracy, weight));
    }
    let of = |moves: &[(f64, f64)]| {
        let weighted = weighted_mean(moves)?;
        let harmonic = harmonic_mean(moves.iter().map(|&(a, _)| a))?;
        Some((weighted + harmonic) / 2.0)
    };
    Accuracy {
        white: of(&by_player[0]),
        black: of(&by_player[1]),
    }
}

/// The evaluations along a game's main line, gathered as its moves come, for each player's
/// accuracy ([`EvalsAlong::accuracy`]): what `json` gives and `stats` averages for games
/// analysed move by move (by lichess, by `notate annotate`).
///
/// ```
/// use collection::judgement::EvalsAlong;
/// let mut evals = EvalsAlong::default();
/// // White's first move loses a piece; Black's keeps the gain.
/// for (white, comment) in [(true, "[%eval -2.5]"), (false, "[%eval -2.6]")] {
///     evals.push_move(white);
///     evals.comments(&[comment.to_owned()]);
/// }
/// let accuracy = evals.accuracy(None).unwrap();
/// assert!(accuracy.white.unwrap() < 50.0);
/// assert_eq!(accuracy.black, Some(100.0));
/// ```
///
/// What it holds grows with the moves only while each has its evaluation: a game read
/// without its tree, however long, is not held move by move for nothing.
#[derive(Clone, Debug, Default)]
pub struct EvalsAlong {
    /// Whether White made the first move; `None` before it.
    white_first: Option<bool>,
    /// The centipawns for White after each move before the last.
    before_last: Vec<i32>,
    /// The last move's, if it has one; `None` before the first move.
    last: Option<Option<i32>>,
    /// Whether a move before the last had no evaluation.
    gap: bool,
}

impl EvalsAlong {
    /// A move of the main line, made by White when `white_moves`.
    pub fn push_move(&mut self, white_moves: bool) {
        self.white_first.get_or_insert(white_moves);
        match self.last.replace(None) {
            _ if self.gap => {}
            Some(Some(score)) => self.before_last.push(score),
            Some(None) => {
                self.gap = true;
                self.before_last = Vec::new();
            }
            None => {}
        }
    }

    /// The comments of the last move: its evaluation is the first `[%eval]` they hold.
    pub fn comments(&mut self, comments: &[String]) {
        if let Some(last @ None) = &mut self.last
            && !self.gap
        {
            *last = written_eval(comments).and_then(centipawns);
        }
    }

    /// Each player's accuracy, when every move of the main line has an evaluation: the
    /// last may go without one where the game is over, `over` giving White's centipawns
    /// there (a mate, a stalemate; no engine is asked about such a position). `None` for a
    /// line without moves, or with a move without an evaluation.
    pub fn accuracy(&self, over: Option<i32>) -> Option<Accuracy> {
        if self.gap {
            return None;
        }
        let white_first = self.white_first?;
        let last = self.last?.or(over)?;
        let mut scores = self.before_last.clone();
        scores.push(last);
        Some(game_accuracy(white_first, &scores))
    }
}

/// Each player's accuracy over a game's main line, by its moves' `[%eval]`
/// ([`EvalsAlong`]), played from what `start` gives (the position before the main line's
/// set-up, asked for only when the game is analysed); `None` for rules that judge no
/// accuracy and for a game without an evaluation after each move.
pub fn of_game<G: FormatRules>(
    rules: &G,
    game: &GameTree<G::Move>,
    start: impl FnOnce() -> Option<G::Position>,
) -> Option<Accuracy> {
    if !rules.judges_accuracy() {
        return None;
    }
    // A game not analysed move by move is told from its comments, without setting up its
    // start or playing it.
    let moves = &game.line(LineId::MAIN).moves;
    let before_last = moves.len().checked_sub(1)?;
    let unjudged = |id: &NodeId| {
        written_eval(&game.node(*id).comments)
            .and_then(centipawns)
            .is_none()
    };
    if moves[..before_last].iter().any(unjudged) {
        return None;
    }
    let start = start()?;
    let mut evals = EvalsAlong::default();
    let mut over = None;
    let mut nodes = moves.iter();
    crate::mainline::walk(rules, start, game, |position, mv| {
        match mv {
            Some(_) => {
                if let (Some(white), Some(&id)) = (rules.white_to_move(position), nodes.next()) {
                    evals.push_move(white);
                    evals.comments(&game.node(id).comments);
                }
            }
            None => over = rules.score_when_over(position),
        }
        true
    });
    evals.accuracy(over)
}

/// The evaluation the comments of a move hold: their first `[%eval]`.
pub fn written_eval(comments: &[String]) -> Option<Score> {
    comments
        .iter()
        .find_map(|c| pgn::commands::clock_and_eval(c).1)
        .map(|eval| eval.score)
}

/// Each player's accuracy over a game, in [0, 100] ([`game_accuracy`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Accuracy {
    /// White's, if White moved.
    pub white: Option<f64>,
    /// Black's, if Black moved.
    pub black: Option<f64>,
}

/// The windows of `size` values in turn; all of them as one when fewer.
fn sliding(values: &[f64], size: usize) -> impl Iterator<Item = &[f64]> {
    let whole = (values.len() < size).then_some(values);
    values.windows(size.max(1)).chain(whole)
}

/// The population standard deviation; 0 for no values.
fn standard_deviation(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

fn weighted_mean(values: &[(f64, f64)]) -> Option<f64> {
    let (sum, weights) = values.iter().fold((0.0, 0.0), |(s, w), &(v, weight)| {
        (s + v * weight, w + weight)
    });
    (weights != 0.0).then(|| sum / weights)
}

/// The harmonic mean, each value taken as at least 1 (an accuracy of 0 would make it 0
/// whatever the others).
fn harmonic_mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (n, inverses) = values.fold((0usize, 0.0), |(n, s), v| (n + 1, s + 1.0 / v.max(1.0)));
    (n > 0).then(|| n as f64 / inverses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_chances_are_lichess_s_logistic_curve() {
        assert_eq!(winning_chances(0), 0.0);
        assert!((winning_chances(100) - 0.182_052).abs() < 1e-6);
        assert!((winning_chances(-100) + 0.182_052).abs() < 1e-6);
        // Clamped at a thousand centipawns.
        assert_eq!(winning_chances(5000), winning_chances(1000));
        assert!((win_percent(1000) - 97.55).abs() < 0.01);
    }

    /// The glyph follows from the fall in the mover's winning chances: at least 0.1, 0.2
    /// and 0.3; for either mover, and with mates both ways.
    #[test]
    fn judgements_follow_from_the_fall_in_winning_chances() {
        use Judgement::*;
        use Score::{Centipawns as Cp, Mate};
        let cases = [
            // (before, after, White moved, judgement)
            (Cp(0), Cp(0), true, None),
            (Cp(30), Cp(-250), true, Some(Blunder)),
            (Cp(30), Cp(-250), false, None),
            (Cp(-250), Cp(30), false, Some(Blunder)),
            // 0 → −56: a fall of 0.1024, an inaccuracy; −54 falls 0.0988, nothing.
            (Cp(0), Cp(-56), true, Some(Inaccuracy)),
            (Cp(0), Cp(-54), true, None),
            // 0 → −115: 0.2098, a mistake; −105: 0.1920, an inaccuracy.
            (Cp(0), Cp(-115), true, Some(Mistake)),
            (Cp(0), Cp(-105), true, Some(Inaccuracy)),
            // 0 → −170: 0.3032, a blunder; −160: 0.2860, a mistake.
            (Cp(0), Cp(-170), true, Some(Blunder)),
            (Cp(0), Cp(-160), true, Some(Mistake)),
            // White had a mate and lets it go for an even game: a blunder.
            (Mate(3), Cp(0), true, Some(Blunder)),
            // White, mating, mates more slowly: the clamp's end both times.
            (Mate(2), Mate(6), true, None),
            // Black walks into a mate from an even game.
            (Cp(0), Mate(4), false, Some(Blunder)),
            // Black, being mated anyway, is mated sooner: nothing lost.
            (Mate(5), Mate(1), false, None),
            // Black escapes a mate against it.
            (Mate(2), Cp(0), false, None),
            // White, winning by 8 pawns, turns it into a mate against itself.
            (Cp(800), Mate(-3), true, Some(Blunder)),
            // Far ahead, a pawn given back is nothing (the curve is flat there).
            (Cp(900), Cp(800), true, None),
            (Mate(0), Cp(0), true, None),
        ];
        for (before, after, white, expected) in cases {
            assert_eq!(
                judge(before, after, white),
                expected,
                "{before:?} → {after:?}, White moved: {white}"
            );
        }
    }

    #[test]
    fn judgements_have_their_glyphs() {
        assert_eq!(Judgement::Inaccuracy.nag(), Nag(6));
        assert_eq!(Judgement::Mistake.nag(), Nag(2));
        assert_eq!(Judgement::Blunder.nag(), Nag(4));
        assert!(!Judgement::Inaccuracy.shows_better_line());
        assert!(Judgement::Mistake.shows_better_line());
    }

    #[test]
    fn move_accuracy_falls_with_the_win_percentage() {
        assert_eq!(move_accuracy(50.0, 60.0), 100.0);
        // No fall: the fitted curve gives 100, and the point for uncertainty is clamped.
        assert_eq!(move_accuracy(50.0, 50.0), 100.0);
        assert!((move_accuracy(60.0, 50.0) - 64.579_83).abs() < 1e-4);
        assert!((move_accuracy(80.0, 50.0) - 25.772_05).abs() < 1e-4);
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn a_game_without_a_loss_is_accurate_for_both() {
        // Both sides keep the start's evaluation.
        let accuracy = game_accuracy(true, &[15; 20]);
        assert_eq!(accuracy.white, Some(100.0));
        assert_eq!(accuracy.black, Some(100.0));
        assert_eq!(game_accuracy(true, &[]), Accuracy::default());
        let one = game_accuracy(true, &[15]);
        assert_eq!((one.white, one.black), (Some(100.0), None));
    }

    #[test]
    fn a_blunder_costs_its_player_only() {
        // Black blunders at its third move: White's accuracy stays 100.
        let mut evals = vec![20, 15, 25, 20, 30, 600];
        evals.extend([620, 610, 640, 630]);
        let accuracy = game_accuracy(true, &evals);
        assert_eq!(accuracy.white, Some(100.0));
        let black = accuracy.black.expect("Black moved");
        assert!(black < 80.0, "{black}");
        // The same game begun by Black (a game from a position with Black to move) puts
        // the blunder on White.
        let swapped = game_accuracy(false, &evals.iter().map(|cp| -cp).collect::<Vec<_>>());
        assert_eq!(swapped.black, Some(100.0));
        let white = swapped.white.expect("White moved");
        assert!((white - black).abs() < 1e-9);
    }

    /// lichess's weights: windows of a tenth of the game's moves (2 to 8), the first ones
    /// repeated, one per move.
    #[test]
    fn there_is_a_window_for_each_move() {
        for moves in [1usize, 2, 3, 9, 10, 25, 100] {
            let wins: Vec<f64> = (0..=moves).map(|i| i as f64).collect();
            let size = (moves / 10).clamp(2, 8);
            let repeated = size.min(wins.len()).saturating_sub(2);
            let windows = repeated + sliding(&wins, size).count();
            assert_eq!(windows, moves, "{moves} moves");
        }
    }

    fn gathered(moves: &[(bool, &str)]) -> EvalsAlong {
        let mut evals = EvalsAlong::default();
        for &(white, comment) in moves {
            evals.push_move(white);
            evals.comments(&[comment.to_owned()]);
        }
        evals
    }

    #[test]
    fn accuracy_needs_an_evaluation_after_each_move() {
        let whole = gathered(&[(true, "[%eval 0.2]"), (false, "[%clk 0:01:00] [%eval 0.1]")]);
        assert_eq!(
            whole.accuracy(None),
            Some(game_accuracy(true, &[20, 10])),
            "read wherever it stands in the comment"
        );
        let gap = gathered(&[
            (true, "[%eval 0.2]"),
            (false, "fine"),
            (true, "[%eval 0.1]"),
        ]);
        assert_eq!(gap.accuracy(Some(0)), None);
        // `#0` says no side: no score.
        let no_side = gathered(&[(true, "[%eval #0]"), (false, "[%eval 0.1]")]);
        assert_eq!(no_side.accuracy(None), None);
        assert_eq!(EvalsAlong::default().accuracy(Some(0)), None, "no move");
    }

    #[test]
    fn the_last_move_may_end_the_game_without_an_evaluation() {
        let mated = gathered(&[(false, "[%eval 3.5]"), (true, "")]);
        assert_eq!(mated.accuracy(None), None, "the game goes on");
        assert_eq!(
            mated.accuracy(Some(CEILING)),
            Some(game_accuracy(false, &[350, CEILING]))
        );
        // A mate in N counts as the clamp's end, as the game's end does.
        let mating = gathered(&[(false, "[%eval 3.5]"), (true, "[%eval #2]")]);
        assert_eq!(mating.accuracy(None), mated.accuracy(Some(CEILING)));
    }
}
