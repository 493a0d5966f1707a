//! Hostile input: nothing a file holds may crash the reader, hang it, or make it take
//! memory that grows with the input; every game is read or reported.
#![allow(clippy::unwrap_used, missing_docs)]

use std::io::Read;
use std::ops::ControlFlow;

use notation::{
    At, Diagnostic, DiagnosticKind, GameReader, RawGame, RawRules, ReadOptions, Reader, Visitor,
    read_games,
};

fn read_all(input: &[u8]) -> (usize, Vec<Diagnostic>) {
    let mut reader = GameReader::new(&RawRules::PGN, input, ReadOptions::default());
    let mut games = 0;
    let mut diagnostics = Vec::new();
    for game in &mut reader {
        let game = game.unwrap();
        games += 1;
        diagnostics.extend(game.diagnostics);
    }
    diagnostics.extend(reader.take_orphans());
    (games, diagnostics)
}

fn has(diagnostics: &[Diagnostic], want: impl Fn(&DiagnosticKind) -> bool) -> bool {
    diagnostics.iter().any(|d| want(&d.kind))
}

#[test]
fn empty_and_blank_inputs() {
    for input in [&b""[..], b"\n\n\n", b"   \t  ", b"% only an escape line\n"] {
        let (games, diagnostics) = read_all(input);
        assert_eq!(games, 0);
        assert!(has(&diagnostics, |k| *k == DiagnosticKind::EmptyInput));
    }
}

#[test]
fn nul_and_binary_garbage() {
    let mut garbage = Vec::new();
    let mut x: u32 = 0x1234_5678;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        garbage.push((x >> 24) as u8);
    }
    garbage.extend_from_slice(b"\0\0\0");
    let (_, diagnostics) = read_all(&garbage);
    assert!(!diagnostics.is_empty());
    // A game after the garbage is still found.
    garbage.extend_from_slice(b"\n\n[Event \"after\"]\n\n1. e4 *\n");
    let games = read_games(&RawRules::PGN, &garbage[..], ReadOptions::default());
    assert_eq!(games.last().unwrap().game.tags.get("Event"), Some("after"));
}

#[test]
fn a_fifty_megabyte_single_line() {
    let mut line = b"[Event \"long\"]\n\n".to_vec();
    while line.len() < 50 << 20 {
        line.extend_from_slice(b"1. e4 e5 ");
    }
    line.extend_from_slice(b"*");
    let mut count = Counter::default();
    Reader::new(&line[..], notation::Dialect::PGN, ReadOptions::default())
        .visit_all(&mut count)
        .unwrap();
    assert_eq!(count.games, 1);
    assert!(count.moves > 10_000_000);
    assert!(
        count
            .diagnostics
            .iter()
            .any(|k| matches!(k, DiagnosticKind::LongLine { .. }))
    );
}

#[test]
fn a_hundred_thousand_open_parentheses() {
    let mut input = b"1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(b'(', 100_000));
    let (games, diagnostics) = read_all(&input);
    assert_eq!(games, 1);
    assert!(has(&diagnostics, |k| matches!(
        k,
        DiagnosticKind::UnclosedVariation { count: 100_000 }
    )));
}

#[test]
fn unterminated_comment_and_string_at_end_of_input() {
    let (games, diagnostics) = read_all(b"[Event \"a\"]\n\n1. e4 {never closed");
    assert_eq!(games, 1);
    assert!(has(&diagnostics, |k| *k == DiagnosticKind::UnterminatedComment));
    let (games, diagnostics) = read_all(b"[Event \"never closed");
    assert_eq!(games, 1);
    assert!(has(&diagnostics, |k| *k == DiagnosticKind::UnterminatedString));
}

#[test]
fn a_game_cut_off_mid_move() {
    let games = read_games(
        &RawRules::PGN,
        &b"[Event \"a\"]\n\n1. e4 e5 2. Nf"[..],
        ReadOptions::default(),
    );
    assert_eq!(games.len(), 1);
    let moves: Vec<_> = games[0].game.mainline().map(|n| n.mv.0.as_str()).collect();
    assert_eq!(moves, ["e4", "e5", "Nf"]);
    assert!(
        games[0]
            .diagnostics
            .iter()
            .any(|d| matches!(d.kind, DiagnosticKind::MissingResult { .. }))
    );
}

#[test]
fn a_hundred_thousand_tags() {
    let mut input = Vec::new();
    for i in 0..100_000 {
        input.extend_from_slice(format!("[Tag{i} \"v\"]\n").as_bytes());
    }
    input.extend_from_slice(b"\n1. e4 *\n");
    let games = read_games(&RawRules::PGN, &input[..], ReadOptions::default());
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].game.tags.len(), 100_000);
}

#[test]
fn huge_glyph_numbers() {
    let (_, diagnostics) = read_all(b"1. e4 $99999 $184467440737095516150 *");
    assert!(has(&diagnostics, |k| *k
        == DiagnosticKind::NagOutOfRange(99_999)));
    assert!(has(&diagnostics, |k| *k
        == DiagnosticKind::NagOutOfRange(u64::MAX)));
}

#[test]
fn invalid_utf8_and_mixed_encodings() {
    let games = read_games(
        &RawRules::PGN,
        &b"[White \"R\xe9ti\"]\n[Black \"Ren\xc3\xa9\"]\n\n{\xff\xfe} 1. e4 *"[..],
        ReadOptions::default(),
    );
    let g = &games[0].game;
    assert_eq!(g.tags.get("White"), Some("Réti"));
    assert_eq!(g.tags.get("Black"), Some("René"));
    assert_eq!(g.line(notation::LineId::MAIN).comments, ["ÿþ"]);
}

#[test]
fn an_escape_line_inside_a_game() {
    let (games, diagnostics) = read_all(b"[Event \"a\"]\n\n1. e4\n% 2. d4 is skipped\ne5 *");
    assert_eq!(games, 1);
    assert!(has(&diagnostics, |k| *k == DiagnosticKind::EscapeInGame));
}

#[test]
fn a_tag_section_with_no_closing_bracket() {
    let games = read_games(
        &RawRules::PGN,
        &b"[Event \"a\"\n[Site \"b\"\n\n1. e4 *"[..],
        ReadOptions::default(),
    );
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].game.tags.get("Site"), Some("b"));
    assert!(
        games[0]
            .diagnostics
            .iter()
            .all(|d| matches!(d.kind, DiagnosticKind::UnclosedTag { .. }))
    );
}

/// Games without end: an `io::Read` that writes them as they are asked for.
struct EndlessGames {
    pending: Vec<u8>,
    at: usize,
    made: u64,
}

impl Read for EndlessGames {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.pending.len() {
            self.pending.clear();
            self.at = 0;
            self.made += 1;
            let game = format!(
                "[Event \"endless {}\"]\n[Result \"*\"]\n\n1. e4 {{c}} e5 (1... c5 $1) 2. Nf3 *\n\n",
                self.made
            );
            self.pending.extend_from_slice(game.as_bytes());
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[derive(Default)]
struct Counter {
    games: u64,
    moves: u64,
    diagnostics: Vec<DiagnosticKind>,
}

impl Visitor for Counter {
    type Output = ();
    fn move_token(&mut self, _: &[u8], _: At<'_>) -> ControlFlow<()> {
        self.moves += 1;
        ControlFlow::Continue(())
    }
    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic.kind);
    }
    fn end_game(&mut self, _: RawGame<'_>) {
        self.games += 1;
    }
}

/// Resident memory in KiB, where the system tells it.
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_million_games_from_an_endless_stream_in_constant_memory() {
    let source = EndlessGames {
        pending: Vec::new(),
        at: 0,
        made: 0,
    };
    let mut reader = Reader::new(source, notation::Dialect::PGN, ReadOptions::default());
    let mut count = Counter::default();
    for _ in 0..1_000 {
        reader.read_game(&mut count).unwrap();
    }
    let before = resident_kib();
    for _ in 0..1_000_000 {
        assert!(reader.read_game(&mut count).unwrap().is_some());
    }
    let after = resident_kib();
    assert_eq!(count.games, 1_001_000);
    assert_eq!(count.moves, 4 * 1_001_000);
    assert!(count.diagnostics.is_empty());
    if let (Some(before), Some(after)) = (before, after) {
        // About 75 MB went through; the reader must not have kept any of it.
        assert!(
            after < before + 4 * 1024,
            "resident {before} KiB → {after} KiB"
        );
    }
}
