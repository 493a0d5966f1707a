//! Checking games without building them: [`Validate`], what a game crate's validating
//! visitor is, and [`ValidatingReader`], which reads an input's games with one.

use std::io::{self, Read};

use crate::collector::ValidatedGame;
use crate::diagnostic::Diagnostic;
use crate::options::ReadOptions;
use crate::reader::Reader;
use crate::rules::Rules;
use crate::visitor::Visitor;

/// A [`Visitor`] that checks games without building them, one [`ValidatedGame`] a game:
/// the chess and draughts crates' `Validator`s.
///
/// It is made from its rules (which also say the dialect its games are written in) and
/// the options it reports with, and it keeps the diagnostics given outside any game
/// until they are taken.
pub trait Validate: Visitor<Output = ValidatedGame> {
    /// The rules the validator reads and plays moves with.
    type Rules: Rules;

    /// A validator with these rules, reporting with these options' severities.
    fn with_rules(rules: Self::Rules, options: ReadOptions) -> Self;

    /// Takes the diagnostics given outside any game (text after the last game, an empty
    /// input).
    fn take_orphans(&mut self) -> Vec<Diagnostic>;
}

/// Checks games one by one from any [`io::Read`] with a validator ([`Validate`]): the
/// fast way to know whether games are valid, and what was forgiven in them. The game
/// crates name theirs (`pgn::ValidatingReader`, `pdn::ValidatingReader`).
///
/// A validator of games of no game's rules ([`RawRules`](crate::RawRules)), which
/// counts their moves and reports what the reader says:
///
/// ```
/// use std::ops::ControlFlow;
/// use notation::{
///     At, Diagnostic, GameDiagnostics, RawGame, RawRules, ReadOptions, Validate,
///     ValidatedGame, ValidatingReader, Visitor,
/// };
///
/// struct CountMoves {
///     diagnostics: GameDiagnostics,
///     plies: u64,
/// }
///
/// impl Visitor for CountMoves {
///     type Output = ValidatedGame;
///     fn begin_game(&mut self) {
///         self.diagnostics.begin_game();
///         self.plies = 0;
///     }
///     fn move_token(&mut self, _token: &[u8], _at: At<'_>) -> ControlFlow<()> {
///         self.plies += 1;
///         ControlFlow::Continue(())
///     }
///     fn diagnostic(&mut self, diagnostic: Diagnostic) {
///         self.diagnostics.push(diagnostic);
///     }
///     fn end_game(&mut self, raw: RawGame<'_>) -> ValidatedGame {
///         let diagnostics = self.diagnostics.end_game(raw.index);
///         ValidatedGame { index: raw.index, span: raw.span, plies: self.plies, diagnostics }
///     }
/// }
///
/// impl Validate for CountMoves {
///     type Rules = RawRules;
///     fn with_rules(_rules: RawRules, options: ReadOptions) -> CountMoves {
///         CountMoves { diagnostics: GameDiagnostics::new(options), plies: 0 }
///     }
///     fn take_orphans(&mut self) -> Vec<Diagnostic> {
///         self.diagnostics.take_orphans()
///     }
/// }
///
/// let input = b"[Round \"1\"]\n\n1. e4 e5 2. Nf3 *\n\n[Round \"2\"]\n\n1. d4 d5\n";
/// let options = ReadOptions::default();
/// let mut games = ValidatingReader::<_, CountMoves>::with_rules(&input[..], RawRules::PGN, options);
/// let first = games.read_game()?.expect("a first game");
/// assert_eq!((first.plies, first.warnings()), (3, 0));
/// // The second game has no termination marker.
/// let second = games.read_game()?.expect("a second game");
/// assert_eq!((second.plies, second.warnings()), (2, 1));
/// assert!(games.read_game()?.is_none());
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct ValidatingReader<R, V> {
    reader: Reader<R>,
    validator: V,
}

impl<R: Read, V: Validate> ValidatingReader<R, V> {
    /// A lenient validating reader of `input`, with the default rules.
    pub fn new(input: R) -> ValidatingReader<R, V>
    where
        V::Rules: Default,
    {
        ValidatingReader::with_options(input, ReadOptions::default())
    }

    /// A validating reader of `input` with the default rules and these options.
    pub fn with_options(input: R, options: ReadOptions) -> ValidatingReader<R, V>
    where
        V::Rules: Default,
    {
        ValidatingReader::with_rules(input, V::Rules::default(), options)
    }

    /// A validating reader of `input` with these rules and options.
    pub fn with_rules(input: R, rules: V::Rules, options: ReadOptions) -> ValidatingReader<R, V> {
        ValidatingReader {
            reader: Reader::new(input, rules.dialect(), options),
            validator: V::with_rules(rules, options),
        }
    }

    /// A validating reader of the games of `reader`, a notation [`Reader`] made as
    /// wanted (over bytes already in memory, read in place: [`Reader::from_vec`]), with
    /// the default rules and the reader's options. The reader's dialect should be the
    /// rules'.
    pub fn from_reader(reader: Reader<R>) -> ValidatingReader<R, V>
    where
        V::Rules: Default,
    {
        ValidatingReader::from_reader_with_rules(reader, V::Rules::default())
    }

    /// A validating reader of the games of `reader`, with these rules and the reader's
    /// options ([`ValidatingReader::from_reader`]).
    pub fn from_reader_with_rules(reader: Reader<R>, rules: V::Rules) -> ValidatingReader<R, V> {
        let options = reader.options();
        ValidatingReader {
            reader,
            validator: V::with_rules(rules, options),
        }
    }

    /// The notation reader, to take its buffer back ([`Reader::into_vec`]).
    pub fn into_reader(self) -> Reader<R> {
        self.reader
    }

    /// Checks the next game; `None` at the end of the input.
    ///
    /// # Errors
    /// The input's I/O errors.
    pub fn read_game(&mut self) -> io::Result<Option<ValidatedGame>> {
        self.reader.read_game(&mut self.validator)
    }

    /// Diagnostics about text outside any game (after the last one, or an input without
    /// games).
    pub fn take_orphans(&mut self) -> Vec<Diagnostic> {
        self.validator.take_orphans()
    }
}

impl<R: Read, V: Validate> Iterator for ValidatingReader<R, V> {
    type Item = io::Result<ValidatedGame>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_game().transpose()
    }
}
