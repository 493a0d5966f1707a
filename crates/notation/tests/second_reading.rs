//! A game read a second time (`Rules::second_reading`, `Visitor::read_again`), as a
//! specification: the reader reads the same text again with the same diagnostics of its
//! own, once each; the second reading replaces the first, unless the rules do not keep
//! it, and then the first is read again.
#![allow(clippy::unwrap_used, missing_docs)]

mod common;

use std::fmt;

use common::Trickle;
use notation::{
    DiagnosticKind, Dialect, GameReader, GameTree, MoveContext, Player, RawMove, RawRules,
    ReadGame, ReadOptions, Rules, Setup, SetupError, Strict, Tags, read_games,
};

/// Raw PGN whose first reading refuses the move `zz`, which a second reading reads; it
/// keeps the second reading when `keep` says so.
struct Fussy {
    keep: bool,
    second: bool,
}

/// A raw position that knows whether it is a second reading's.
#[derive(Clone, Copy, Debug)]
struct Position {
    raw: notation::RawPosition,
    second: bool,
}

#[derive(Debug)]
struct Refused;

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a first reading does not read zz")
    }
}

impl std::error::Error for Refused {}

impl Fussy {
    fn start(&self, second: bool) -> Setup<Position> {
        let raw = RawRules::PGN.start_position(&Tags::new()).unwrap().position;
        Setup {
            position: Position { raw, second },
            warnings: Vec::new(),
        }
    }
}

impl Rules for Fussy {
    type Position = Position;
    type Move = RawMove;
    type Forgiven = Strict;
    type MoveError = Refused;

    fn dialect(&self) -> Dialect {
        Dialect::PGN
    }
    fn start_position(&self, _: &Tags) -> Result<Setup<Position>, SetupError> {
        Ok(self.start(self.second))
    }
    fn second_reading(&self, _: &Tags) -> Option<Result<Setup<Position>, SetupError>> {
        (!self.second).then(|| Ok(self.start(true)))
    }
    fn keeps_second_reading(&self, _: &GameTree<RawMove>) -> bool {
        self.keep
    }
    fn follow_move_number(&self, position: &mut Position, context: MoveContext) {
        RawRules::PGN.follow_move_number(&mut position.raw, context);
    }
    fn read_move(
        &self,
        position: &Position,
        token: &[u8],
        context: MoveContext,
    ) -> Result<(RawMove, Strict), Refused> {
        if token == b"zz" && !position.second {
            return Err(Refused);
        }
        Ok(RawRules::PGN
            .read_move(&position.raw, token, context)
            .unwrap_or_else(|never| match never {}))
    }
    fn write_move(&self, position: &Position, mv: &RawMove, out: &mut String) {
        RawRules::PGN.write_move(&position.raw, mv, out);
    }
    fn play(&self, position: &mut Position, mv: &RawMove) {
        RawRules::PGN.play(&mut position.raw, mv);
    }
    fn turn(&self, position: &Position) -> Player {
        RawRules::PGN.turn(&position.raw)
    }
    fn move_number(&self, position: &Position) -> u64 {
        RawRules::PGN.move_number(&position.raw)
    }
}

/// A byte order mark, a tag the reader notes before the game begins (given to the game
/// when it does), a tab, a game `zz` refuses, and a game after it.
const INPUT: &[u8] =
    b"\xef\xbb\xbf[pgn]\n[Event \"a\"]\n[Site \"b\"]\n\n1. e4\te5 2. zz d5 3. Nf3 *\n\n\
[Event \"c\"]\n\n1. d4 zz *\n";

fn read(rules: &Fussy) -> Vec<ReadGame<RawMove>> {
    read_games(rules, INPUT, ReadOptions::default())
}

fn messages(game: &ReadGame<RawMove>) -> Vec<String> {
    game.diagnostics.iter().map(ToString::to_string).collect()
}

#[test]
fn a_second_reading_is_read_as_a_reading_from_its_start_would_be() {
    let games = read(&Fussy {
        keep: true,
        second: false,
    });
    // As rules that read every game as a second reading read it: the reader's own notes
    // (the mark, the tag with no value, the tab) given once each.
    let second = read(&Fussy {
        keep: true,
        second: true,
    });
    assert_eq!(games.len(), 2);
    for (a, b) in games.iter().zip(&second) {
        assert_eq!(a.game, b.game);
        assert_eq!(a.diagnostics, b.diagnostics);
        assert_eq!((a.span, a.index), (b.span, b.index));
    }
    let moves: Vec<_> = games[0].game.mainline().map(|n| n.mv.0.as_str()).collect();
    assert_eq!(moves, ["e4", "e5", "zz", "d5", "Nf3"]);
    assert_eq!(
        messages(&games[0]),
        [
            "1:1: warning: byte order mark at the start of the input (game 1)",
            "1:5: warning: tag pgn has no quoted value (game 1)",
            "5:7: warning: tab character used as white space (game 1)",
        ]
    );
    assert!(games[1].diagnostics.is_empty());
}

#[test]
fn a_second_reading_not_kept_leaves_the_first() {
    let games = read(&Fussy {
        keep: false,
        second: false,
    });
    assert_eq!(games.len(), 2);
    let first = &games[0];
    let moves: Vec<_> = first.game.mainline().map(|n| n.mv.0.as_str()).collect();
    assert_eq!(moves, ["e4", "e5"]);
    assert_eq!(first.game.tail.as_ref().unwrap().text, "2. zz d5 3. Nf3");
    assert_eq!(
        messages(first),
        [
            "1:1: warning: byte order mark at the start of the input (game 1)",
            "1:5: warning: tag pgn has no quoted value (game 1)",
            "5:7: warning: tab character used as white space (game 1)",
            "5:13: error: zz: a first reading does not read zz (game 1)",
        ]
    );
    assert!(matches!(
        games[1].diagnostics[..],
        [notation::Diagnostic {
            kind: DiagnosticKind::BadMove { .. },
            ..
        }]
    ));
    assert_eq!(games[1].index, 1);
}

#[test]
fn a_game_is_read_again_across_buffer_edges() {
    // One byte at a time: every token, and the rewind, crosses the buffer's edges.
    for keep in [true, false] {
        let rules = Fussy {
            keep,
            second: false,
        };
        let whole = read(&rules);
        let trickled: Vec<_> = GameReader::new(&rules, Trickle(INPUT), ReadOptions::default())
            .map(Result::unwrap)
            .collect();
        assert_eq!(whole.len(), trickled.len());
        for (a, b) in whole.iter().zip(&trickled) {
            assert_eq!(
                (&a.game, &a.diagnostics),
                (&b.game, &b.diagnostics),
                "{keep}"
            );
        }
    }
}
