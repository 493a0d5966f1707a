//! What checking a variant game costs against a standard game of the same length: random
//! legal games of every ruleset (the same generator, the same lengths), written in the
//! export format, then read by the validator that `notate check` runs. Throughput is in
//! moves, so the per-move times compare directly; the target is at most 1.5 times standard
//! chess's.
//!
//! Two forms of each game: the bare movetext (`check/…`, the hardest case for the target:
//! nothing but moves to read), and as lichess exports its games (`lichess/…`: a dozen tags
//! and a `[%clk]` comment after every move).
//!
//! Run with `cargo bench -p pgn --bench variants`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_main};
use pgn::{GameTree, LineId, Position, Ruleset, ValidatingReader};

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// `games` random games of `ruleset` of up to `plies` moves, as PGN, and their move count;
/// `lichess` writes them as lichess exports games.
fn random_games(ruleset: Ruleset, games: usize, plies: usize, lichess: bool) -> (String, u64) {
    let mut rng = Rng(0x243f_6a88_85a3_08d3);
    let mut out = String::new();
    let mut moves = 0;
    for index in 0..games {
        let mut game = GameTree::new();
        if ruleset != Ruleset::Chess {
            game.tags.set("Variant", ruleset.name());
        }
        if lichess {
            for (name, value) in [
                ("Event", "Rated Blitz game"),
                ("Site", "https://lichess.org/abcdefgh"),
                ("Date", "2026.11.25"),
                ("Round", "-"),
                ("White", "first-player"),
                ("Black", "second-player"),
                ("UTCDate", "2026.11.25"),
                ("UTCTime", "12:34:56"),
                ("WhiteElo", "1789"),
                ("BlackElo", "1812"),
                ("TimeControl", "180+2"),
                ("Termination", "Normal"),
            ] {
                game.tags.set(name, value);
            }
        }
        let mut pos = Position::start(ruleset);
        for ply in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            let node = game.push_move(LineId::MAIN, mv);
            if lichess {
                let seconds = 180 - (ply + index) % 170;
                let clock = format!("[%clk 0:{:02}:{:02}]", seconds / 60, seconds % 60);
                game.node_mut(node).comments.push(clock);
            }
            pos.play_mut(&mv);
            moves += 1;
        }
        if pgn::write_game(&game, &mut out).is_err() {
            break;
        }
    }
    (out, moves)
}

fn variant_benches(c: &mut Criterion) {
    for (group, lichess) in [("check", false), ("lichess", true)] {
        let mut g = c.benchmark_group(group);
        g.sample_size(10);
        for ruleset in Ruleset::ALL {
            let (text, moves) = random_games(ruleset, 400, 80, lichess);
            g.throughput(Throughput::Elements(moves));
            g.bench_function(ruleset.name(), |b| {
                b.iter(|| {
                    ValidatingReader::new(black_box(text.as_bytes()))
                        .map(|g| g.map_or(0, |g| g.plies))
                        .sum::<u64>()
                })
            });
        }
        g.finish();
    }
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    variant_benches(&mut c);
}

criterion_main!(benches);
