//! What the index needs of a game's rules beyond [`FormatRules`]: a position's key, a
//! move as a small number and back, and a move as lichess's explorer writes it.

use std::borrow::Cow;

use collection::rules::FormatRules;
use notation::Tags;

use crate::key::{self, PositionKey};

/// A move as the index stores it, within the position it is played from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MoveCode(pub u16);

impl MoveCode {
    /// No move: the game ended in the position.
    pub const NONE: MoveCode = MoveCode(u16::MAX);
}

/// Which game an index holds: each index holds one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// Chess and its variants, from PGN.
    Chess,
    /// Draughts, every game type, from PDN.
    Draughts,
}

impl Game {
    /// Its name in the index's manifest.
    pub const fn name(self) -> &'static str {
        match self {
            Game::Chess => "chess",
            Game::Draughts => "draughts",
        }
    }
}

/// The rules of a game, as the index uses them.
pub trait IndexRules: FormatRules {
    /// Which game these are the rules of.
    const GAME: Game;

    /// The key of a position.
    fn key(&self, position: &Self::Position) -> PositionKey;

    /// A move played from `position` as a number, unique among the moves of that position.
    fn move_code(&self, position: &Self::Position, mv: &Self::Move) -> MoveCode;

    /// The legal move of `position` with that number, if there is one.
    fn move_of_code(&self, position: &Self::Position, code: MoveCode) -> Option<Self::Move>;

    /// A move as the explorer's `uci` field gives it: UCI for chess (castling as the
    /// king taking its rook, as lichess's explorer writes it), the whole path for a
    /// draughts capture.
    fn uci(&self, position: &Self::Position, mv: &Self::Move) -> String;

    /// The move of `position` that `text` names as [`IndexRules::uci`] writes it (and,
    /// for chess, standard UCI castling too), if there is one.
    fn move_of_uci(&self, position: &Self::Position, text: &str) -> Option<Self::Move>;

    /// The tags that set up a position from a FEN for `variant` (a chess variant's name,
    /// or a draughts game type), read as a game's would be.
    fn setup_tags(&self, fen: Option<&str>, variant: Option<&str>) -> Tags;

    /// The ECO code and name of the opening that ends in this position, where the table
    /// of openings names one (chess only).
    fn opening_of(&self, _position: &Self::Position) -> Option<(String, String)> {
        None
    }

    /// What kind of game a position is of, as the manifest lists an input's kinds
    /// ([`SourceEntry::kinds`](crate::manifest::SourceEntry::kinds)): its ruleset as a
    /// `Variant` tag names it (chess), its game type as a `GameType` tag writes it
    /// (draughts). Every position of a game is of the same kind as its start.
    fn kind(&self, position: &Self::Position) -> Cow<'static, str>;

    /// Writes how a game starts, so that [`IndexRules::line_start`] sets the position up
    /// again, and says whether it could: the rules that keep lines (the `line` module) keep
    /// those of games from their variant's start. The others (the default) keep none.
    fn put_line_start(&self, _start: &Self::Position, _out: &mut Vec<u8>) -> bool {
        false
    }

    /// Writes a move of a kept line, played from `position`.
    fn put_line_move(&self, _position: &Self::Position, _mv: &Self::Move, _out: &mut Vec<u8>) {}

    /// The start [`IndexRules::put_line_start`] wrote; `None` when the bytes do not read.
    fn line_start(&self, _bytes: &mut &[u8]) -> Option<Self::Position> {
        None
    }

    /// The move [`IndexRules::put_line_move`] wrote, if it reads and is legal in
    /// `position`.
    fn line_move(&self, _position: &Self::Position, _bytes: &mut &[u8]) -> Option<Self::Move> {
        None
    }
}

/// The pieces of the side to move that may reach `to` in one move: its attackers, and its
/// pawns one step behind `to`, or two when the square between is empty. A move from one
/// of them is written as `to` and its place among them ([`IndexRules::put_line_move`]).
fn reaching(board: &pgn::Board, us: pgn::Color, to: pgn::Square) -> u64 {
    reaching_among(board, us, to, u64::MAX)
}

/// [`reaching`], of the pieces on the squares of `among` alone.
///
/// A slider on one of its lines through `to` reaches it when no piece stands between: the
/// squares between two are a table of 32 KiB, where the sliders' attacks, looked up by
/// the squares occupied, are a table of 841 KiB that the lookup missed in the processor's
/// caches most of the time (it took half of this function's time).
fn reaching_among(board: &pgn::Board, us: pgn::Color, to: pgn::Square, among: u64) -> u64 {
    use pgn::attacks;
    let occupied = board.occupied();
    let ours = board.by_color(us).0 & among;
    let mut from = (attacks::knight_attacks(to).0 & board.knights().0
        | attacks::king_attacks(to).0 & board.kings().0
        | attacks::pawn_attacks(!us, to).0 & board.pawns().0)
        & ours;
    let mut sliders = (board.rooks_and_queens().0 & attacks::rook_rays(to).0
        | board.bishops_and_queens().0 & attacks::bishop_rays(to).0)
        & ours;
    while sliders != 0 {
        let slider = pgn::Square::new_masked(sliders.trailing_zeros());
        sliders &= sliders - 1;
        if (attacks::between(slider, to) & occupied).is_empty() {
            from |= 1 << slider.index();
        }
    }
    let pawns = board.pawns().0 & ours;
    let back = if us == pgn::Color::White { -8 } else { 8 };
    if let Some(one) = to.offset(back) {
        from |= pawns & 1 << one.index();
        if !occupied.contains(one)
            && let Some(two) = one.offset(back)
        {
            from |= pawns & 1 << two.index();
        }
    }
    from
}

/// The first `N` bytes, taken off the front.
fn take<const N: usize>(bytes: &mut &[u8]) -> Option<[u8; N]> {
    let (head, rest) = bytes.split_first_chunk::<N>()?;
    *bytes = rest;
    Some(*head)
}

/// The first byte of a move kept by its code ([`chess_code`], two bytes after it): a
/// castling, a promotion, a drop, the null move, or a piece fourth or later among those
/// reaching its square.
const LINE_ESCAPE: u8 = 0xc0;

/// The move a byte of a kept line names (below [`LINE_ESCAPE`]): from the `place`th
/// piece reaching `to`, taking what stands there, en passant for a pawn moving aslant
/// to an empty square.
fn line_byte_move(position: &pgn::Position, byte: u8) -> Option<pgn::Move> {
    let to = pgn::Square::from_index(u32::from(byte & 63))?;
    let reaching = reaching(position.board(), position.turn(), to);
    move_from_place(position.board(), reaching, byte >> 6, to)
}

/// The move to `to` of the `place`th piece of `reaching` (see [`line_byte_move`]).
fn move_from_place(
    board: &pgn::Board,
    mut reaching: u64,
    place: u8,
    to: pgn::Square,
) -> Option<pgn::Move> {
    for _ in 0..place {
        reaching &= reaching.wrapping_sub(1);
    }
    let from = pgn::Square::from_index(reaching.trailing_zeros())?;
    let role = board.role_at(from)?;
    let capture = board.role_at(to);
    Some(
        if role == pgn::Role::Pawn && from.file() != to.file() && capture.is_none() {
            pgn::Move::EnPassant { from, to }
        } else {
            pgn::Move::Normal {
                role,
                from,
                capture,
                to,
                promotion: None,
            }
        },
    )
}

/// The code of a chess move: from and to squares in 12 bits, then what kind of move in 4
/// (0 a move or en passant, 1 to 6 a promotion to that role, 8 castling with the king's and
/// the rook's squares, 9 a crazyhouse drop with the role in place of the from square, 10
/// the null move).
fn chess_code(mv: &pgn::Move) -> u16 {
    let sq = |s: pgn::Square| s.index() as u16;
    match *mv {
        pgn::Move::Normal {
            from,
            to,
            promotion,
            ..
        } => sq(from) | sq(to) << 6 | promotion.map_or(0, |r| r.index() as u16 + 1) << 12,
        pgn::Move::EnPassant { from, to } => sq(from) | sq(to) << 6,
        pgn::Move::Castle { king, rook } => sq(king) | sq(rook) << 6 | 8 << 12,
        pgn::Move::Put { role, to } => role.index() as u16 | sq(to) << 6 | 9 << 12,
        pgn::Move::Null => 10 << 12,
    }
}

impl IndexRules for pgn::ChessRules {
    const GAME: Game = Game::Chess;

    fn key(&self, position: &pgn::Position) -> PositionKey {
        key::chess(position)
    }

    fn move_code(&self, _position: &pgn::Position, mv: &pgn::Move) -> MoveCode {
        MoveCode(chess_code(mv))
    }

    fn move_of_code(&self, position: &pgn::Position, code: MoveCode) -> Option<pgn::Move> {
        // The null move (`--`), which lenient files hold, is no legal move.
        if code.0 == chess_code(&pgn::Move::Null) {
            return Some(pgn::Move::Null);
        }
        position
            .legal_moves()
            .into_iter()
            .find(|m| chess_code(m) == code.0)
    }

    fn uci(&self, _position: &pgn::Position, mv: &pgn::Move) -> String {
        mv.to_uci(pgn::CastlingMode::Chess960).to_string()
    }

    fn move_of_uci(&self, position: &pgn::Position, text: &str) -> Option<pgn::Move> {
        let text = text.trim();
        position.legal_moves().into_iter().find(|m| {
            m.to_uci(pgn::CastlingMode::Chess960).to_string() == text
                || m.to_uci(pgn::CastlingMode::Standard).to_string() == text
        })
    }

    fn setup_tags(&self, fen: Option<&str>, variant: Option<&str>) -> Tags {
        let mut tags = Tags::new();
        if let Some(variant) = variant {
            tags.set("Variant", variant);
        }
        if let Some(fen) = fen {
            tags.set("SetUp", "1");
            tags.set("FEN", fen);
        }
        tags
    }

    fn opening_of(&self, position: &pgn::Position) -> Option<(String, String)> {
        pgn::openings::classify_position(position)
            .map(|o| (o.eco().to_string(), o.name().to_owned()))
    }

    fn kind(&self, position: &pgn::Position) -> Cow<'static, str> {
        Cow::Borrowed(position.ruleset().name())
    }

    /// The ruleset's place in [`pgn::Ruleset::ALL`], for a game from its ruleset's start.
    fn put_line_start(&self, start: &pgn::Position, out: &mut Vec<u8>) -> bool {
        let ruleset = start.ruleset();
        match pgn::Ruleset::ALL.iter().position(|&r| r == ruleset) {
            Some(place) if *start == pgn::Position::start(ruleset) => {
                out.push(place as u8);
                true
            }
            _ => false,
        }
    }

    /// One byte for most moves: the target square in six bits, and in two the moving
    /// piece's place among those that may reach it (nearly always the first); the rest as
    /// `LINE_ESCAPE` and the move's code.
    fn put_line_move(&self, position: &pgn::Position, mv: &pgn::Move, out: &mut Vec<u8>) {
        let from_to = match *mv {
            pgn::Move::Normal {
                from,
                to,
                promotion: None,
                ..
            }
            | pgn::Move::EnPassant { from, to } => Some((from, to)),
            _ => None,
        };
        if let Some((from, to)) = from_to {
            // The pieces up to `from` alone: those after it change neither its place nor
            // the piece that place names.
            let up_to_from = u64::MAX >> (63 - from.index());
            let reaching = reaching_among(position.board(), position.turn(), to, up_to_from);
            let place = (reaching & ((1 << from.index()) - 1)).count_ones() as u8;
            // A legal move of these kinds reads back as itself: its piece is among those
            // reaching `to` (so the place names it), and its role and capture are those
            // the board gives (so does the reading). Checked here by tests alone, in
            // every ruleset (reading every move back took 1.5% of a build's CPU time).
            if reaching & 1 << from.index() != 0 && place < 3 {
                debug_assert_eq!(
                    move_from_place(position.board(), reaching, place, to).as_ref(),
                    Some(mv)
                );
                out.push(to.index() as u8 | place << 6);
                return;
            }
        }
        out.push(LINE_ESCAPE);
        out.extend_from_slice(&chess_code(mv).to_be_bytes());
    }

    fn line_start(&self, bytes: &mut &[u8]) -> Option<pgn::Position> {
        let [place] = take(bytes)?;
        let ruleset = *pgn::Ruleset::ALL.get(usize::from(place))?;
        Some(pgn::Position::start(ruleset))
    }

    fn line_move(&self, position: &pgn::Position, bytes: &mut &[u8]) -> Option<pgn::Move> {
        let [first] = take(bytes)?;
        match first {
            LINE_ESCAPE => self.move_of_code(position, MoveCode(u16::from_be_bytes(take(bytes)?))),
            byte if byte < LINE_ESCAPE => {
                line_byte_move(position, byte).filter(|mv| position.is_legal(mv))
            }
            _ => None,
        }
    }
}

impl IndexRules for pdn::DraughtsRules {
    const GAME: Game = Game::Draughts;

    fn key(&self, position: &pdn::PdnPosition) -> PositionKey {
        key::draughts(position.position())
    }

    fn move_code(&self, position: &pdn::PdnPosition, mv: &pdn::PdnMove) -> MoveCode {
        let legal = position.position().legal_moves();
        let index = legal
            .iter()
            .position(|m| m == mv.get())
            .or_else(|| legal.iter().position(|m| m.same_effect(mv.get())));
        match index.and_then(|i| u16::try_from(i).ok()) {
            Some(i) if i < MoveCode::NONE.0 => MoveCode(i),
            _ => MoveCode::NONE,
        }
    }

    fn move_of_code(&self, position: &pdn::PdnPosition, code: MoveCode) -> Option<pdn::PdnMove> {
        let legal = position.position().legal_moves();
        legal
            .into_iter()
            .nth(usize::from(code.0))
            .map(pdn::PdnMove::from)
    }

    fn uci(&self, position: &pdn::PdnPosition, mv: &pdn::PdnMove) -> String {
        position.position().move_to_text_full(mv.get())
    }

    fn move_of_uci(&self, position: &pdn::PdnPosition, text: &str) -> Option<pdn::PdnMove> {
        let text = text.trim();
        let board = position.position();
        board
            .legal_moves()
            .into_iter()
            .find(|m| board.move_to_text_full(m) == text || board.move_to_text(m) == text)
            .map(pdn::PdnMove::from)
    }

    fn setup_tags(&self, fen: Option<&str>, variant: Option<&str>) -> Tags {
        let mut tags = Tags::new();
        if let Some(variant) = variant {
            tags.set("GameType", variant);
        }
        if let Some(fen) = fen {
            tags.set("FEN", fen);
        }
        tags
    }

    fn kind(&self, position: &pdn::PdnPosition) -> Cow<'static, str> {
        Cow::Owned(position.game_type().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notation::Rules;

    #[test]
    fn every_legal_chess_move_has_its_own_code_and_comes_back() {
        let rules = pgn::ChessRules;
        for fen in [
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/1PPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 2",
        ] {
            let position = pgn::Position::from_fen(fen).expect("a FEN");
            let moves = position.legal_moves();
            let mut codes: Vec<_> = moves
                .iter()
                .map(|m| rules.move_code(&position, m))
                .collect();
            codes.sort();
            codes.dedup();
            assert_eq!(codes.len(), moves.len(), "{fen}");
            for m in &moves {
                let code = rules.move_code(&position, m);
                assert_eq!(rules.move_of_code(&position, code).as_ref(), Some(m));
                let uci = rules.uci(&position, m);
                assert_eq!(rules.move_of_uci(&position, &uci).as_ref(), Some(m));
            }
        }
        let start = pgn::Position::new();
        assert_eq!(rules.move_of_code(&start, MoveCode::NONE), None);
        // The null move of lenient files comes back too, though no legal move.
        let null = rules.move_code(&start, &pgn::Move::Null);
        assert_eq!(rules.move_of_code(&start, null), Some(pgn::Move::Null));
    }

    /// One of `legal`, drawn by a xorshift step of `state` (the tests' random walks).
    fn random_move<'m>(state: &mut u64, legal: &'m [pgn::Move]) -> &'m pgn::Move {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        &legal[(*state % legal.len() as u64) as usize]
    }

    /// A kept move's byte places it among every piece that reaches its square (their
    /// attacks looked up in full), though the writer looks at the pieces up to it alone
    /// and skips the sliders' lookups it can; and the byte reads back as the move.
    #[test]
    fn a_kept_move_is_placed_among_all_the_pieces_reaching_its_square() {
        let rules = pgn::ChessRules;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut moves_seen = 0;
        for fen in [
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/1PPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 2",
            "k7/8/8/2Q1Q3/8/2Q1Q3/8/4K3 w - - 0 1",
        ] {
            let mut position = pgn::Position::from_fen(fen).expect("a FEN");
            for _ in 0..60 {
                let legal = position.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let board = position.board();
                let us = position.turn();
                for mv in &legal {
                    let (pgn::Move::Normal {
                        from,
                        to,
                        promotion: None,
                        ..
                    }
                    | pgn::Move::EnPassant { from, to }) = *mv
                    else {
                        continue;
                    };
                    let mut full = board.attackers_to(to, us, board.occupied()).0;
                    let back = if us == pgn::Color::White { -8 } else { 8 };
                    let pawns = board.pawns().0 & board.by_color(us).0;
                    if let Some(one) = to.offset(back) {
                        full |= pawns & 1 << one.index();
                        if !board.occupied().contains(one)
                            && let Some(two) = one.offset(back)
                        {
                            full |= pawns & 1 << two.index();
                        }
                    }
                    assert_eq!(reaching(board, us, to), full, "{mv:?}");
                    let place = (full & ((1 << from.index()) - 1)).count_ones() as u8;
                    let mut bytes = Vec::new();
                    rules.put_line_move(&position, mv, &mut bytes);
                    if place < 3 {
                        assert_eq!(bytes, [to.index() as u8 | place << 6], "{mv:?}");
                    } else {
                        assert_eq!(bytes[0], LINE_ESCAPE, "{mv:?}");
                    }
                    assert_eq!(
                        rules.line_move(&position, &mut &bytes[..]).as_ref(),
                        Some(mv)
                    );
                    moves_seen += 1;
                }
                rules.play(&mut position, random_move(&mut state, &legal));
            }
        }
        assert!(moves_seen > 1_000, "{moves_seen} moves");
    }

    /// The kept line's byte of a move is written without reading it back
    /// ([`IndexRules::put_line_move`]): every legal move of random games of every ruleset
    /// reads back as itself.
    #[test]
    fn every_ruleset_s_kept_moves_read_back_as_themselves() {
        let rules = pgn::ChessRules;
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for ruleset in pgn::Ruleset::ALL {
            let mut moves_seen = 0;
            for _game in 0..20 {
                let mut position = pgn::Position::start(ruleset);
                for _ply in 0..120 {
                    let legal = position.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    for mv in &legal {
                        let mut bytes = Vec::new();
                        rules.put_line_move(&position, mv, &mut bytes);
                        assert_eq!(
                            rules.line_move(&position, &mut &bytes[..]).as_ref(),
                            Some(mv),
                            "{ruleset:?}: {mv:?} in {}",
                            position.to_fen()
                        );
                        moves_seen += 1;
                    }
                    rules.play(&mut position, random_move(&mut state, &legal));
                }
            }
            assert!(moves_seen > 10_000, "{ruleset:?}: {moves_seen} moves");
        }
    }

    #[test]
    fn draughts_moves_come_back_from_their_codes() {
        let rules = pdn::DraughtsRules::new();
        let start = rules
            .start_position(&rules.setup_tags(None, Some("20")))
            .expect("the start")
            .position;
        let moves = start.position().legal_moves();
        assert_eq!(moves.len(), 9);
        for m in moves {
            let mv = pdn::PdnMove::from(m);
            let code = rules.move_code(&start, &mv);
            let back = rules.move_of_code(&start, code).expect("a move");
            assert_eq!(back.get(), mv.get());
            let text = rules.uci(&start, &mv);
            assert_eq!(
                rules.move_of_uci(&start, &text).map(|m| m.get().clone()),
                Some(mv.get().clone())
            );
        }
    }
}
