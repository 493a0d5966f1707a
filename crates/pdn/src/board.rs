//! The move generator's board: a padded bit layout per geometry, the rules
//! compiled to absolute directions, and the compact state it plays on.
//!
//! Diagonal boards use the classic "ghost square" layout: square `(x, y)`
//! sits at bit `(y·(w+1) + x) / 2`, which leaves one unused bit every two
//! rows. With it every diagonal step is one constant shift (`w/2` or
//! `w/2 + 1`), the same-colour orthogonal neighbour (Frisian captures) is a
//! shift by 1 or `w + 1`, and stepping off the left or right edge lands on a
//! ghost bit. Per-direction source masks make every step exact, so Turkish
//! draughts can use a plain dense layout (`y·w + x`) with the same code.

use crate::bits::Bits;
use crate::geometry::Geometry;
use crate::variant::{
    BoardKind, Directions, KingRange, Landing, Precedence, Promotion, Removal, VariantRules,
};

/// Direction indices; `d ^ 1` is the opposite direction.
pub(crate) const UP_RIGHT: usize = 0;
pub(crate) const DOWN_LEFT: usize = 1;
pub(crate) const UP_LEFT: usize = 2;
pub(crate) const DOWN_RIGHT: usize = 3;
pub(crate) const UP: usize = 4;
pub(crate) const DOWN: usize = 5;
pub(crate) const RIGHT: usize = 6;
pub(crate) const LEFT: usize = 7;

/// Marks a bit that is no square (a ghost).
pub(crate) const NO_SQUARE: u8 = u8::MAX;

/// One step in one direction: which bits may take it, and the shift.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dir<B> {
    mask: B,
    shift: u32,
    up: bool,
}

/// Bit layout of a geometry.
#[derive(Debug, Clone)]
pub(crate) struct Layout<B> {
    dirs: [Dir<B>; 8],
    /// All playing squares.
    pub valid: B,
    /// The promotion row of each side (side 0 starts at the bottom).
    pub promo: [B; 2],
    /// Start position of each side.
    pub home: [B; 2],
    /// Square index → bit.
    pub bit_of: Vec<u8>,
    /// Bit → square index, or [`NO_SQUARE`].
    pub square_of: Vec<u8>,
}

impl<B: Bits> Layout<B> {
    pub(crate) fn new(geometry: &Geometry, rules: &VariantRules) -> Layout<B> {
        let w = i32::from(geometry.width());
        let h = i32::from(geometry.height());
        let diagonal = geometry.kind() == BoardKind::Diagonal;
        let invert = geometry.is_inverted();
        // Inverted boards are mirrored so that the layout's own (0, 0) is a
        // playing square; the rules are symmetric, so nothing else changes.
        let layout_x = |x: i32| if invert { w - 1 - x } else { x };
        let bit_at = |lx: i32, y: i32| -> u32 {
            if diagonal {
                ((y * (w + 1) + lx) / 2) as u32
            } else {
                (y * w + lx) as u32
            }
        };
        // Lattice steps (in layout coordinates) of the eight directions.
        let unit = if diagonal { 2 } else { 1 };
        let deltas: [(i32, i32); 8] = [
            (1, 1),
            (-1, -1),
            (-1, 1),
            (1, -1),
            (0, unit),
            (0, -unit),
            (unit, 0),
            (-unit, 0),
        ];

        let mut bit_of = vec![0u8; geometry.len()];
        let mut square_of = vec![NO_SQUARE; B::WIDTH as usize];
        let mut valid = B::ZERO;
        let mut promo = [B::ZERO; 2];
        let mut home = [B::ZERO; 2];
        let rows = match rules.start.rows {
            0 => (h - 2).max(0) / 2,
            n => i32::from(n),
        };
        let first = i32::from(rules.start.skip_back_row);
        for sq in geometry.squares() {
            let (x, y) = geometry.coords(sq);
            let (lx, y) = (layout_x(i32::from(x)), i32::from(y));
            let bit = bit_at(lx, y);
            bit_of[sq.index()] = bit as u8;
            square_of[bit as usize] = sq.index() as u8;
            let b = B::bit(bit);
            valid |= b;
            if y == h - 1 {
                promo[0] |= b;
            }
            if y == 0 {
                promo[1] |= b;
            }
            if y >= first && y < first + rows {
                home[0] |= b;
            }
            if y <= h - 1 - first && y > h - 1 - first - rows {
                home[1] |= b;
            }
        }

        let mut dirs = [Dir {
            mask: B::ZERO,
            shift: 0,
            up: true,
        }; 8];
        for (d, &(dx, dy)) in deltas.iter().enumerate() {
            let delta = if diagonal {
                (dy * (w + 1) + dx) / 2
            } else {
                dy * w + dx
            };
            let mut mask = B::ZERO;
            for sq in geometry.squares() {
                let (x, y) = geometry.coords(sq);
                let (lx, y) = (layout_x(i32::from(x)), i32::from(y));
                let (nx, ny) = (lx + dx, y + dy);
                if (0..w).contains(&nx) && (0..h).contains(&ny) {
                    debug_assert_eq!(bit_at(nx, ny) as i32 - bit_at(lx, y) as i32, delta);
                    mask |= B::bit(bit_at(lx, y));
                }
            }
            dirs[d] = Dir {
                mask,
                shift: delta.unsigned_abs(),
                up: delta > 0,
            };
        }
        Layout {
            dirs,
            valid,
            promo,
            home,
            bit_of,
            square_of,
        }
    }

    /// Moves every bit of `b` one step in direction `d`; bits that would
    /// leave the board disappear.
    #[inline(always)]
    pub(crate) fn step(&self, b: B, d: usize) -> B {
        let dir = &self.dirs[d];
        let m = b & dir.mask;
        if dir.up {
            m << dir.shift
        } else {
            m >> dir.shift
        }
    }

    /// The bit one step before `to` in direction `d` (its source).
    #[inline(always)]
    pub(crate) fn source(&self, to: u32, d: usize) -> u32 {
        let dir = &self.dirs[d];
        if dir.up {
            to - dir.shift
        } else {
            to + dir.shift
        }
    }
}

/// Turns relative directions into a mask of absolute direction indices for
/// the side that moves up (0) or down (1).
fn absolute(rel: Directions, side: usize) -> u8 {
    let (fwd_diag, back_diag, fwd, back) = if side == 0 {
        (
            (1 << UP_RIGHT) | (1 << UP_LEFT),
            (1 << DOWN_RIGHT) | (1 << DOWN_LEFT),
            1 << UP,
            1 << DOWN,
        )
    } else {
        (
            (1 << DOWN_RIGHT) | (1 << DOWN_LEFT),
            (1 << UP_RIGHT) | (1 << UP_LEFT),
            1 << DOWN,
            1 << UP,
        )
    };
    let mut m = 0u8;
    if rel.contains(Directions::DIAGONAL_FORWARD) {
        m |= fwd_diag;
    }
    if rel.contains(Directions::DIAGONAL_BACKWARD) {
        m |= back_diag;
    }
    if rel.contains(Directions::FORWARD) {
        m |= fwd;
    }
    if rel.contains(Directions::BACKWARD) {
        m |= back;
    }
    if rel.contains(Directions::SIDEWAYS) {
        m |= (1 << RIGHT) | (1 << LEFT);
    }
    m
}

/// The rules with directions made absolute, for the generator's hot loops.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    pub man_move: [u8; 2],
    pub man_cap: [u8; 2],
    pub king_move: u8,
    pub king_cap: u8,
    pub flying: bool,
    pub land_behind: bool,
    pub immediate: bool,
    pub reversal: bool,
    pub men_take_kings: bool,
    pub promo_mid: bool,
    pub precedence: Precedence,
    pub dedup: bool,
    /// 0 = no limit.
    pub king_limit: u8,
}

impl Compiled {
    pub(crate) fn new(rules: &VariantRules) -> Compiled {
        Compiled {
            man_move: [absolute(rules.man_moves, 0), absolute(rules.man_moves, 1)],
            man_cap: [
                absolute(rules.man_captures, 0),
                absolute(rules.man_captures, 1),
            ],
            king_move: absolute(rules.king_moves, 0),
            king_cap: absolute(rules.king_captures, 0),
            flying: rules.king_range == KingRange::Flying,
            land_behind: rules.king_landing == Landing::DirectlyBehind,
            immediate: rules.removal == Removal::Immediate,
            reversal: rules.reversal,
            men_take_kings: rules.men_capture_kings,
            promo_mid: rules.promotion == Promotion::MidCapture,
            precedence: rules.precedence,
            dedup: !rules.keep_duplicate_captures,
            king_limit: rules.king_move_limit.unwrap_or(0),
        }
    }
}

/// Consecutive non-capturing moves of one king (Frisian limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Run {
    /// The king's bit.
    pub bit: u8,
    /// How many moves in a row; 0 = none.
    pub count: u8,
}

/// A position in generator form. Side 0 is the side that started at the
/// bottom (the `GameType`'s start colour).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct State<B> {
    pub men: [B; 2],
    pub kings: [B; 2],
    pub side: u8,
    pub run: [Run; 2],
}

impl<B: Bits> State<B> {
    #[inline(always)]
    pub(crate) fn occupied(&self) -> B {
        self.men[0] | self.men[1] | self.kings[0] | self.kings[1]
    }
}

/// A move in generator form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct RawMove<B> {
    pub from: u8,
    pub to: u8,
    pub promote: bool,
    pub captured: B,
}

/// A layout with its compiled rules.
#[derive(Debug, Clone)]
pub(crate) struct Engine<B> {
    pub layout: Layout<B>,
    pub rules: Compiled,
}

impl<B: Bits> Engine<B> {
    pub(crate) fn new(geometry: &Geometry, rules: &VariantRules) -> Engine<B> {
        Engine {
            layout: Layout::new(geometry, rules),
            rules: Compiled::new(rules),
        }
    }

    /// The start position, side 0 to move.
    pub(crate) fn start(&self) -> State<B> {
        State {
            men: self.layout.home,
            kings: [B::ZERO; 2],
            side: 0,
            run: [Run::default(); 2],
        }
    }

    /// The king that may not make another non-capturing move (Frisian
    /// limit), as a bit set.
    #[inline(always)]
    pub(crate) fn restricted_king(&self, st: &State<B>) -> B {
        let s = usize::from(st.side);
        let run = st.run[s];
        if self.rules.king_limit != 0 && run.count >= self.rules.king_limit && st.men[s].any() {
            B::bit(u32::from(run.bit))
        } else {
            B::ZERO
        }
    }

    /// Plays a move.
    #[inline(always)]
    pub(crate) fn make(&self, st: &State<B>, m: &RawMove<B>) -> State<B> {
        let s = usize::from(st.side);
        let o = s ^ 1;
        let from = B::bit(u32::from(m.from));
        let to = B::bit(u32::from(m.to));
        let mut n = *st;
        let was_king = (n.kings[s] & from).any();
        n.men[s] &= !from;
        n.kings[s] &= !from;
        if was_king || m.promote {
            n.kings[s] |= to;
        } else {
            n.men[s] |= to;
        }
        if m.captured.any() {
            n.men[o] &= !m.captured;
            n.kings[o] &= !m.captured;
        }
        if self.rules.king_limit != 0 {
            n.run[s] = if was_king && m.captured.is_zero() {
                let prev = st.run[s];
                let count = if prev.count > 0 && prev.bit == m.from {
                    prev.count.saturating_add(1)
                } else {
                    1
                };
                Run { bit: m.to, count }
            } else {
                Run::default()
            };
            if n.run[o].count > 0 && m.captured.has(u32::from(n.run[o].bit)) {
                n.run[o] = Run::default();
            }
        }
        n.side = o as u8;
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gametype::GameType;
    use crate::variant::Variant;

    #[test]
    fn international_layout() {
        let gt = GameType::new(Variant::International);
        let layout: Layout<u64> = Layout::new(&gt.geometry(), Variant::International.rules());
        assert_eq!(Bits::count(layout.valid), 50);
        assert_eq!(Bits::count(layout.home[0]), 20);
        assert_eq!(Bits::count(layout.home[1]), 20);
        assert_eq!(Bits::count(layout.promo[0]), 5);
        // Ghost bits at 5, 16, 27, 38, 49 (one per pair of rows).
        for ghost in [5u32, 16, 27, 38, 49] {
            assert!(!layout.valid.has(ghost));
        }
        // Every step from every square stays on valid squares.
        for d in 0..8 {
            assert_eq!(layout.step(layout.valid, d) & !layout.valid, 0);
        }
    }

    #[test]
    fn turkish_layout() {
        let gt = GameType::new(Variant::Turkish);
        let layout: Layout<u64> = Layout::new(&gt.geometry(), Variant::Turkish.rules());
        assert_eq!(layout.valid, u64::MAX);
        assert_eq!(layout.home[0], 0x0000_0000_00FF_FF00);
        assert_eq!(layout.home[1], 0x00FF_FF00_0000_0000);
        assert_eq!(layout.step(1 << 7, RIGHT), 0);
        assert_eq!(layout.step(1 << 7, UP), 1 << 15);
    }

    #[test]
    fn thai_and_canadian_start() {
        let thai = GameType::new(Variant::Thai);
        let layout: Layout<u64> = Layout::new(&thai.geometry(), Variant::Thai.rules());
        assert_eq!(Bits::count(layout.home[0]), 8);
        let canadian = GameType::new(Variant::Canadian);
        let layout: Layout<u128> = Layout::new(&canadian.geometry(), Variant::Canadian.rules());
        assert_eq!(Bits::count(layout.home[0]), 30);
        assert_eq!(Bits::count(layout.valid), 72);
    }
}
