//! Games taken, handed back to the readers to be filled again.
//!
//! Why: a chess build's readers made each game's positions, kept line and five strings,
//! and the thread taking the games in order freed them: seven allocations a game, made
//! on one thread and freed on another. In a build of a million games, 7% of the readers'
//! samples went to allocating and to zeroing the fresh pages the allocator came back for;
//! with the games handed back, 1.5%, and the build took 0.98× the time.

use std::sync::Mutex;

use super::IndexedGame;

/// The games taken and not yet filled again, shared by the readers and the thread that
/// takes the games.
#[derive(Default)]
pub(super) struct Spares {
    games: Mutex<Vec<IndexedGame>>,
}

impl Spares {
    /// The games moved at a time, each way: the lock is taken once for so many.
    pub(super) const BATCH: usize = 64;

    /// The games held at most: more than a build has in flight (some thousands), so
    /// that they are seldom dropped, and few enough to weigh little (some 3 KiB each).
    const HELD: usize = 8192;

    /// The positions a game kept here may have room for: a game far longer than most
    /// does not hold its room for all the games after it.
    const ROOM: usize = 1024;

    /// Moves up to [`Spares::BATCH`] games into `stash`.
    pub(super) fn take(&self, stash: &mut Vec<IndexedGame>) {
        // A reader that panicked while holding the lock left whole games: still usable.
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let from = games.len().saturating_sub(Self::BATCH);
        stash.extend(games.drain(from..));
    }

    /// Moves the games of `spent` here, as many as there is room for, and drops the rest
    /// and those with room for more than [`Spares::ROOM`] positions.
    pub(super) fn give(&self, spent: &mut Vec<IndexedGame>) {
        spent.retain(|game| game.positions.capacity() <= Self::ROOM);
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let room = Self::HELD.saturating_sub(games.len());
        let kept = spent.len().min(room);
        games.extend(spent.drain(..kept));
        drop(games);
        spent.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(number: u64) -> IndexedGame {
        IndexedGame {
            number,
            ..IndexedGame::default()
        }
    }

    #[test]
    fn games_given_are_taken_a_batch_at_a_time_and_those_past_the_room_or_too_roomy_dropped() {
        let spares = Spares::default();
        let mut stash = Vec::new();
        spares.take(&mut stash);
        assert!(stash.is_empty(), "nothing given yet");

        let mut spent: Vec<_> = (0..Spares::HELD as u64 + 10).map(game).collect();
        spares.give(&mut spent);
        assert!(spent.is_empty());
        spares.take(&mut stash);
        assert_eq!(stash.len(), Spares::BATCH);
        // The last given are taken first; the ten past the room were dropped.
        let last = Spares::HELD as u64 - 1;
        assert_eq!(stash[Spares::BATCH - 1].number, last);

        // A game of many positions is not kept for the games after it.
        let mut long = game(7);
        long.positions.reserve(Spares::ROOM + 1);
        let spares = Spares::default();
        spares.give(&mut vec![long, game(8)]);
        stash.clear();
        spares.take(&mut stash);
        assert_eq!(stash.iter().map(|g| g.number).collect::<Vec<_>>(), [8]);
    }
}
