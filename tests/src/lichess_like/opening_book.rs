//! The table of named openings (`pgn::openings::all()`) as a tree of moves from the start
//! position, walked at random in proportion to how many named lines go each way: a popular
//! opening has many named sub-lines, so it is chosen often, and games that follow the tree
//! share their first moves (and transpose where the table's lines do).

use crate::Rng;
use pgn::{Move, Position};

/// A move out of a node of the tree.
#[derive(Clone, Debug)]
struct Edge {
    mv: Move,
    /// The node the move leads to, in [`OpeningBook::nodes`].
    to: usize,
    /// How many lines of the table go through this move.
    lines: u64,
}

/// A position of the tree: the moves out of it.
#[derive(Clone, Debug, Default)]
struct Node {
    edges: Vec<Edge>,
}

/// The tree of the table's lines, its root the standard start position.
#[derive(Clone, Debug)]
pub struct OpeningBook {
    /// The nodes, the root first.
    nodes: Vec<Node>,
}

impl OpeningBook {
    /// Plays every line of the table into the tree (a line that does not play, which no
    /// line of the table is, is left out from its first unplayable move).
    pub fn from_table() -> OpeningBook {
        let mut book = OpeningBook {
            nodes: vec![Node::default()],
        };
        for opening in pgn::openings::all() {
            let mut pos = Position::new();
            let mut node = 0;
            for token in opening.pgn().split_ascii_whitespace() {
                if token.ends_with('.') {
                    continue;
                }
                let Ok((mv, _)) = pos.play_san(token.as_bytes()) else {
                    break;
                };
                node = book.step(node, mv);
            }
        }
        book
    }

    /// The node after `mv` from `node`, added if new; the line is counted on the way.
    fn step(&mut self, node: usize, mv: Move) -> usize {
        let next = self.nodes.len();
        let Some(from) = self.nodes.get_mut(node) else {
            return node;
        };
        if let Some(edge) = from.edges.iter_mut().find(|e| e.mv == mv) {
            edge.lines += 1;
            return edge.to;
        }
        from.edges.push(Edge {
            mv,
            to: next,
            lines: 1,
        });
        self.nodes.push(Node::default());
        next
    }

    /// Walks the tree from the start for at most `plies` plies, each move chosen with a
    /// probability proportional to the number of lines through it, and stops early at a
    /// leaf; the moves are appended to `moves`.
    pub fn walk(&self, rng: &mut Rng, plies: usize, moves: &mut Vec<Move>) {
        let mut node = 0;
        for _ in 0..plies {
            let Some(edges) = self.nodes.get(node).map(|n| &n.edges) else {
                return;
            };
            let total: u64 = edges.iter().map(|e| e.lines).sum();
            if total == 0 {
                return;
            }
            let mut pick = rng.next_u64() % total;
            let Some(edge) = edges.iter().find(|e| {
                let here = pick < e.lines;
                pick = pick.saturating_sub(e.lines);
                here
            }) else {
                return;
            };
            moves.push(edge.mv);
            node = edge.to;
        }
    }
}
