//! What reading a move forgave: each [`Leniency`], and how well a reading of a game
//! reads a move ([`Fit`]), which decides which readings are kept.

use std::fmt;

use crate::gametype::GameType;
use crate::movetext_errors::MoveWarning;

/// One thing reading a move forgave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leniency {
    /// The move text departs from how PDN 3.0 writes moves.
    Move(MoveWarning),
    /// A capture named by its ends that could take different pieces. Each candidate
    /// is kept as a reading of the game until a later move rules it out; the first
    /// one left is preferred (a strict reader refuses the move).
    Ambiguous {
        /// The full notation of each candidate, the preferred first.
        candidates: Vec<String>,
    },
    /// The move was read in another game type than the one preferred so far.
    GameType {
        /// The game type the tags declare in full with a numbering of its own; `None`
        /// when they declare none.
        declared: Option<GameType>,
        /// The game type preferred before the move.
        from: GameType,
        /// The game type the move was read in.
        to: GameType,
        /// Whether the preferred game type could read the move at all (only by
        /// forgiving how it is written).
        readable: bool,
    },
}

impl fmt::Display for Leniency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Leniency::Move(w) => write!(f, "{w}"),
            Leniency::Ambiguous { candidates } => write!(
                f,
                "ambiguous capture: it could be {}; read as {} unless a later move rules it out",
                candidates.join(" or "),
                candidates.first().map_or("", String::as_str)
            ),
            Leniency::GameType {
                declared: None,
                from,
                to,
                readable,
            } => {
                f.write_str("no GameType tag, and the move ")?;
                if *readable {
                    write!(f, "is written as {} draughts writes moves", to.variant())?;
                } else {
                    write!(f, "is not legal in {} draughts", from.variant())?;
                }
                write!(
                    f,
                    ": read as {} draughts (GameType \"{}\")",
                    to.variant(),
                    to.to_short_string()
                )
            }
            Leniency::GameType {
                declared: Some(declared),
                to,
                readable,
                ..
            } => {
                write!(f, "the move ")?;
                if *readable {
                    f.write_str("is written")?;
                } else {
                    write!(
                        f,
                        "is not legal in the numbering of GameType \"{declared}\"; it is written"
                    )?;
                }
                write!(
                    f,
                    " in the numbering of GameType \"{}\": read so",
                    to.to_short_string()
                )
            }
        }
    }
}

/// What reading a move forgave: each [`Leniency`], in order. `Display` joins them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forgiven(pub(crate) Vec<Leniency>);

impl Forgiven {
    /// Whether nothing was forgiven: the move was written as PDN 3.0 writes it.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each thing forgiven, in the order it was met.
    pub fn iter(&self) -> std::slice::Iter<'_, Leniency> {
        self.0.iter()
    }
}

impl fmt::Display for Forgiven {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, l) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{l}")?;
        }
        Ok(())
    }
}

impl notation::Forgiveness for Forgiven {
    fn is_none(&self) -> bool {
        self.0.is_empty()
    }
}

/// How well a reading reads a move's text: the best fit among a board's readings
/// decides which are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Fit {
    /// As written, or forgiving only what is no sign of another game type.
    Fits,
    /// Only by forgiving another game type's capture separator.
    Separator,
    /// Only by forgiving squares in the other notation.
    Notation,
}

/// How well a reading that forgave this reads the move: squares in the other notation
/// are the worst sign of another game type, another game type's capture separator the
/// next.
pub(crate) fn fit(forgiven: &[Leniency]) -> Fit {
    let mut fit = Fit::Fits;
    for l in forgiven {
        match l {
            Leniency::Move(MoveWarning::AlphaSquare(_) | MoveWarning::NumericSquare(_)) => {
                fit = Fit::Notation;
            }
            Leniency::Move(MoveWarning::Separator { .. }) => fit = fit.max(Fit::Separator),
            _ => {}
        }
    }
    fit
}
