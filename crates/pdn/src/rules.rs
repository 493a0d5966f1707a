//! The PDN rules for the notation layer ([`DraughtsRules`]): a game's start from its
//! tags and set-ups, its moves read, played and written in each of its readings
//! ([`PdnPosition`], [`PdnMove`]), its result in its game type's tokens, a second reading
//! of a game the first could not read, and a game whose type was inferred settled into
//! one.

use std::fmt::Write as _;

use notation::{
    DiagnosticKind, Dialect, GameBuilder, GameResult, GameTree, LineId, MoveContext, Player,
    ReadOptions, Reader, Rules, Setup, SetupError, Tags,
};

use crate::every_reading;
use crate::forgiven::Forgiven;
use crate::gametype::GameType;
use crate::inline_setup;
use crate::movetext_errors::MoveError;
use crate::pdn_move::PdnMove;
use crate::pdn_position::{Inference, PdnPosition};
use crate::position::Position;
use crate::start_position;
use crate::variant::Variant;

/// Draughts for the notation layer: implements [`notation::Rules`], so that
/// [`notation::GameReader`] reads PDN files into games of legal draughts moves and
/// [`notation::write_game`] writes them back (with [`PDN_WRITE`](crate::PDN_WRITE)).
///
/// The game type of a game comes from its tags: `GameType` (read leniently, what was
/// forgiven becomes a warning), else lidraughts' `Variant`, else the reader's default
/// (international draughts, as PDN says). `FEN` sets the start position, with or without
/// `SetUp` (or `Setup`); `/FEN "…"/` in the movetext sets up another position (the move
/// number goes on; `/FEN "W::"/`, a FEN with no pieces, is a pass). Game types this
/// crate does not play (chess, Othello, reserved numbers, antidraughts) are
/// [`SetupError::Unsupported`]: the notation layer keeps such a game's movetext as text.
///
/// Moves are read leniently ([`Leniency`]) and written in their shortest PDN 3.0 form
/// with the game type's capture separator. The result is kept in the game type's own
/// tokens: `1-0` in an international game (PDN 2.0) is read as `2-0`, with a warning.
///
/// ```
/// use notation::{GameReader, ReadOptions, write_game};
/// use pdn::{DraughtsRules, PDN_WRITE};
///
/// let pdn = b"[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 (2... 13x24) 2-0\n";
/// let rules = DraughtsRules::new();
/// let game = GameReader::new(&rules, &pdn[..], ReadOptions::default())
///     .next()
///     .expect("one game")?;
/// assert!(game.diagnostics.is_empty());
/// let mut out = String::new();
/// write_game(&rules, &game.game, &PDN_WRITE, &mut out)?;
/// assert!(out.ends_with("[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 ( 2... 13x24 ) 2-0\n\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// When a game declares no type, or declares a numbering its moves do not follow, its
/// type is inferred:
///
/// A game's type comes from its `GameType` tag, else from its `Variant` tag, else it is
/// inferred, with a warning whenever the inference departs from the default:
///
/// - A game that declares no type is read in every game type of the default and then
///   [`INFERRED_VARIANTS`] in which its set-up can stand (a set-up of algebraic
///   squares tries the algebraic game types first). Each move is read in each of
///   them: those that cannot play it are dropped, and so are those that read it only
///   by forgiving another game type's way of writing it (squares in the other notation,
///   another game type's capture separator) when some reading reads it as written. The
///   first one left is the game's type: a game that fits international draughts is
///   international, a game whose first move is `11-15` is English, an algebraic game
///   whose captures are written `c3:e5` is Russian and one written `c3xe5` Czech. The
///   other game types are set up and follow the moves only when a move needs them (see
///   [`PdnPosition`]): a game its first game type reads as written costs no more than one
///   that declares it.
/// - A game that none of them reads to the end is read a second time
///   ([`Rules::second_reading`]): the game types left out of [`INFERRED_VARIANTS`] and
///   the readings dropped for their capture separator are held in reserve behind the
///   others, and come into play where none of those reads a move (an untagged Frisian
///   game at its first Frisian move, a Russian game written with `x` at the first capture
///   only Russian draughts allows), with the warning of a change of game type.
/// - A game that declares a type in full with a numbering of its own
///   (`20,W,10,10,N1,0`) but writes its moves in the variant's standard numbering is
///   read the same way in both numberings.
/// - An ambiguous capture (a capture named by its ends that could take different
///   pieces) makes one reading per candidate, until a later move rules all but one out;
///   it is written back as ambiguously as it was read while more than one is left.
///
/// Every inference is reported where it happens, as a warning (an error when reading
/// strictly). A game read into a tree is then settled ([`Rules::settle`]): a game whose
/// type was inferred (other than a plain international game) is read again in the game
/// type its main line settled, and its tags declare that type, so that its export says
/// what it is and reads back as the same tree.
///
/// ```
/// use notation::{read_games, ReadOptions};
/// use pdn::DraughtsRules;
///
/// let english = b"1. 11-15 23-19 2. 8-11 22-17 *\n";
/// let games = read_games(&DraughtsRules::new(), &english[..], ReadOptions::default());
/// assert_eq!(games[0].game.mainline().count(), 4);
/// assert!(games[0].diagnostics[0].to_string().contains("read as English draughts"));
/// assert_eq!(games[0].game.tags.get("GameType"), Some("21"));
/// ```
///
/// [`Leniency`]: crate::Leniency
/// [`INFERRED_VARIANTS`]: crate::INFERRED_VARIANTS
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DraughtsRules {
    default: GameType,
    infer: bool,
    /// Whether every game that declares no type is read as a second reading reads it.
    second: bool,
}

impl Default for DraughtsRules {
    fn default() -> Self {
        DraughtsRules::new()
    }
}

impl DraughtsRules {
    /// Plays a move from one board into another where only the position changes (see
    /// [`PdnPosition::play_into`]): `false`, with nothing done, otherwise.
    #[inline]
    pub(crate) fn play_position_into(
        from: &PdnPosition,
        to: &mut PdnPosition,
        mv: &PdnMove,
    ) -> bool {
        from.play_into(to, mv)
    }

    /// PDN's rules: a game that declares no type is international draughts, unless its
    /// set-up and moves are another game's.
    pub const fn new() -> DraughtsRules {
        DraughtsRules {
            default: GameType::new(Variant::International),
            infer: true,
            second: false,
        }
    }

    /// Rules whose games that declare no type are `game_type` games first (a reader of
    /// a collection known to be English draughts, say). Inference stays on.
    pub const fn with_default(game_type: GameType) -> DraughtsRules {
        DraughtsRules {
            default: game_type,
            infer: true,
            second: false,
        }
    }

    /// The same rules, inferring game types or not: without inference a game that
    /// declares no type is a game of the default type, whatever its moves.
    #[must_use]
    pub const fn inferring(self, infer: bool) -> DraughtsRules {
        DraughtsRules {
            default: self.default,
            infer,
            second: self.second,
        }
    }

    /// The same rules, reading every game that declares no type as its second reading
    /// reads it ([`Rules::second_reading`]): from its first move, the game types that are
    /// not inferred, and the readings of a capture written with another game type's
    /// separator, are held in reserve, behind the others. Slower than the first reading
    /// on every such game; the readers use it only for a game whose first reading failed.
    ///
    /// ```
    /// use notation::{read_games, ReadOptions};
    /// use pdn::DraughtsRules;
    ///
    /// // `14x34`, a capture along a file: Frisian draughts, which is not inferred.
    /// let frisian = b"1. 32-27 20-24 2. 33-28 24-29 3. 34x23 13x22 *";
    /// let second = DraughtsRules::new().reading_second();
    /// let games = read_games(&second, &frisian[..], ReadOptions::default());
    /// assert!(!games[0].has_errors());
    /// assert_eq!(games[0].game.tags.get("GameType"), Some("40"));
    /// ```
    #[must_use]
    pub const fn reading_second(self) -> DraughtsRules {
        DraughtsRules {
            second: true,
            ..self
        }
    }

    /// The game type of a game that declares none, before its moves are read.
    pub const fn default_game_type(&self) -> GameType {
        self.default
    }

    /// Whether game types are inferred.
    pub const fn infers(&self) -> bool {
        self.infer
    }
}

impl Rules for DraughtsRules {
    type Position = PdnPosition;
    type Move = PdnMove;
    type Forgiven = Forgiven;
    type MoveError = MoveError;

    fn dialect(&self) -> Dialect {
        Dialect::PDN
    }

    fn start_position(&self, tags: &Tags) -> Result<Setup<PdnPosition>, SetupError> {
        start_position::from_tags(tags, self.default, self.infer, self.second)
    }

    /// A game that declares no type is read a second time when its first reading had an
    /// error, keeping in reserve what the first reading leaves out: the game types it
    /// does not infer (Frisian draughts, American pool, Portuguese draughts,
    /// Spantsiretti), and the readings that read a capture only with another game type's
    /// separator (an untagged Russian game written with `x`). The readings in play go as
    /// in the first reading; those in reserve follow behind, and come into play only
    /// when none of those in play reads a move, with the warning a change of game type
    /// gives.
    fn second_reading(&self, tags: &Tags) -> Option<Result<Setup<PdnPosition>, SetupError>> {
        if self.second || !self.infer || !matches!(start_position::declared(tags), Ok(None)) {
            return None;
        }
        Some(start_position::from_tags(
            tags,
            self.default,
            self.infer,
            true,
        ))
    }

    /// A second reading is kept when the game it reads settles into one game type (see
    /// [`Rules::settle`]): a tree whose moves keep no record of readings in reserve, so that
    /// it is written and replayed from its tags as any other. A game whose lines end in
    /// different game types (a variation that only a game type in reserve plays) keeps its
    /// first reading, and its error.
    fn keeps_second_reading(&self, game: &GameTree<PdnMove>) -> bool {
        game.nodes().all(|node| node.mv.reading.is_none())
    }

    fn inline_setup(
        &self,
        current: &PdnPosition,
        text: &str,
    ) -> Result<Setup<PdnPosition>, SetupError> {
        inline_setup::set_up(current, text)
    }

    #[inline]
    fn read_move(
        &self,
        board: &PdnPosition,
        token: &[u8],
        _context: MoveContext,
    ) -> Result<(PdnMove, Forgiven), MoveError> {
        every_reading::read_move(board, token)
    }

    fn write_move(&self, board: &PdnPosition, mv: &PdnMove, out: &mut String) {
        let Some(reading) = &mv.reading else {
            if mv.whole_path {
                out.push_str(&board.position().move_to_text_full(&mv.mv));
            } else {
                out.push_str(&board.position().move_to_text(&mv.mv));
            }
            return;
        };
        board.with_readings(|readings| {
            let position = readings
                .get(usize::from(reading.from))
                .unwrap_or(board.position());
            if reading.others.iter().any(|(i, _)| *i == reading.from) {
                // An ambiguous capture whose candidates are all still readings of the
                // game: written as ambiguously as it was read, so that reading it back
                // keeps them.
                let g = position.geometry();
                let sep = position.game_type().capture_separator();
                let _ = write!(out, "{}{sep}{}", g.name(mv.mv.from()), g.name(mv.mv.to()));
            } else {
                out.push_str(&position.move_to_text(&mv.mv));
            }
        });
    }

    #[inline]
    fn play(&self, board: &mut PdnPosition, mv: &PdnMove) {
        board.play(mv);
    }

    fn turn(&self, board: &PdnPosition) -> Player {
        if board.position().turn() == board.game_type().start() {
            Player::First
        } else {
            Player::Second
        }
    }

    fn move_number(&self, board: &PdnPosition) -> u64 {
        u64::from(board.position().fullmove_number())
    }

    fn game_result(
        &self,
        tags: &Tags,
        end: Option<&PdnPosition>,
        result: GameResult,
    ) -> (GameResult, Vec<DiagnosticKind>) {
        let mut diagnostics = Vec::new();
        // PDN lets a ResultFormat tag allow other results (pdntags.rst).
        if let Some(value) = tags.get("Result").map(str::trim).filter(|v| !v.is_empty()) {
            let readable = GameResult::from_token(value.as_bytes())
                .or_else(|| GameResult::from_lenient_token(value.as_bytes()))
                .is_some();
            if !readable && !tags.contains("ResultFormat") {
                diagnostics.push(DiagnosticKind::BadTagValue {
                    name: "Result".to_owned(),
                    message: format!(
                        "\"{value}\" is not a result (2-0, 0-2, 1-1, 1-0, 0-1, 1/2-1/2, 0-0 or *)"
                    ),
                });
            }
        }
        let (result, more) = self.result_for(tags, end, result);
        diagnostics.extend(more);
        (result, diagnostics)
    }

    /// A game that declares no type and whose moves were read in several game types
    /// (or settled another game type than international draughts, PDN's default) is
    /// read again as a game of the game type its main line settled, and declares it
    /// (international draughts too): its tree then holds that game type's moves,
    /// written as that game type writes them, and reads back as the same tree. A game that does not read the same way in that
    /// game type alone (a variation only another game type can play) is kept as read.
    fn settle(
        &self,
        game: &mut GameTree<PdnMove>,
        end: &PdnPosition,
        text: &[u8],
        options: ReadOptions,
    ) {
        if end.inference() != Inference::Undeclared {
            return;
        }
        if !self.infer {
            // Read as the game type the reader was given: declared, so that the game
            // reads back as it was read (PDN's own default needs no tag).
            if self.default != GameType::new(Variant::International) {
                game.tags.set("GameType", self.default.to_short_string());
            }
            return;
        }
        let settled = end.game_type();
        let international = GameType::new(Variant::International);
        let inferred = game
            .nodes()
            .any(|node| node.mv.reading.is_some() || node.mv.whole_path);
        if settled == international && !inferred {
            return;
        }
        // Declared even when it is international draughts: without the tag, the writer
        // and a reader would start from the game type the set-up fits first.
        if settled_as_read(game, settled) {
            // The moves are the settled game type's already: what is recorded of the
            // other readings goes.
            for node in game.nodes_mut() {
                node.mv.reading = None;
                node.mv.whole_path = false;
            }
            game.tags.set("GameType", settled.to_short_string());
            return;
        }
        // The game type the main line settled; where it does not read the whole game (a
        // variation only another game type plays), the first game type another line ends
        // in that does.
        let rules = if end.keeps_reserve() {
            self.reading_second()
        } else {
            *self
        };
        let declare =
            |game: &mut GameTree<PdnMove>, again: GameTree<PdnMove>, game_type: GameType| {
                let mut tags = std::mem::take(&mut game.tags);
                tags.set("GameType", game_type.to_short_string());
                *game = again;
                game.tags = tags;
            };
        if let Some(again) = read_whole(game, settled, text, options) {
            declare(game, again, settled);
            return;
        }
        // Only then are the other lines' game types found (the tree played again).
        for game_type in rules.line_end_game_types(game) {
            if game_type == settled {
                continue;
            }
            if let Some(again) = read_whole(game, game_type, text, options) {
                declare(game, again, game_type);
                return;
            }
        }
    }

    fn settles(&self, end: &PdnPosition) -> bool {
        end.inference() == Inference::Undeclared
            && (self.infer || self.default != GameType::new(Variant::International))
    }

    fn move_continues(&self, token: &[u8]) -> bool {
        // `1-` before ` 7`: a square, then a separator, and nothing after it.
        match token.split_last() {
            Some((&(b'-' | b'x' | b'X' | b':'), square)) => {
                !square.is_empty()
                    && square.iter().all(u8::is_ascii_alphanumeric)
                    && square.last().is_some_and(u8::is_ascii_digit)
            }
            _ => false,
        }
    }
}

/// A game read again from its text as a game of `game_type` alone, if that gives a tree
/// of the same shape as `game` (as many moves, lines, and the same text kept unread).
fn read_whole(
    game: &GameTree<PdnMove>,
    game_type: GameType,
    text: &[u8],
    options: ReadOptions,
) -> Option<GameTree<PdnMove>> {
    // Without inference, so that the game type is the one given (and this game is not
    // settled again).
    let rules = DraughtsRules::with_default(game_type).inferring(false);
    let mut reader = Reader::with_buffer(text, rules.dialect(), options, text.len() + 1);
    let mut builder = GameBuilder::new(&rules, options);
    let again = reader.read_game(&mut builder).ok()??.game;
    let same_shape = again.node_count() == game.node_count()
        && again.line_count() == game.line_count()
        && again.tail == game.tail;
    same_shape.then_some(again)
}

/// Whether every move of a game whose type was inferred is already the move of the game
/// type its main line settled, so that reading it again in that game type alone would give
/// the same tree: the preferred reading changed at the main line's first move at most (an
/// English game's `11-15`), no variation branches off there (it starts where the game
/// type is still open), no capture was ambiguous, no set-up after a move (where the game
/// type may change too, with no move to say so), and the result is one that game type
/// writes.
fn settled_as_read(game: &GameTree<PdnMove>, settled: GameType) -> bool {
    let set_up_later = game.nodes().any(|node| {
        node.setup.is_some()
            || node
                .variations
                .iter()
                .any(|&l| game.line(l).setup.is_some())
    });
    if set_up_later {
        return false;
    }
    let first = game
        .line(LineId::MAIN)
        .moves
        .first()
        .map(|&id| game.node(id));
    if first.is_some_and(|node| !node.variations.is_empty())
        || !settled.result_type().writes(game.result)
    {
        return false;
    }
    game.nodes().all(|node| match &node.mv.reading {
        None => true,
        Some(reading) => {
            let forks = reading.others.iter().any(|&(i, _)| i == reading.from);
            let at_first = first.is_some_and(|f| std::ptr::eq(f, node));
            !forks && (reading.from == 0 || at_first)
        }
    })
}

impl DraughtsRules {
    /// The game types the lines of a game read with these rules end in (their preferred
    /// readings, then the others), each once: its moves played again from its tags, every
    /// variation from the board before the move it replaces. An explicit stack, not
    /// recursion: variations nest to any depth.
    fn line_end_game_types(&self, game: &GameTree<PdnMove>) -> Vec<GameType> {
        let Ok(setup) = self.start_position(&game.tags) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        let mut lines = vec![(LineId::MAIN, setup.position)];
        while let Some((line, mut board)) = lines.pop() {
            let set_up = |board: &PdnPosition, text: &Option<String>| match text {
                Some(text) => self.inline_setup(board, text).ok().map(|s| s.position),
                None => Some(board.clone()),
            };
            let Some(start) = set_up(&board, &game.line(line).setup) else {
                continue;
            };
            board = start;
            let mut complete = true;
            for node in game.moves(line) {
                for &variation in &node.variations {
                    lines.push((variation, board.clone()));
                }
                self.play(&mut board, &node.mv);
                match set_up(&board, &node.setup) {
                    Some(after) => board = after,
                    None => {
                        complete = false;
                        break;
                    }
                }
            }
            if complete {
                let mut ends = vec![board.game_type()];
                ends.extend(board.alternatives().iter().map(Position::game_type));
                for game_type in ends {
                    if !found.contains(&game_type) {
                        found.push(game_type);
                    }
                }
            }
        }
        found
    }

    /// The result token a game keeps: the one its game type writes for the result, with
    /// a diagnostic when the marker was the other result type's.
    fn result_for(
        &self,
        tags: &Tags,
        end: Option<&PdnPosition>,
        result: GameResult,
    ) -> (GameResult, Vec<DiagnosticKind>) {
        let preferred = match end {
            Some(board) => {
                // While the game type is open, a result token one reading writes is
                // kept as that reading's.
                let writes = |game_type: GameType| game_type.result_type().writes(result);
                if writes(board.game_type()) || board.with_readings(|r| r.game_types().any(writes))
                {
                    return (result, Vec::new());
                }
                board.game_type()
            }
            None => match start_position::declared(tags) {
                Ok(Some(d)) => d.game_type,
                _ => return (result, Vec::new()),
            },
        };
        let mapped = preferred.result_type().token_for(result);
        if mapped == result {
            return (result, Vec::new());
        }
        let kind = DiagnosticKind::LenientResult {
            found: result.to_string(),
            result: mapped.to_string(),
        };
        (mapped, vec![kind])
    }
}
