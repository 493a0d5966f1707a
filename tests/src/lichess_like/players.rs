//! The pool of players: a name each, a base rating of N(1500, 350) clamped to 600..3000,
//! and an activity (a few play very many games, most a few). A game pairs a player drawn by
//! activity with one of a similar rating.

use std::collections::HashSet;

use crate::Rng;
use crate::lichess_like::names;

/// A player of the pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The user name.
    pub name: String,
    /// The base rating; a game's rating differs from it by up to 50 points.
    pub rating: u16,
}

/// The lowest and highest base ratings.
const RATINGS: (f64, f64) = (600.0, 3000.0);

/// The players, sorted by rating, and what a draw by activity looks up.
#[derive(Clone, Debug)]
pub struct Players {
    /// By rating, then by the order they were made in.
    players: Vec<Player>,
    /// The running sums of the players' activities, in the order of `players`.
    activity: Vec<u64>,
}

impl Players {
    /// `count` players (at least 2) with distinct names.
    pub fn new(rng: &mut Rng, count: usize) -> Players {
        let count = count.max(2);
        let mut seen = HashSet::with_capacity(count);
        let mut players = Vec::with_capacity(count);
        while players.len() < count {
            let name = names::name(rng);
            if !seen.insert(name.clone()) {
                continue;
            }
            let rating = (1500.0 + 350.0 * rng.normal()).clamp(RATINGS.0, RATINGS.1);
            players.push(Player {
                name,
                rating: rating.round() as u16,
            });
        }
        players.sort_by_key(|p| p.rating);
        let mut total = 0u64;
        let activity = players
            .iter()
            .map(|_| {
                // A Pareto tail: most players weigh 1 to 3, a few hundreds.
                let u = 1.0 - rng.unit();
                total += (u.powf(-1.1)).min(1000.0).round() as u64;
                total
            })
            .collect();
        Players { players, activity }
    }

    /// A pairing, White first: one player drawn by activity, the other among the players
    /// closest to a rating near theirs, colours at random.
    pub fn pair(&self, rng: &mut Rng) -> (&Player, &Player) {
        let total = self.activity.last().copied().unwrap_or(0).max(1);
        let ticket = rng.next_u64() % total;
        let first = self.activity.partition_point(|&sum| sum <= ticket);
        let first = first.min(self.players.len() - 1);
        let rating = f64::from(self.players[first].rating) + 60.0 * rng.normal();
        let near = self
            .players
            .partition_point(|p| f64::from(p.rating) < rating);
        let spread = 40;
        let second = (near + rng.below(2 * spread + 1))
            .saturating_sub(spread)
            .min(self.players.len() - 1);
        let second = if second == first {
            if first + 1 < self.players.len() {
                first + 1
            } else {
                first - 1
            }
        } else {
            second
        };
        let (a, b) = (&self.players[first], &self.players[second]);
        if rng.one_in(2) { (a, b) } else { (b, a) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_has_distinct_names_and_ratings_around_1500() {
        let pool = Players::new(&mut Rng::stream(5, 0), 5000);
        let names: HashSet<&str> = pool.players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names.len(), 5000);
        assert!(names.iter().any(|n| !n.is_ascii()), "no accented name");
        assert!(names.iter().all(|n| !n.contains(['"', '\\', ' '])));
        let ratings: Vec<f64> = pool.players.iter().map(|p| f64::from(p.rating)).collect();
        let mean = ratings.iter().sum::<f64>() / 5000.0;
        let sd = (ratings.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / 5000.0).sqrt();
        assert!(
            (1450.0..1550.0).contains(&mean) && (300.0..400.0).contains(&sd),
            "{mean} {sd}"
        );
        assert!(ratings.iter().all(|r| (600.0..=3000.0).contains(r)));
        // Pairs are of similar ratings, and some players play many more games.
        let mut rng = Rng::stream(5, 1);
        let mut gaps = Vec::new();
        let mut games = std::collections::HashMap::new();
        for _ in 0..5000 {
            let (white, black) = pool.pair(&mut rng);
            assert_ne!(white.name, black.name);
            gaps.push(i32::from(white.rating).abs_diff(i32::from(black.rating)));
            *games.entry(white.name.as_str()).or_insert(0) += 1;
        }
        gaps.sort_unstable();
        assert!(gaps[2500] < 100, "median rating gap {}", gaps[2500]);
        assert!(games.values().any(|&n| n >= 20));
    }
}
