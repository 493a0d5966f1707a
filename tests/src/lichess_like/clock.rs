//! The clocks of a game: what each player has left after each of their moves, in whole
//! seconds, as lichess's `[%clk]` comments give it. The first move of each side costs
//! nothing (lichess starts a clock at its side's second move); book moves are quick, the
//! middle game slower; the increment is added after each move. A player who loses on time
//! ends with next to nothing; no one else runs out.

use crate::Rng;

/// A clock: seconds at the start and added after each move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Seconds at the start.
    pub base: u32,
    /// Seconds added after each move.
    pub increment: u32,
}

impl Clock {
    /// The seconds left after each of `plies` plies (White moves first), `book_plies` of
    /// them quick; `flagged` says whether the side to move after the last ply (White when
    /// `plies` is even) is the one who loses on time, whose clock then ends near zero.
    pub fn run(self, rng: &mut Rng, plies: usize, book_plies: usize, flagged: bool) -> Vec<u32> {
        let mut left = vec![0u32; plies];
        let to_move = plies % 2;
        for side in 0..2 {
            let plies_of_side: Vec<usize> = (side..plies).step_by(2).collect();
            let thinking = self.thinking(rng, &plies_of_side, book_plies);
            let target = if flagged && side == to_move {
                Some(rng.unit() * (f64::from(self.base) / 20.0).min(5.0))
            } else {
                None
            };
            let scale = self.scale(&thinking, target);
            let mut spent = 0.0;
            for (k, (&ply, &think)) in plies_of_side.iter().zip(&thinking).enumerate() {
                spent += think * scale;
                let added = if k == 0 {
                    0.0
                } else {
                    f64::from(self.increment) * k as f64
                };
                let mut seconds = (f64::from(self.base) + added - spent).max(0.0);
                if let Some(target) = target
                    && k > 0
                    && k + 1 == plies_of_side.len()
                {
                    // A long think on the last move, whatever the increments gave back.
                    seconds = seconds.min(target);
                }
                if let Some(slot) = left.get_mut(ply) {
                    *slot = seconds.floor() as u32;
                }
            }
        }
        left
    }

    /// The seconds each move of a side takes before scaling: nothing for the first, a
    /// little for book moves, more later, spread widely with now and then a long think.
    fn thinking(self, rng: &mut Rng, plies: &[usize], book_plies: usize) -> Vec<f64> {
        // Spread so that a game of 35 moves each uses about 70% of the time it had.
        let per_move = f64::from(self.base + 40 * self.increment) / 70.0;
        plies
            .iter()
            .enumerate()
            .map(|(k, &ply)| {
                if k == 0 {
                    return 0.0;
                }
                let phase = if ply < book_plies {
                    0.15
                } else if ply < 30 {
                    0.7
                } else {
                    1.2
                };
                let long = if rng.one_in(25) { 4.0 } else { 1.0 };
                per_move * phase * long * (0.8 * rng.normal()).exp()
            })
            .collect()
    }

    /// The factor on a side's thinking times: the one that brings its lowest clock to
    /// `target` seconds (the last one is then brought there too), or at most 1 that keeps
    /// it at two seconds or more.
    fn scale(self, thinking: &[f64], target: Option<f64>) -> f64 {
        let mut spent = 0.0;
        let mut limit = f64::INFINITY;
        let floor = target.unwrap_or(2.0);
        for (k, think) in thinking.iter().enumerate() {
            spent += think;
            if spent <= 0.0 {
                continue;
            }
            let added = f64::from(self.increment) * k as f64;
            let room = (f64::from(self.base) + added - floor).max(0.0);
            limit = limit.min(room / spent);
        }
        match target {
            Some(_) if limit.is_finite() => limit,
            _ => limit.min(1.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_go_down_with_thinking_and_up_with_increments_and_a_flag_ends_near_zero() {
        let mut rng = Rng::stream(9, 0);
        for (base, increment) in [(15, 0), (60, 0), (180, 2), (600, 5), (1800, 20)] {
            let clock = Clock { base, increment };
            for plies in [1, 2, 9, 40, 81, 200] {
                for flagged in [false, true] {
                    let left = clock.run(&mut rng, plies, 8, flagged);
                    assert_eq!(left.len(), plies);
                    // The first move of each side costs nothing.
                    assert!(left.iter().take(2).all(|&s| s == base), "{left:?}");
                    for (ply, &seconds) in left.iter().enumerate() {
                        assert!(seconds <= base + increment * (ply as u32 / 2), "{left:?}");
                    }
                    if !flagged {
                        assert!(left.iter().all(|&s| s >= 1), "{left:?}");
                    }
                    let to_move = plies % 2;
                    let last = left.iter().skip(to_move).step_by(2).next_back().copied();
                    if flagged && plies > 4 {
                        let most = (base / 20).min(5);
                        assert!(
                            last.is_some_and(|s| s <= most),
                            "{base}+{increment}: {left:?}"
                        );
                    }
                }
            }
        }
    }
}
