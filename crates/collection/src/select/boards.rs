//! What `select` asks of a game's positions and moves, per format: a position pattern
//! (`--position`), a material pattern (`--material`), how a game ended on the board, and
//! whether two moves are the same (however they were written or read).
//!
//! Chess and draughts answer in their own terms; the criteria that only one of them has
//! (checkmate, underpromotion, the fifty-move rule) are `false` for the other.

use crate::rules::FormatRules;

/// How the last position of a main line stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither.
    Open,
}

/// What `select` needs of a game's rules beyond [`FormatRules`]: positions and moves as
/// its criteria compare them.
pub trait Boards: FormatRules {
    /// A `--position` pattern, as given.
    type Pattern: Send + Sync;
    /// A pattern made ready for the positions of one game (a draughts FEN is read in
    /// the game's own game type).
    type Ready;
    /// A `--material` pattern.
    type Material: Send + Sync;

    /// Reads a `--position` pattern.
    fn pattern(&self, text: &str) -> Result<Self::Pattern, String>;

    /// The pattern made ready for a game that starts in `start`; `None` when it can never
    /// match there.
    fn ready(&self, pattern: &Self::Pattern, start: &Self::Position) -> Option<Self::Ready>;

    /// Whether a position matches the pattern: the same pieces on the same squares and,
    /// when the pattern names one, the same side to move.
    fn matches(&self, pattern: &Self::Ready, position: &Self::Position) -> bool;

    /// Reads a `--material` pattern.
    fn material(&self, text: &str) -> Result<Self::Material, String>;

    /// Whether a position has exactly the material (or, `at_least`, at least it).
    fn has_material(
        &self,
        material: &Self::Material,
        position: &Self::Position,
        at_least: bool,
    ) -> bool;

    /// How a position stands: checkmate, stalemate or neither (always neither in games
    /// without those notions).
    fn end(&self, position: &Self::Position) -> End;

    /// Whether a move promotes to anything but a queen.
    fn is_underpromotion(&self, mv: &Self::Move) -> bool;

    /// A key by which repeated positions are found, and whether the move into this
    /// position was irreversible (no earlier position can repeat); `None` in games where
    /// `select --threefold` does not apply.
    fn repetition_key(&self, position: &Self::Position) -> Option<(u64, bool)>;

    /// Whether the fifty-move rule lets a draw be claimed in this position.
    fn is_fifty_moves(&self, position: &Self::Position) -> bool;

    /// Whether two moves are the same move on the board.
    fn same_move(&self, a: &Self::Move, b: &Self::Move) -> bool;
}

/// A chess `--position` pattern: a placement, and the side to move when given.
#[derive(Clone, Debug)]
pub struct ChessPattern {
    board: pgn::Board,
    turn: Option<pgn::Color>,
}

impl ChessPattern {
    /// The pieces, as placed.
    pub fn board(&self) -> &pgn::Board {
        &self.board
    }

    /// The side to move, when the pattern says.
    pub fn turn(&self) -> Option<pgn::Color> {
        self.turn
    }
}

/// Chess material: the number of each piece of each colour.
#[derive(Clone, Debug)]
pub struct ChessMaterial(pgn::ByColor<[u32; 6]>);

impl Boards for pgn::ChessRules {
    type Pattern = ChessPattern;
    type Ready = ChessPattern;
    type Material = ChessMaterial;

    fn pattern(&self, text: &str) -> Result<ChessPattern, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (placement, turn) = match fields.as_slice() {
            [placement] => (*placement, None),
            [placement, turn, ..] => (*placement, Some(*turn)),
            [] => return Err("an empty FEN".to_owned()),
        };
        let setup = pgn::fen::Setup::from_fen(&format!("{placement} {}", turn.unwrap_or("w")))
            .map_err(|e| format!("{text:?} is not a chess FEN: {e}"))?;
        Ok(ChessPattern {
            board: setup.board,
            turn: turn.map(|_| setup.turn),
        })
    }

    fn ready(&self, pattern: &ChessPattern, _: &pgn::Position) -> Option<ChessPattern> {
        Some(pattern.clone())
    }

    fn matches(&self, pattern: &ChessPattern, position: &pgn::Position) -> bool {
        *position.board() == pattern.board && pattern.turn.is_none_or(|t| t == position.turn())
    }

    fn material(&self, text: &str) -> Result<ChessMaterial, String> {
        let mut counts = pgn::ByColor::new_with(|_| [0u32; 6]);
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            let piece = pgn::Piece::from_char(c).ok_or_else(|| {
                format!(
                    "{text:?}: {c:?} is not a piece letter (KQRBNP for White, kqrbnp for Black)"
                )
            })?;
            counts.get_mut(piece.color)[piece.role.index()] += 1;
        }
        Ok(ChessMaterial(counts))
    }

    fn has_material(
        &self,
        material: &ChessMaterial,
        position: &pgn::Position,
        at_least: bool,
    ) -> bool {
        let have = position.board().material();
        pgn::Color::ALL.into_iter().all(|color| {
            let (have, want) = (have.get(color), material.0.get(color));
            have.iter()
                .zip(want)
                .all(|(h, w)| if at_least { h >= w } else { h == w })
        })
    }

    /// As the position's outcome says, by its ruleset's rules: a variant's own end (an
    /// exploded king, all pieces lost, a third check, a king on the hill) is neither
    /// checkmate nor stalemate, though it leaves the side to move no legal move.
    fn end(&self, position: &pgn::Position) -> End {
        match position.outcome() {
            Some(pgn::Outcome::Checkmate { .. }) => End::Checkmate,
            Some(pgn::Outcome::Stalemate) => End::Stalemate,
            _ => End::Open,
        }
    }

    fn is_underpromotion(&self, mv: &pgn::Move) -> bool {
        matches!(mv, pgn::Move::Normal { promotion: Some(role), .. } if *role != pgn::Role::Queen)
    }

    fn repetition_key(&self, position: &pgn::Position) -> Option<(u64, bool)> {
        Some((position.zobrist_hash(), position.halfmoves() == 0))
    }

    fn is_fifty_moves(&self, position: &pgn::Position) -> bool {
        position.is_fifty_moves()
    }

    fn same_move(&self, a: &pgn::Move, b: &pgn::Move) -> bool {
        a == b
    }
}

/// A draughts `--position` pattern: a FEN in either square notation, read in each
/// game's own game type.
#[derive(Clone, Debug)]
pub struct DraughtsPattern {
    text: String,
}

/// A draughts pattern read in one game type.
pub struct DraughtsReady {
    pieces: Vec<(pdn::Square, pdn::Piece)>,
    turn: Option<pdn::Color>,
}

impl DraughtsReady {
    /// The pieces, on the squares of the game type it was read in.
    pub fn pieces(&self) -> &[(pdn::Square, pdn::Piece)] {
        &self.pieces
    }

    /// The side to move, when the pattern says.
    pub fn turn(&self) -> Option<pdn::Color> {
        self.turn
    }
}

/// Draughts material: men and kings per side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraughtsMaterial {
    /// White's men and kings.
    white: (u32, u32),
    /// Black's men and kings.
    black: (u32, u32),
}

impl Boards for pdn::DraughtsRules {
    type Pattern = DraughtsPattern;
    type Ready = DraughtsReady;
    type Material = DraughtsMaterial;

    fn pattern(&self, text: &str) -> Result<DraughtsPattern, String> {
        // Read once in international draughts (numbers) and once in English (either
        // notation reads there) only to refuse what no game type reads.
        let international = pdn::GameType::new(pdn::Variant::International);
        let english = pdn::GameType::new(pdn::Variant::English);
        match pdn::Position::from_fen(international, text) {
            Ok(_) => {}
            Err(first) => {
                if pdn::Position::from_fen(english, text).is_err() {
                    return Err(format!("{text:?} is not a draughts FEN: {first}"));
                }
            }
        }
        Ok(DraughtsPattern {
            text: text.to_owned(),
        })
    }

    fn ready(&self, pattern: &DraughtsPattern, start: &pdn::PdnPosition) -> Option<DraughtsReady> {
        let game_type = start.game_type();
        let (position, warnings) = pdn::Position::from_fen(game_type, &pattern.text).ok()?;
        let turn = if warnings.iter().any(|w| {
            matches!(
                w,
                pdn::fen::FenWarning::UnknownTurn(_) | pdn::fen::FenWarning::MissingTurn(_)
            )
        }) {
            None
        } else {
            Some(position.turn())
        };
        Some(DraughtsReady {
            pieces: position.pieces(),
            turn,
        })
    }

    fn matches(&self, pattern: &DraughtsReady, board: &pdn::PdnPosition) -> bool {
        let position = board.position();
        pattern.turn.is_none_or(|t| t == position.turn()) && position.pieces() == pattern.pieces
    }

    fn material(&self, text: &str) -> Result<DraughtsMaterial, String> {
        parse_draughts_material(text)
    }

    fn has_material(
        &self,
        material: &DraughtsMaterial,
        board: &pdn::PdnPosition,
        at_least: bool,
    ) -> bool {
        let position = board.position();
        let count = |color| {
            (
                position.count(color, pdn::Role::Man),
                position.count(color, pdn::Role::King),
            )
        };
        let fits = |have: (u32, u32), want: (u32, u32)| {
            if at_least {
                have.0 >= want.0 && have.1 >= want.1
            } else {
                have == want
            }
        };
        fits(count(pdn::Color::White), material.white)
            && fits(count(pdn::Color::Black), material.black)
    }

    fn end(&self, _: &pdn::PdnPosition) -> End {
        End::Open
    }

    fn is_underpromotion(&self, _: &pdn::PdnMove) -> bool {
        false
    }

    fn repetition_key(&self, _: &pdn::PdnPosition) -> Option<(u64, bool)> {
        None
    }

    fn is_fifty_moves(&self, _: &pdn::PdnPosition) -> bool {
        false
    }

    fn same_move(&self, a: &pdn::PdnMove, b: &pdn::PdnMove) -> bool {
        a.get() == b.get()
    }
}

/// Reads draughts material, `W:3m1k B:2m`: each side's letter, a colon, then a count
/// followed by `m` (men) and a count followed by `k` (kings), either left out when none.
/// Both sides are given: a side written with no count (`B:`) has no pieces.
fn parse_draughts_material(text: &str) -> Result<DraughtsMaterial, String> {
    let bad = |why: &str| {
        format!(
            "{text:?} is not draughts material ({why}); write each side's men and kings, \
             as `W:3m1k B:2m`"
        )
    };
    let mut white = None;
    let mut black = None;
    for part in text.split_whitespace() {
        let (side, counts) = part
            .split_once(':')
            .ok_or_else(|| bad("no `:` after a side"))?;
        let slot = match side {
            "W" | "w" => &mut white,
            "B" | "b" => &mut black,
            _ => return Err(bad("a side is W or B")),
        };
        if slot.is_some() {
            return Err(bad("a side is given twice"));
        }
        let (mut men, mut kings) = (None, None);
        let mut digits = String::new();
        for c in counts.chars() {
            match c {
                '0'..='9' => digits.push(c),
                'm' | 'M' | 'k' | 'K' => {
                    let n: u32 = digits.parse().map_err(|_| bad("a count before m or k"))?;
                    digits.clear();
                    let slot = if c.eq_ignore_ascii_case(&'m') {
                        &mut men
                    } else {
                        &mut kings
                    };
                    if slot.replace(n).is_some() {
                        return Err(bad("men or kings given twice"));
                    }
                }
                _ => return Err(bad("counts are followed by m or k")),
            }
        }
        if !digits.is_empty() {
            return Err(bad("a count without m or k"));
        }
        *slot = Some((men.unwrap_or(0), kings.unwrap_or(0)));
    }
    match (white, black) {
        (Some(white), Some(black)) => Ok(DraughtsMaterial { white, black }),
        _ => Err(bad("both sides are needed")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draughts_material_names_men_and_kings_per_side() {
        let m = parse_draughts_material("W:3m1k B:2m").expect("reads");
        assert_eq!(
            m,
            DraughtsMaterial {
                white: (3, 1),
                black: (2, 0)
            }
        );
        let m = parse_draughts_material("b:1K w:").expect("reads");
        assert_eq!(
            m,
            DraughtsMaterial {
                white: (0, 0),
                black: (0, 1)
            }
        );
        for bad in [
            "W:3m",
            "W:3 B:2m",
            "W:3m3m B:1m",
            "X:1m B:1m",
            "W:m B:1m",
            "",
        ] {
            assert!(parse_draughts_material(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn chess_material_counts_each_piece_of_each_colour() {
        let rules = pgn::ChessRules;
        let start = pgn::Position::new();
        let all = rules
            .material("KQRRBBNNPPPPPPPP kqrrbbnnpppppppp")
            .expect("reads");
        assert!(rules.has_material(&all, &start, false));
        let kings = rules.material("Kk").expect("reads");
        assert!(!rules.has_material(&kings, &start, false));
        assert!(rules.has_material(&kings, &start, true));
        assert!(rules.material("KX").is_err());
    }

    #[test]
    fn checkmate_and_stalemate_by_the_position_s_ruleset() {
        let rules = pgn::ChessRules;
        let end = |ruleset: pgn::Ruleset, fen: &str| {
            let setup = pgn::fen::Setup::from_fen(fen).expect("a FEN");
            let position = pgn::Position::from_setup_auto_in(ruleset, &setup).expect("legal");
            rules.end(&position)
        };
        let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(end(pgn::Ruleset::Chess, mate), End::Checkmate);
        assert_eq!(
            end(pgn::Ruleset::Crazyhouse, mate),
            End::Checkmate,
            "nothing in hand"
        );
        let in_hand = mate.replacen(" w ", "[P] w ", 1);
        assert_eq!(
            end(pgn::Ruleset::Crazyhouse, &in_hand),
            End::Open,
            "a pawn dropped on f2 or g3 parries"
        );
        let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
        assert_eq!(end(pgn::Ruleset::Chess, stalemate), End::Stalemate);
        // Antichess: a side that has lost every piece, or cannot move, has won.
        assert_eq!(
            end(pgn::Ruleset::Antichess, "8/8/8/8/8/K6P/3R4/8 b - - 0 45"),
            End::Open
        );
        let blocked = "8/8/8/8/8/p7/P7/8 b - - 0 1";
        assert_eq!(end(pgn::Ruleset::Antichess, blocked), End::Open);
        // Three-check: the third check ends the game, mate or not.
        let third = "4k3/8/8/8/8/8/8/R3K3 b - - 0 1 +3+0";
        assert_eq!(end(pgn::Ruleset::ThreeCheck, third), End::Open);
        assert_eq!(
            end(pgn::Ruleset::Chess, "4k3/8/8/8/8/8/8/R3K3 b - - 0 1"),
            End::Open
        );
    }

    #[test]
    fn a_chess_placement_alone_matches_either_side() {
        let rules = pgn::ChessRules;
        let start = pgn::Position::new();
        let placement = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        let either = rules.pattern(placement).expect("reads");
        assert!(rules.matches(&either, &start));
        let black = rules.pattern(&format!("{placement} b")).expect("reads");
        assert!(!rules.matches(&black, &start));
        assert!(rules.pattern("rnbq/8").is_err());
    }
}
