//! Building owned games: a [`Visitor`] that plays every move with a game's [`Rules`].

use std::collections::HashSet;
use std::io::{self, Read};
use std::ops::ControlFlow;

use crate::collector::GameDiagnostics;
use crate::diagnostic::Severity;
use crate::diagnostic::{Diagnostic, DiagnosticKind};
use crate::dialect::Dialect;
use crate::location::Location;
use crate::nag::Nag;
use crate::options::ReadOptions;
use crate::outcome::GameResult;
use crate::reader::Reader;
use crate::rules::{Forgiveness, MoveContext, Rules};
use crate::second::SecondReading;
use crate::span::Span;
use crate::tags::{RawTags, Tag, Tags};
use crate::tagvalue::ValueForm;
use crate::tree::{GameTree, LineId, NodeId, Tail};
use crate::visitor::{At, RawGame, RawValue, Skip, Visitor};

/// One game as read: the tree, what was forgiven or went wrong, and where it was.
#[derive(Clone, Debug)]
pub struct ReadGame<M> {
    /// The game.
    pub game: GameTree<M>,
    /// Warnings and errors, in input order.
    pub diagnostics: Vec<Diagnostic>,
    /// The game's bytes as written, kept when it has an error (or always, if asked).
    pub raw: Option<Vec<u8>>,
    /// Where the game is in the input.
    pub span: Span,
    /// The 0-based index of the game in the input.
    pub index: u64,
    /// Whether its movetext ended with a termination marker. Without one, its result is
    /// the `Result` tag's (or `*`), and the writer adds the marker.
    pub marked: bool,
    /// Whether the tree was built: a game that grows past the builder's threshold
    /// ([`GameBuilder::large_after`]) is read without it, and its `game` then holds only
    /// its tags and its result, as read.
    pub built: bool,
    /// For a game read without its tree: whether a writer that reads its text again and
    /// writes as it reads ([`write_text_to`](crate::write_text_to)) writes what its tree
    /// would. That holds unless its glyphs, comments, variations and set-ups come in
    /// another order than the export format's (a comment after a variation of the move
    /// it follows), or its rules would settle its tree ([`Rules::settles`]): such a game
    /// is read again into a tree to be written.
    pub streams: bool,
    /// Whether its movetext was passed over, unread, because its tags did not pass the
    /// reader's filter ([`GameReader::movetext_only_if`]): `game` then holds only its tags.
    pub passed_over: bool,
    /// Whether the reader held the game whole ([`RawGame::held`]). One it skipped as too
    /// large to hold, with an error that says so, holds only its tags and result: the
    /// moves read before the reader gave up are not the game, and a tree of them would
    /// pass for a shorter one.
    pub held: bool,
    /// Whether its text begins a line of the input ([`RawGame::starts_line`]): to read
    /// [`ReadGame::raw`] again alone as it was read ([`GameText`](crate::GameText)).
    pub starts_line: bool,
}

impl<M> ReadGame<M> {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// When to keep a game's raw bytes in [`ReadGame::raw`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeepRaw {
    /// Never.
    Never,
    /// When the game has an error.
    #[default]
    OnError,
    /// Always.
    Always,
}

/// Where a move, a comment or a set-up goes: after a move, or before the first move of a
/// line (a line's set-up replaces its start position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// After this move.
    Node(NodeId),
    /// Before the first move of this line.
    Line(LineId),
}

/// What a [`GameBuilder`] makes of the games it reads: it tells its sink each move, glyph,
/// comment, variation and set-up in the order it reads them, with the move or line each
/// belongs to, as a tree holds them. [`TreeSink`] builds the [`GameTree`]; other sinks write a
/// game as they read it, or gather what they need of it, without a tree.
///
/// Moves are numbered in the order they are read from 0, and lines in the order they are
/// opened from 1 (the main line is 0), as a [`GameTree`] numbers them: a sink that builds
/// nothing returns those numbers.
#[allow(unused_variables)]
pub trait GameSink<R: Rules> {
    /// What a game becomes.
    type Output;

    /// A reading of a game begins (a game read again begins again).
    fn begin_game(&mut self) {}

    /// The game turned out larger than the builder's threshold
    /// ([`GameBuilder::large_after`]): a sink that builds the game may stop building it.
    fn large(&mut self) {}

    /// The movetext begins after the tags `tags`; `start` is the position the main line's
    /// first move is read from (`None` when it cannot be set up: no move is then read).
    fn begin_movetext(&mut self, tags: &Tags, start: Option<&R::Position>) {}

    /// A move of `line`, read at `at`, from `position`; returns its id.
    fn push_move(&mut self, line: LineId, mv: R::Move, position: &R::Position) -> NodeId;

    /// [`GameSink::push_move`], with the token the move was read from when the rules
    /// write the move as that very token ([`Rules::writes_tokens_as_read`]). The
    /// default forgets the token.
    fn push_move_as_read(
        &mut self,
        line: LineId,
        mv: R::Move,
        position: &R::Position,
        token: Option<&str>,
    ) -> NodeId {
        let _ = token;
        self.push_move(line, mv, position)
    }

    /// A glyph after a move.
    fn nag(&mut self, node: NodeId, nag: Nag) {}

    /// A comment (decoded, as written), after a move or before the first move of a line.
    /// False when it cannot be kept, for lack of memory: it is reported and left out.
    fn comment(&mut self, place: Place, text: &str) -> bool {
        true
    }

    /// A variation of `node` opens; returns its id.
    fn add_variation(&mut self, node: NodeId) -> LineId;

    /// The variation `line` closes.
    fn end_variation(&mut self, line: LineId) {}

    /// A set-up (decoded, as written) after a move or before the first move of a line:
    /// it replaces the one there, if any.
    fn setup(&mut self, place: Place, text: &str) {}

    /// The movetext kept as text from where the moves stopped being read: it continues
    /// `line`. False when it cannot be kept, for lack of memory.
    fn keep_tail(&mut self, line: LineId, text: &str) -> bool {
        true
    }

    /// The game is over.
    fn end_game(&mut self, game: Ended<'_, R>) -> Self::Output;

    /// Asked after [`GameSink::end_game`] of a second reading ([`Ended::second`]):
    /// whether the builder keeps it ([`Rules::keeps_second_reading`]) rather than read
    /// the first again. The default: yes.
    fn keeps_second_reading(&mut self) -> bool {
        true
    }
}

/// A game as a [`GameBuilder`] hands it to its [`GameSink`] at its end.
pub struct Ended<'a, R: Rules> {
    /// The rules the game was read with.
    pub rules: &'a R,
    /// How it was read.
    pub options: ReadOptions,
    /// Its tags, in file order (duplicates left out).
    pub tags: Tags,
    /// Its result, as the rules keep it.
    pub result: GameResult,
    /// Whether its movetext ended with a termination marker (else `result` came from the
    /// `Result` tag, or is `*`).
    pub marked: bool,
    /// The movetext kept as text, and the line it continues.
    pub tail: Option<(LineId, &'a str)>,
    /// The position its main line ends in, when its start position could be set up.
    pub end: Option<&'a R::Position>,
    /// Its bytes as written ([`RawGame::bytes`]).
    pub text: &'a [u8],
    /// Its warnings and errors, in input order.
    pub diagnostics: Vec<Diagnostic>,
    /// A copy of its bytes as written, if [`KeepRaw`] asks for one.
    pub raw: Option<Vec<u8>>,
    /// Where it is in the input.
    pub span: Span,
    /// The 0-based index of the game in the input.
    pub index: u64,
    /// Whether this is its second reading ([`Rules::second_reading`]).
    pub second: bool,
    /// Whether its glyphs, comments, variations and set-ups came in the order the export
    /// format writes them: after a move its glyphs and comments (in any order), then its
    /// variations, then its set-up; before a line's first move its comments, then its
    /// set-up. A writer that writes as it reads ([`write_text_to`](crate::write_text_to))
    /// writes what the tree would only then.
    pub in_export_order: bool,
    /// Whether its movetext was passed over because its tags did not pass the filter
    /// ([`GameBuilder::movetext_only_if`]).
    pub passed_over: bool,
    /// Whether the reader held the game whole ([`RawGame::held`]).
    pub held: bool,
    /// Whether its text begins a line of the input ([`RawGame::starts_line`]).
    pub starts_line: bool,
}

/// A [`GameSink`] that builds the [`GameTree`] tree, and settles it ([`Rules::settle`]).
///
/// A game larger than the builder's threshold ([`GameBuilder::large_after`]) is not
/// built: its [`ReadGame::built`] is false, and its game holds its tags and result only.
pub struct TreeSink<M> {
    game: GameTree<M>,
    /// Whether the game is not built (see [`GameSink::large`]).
    large: bool,
    /// Moves and lines counted while not built.
    nodes: u32,
    lines: u32,
    /// The answer for [`GameSink::keeps_second_reading`].
    keeps_second: bool,
}

impl<M> Default for TreeSink<M> {
    fn default() -> Self {
        TreeSink {
            game: GameTree::new(),
            large: false,
            nodes: 0,
            lines: 1,
            keeps_second: true,
        }
    }
}

impl<R: Rules> GameSink<R> for TreeSink<R::Move> {
    type Output = ReadGame<R::Move>;

    fn begin_game(&mut self) {
        self.game = GameTree::new();
        self.large = false;
        self.nodes = 0;
        self.lines = 1;
    }

    fn large(&mut self) {
        if !self.large {
            self.large = true;
            self.nodes = index_u32(self.game.node_count());
            self.lines = index_u32(self.game.line_count());
            self.game = GameTree::new();
        }
    }

    #[inline]
    fn push_move(&mut self, line: LineId, mv: R::Move, _: &R::Position) -> NodeId {
        if self.large {
            self.nodes = self.nodes.saturating_add(1);
            return NodeId::new(self.nodes - 1);
        }
        self.game.push_move(line, mv)
    }

    #[inline]
    fn nag(&mut self, node: NodeId, nag: Nag) {
        if !self.large {
            self.game.node_mut(node).nags.push(nag);
        }
    }

    fn comment(&mut self, place: Place, text: &str) -> bool {
        if self.large {
            return true;
        }
        let Some(text) = fold_whitespace(text) else {
            return false;
        };
        match place {
            Place::Node(node) => self.game.node_mut(node).comments.push(text),
            Place::Line(line) => self.game.line_mut(line).comments.push(text),
        }
        true
    }

    fn add_variation(&mut self, node: NodeId) -> LineId {
        if self.large {
            self.lines = self.lines.saturating_add(1);
            return LineId::new(self.lines - 1);
        }
        self.game.add_variation(node)
    }

    fn setup(&mut self, place: Place, text: &str) {
        if self.large {
            return;
        }
        let place = match place {
            Place::Node(node) => &mut self.game.node_mut(node).setup,
            Place::Line(line) => &mut self.game.line_mut(line).setup,
        };
        *place = Some(text.to_owned());
    }

    fn keep_tail(&mut self, line: LineId, text: &str) -> bool {
        if self.large {
            return true;
        }
        match try_copy_str(text) {
            Some(text) => {
                if !text.is_empty() {
                    self.game.tail = Some(Tail { line, text });
                }
                true
            }
            None => false,
        }
    }

    fn end_game(&mut self, ended: Ended<'_, R>) -> ReadGame<R::Move> {
        let mut game = std::mem::take(&mut self.game);
        if !ended.held {
            game = GameTree::new();
        }
        game.tags = ended.tags;
        game.result = ended.result;
        let built = !self.large;
        let mut streams = false;
        if !ended.held {
            // Neither its moves nor its text are there to write.
        } else if built {
            if let Some(end) = ended.end {
                ended
                    .rules
                    .settle(&mut game, end, ended.text, ended.options);
            }
            if ended.second {
                self.keeps_second = ended.rules.keeps_second_reading(&game);
            }
        } else {
            // A game read again is built (see `GameBuilder::read_again`): no second
            // reading is read without its tree.
            streams = ended.in_export_order
                && !ended.second
                && !ended.end.is_some_and(|end| ended.rules.settles(end));
        }
        ReadGame {
            game,
            diagnostics: ended.diagnostics,
            raw: ended.raw,
            span: ended.span,
            index: ended.index,
            marked: ended.marked,
            built,
            streams,
            passed_over: ended.passed_over,
            held: ended.held,
            starts_line: ended.starts_line,
        }
    }

    fn keeps_second_reading(&mut self) -> bool {
        std::mem::replace(&mut self.keeps_second, true)
    }
}

/// Arena indices are `u32`, as the tree's.
fn index_u32(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

/// One open line while building: where its moves go and the positions around its last move.
struct Frame<P> {
    line: LineId,
    /// The position after the line's last move.
    position: P,
    /// The position before the line's last move: where a variation starts.
    before: P,
    last: Option<NodeId>,
    /// The position before the set-up at the line's current place, if there is one: a
    /// later set-up in the same place replaces it in the tree, so it is played from there.
    unset: Option<P>,
    /// The set-up at the line's current place, if any: a later one there replaces it.
    placed: Option<String>,
    /// What came at the line's current place so far, in the export format's order.
    stage: Stage,
}

/// What has come after a move (or before a line's first move), in the order the export
/// format writes it: glyphs and comments, then variations, then a set-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    Annotations,
    Variations,
    Setup,
}

/// Builds [`GameTree`]s from a [`Reader`]'s callbacks, resolving and playing every move.
///
/// What it builds is its [`GameSink`]'s business: by default the tree ([`TreeSink`]).
pub struct GameBuilder<'r, R: Rules, S = TreeSink<<R as Rules>::Move>> {
    rules: &'r R,
    options: ReadOptions,
    keep_raw: KeepRaw,
    sink: S,
    tags: Tags,
    result: GameResult,
    diagnostics: GameDiagnostics,
    frames: Vec<Frame<R::Position>>,
    context: MoveContext,
    /// Whether moves are no longer read: after an error, or for unsupported rules.
    stopped: bool,
    /// Where the movetext kept as text starts, once known.
    tail_start: Option<(LineId, u64)>,
    /// Where the game stopped being read, for a diagnostic about the text kept.
    tail_at: Location,
    marker_start: Option<u64>,
    /// Where the move number before the next move starts, so that text kept after a
    /// refused move starts with its number.
    number_start: Option<u64>,
    /// The tag names of a game with many tags, so that finding duplicates stays linear.
    tag_names: HashSet<String>,
    /// Where the last tag pair ended: comments from before it (held by the reader until
    /// the tags are read) are not movetext.
    tags_end: u64,
    /// The span of a move token cut short (`1-` of `1- 7`), to be joined with the next.
    held: Option<Span>,
    /// The game's second reading ([`Rules::second_reading`]).
    second: SecondReading<R::Position>,
    /// From how many bytes on a game is large ([`GameBuilder::large_after`]).
    large_after: u64,
    /// Where the game becomes large: its first token's start and `large_after` (0 before
    /// its first token, `u64::MAX` once large or when never).
    limit: u64,
    /// Whether the next game to begin is the last one read again.
    again: bool,
    /// Whether the game's glyphs, comments, variations and set-ups came out of the
    /// export format's order ([`Ended::in_export_order`]).
    out_of_order: bool,
    /// Which games are read, by their tags ([`GameBuilder::movetext_only_if`]).
    wants_movetext: Option<&'r (dyn Fn(&RawTags) -> bool + Sync)>,
    /// Whether this reading of the game is the light one of a filter: its tags are held
    /// as written, unchecked, and nothing else is read.
    light: bool,
    /// The tags of a light reading.
    raw_tags: RawTags,
    /// Whether the game's light reading found it wanted: it is read again, whole.
    wanted: bool,
    /// Whether the game beginning is that reading.
    rereading_wanted: bool,
    /// Whether this game's tags failed the filter: it is not read.
    passed_over: bool,
}

/// Below this many tags, duplicates are found by a scan of the tags: cheaper than a set of
/// names for the twenty-odd tags of a TWIC or federation game (hashing and copying each name
/// took 6% of `select --player` on TWIC with a limit of 16).
const TAG_SCAN_LIMIT: usize = 32;

impl<'r, R: Rules> GameBuilder<'r, R> {
    /// A builder of trees with these rules and options.
    pub fn new(rules: &'r R, options: ReadOptions) -> GameBuilder<'r, R> {
        GameBuilder::with_sink(rules, options, TreeSink::default())
    }
}

impl<'r, R: Rules, S: GameSink<R>> GameBuilder<'r, R, S> {
    /// A builder with these rules and options that tells `sink` what it reads.
    pub fn with_sink(rules: &'r R, options: ReadOptions, sink: S) -> GameBuilder<'r, R, S> {
        GameBuilder {
            rules,
            options,
            keep_raw: KeepRaw::default(),
            sink,
            tags: Tags::new(),
            result: GameResult::Unknown,
            diagnostics: GameDiagnostics::new(options),
            frames: Vec::new(),
            context: MoveContext::default(),
            stopped: false,
            tail_start: None,
            tail_at: Location::default(),
            marker_start: None,
            number_start: None,
            tag_names: HashSet::new(),
            tags_end: 0,
            held: None,
            second: SecondReading::default(),
            large_after: u64::MAX,
            limit: 0,
            again: false,
            out_of_order: false,
            wants_movetext: None,
            light: false,
            raw_tags: RawTags::default(),
            wanted: false,
            rereading_wanted: false,
            passed_over: false,
        }
    }

    /// Sets when raw bytes are kept.
    pub fn keep_raw(mut self, keep: KeepRaw) -> Self {
        self.keep_raw = keep;
        self
    }

    /// Tells the sink ([`GameSink::large`]) when a game is found to span `bytes` bytes or
    /// more: a tree builder then stops building it, and the game is handed over with its
    /// diagnostics and no tree ([`ReadGame::built`]), to be written from its text.
    pub fn large_after(mut self, bytes: u64) -> Self {
        self.large_after = bytes;
        self
    }

    /// Reads only the games whose tags `wanted` accepts; the others are handed over
    /// empty ([`ReadGame::passed_over`]: no tags, no moves), nothing in them read or
    /// checked: the reader only finds where they end, which is many times faster than
    /// reading them. For picking games out of a collection by their tags.
    ///
    /// Each game is read first lightly, its tags held as written ([`RawTags`]) for
    /// `wanted` to judge; a game it accepts is read again, whole, from its first byte, as
    /// if there were no filter (its diagnostics are the same).
    pub fn movetext_only_if(mut self, wanted: &'r (dyn Fn(&RawTags) -> bool + Sync)) -> Self {
        self.wants_movetext = Some(wanted);
        self
    }

    /// Takes the diagnostics given outside any game (text after the last game, an empty input).
    pub fn take_orphans(&mut self) -> Vec<Diagnostic> {
        self.diagnostics.take_orphans()
    }

    /// The sink, to take from it what it gathered between games.
    pub fn sink_mut(&mut self) -> &mut S {
        &mut self.sink
    }

    fn report(&mut self, kind: DiagnosticKind, at: &At<'_>) {
        self.diagnostics.report(kind, at);
    }

    /// Reports what the start position's set-up said, once, at the first movetext token.
    #[inline]
    fn flush_setup_at(&mut self, at: &At<'_>) {
        self.diagnostics.flush_setup_at(at);
    }

    /// Notes a token of the game, and tells the sink once the game is large: one
    /// comparison per token, with where the game becomes large (`limit`) known from its
    /// first token on.
    #[inline(always)]
    fn measure(&mut self, at: &At<'_>) {
        if at.span().end >= self.limit {
            self.measure_again(at);
        }
    }

    #[cold]
    fn measure_again(&mut self, at: &At<'_>) {
        if self.limit == 0 {
            // The first token of the game.
            self.limit = at.span().start.saturating_add(self.large_after);
            if at.span().end < self.limit {
                return;
            }
        }
        // Past the threshold: never measured again in this game.
        self.limit = u64::MAX;
        self.sink.large();
    }

    /// Reads a move token (joined or not) and plays it.
    fn read_token(&mut self, token: &[u8], at: At<'_>) -> ControlFlow<()> {
        self.flush_setup_at(&at);
        let context = std::mem::take(&mut self.context);
        let rules = self.rules;
        let Some(frame) = self.frames.last_mut() else {
            return self.stop_at(&at);
        };
        rules.follow_move_number(&mut frame.position, context);
        frame.before.clone_from(&frame.position);
        match rules.read_and_play(&mut frame.position, token, context) {
            Ok((mv, forgiven)) => {
                self.number_start = None;
                if let Some(number) = context.number {
                    let expected = rules.move_number(&frame.before);
                    if number != expected {
                        let kind = DiagnosticKind::WrongMoveNumber {
                            found: number,
                            expected,
                        };
                        self.report(kind, &at);
                    }
                }
                if !forgiven.is_none() {
                    let kind = DiagnosticKind::LenientMove {
                        token: String::from_utf8_lossy(token).into_owned(),
                        message: forgiven.to_string(),
                    };
                    self.report(kind, &at);
                }
                let Some(frame) = self.frames.last_mut() else {
                    return ControlFlow::Continue(());
                };
                let as_read = (forgiven.is_none() && rules.writes_tokens_as_read())
                    .then(|| crate::encoding::utf8(token))
                    .flatten();
                let node = self
                    .sink
                    .push_move_as_read(frame.line, mv, &frame.before, as_read);
                frame.unset = None;
                frame.placed = None;
                frame.stage = Stage::Annotations;
                frame.last = Some(node);
                ControlFlow::Continue(())
            }
            Err(error) => {
                let kind = DiagnosticKind::BadMove {
                    token: String::from_utf8_lossy(token).into_owned(),
                    message: error.to_string(),
                };
                self.report(kind, &at);
                self.stop_at(&at)
            }
        }
    }

    /// Reads a move token cut short alone, when what follows it is not a move.
    fn flush_held(&mut self, at: &At<'_>) -> ControlFlow<()> {
        match self.held.take() {
            Some(span) => {
                let held = at.with_span(span);
                self.read_token(held.bytes(), held)
            }
            None => ControlFlow::Continue(()),
        }
    }

    /// Stops reading moves: the movetext from `at` on is kept as text.
    fn stop_at(&mut self, at: &At<'_>) -> ControlFlow<()> {
        self.flush_setup_at(at);
        let line = self.frames.last().map_or(LineId::MAIN, |f| f.line);
        let start = self.number_start.take().unwrap_or(at.span().start);
        self.tail_start = Some((line, start));
        self.tail_at = at.location();
        self.stopped = true;
        ControlFlow::Break(())
    }

    /// Where a glyph, a comment or a set-up read now goes.
    fn place(&self) -> Place {
        match self.frames.last() {
            Some(Frame {
                last: Some(node), ..
            }) => Place::Node(*node),
            Some(frame) => Place::Line(frame.line),
            None => Place::Line(LineId::MAIN),
        }
    }

    /// Notes what comes now at the current line's place, and whether it comes out of
    /// the export format's order (see [`Ended::in_export_order`]).
    fn reach(&mut self, stage: Stage) {
        if let Some(frame) = self.frames.last_mut() {
            if frame.stage > stage || frame.stage == Stage::Setup {
                self.out_of_order = true;
            }
            frame.stage = frame.stage.max(stage);
        }
    }

    fn last_node(&self) -> Option<NodeId> {
        self.frames.last().and_then(|f| f.last)
    }
}

/// The tag name and the form of its value, if it has one of its own, checked as it is
/// read.
fn typed_tag(name: &[u8]) -> Option<(&'static str, ValueForm)> {
    use ValueForm::{Date, Integer, Ratings, Round, Time, TimeControl};
    Some(match name {
        b"Date" => ("Date", Date),
        b"EventDate" => ("EventDate", Date),
        b"UTCDate" => ("UTCDate", Date),
        b"Round" => ("Round", Round),
        b"Time" => ("Time", Time),
        b"UTCTime" => ("UTCTime", Time),
        b"TimeControl" => ("TimeControl", TimeControl),
        b"WhiteElo" => ("WhiteElo", Ratings),
        b"BlackElo" => ("BlackElo", Ratings),
        b"WhiteUSCF" => ("WhiteUSCF", Ratings),
        b"BlackUSCF" => ("BlackUSCF", Ratings),
        b"WhiteRating" => ("WhiteRating", Ratings),
        b"BlackRating" => ("BlackRating", Ratings),
        b"PlyCount" => ("PlyCount", Integer),
        b"Board" => ("Board", Integer),
        _ => return None,
    })
}

/// What the game builder reports about a tag's value: for the tags whose values have a
/// form of their own (dates, rounds, times, time controls, ratings, whole numbers), a
/// [`DiagnosticKind::BadTagValue`] when the value does not have it. The dialect says
/// whether an empty value stands for an unknown one (PDN) or is a departure (PGN).
///
/// For visitors that check games without building them, so that they report what the
/// builder reports: the name and the value are given as read (the value unescaped), and
/// the value is decoded only for the tags that are checked, as the builder decodes it
/// (UTF-8, else Windows-1252).
///
/// ```
/// use notation::{check_tag_value, Dialect, DiagnosticKind};
/// assert_eq!(check_tag_value(&Dialect::PGN, b"Date", b"1992.11.04"), None);
/// assert_eq!(check_tag_value(&Dialect::PGN, b"White", b"anything"), None);
/// let Some(DiagnosticKind::BadTagValue { name, .. }) = check_tag_value(&Dialect::PGN, b"Round", b"third")
/// else { panic!() };
/// assert_eq!(name, "Round");
/// ```
pub fn check_tag_value(dialect: &Dialect, name: &[u8], value: &[u8]) -> Option<DiagnosticKind> {
    let (name, form) = typed_tag(name)?;
    if value.is_empty() && !dialect.strict_layout {
        return None;
    }
    let (value, _) = crate::encoding::decode(value);
    form.check(&value)
        .err()
        .map(|error| DiagnosticKind::BadTagValue {
            name: name.to_owned(),
            message: error.to_string(),
        })
}

fn decode_text(bytes: &[u8]) -> (String, bool) {
    let (text, lossy) = crate::encoding::decode(bytes);
    (text.into_owned(), lossy)
}

/// Below this many bytes, text from the input is given room by the allocator's usual
/// path, as every other small allocation is: fallible allocation goes through a slower
/// one, which every comment of every game would pay.
const SMALL_TEXT: usize = 64 << 10;

/// An empty string with room for `len` bytes; `None` when a large one cannot be had.
fn string_with_room(len: usize) -> Option<String> {
    if len <= SMALL_TEXT {
        return Some(String::with_capacity(len));
    }
    let mut out = String::new();
    out.try_reserve_exact(len).ok()?;
    Some(out)
}

/// Comment text as the tree keeps it: white space runs folded to one space, trimmed,
/// since the export format rewraps comments anyway. `None` when the memory for it cannot
/// be had: its size comes from the input, so the allocation is a fallible one, and the
/// comment is then reported and left out rather than the program ended.
fn fold_whitespace(text: &str) -> Option<String> {
    let mut out = string_with_room(text.len())?;
    crate::writer::push_collapsed(&mut out, text);
    Some(out)
}

/// A copy of text from the input, by fallible allocation (see [`fold_whitespace`]).
fn try_copy_str(text: &str) -> Option<String> {
    let mut out = string_with_room(text.len())?;
    out.push_str(text);
    Some(out)
}

/// A copy of bytes from the input, by fallible allocation (see [`fold_whitespace`]).
fn try_copy(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    out.try_reserve_exact(bytes.len()).ok()?;
    out.extend_from_slice(bytes);
    Some(out)
}

impl<R: Rules, S: GameSink<R>> Visitor for GameBuilder<'_, R, S> {
    type Output = S::Output;

    fn begin_game(&mut self) {
        // A game read again (a second reading, or the first once more) is built
        // whatever its size: the rules ask its tree whether to keep it
        // ([`Rules::keeps_second_reading`]). Those are rare: games that declare no type,
        // with an error in their first reading.
        let again = std::mem::take(&mut self.again);
        self.limit = if again { u64::MAX } else { 0 };
        // A game is read lightly first when a filter judges it, unless this is its reading
        // again (the whole one it was found wanted for, or a second reading).
        let rereading_wanted = std::mem::take(&mut self.rereading_wanted);
        self.light = self.wants_movetext.is_some() && !again && !rereading_wanted;
        self.raw_tags.clear();
        self.wanted = false;
        self.out_of_order = false;
        self.passed_over = false;
        self.sink.begin_game();
        self.tags = Tags::new();
        self.result = GameResult::Unknown;
        self.diagnostics.begin_game();
        self.frames.clear();
        self.context = MoveContext::default();
        self.stopped = false;
        self.tail_start = None;
        self.number_start = None;
        self.marker_start = None;
        self.held = None;
        self.tag_names.clear();
        self.tags_end = 0;
        self.second.begin_game();
    }

    fn tag(&mut self, name: &[u8], value: RawValue<'_>, at: At<'_>) -> ControlFlow<()> {
        self.tags_end = at.span().end;
        if self.light {
            self.raw_tags.push(name, value.0);
            return ControlFlow::Continue(());
        }
        if self.limit == 0 {
            self.limit = at.span().start.saturating_add(self.large_after);
        }
        let unescaped = value.unescaped();
        let (value_text, lossy) = decode_text(&unescaped);
        let (name_text, name_lossy) = decode_text(name);
        if lossy || name_lossy {
            self.report(DiagnosticKind::NotUtf8, &at);
        }
        let duplicate = if self.tags.len() < TAG_SCAN_LIMIT {
            self.tags.contains(&name_text)
        } else {
            if self.tag_names.is_empty() {
                self.tag_names
                    .extend(self.tags.iter().map(|t| t.name.clone()));
            }
            !self.tag_names.insert(name_text.clone())
        };
        if duplicate {
            self.report(DiagnosticKind::DuplicateTag { name: name_text }, &at);
            return ControlFlow::Continue(());
        }
        let tag = Tag {
            name: name_text,
            value: value_text,
            raw: lossy.then(|| unescaped.into_owned()),
        };
        // Unparsable values stay as text; only a diagnostic says so. PDN leaves a tag
        // with no value empty where PGN writes "?".
        if let Some(kind) = check_tag_value(
            &self.rules.dialect(),
            tag.name.as_bytes(),
            tag.value.as_bytes(),
        ) {
            self.report(kind, &at);
        }
        self.tags.push(tag);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self) -> ControlFlow<()> {
        if self.light {
            match self.wants_movetext {
                Some(wanted) if wanted(&self.raw_tags) => self.wanted = true,
                _ => self.passed_over = true,
            }
            // Nothing of the movetext is wanted in a light reading: the reader lexes it on,
            // at its fast path's speed, only to find where the game ends.
            return ControlFlow::Break(());
        }
        match self.second.start(self.rules, &self.tags) {
            Ok(setup) => {
                // Reported at the first movetext token, where a location is known.
                self.diagnostics.hold_setup_warnings(setup.warnings);
                self.sink.begin_movetext(&self.tags, Some(&setup.position));
                self.frames.push(Frame {
                    line: LineId::MAIN,
                    position: setup.position.clone(),
                    before: setup.position,
                    last: None,
                    unset: None,
                    placed: None,
                    stage: Stage::Annotations,
                });
            }
            Err(e) => {
                // Reported at the first movetext token, where a location is known.
                self.stopped = true;
                self.diagnostics.hold_setup_error(e);
                self.sink.begin_movetext(&self.tags, None);
            }
        }
        ControlFlow::Continue(())
    }

    fn move_number(&mut self, number: u64, ellipsis: bool, at: At<'_>) -> ControlFlow<()> {
        if self.light {
            return ControlFlow::Continue(());
        }
        if self.stopped {
            return self.stop_at(&at);
        }
        if self.flush_held(&at).is_break() {
            return ControlFlow::Break(());
        }
        self.flush_setup_at(&at);
        let written = at.bytes();
        if written.len() > 1 && written.first() == Some(&b'0') && written[1].is_ascii_digit() {
            let found = String::from_utf8_lossy(written).into_owned();
            self.report(DiagnosticKind::MoveNumberLeadingZero { found }, &at);
        }
        self.context = MoveContext {
            number: Some(number),
            ellipsis,
        };
        self.number_start = Some(at.span().start);
        ControlFlow::Continue(())
    }

    fn move_token(&mut self, token: &[u8], at: At<'_>) -> ControlFlow<()> {
        if self.light {
            return ControlFlow::Continue(());
        }
        if self.stopped {
            return self.stop_at(&at);
        }
        self.measure(&at);
        if let Some(held) = self.held.take() {
            // `1-` then `7`: one move written with a space inside, read as written.
            let joined = At {
                span: Span::new(held.start, at.span.end),
                ..at
            };
            return self.read_token(joined.bytes(), joined);
        }
        if self.rules.move_continues(token) {
            self.held = Some(at.span);
            return ControlFlow::Continue(());
        }
        self.read_token(token, at)
    }

    fn nag(&mut self, nag: Nag, at: At<'_>) -> ControlFlow<()> {
        if self.light {
            return ControlFlow::Continue(());
        }
        if self.stopped {
            return self.stop_at(&at);
        }
        if self.flush_held(&at).is_break() {
            return ControlFlow::Break(());
        }
        self.flush_setup_at(&at);
        self.measure(&at);
        match self.last_node() {
            Some(node) => {
                self.reach(Stage::Annotations);
                self.sink.nag(node, nag);
                // In the tree now: a tail starting at a move number before it would
                // hold it a second time.
                self.number_start = None;
            }
            None => self.report(
                DiagnosticKind::UnexpectedToken(format!("annotation {nag} before any move")),
                &at,
            ),
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        if self.light {
            return ControlFlow::Continue(());
        }
        if self.stopped && at.span().start >= self.tags_end {
            return self.stop_at(&at);
        }
        if self.flush_held(&at).is_break() {
            return ControlFlow::Break(());
        }
        self.flush_setup_at(&at);
        self.measure(&at);
        // Folded straight from the input when it is UTF-8: a comment of 50 MB is copied
        // once, not twice.
        let (text, lossy) = crate::encoding::decode(text);
        if lossy {
            self.report(DiagnosticKind::NotUtf8, &at);
        }
        self.reach(Stage::Annotations);
        let place = self.place();
        if !self.sink.comment(place, &text) {
            let bytes = text.len();
            let what = "a comment";
            self.report(DiagnosticKind::TextOutOfMemory { what, bytes }, &at);
            return ControlFlow::Continue(());
        }
        // In the tree now: a tail starting at a move number before it would hold it a
        // second time (found by the `pgn_games` fuzz target).
        self.number_start = None;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, at: At<'_>) -> ControlFlow<(), Skip> {
        if self.light {
            return ControlFlow::Continue(Skip(true));
        }
        if self.stopped {
            let _ = self.stop_at(&at);
            return ControlFlow::Break(());
        }
        if self.flush_held(&at).is_break() {
            return ControlFlow::Break(());
        }
        self.flush_setup_at(&at);
        self.measure(&at);
        self.number_start = None;
        let Some(frame) = self.frames.last() else {
            return ControlFlow::Continue(Skip(true));
        };
        let Some(last) = frame.last else {
            self.report(
                DiagnosticKind::UnexpectedToken("variation before any move; skipped".to_owned()),
                &at,
            );
            return ControlFlow::Continue(Skip(true));
        };
        let start = frame.before.clone();
        self.reach(Stage::Variations);
        let line = self.sink.add_variation(last);
        self.frames.push(Frame {
            line,
            position: start.clone(),
            before: start,
            last: None,
            unset: None,
            placed: None,
            stage: Stage::Annotations,
        });
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, at: At<'_>) -> ControlFlow<()> {
        if self.light {
            return ControlFlow::Continue(());
        }
        if self.stopped {
            return self.stop_at(&at);
        }
        if self.flush_held(&at).is_break() {
            return ControlFlow::Break(());
        }
        self.flush_setup_at(&at);
        self.number_start = None;
        if self.frames.len() > 1 {
            if let Some(frame) = self.frames.pop() {
                self.sink.end_variation(frame.line);
                if frame.last.is_none() {
                    self.report(DiagnosticKind::EmptyVariation, &at);
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn setup(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        if self.light {
            return ControlFlow::Continue(());
        }
        if self.stopped {
            return self.stop_at(&at);
        }
        if self.flush_held(&at).is_break() {
            return ControlFlow::Break(());
        }
        self.flush_setup_at(&at);
        self.measure(&at);
        let (text, _) = decode_text(text);
        let Some(frame) = self.frames.last() else {
            return self.stop_at(&at);
        };
        let base = frame.unset.as_ref().unwrap_or(&frame.position);
        match self.rules.inline_setup(base, &text) {
            Ok(setup) => {
                for message in setup.warnings {
                    self.report(DiagnosticKind::LenientSetup { message }, &at);
                }
                self.reach(Stage::Setup);
                let place = self.place();
                self.sink.setup(place, &text);
                let Some(frame) = self.frames.last_mut() else {
                    return ControlFlow::Continue(());
                };
                if frame.unset.is_none() {
                    frame.unset = Some(frame.position.clone());
                }
                frame.position = setup.position.clone();
                frame.before = setup.position;
                // The tree keeps one set-up per place: the later one, which the moves
                // that follow are played from.
                if let Some(replaced) = frame.placed.replace(text) {
                    let what = format!("set-up /{replaced}/ followed by another set-up");
                    self.report(DiagnosticKind::UnexpectedToken(what), &at);
                }
                ControlFlow::Continue(())
            }
            Err(e) => {
                self.report(DiagnosticKind::from(e), &at);
                self.stop_at(&at)
            }
        }
    }

    fn result(&mut self, result: GameResult, at: At<'_>) -> ControlFlow<()> {
        if self.light {
            return ControlFlow::Continue(());
        }
        let _ = self.flush_held(&at);
        self.flush_setup_at(&at);
        self.measure(&at);
        let end = self.frames.first().map(|frame| &frame.position);
        let (result, forgiven) = self.rules.game_result(&self.tags, end, result);
        for kind in forgiven {
            self.report(kind, &at);
        }
        self.result = result;
        if at.span().start != at.span().end {
            self.marker_start = Some(at.span().start);
        }
        ControlFlow::Continue(())
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn end_game(&mut self, raw: RawGame<'_>) -> S::Output {
        let mut diagnostics = self.diagnostics.end_game(raw.index);
        // What cannot be held of the game's text, for lack of memory, is reported.
        let options = self.options;
        let out_of_memory = |diagnostics: &mut Vec<Diagnostic>, what, bytes, location| {
            let kind = DiagnosticKind::TextOutOfMemory { what, bytes };
            diagnostics.push(Diagnostic {
                severity: options.severity(&kind),
                location,
                game: raw.index,
                kind,
            });
        };
        let start = raw.span.start;
        let mut tail = None;
        if let Some((line, from)) = self.tail_start {
            let to = self.marker_start.unwrap_or(raw.span.end);
            let slice = |a: u64, b: u64| {
                let a = usize::try_from(a.saturating_sub(start)).unwrap_or(usize::MAX);
                let b = usize::try_from(b.saturating_sub(start)).unwrap_or(usize::MAX);
                raw.bytes
                    .get(a.min(b)..b.min(raw.bytes.len()))
                    .unwrap_or(&[])
            };
            let (text, _) = crate::encoding::decode(slice(from, to));
            let len = text.trim_end().len();
            if len > 0 {
                tail = Some((line, text, len));
            }
        }
        if let Some((line, text, len)) = &tail {
            if !self.sink.keep_tail(*line, &text[..*len]) {
                let what = "the movetext kept as text";
                out_of_memory(&mut diagnostics, what, *len, self.tail_at);
            }
        }
        let has_errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
        let second = self.second.is_second();
        if !self.light {
            // A light reading is no reading of the game's moves: no second one follows it.
            self.second.end_game(self.rules, &self.tags, has_errors);
        }
        let keep = match self.keep_raw {
            KeepRaw::Never => false,
            KeepRaw::OnError => has_errors,
            KeepRaw::Always => true,
        };
        let raw_bytes = if keep { try_copy(raw.bytes) } else { None };
        if keep && raw_bytes.is_none() {
            let at = diagnostics.first().map(|d| d.location).unwrap_or_default();
            let what = "the game's text as written";
            out_of_memory(&mut diagnostics, what, raw.bytes.len(), at);
        }
        let ended = Ended {
            rules: self.rules,
            options,
            tags: std::mem::take(&mut self.tags),
            result: self.result,
            marked: self.marker_start.is_some(),
            tail: tail
                .as_ref()
                .map(|(line, text, len)| (*line, &text[..*len])),
            end: self.frames.first().map(|frame| &frame.position),
            text: raw.bytes,
            diagnostics,
            raw: raw_bytes,
            span: raw.span,
            index: raw.index,
            second,
            in_export_order: !self.out_of_order,
            passed_over: self.passed_over,
            held: raw.held,
            starts_line: raw.starts_line,
        };
        let output = self.sink.end_game(ended);
        if second && !self.sink.keeps_second_reading() {
            // The first reading stands: the reader reads it again.
            self.second.refuse();
        }
        output
    }

    fn read_again(&mut self, from: u64) -> bool {
        if std::mem::take(&mut self.wanted) {
            // Found wanted by its light reading: read whole now.
            self.rereading_wanted = true;
            self.diagnostics.read_again(from);
            return true;
        }
        let again = self.second.read_again();
        if again {
            self.diagnostics.read_again(from);
            self.again = true;
        }
        again
    }
}

/// Reads owned games one by one from any `io::Read`, playing every move with the rules.
///
/// ```
/// use notation::{GameReader, RawRules, ReadOptions};
/// let pgn = b"[White \"A\"]\n\n1. e4 e5 *\n\n1. d4 *\n";
/// let games: Vec<_> = GameReader::new(&RawRules::PGN, &pgn[..], ReadOptions::default())
///     .collect::<Result<_, _>>()
///     .unwrap();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].game.tags.get("White"), Some("A"));
/// ```
pub struct GameReader<'r, R: Rules, I> {
    reader: Reader<I>,
    builder: GameBuilder<'r, R>,
}

impl<'r, R: Rules, I: Read> GameReader<'r, R, I> {
    /// A reader of `input` with these rules.
    pub fn new(rules: &'r R, input: I, options: ReadOptions) -> Self {
        GameReader {
            reader: Reader::new(input, rules.dialect(), options),
            builder: GameBuilder::new(rules, options),
        }
    }

    /// A reader of games from `reader`, a notation [`Reader`] made as wanted: over bytes
    /// already in memory, read in place ([`Reader::from_vec`]), say. Its options are the
    /// builder's.
    pub fn from_reader(rules: &'r R, reader: Reader<I>) -> Self {
        let options = reader.options();
        GameReader {
            reader,
            builder: GameBuilder::new(rules, options),
        }
    }

    /// The notation reader, to take its buffer back ([`Reader::into_vec`]).
    pub fn into_reader(self) -> Reader<I> {
        self.reader
    }

    /// Sets when raw bytes are kept.
    pub fn keep_raw(mut self, keep: KeepRaw) -> Self {
        self.builder = self.builder.keep_raw(keep);
        self
    }

    /// Reads a game found to span `bytes` bytes or more without building its tree
    /// ([`GameBuilder::large_after`]): its diagnostics are the same, and its text can be
    /// written as it is read again ([`crate::write_text_to`]).
    pub fn large_after(mut self, bytes: u64) -> Self {
        self.builder = self.builder.large_after(bytes);
        self
    }

    /// Reads only the games whose tags `wanted` accepts
    /// ([`GameBuilder::movetext_only_if`]).
    pub fn movetext_only_if(mut self, wanted: &'r (dyn Fn(&RawTags) -> bool + Sync)) -> Self {
        self.builder = self.builder.movetext_only_if(wanted);
        self
    }

    /// Diagnostics about text outside any game (after the last game, or an empty input).
    pub fn take_orphans(&mut self) -> Vec<Diagnostic> {
        self.builder.take_orphans()
    }

    /// The error that ended the input, once a read failed ([`Reader::input_error`]).
    pub fn input_error(&self) -> Option<&io::Error> {
        self.reader.input_error()
    }

    /// The bytes of the game just read, as written ([`ReadGame::span`]), until the next
    /// game is read: what [`KeepRaw`] would copy, for a caller that needs them only for
    /// some games ([`Reader::buffered`]).
    ///
    /// ```
    /// use notation::{GameReader, KeepRaw, RawRules, ReadOptions};
    /// let pgn = b"[White \"A\"]\n\n1. e4 *\n\n1. d4 *\n";
    /// let mut games = GameReader::new(&RawRules::PGN, &pgn[..], ReadOptions::default())
    ///     .keep_raw(KeepRaw::Never);
    /// let first = games.read_game()?.expect("a game");
    /// assert_eq!(games.buffered(first.span), Some(&b"[White \"A\"]\n\n1. e4 *"[..]));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn buffered(&self, span: Span) -> Option<&[u8]> {
        self.reader.buffered(span)
    }

    /// Reads the next game.
    pub fn read_game(&mut self) -> io::Result<Option<ReadGame<R::Move>>> {
        self.reader.read_game(&mut self.builder)
    }
}

impl<R: Rules, I: Read> Iterator for GameReader<'_, R, I> {
    type Item = io::Result<ReadGame<R::Move>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_game().transpose()
    }
}

/// Reads every game of an input into memory. I/O errors end the list with an error
/// diagnostic in the last game read.
pub fn read_games<R: Rules, I: Read>(
    rules: &R,
    input: I,
    options: ReadOptions,
) -> Vec<ReadGame<R::Move>> {
    let mut out = Vec::new();
    let mut reader = GameReader::new(rules, input, options);
    loop {
        match reader.read_game() {
            Ok(Some(game)) => out.push(game),
            Ok(None) => break,
            Err(e) => {
                if let Some(last) = out.last_mut() {
                    let kind = DiagnosticKind::Io(e.to_string());
                    last.diagnostics.push(Diagnostic {
                        severity: Severity::Error,
                        location: Default::default(),
                        game: last.index,
                        kind,
                    });
                }
                break;
            }
        }
    }
    out
}
