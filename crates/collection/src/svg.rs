//! `notate svg`: a position as an SVG picture, from a FEN or from a game in a file.
//!
//! The position is picked as `show` picks it ([`crate::show`]); the pictures are drawn by
//! `pgn::svg` and `pdn::svg`, through [`Draw`] for a game of a file.

use crate::rules::FormatRules;

/// What `svg` needs of a game's rules beyond [`FormatRules`]: a picture of a position.
pub trait Draw: FormatRules {
    /// An SVG picture of a position, when the rules know positions (the default: they do
    /// not), with `last`, the move that led to it, and what the comments after that move
    /// mark (chess: `[%csl]` and `[%cal]`).
    fn svg(
        &self,
        position: &Self::Position,
        last: Option<&Self::Move>,
        comments: &[String],
        options: &Options,
    ) -> Option<String> {
        let _ = (position, last, comments, options);
        None
    }
}

impl Draw for pgn::ChessRules {
    fn svg(
        &self,
        position: &pgn::Position,
        last: Option<&pgn::Move>,
        comments: &[String],
        options: &Options,
    ) -> Option<String> {
        Some(chess(position, last, comments, options))
    }
}

impl Draw for pdn::DraughtsRules {
    fn svg(
        &self,
        board: &pdn::PdnPosition,
        last: Option<&pdn::PdnMove>,
        _comments: &[String],
        options: &Options,
    ) -> Option<String> {
        Some(draughts(
            board.position(),
            last.map(pdn::PdnMove::get),
            options,
        ))
    }
}

impl Draw for notation::RawRules {}

/// How a picture is drawn, for chess and draughts alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The board turned half a turn: Black (the second player) at the bottom.
    pub flip: bool,
    /// The width in pixels.
    pub size: u32,
    /// Files and ranks in a margin.
    pub coordinates: bool,
    /// The square names of a draughts board in their squares (nothing for chess).
    pub numbers: bool,
}

impl Options {
    /// The options of a chess picture.
    pub fn chess(&self) -> pgn::svg::Options {
        pgn::svg::Options {
            flip: self.flip,
            size: self.size,
            coordinates: self.coordinates,
        }
    }

    /// The options of a draughts picture.
    pub fn draughts(&self) -> pdn::svg::Options {
        pdn::svg::Options {
            flip: self.flip,
            size: self.size,
            coordinates: self.coordinates,
            numbers: self.numbers,
        }
    }
}

/// A chess position as SVG, with the move that led to it and the marks of the comments
/// after that move.
pub fn chess(
    position: &pgn::Position,
    last: Option<&pgn::Move>,
    comments: &[String],
    options: &Options,
) -> String {
    let mut picture = pgn::svg::Picture::new(position).comments(comments);
    if let Some(mv) = last {
        picture = picture.last_move(mv);
    }
    picture.to_svg(&options.chess())
}

/// A draughts position as SVG, with the move that led to it.
pub fn draughts(position: &pdn::Position, last: Option<&pdn::Move>, options: &Options) -> String {
    let mut picture = pdn::svg::Picture::new(position);
    if let Some(mv) = last {
        picture = picture.last_move(mv);
    }
    picture.to_svg(&options.draughts())
}
