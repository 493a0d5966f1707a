//! The owned game tree: tags, moves with their annotations, variations at any depth.
//!
//! Moves and lines live in two flat arenas and refer to each other by index, so that
//! a game nested 100,000 variations deep is built, compared, dropped and written
//! without recursion.

use crate::nag::Nag;
use crate::outcome::GameResult;
use crate::tags::Tags;

/// Index of a move node in a [`GameTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The id of the move added `index`-th (from 0) to a game.
    pub const fn new(index: u32) -> NodeId {
        NodeId(index)
    }

    /// Its index: the move was added to its game `index`-th, from 0 (in the order of
    /// [`GameTree::nodes`]).
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of a line (the main line or a variation) in a [`GameTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineId(u32);

impl LineId {
    /// The main line.
    pub const MAIN: LineId = LineId(0);

    /// The id of the line opened `index`-th (from 1; the main line is 0) in a game.
    pub const fn new(index: u32) -> LineId {
        LineId(index)
    }

    /// Its index: the line was opened `index`-th, from 1 (the main line is 0). A
    /// variation is opened after the line it branches from, so its index is larger.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A sequence of moves: the main line, or a variation replacing one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move of the line (white space collapsed, as after a
    /// move).
    pub comments: Vec<String>,
    /// A set-up that replaces the position at the start of the line (`/FEN "…"/` in PDN).
    pub setup: Option<String>,
    /// The moves, in order.
    pub moves: Vec<NodeId>,
    /// The move this line is an alternative to (`None` for the main line).
    pub parent: Option<NodeId>,
}

/// One move with what is written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node<M> {
    /// The move.
    pub mv: M,
    /// Annotation glyphs (suffix annotations are stored as their glyphs `$1`..`$6`).
    pub nags: Vec<Nag>,
    /// Comments after the move. The reader keeps a comment with its white space
    /// collapsed ([`push_collapsed`](crate::push_collapsed)), as the export format
    /// writes it.
    pub comments: Vec<String>,
    /// Variations: alternatives to this move, each played from the position before it.
    pub variations: Vec<LineId>,
    /// A set-up after this move that replaces the position (`/FEN "…"/` in PDN).
    pub setup: Option<String>,
    /// The line the move belongs to.
    pub line: LineId,
}

/// Movetext that was not turned into moves: from a token the rules could not read, or
/// the whole movetext of a game whose rules are not supported. Kept verbatim so that
/// writing the game back loses nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tail {
    /// The line that was being read when the reading stopped; the text continues it,
    /// closing variations itself.
    pub line: LineId,
    /// The rest of the movetext as written, up to but excluding the termination marker.
    pub text: String,
}

/// An owned game, generic over the move type `M`.
///
/// ```
/// use notation::{GameTree, LineId};
/// let mut game: GameTree<&str> = GameTree::new();
/// let e4 = game.push_move(LineId::MAIN, "e4");
/// let d4_line = game.add_variation(e4);
/// game.push_move(d4_line, "d4");
/// game.push_move(LineId::MAIN, "e5");
/// let main: Vec<_> = game.moves(LineId::MAIN).map(|n| n.mv).collect();
/// assert_eq!(main, ["e4", "e5"]);
/// assert_eq!(game.node(e4).variations, [d4_line]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTree<M> {
    /// Tag pairs, in the order of the file.
    pub tags: Tags,
    /// The game termination marker.
    pub result: GameResult,
    /// Movetext kept as text where moves could not be read.
    pub tail: Option<Tail>,
    nodes: Vec<Node<M>>,
    lines: Vec<Line>,
}

impl<M> Default for GameTree<M> {
    fn default() -> Self {
        GameTree::new()
    }
}

impl<M> GameTree<M> {
    /// An empty game: no tags, no moves, result `*`.
    pub fn new() -> GameTree<M> {
        GameTree {
            tags: Tags::new(),
            result: GameResult::Unknown,
            tail: None,
            nodes: Vec::new(),
            lines: vec![Line {
                comments: Vec::new(),
                setup: None,
                moves: Vec::new(),
                parent: None,
            }],
        }
    }

    /// The line with this id.
    ///
    /// Ids come from this game; an id of another game may name another line or panic.
    pub fn line(&self, id: LineId) -> &Line {
        &self.lines[id.0 as usize]
    }

    /// The line with this id, to edit.
    pub fn line_mut(&mut self, id: LineId) -> &mut Line {
        &mut self.lines[id.0 as usize]
    }

    /// The node with this id.
    pub fn node(&self, id: NodeId) -> &Node<M> {
        &self.nodes[id.0 as usize]
    }

    /// The node with this id, to edit.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<M> {
        &mut self.nodes[id.0 as usize]
    }

    /// The main line's moves.
    pub fn mainline(&self) -> impl Iterator<Item = &Node<M>> + '_ {
        self.moves(LineId::MAIN)
    }

    /// A line's moves, in order.
    pub fn moves(&self, line: LineId) -> impl Iterator<Item = &Node<M>> + '_ {
        self.line(line).moves.iter().map(|&id| self.node(id))
    }

    /// Every move of every line, in the order they were added.
    pub fn nodes(&self) -> impl Iterator<Item = &Node<M>> + '_ {
        self.nodes.iter()
    }

    /// Every move of every line, in the order they were added, to edit.
    pub fn nodes_mut(&mut self) -> impl Iterator<Item = &mut Node<M>> + '_ {
        self.nodes.iter_mut()
    }

    /// Number of moves in all lines.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Number of lines, the main line included.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// Appends a move to a line and returns its id.
    pub fn push_move(&mut self, line: LineId, mv: M) -> NodeId {
        let id = NodeId(index_u32(self.nodes.len()));
        self.nodes.push(Node {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
            setup: None,
            line,
        });
        self.lines[line.0 as usize].moves.push(id);
        id
    }

    /// Opens a new, empty variation: an alternative to `node`.
    pub fn add_variation(&mut self, node: NodeId) -> LineId {
        let id = LineId(index_u32(self.lines.len()));
        self.lines.push(Line {
            comments: Vec::new(),
            setup: None,
            moves: Vec::new(),
            parent: Some(node),
        });
        self.nodes[node.0 as usize].variations.push(id);
        id
    }

    /// Replaces every move with `f(move)`, keeping the tree's shape.
    pub fn map_moves<N>(self, mut f: impl FnMut(M) -> N) -> GameTree<N> {
        GameTree {
            tags: self.tags,
            result: self.result,
            tail: self.tail,
            nodes: self
                .nodes
                .into_iter()
                .map(|n| Node {
                    mv: f(n.mv),
                    nags: n.nags,
                    comments: n.comments,
                    variations: n.variations,
                    setup: n.setup,
                    line: n.line,
                })
                .collect(),
            lines: self.lines,
        }
    }
}

/// Arena indices are `u32`: four billion moves in one game is beyond any file.
fn index_u32(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}
