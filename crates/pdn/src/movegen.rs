//! Move generation: steps, captures and capture precedence.
//!
//! Captures are found by a depth-first search from every piece that can
//! capture, driven by the compiled [`Rules`](crate::Rules): which
//! directions men and kings jump in, how far kings fly, where they land,
//! when captured pieces leave the board and when a man is crowned. Every
//! complete capture gets a precedence key; only captures with the highest
//! key are kept, which implements all the "majority" rules at once.
//!
//! A capture is complete when it cannot go on: a flying king that could
//! continue from some landing square must land there (it may not stop early),
//! which is the rule in every variant.

use crate::bits::Bits;
use crate::board::{Engine, RawMove, State};
use crate::variant::Precedence;

/// The most pieces one capture can take: a board has at most 128 squares.
pub(crate) const MAX_CAPTURES: usize = 128;

/// One complete capture, as the search found it.
pub(crate) struct Capture<'a, B> {
    pub raw: RawMove<B>,
    pub key: u64,
    /// Turning squares (or the square right behind a piece the capture goes
    /// straight on after), ending with the destination: one per piece taken.
    pub path: &'a [u8],
    /// The bits of the captured pieces, in capture order.
    pub taken: &'a [u8],
}

/// Receives complete captures.
pub(crate) trait Sink<B> {
    fn capture(&mut self, c: &Capture<'_, B>);
}

/// Keeps the captures of the highest precedence key, as raw moves.
pub(crate) struct RawSink<'a, B> {
    pub out: &'a mut Vec<RawMove<B>>,
    pub best: u64,
}

impl<B: Bits> Sink<B> for RawSink<'_, B> {
    #[inline]
    fn capture(&mut self, c: &Capture<'_, B>) {
        if c.key < self.best {
            return;
        }
        if c.key > self.best {
            self.out.clear();
            self.best = c.key;
        }
        self.out.push(c.raw);
    }
}

/// A capture with its path, for the public move type.
pub(crate) struct FullCapture<B> {
    pub raw: RawMove<B>,
    pub path: Vec<u8>,
    pub taken: Vec<u8>,
}

/// Keeps the captures of the highest precedence key with their paths.
pub(crate) struct FullSink<B> {
    pub out: Vec<FullCapture<B>>,
    pub best: u64,
}

impl<B: Bits> Sink<B> for FullSink<B> {
    fn capture(&mut self, c: &Capture<'_, B>) {
        if c.key < self.best {
            return;
        }
        if c.key > self.best {
            self.out.clear();
            self.best = c.key;
        }
        self.out.push(FullCapture {
            raw: c.raw,
            path: c.path.to_vec(),
            taken: c.taken.to_vec(),
        });
    }
}

/// The state of one capture search.
struct Search<'e, 's, B, S> {
    eng: &'e Engine<B>,
    sink: &'s mut S,
    side: usize,
    from: u8,
    start_king: bool,
    /// Opponent pieces that may still be captured.
    opp: B,
    /// Opponent kings at the start of the move.
    opp_kings: B,
    /// Squares a piece may pass or land on.
    empty: B,
    captured: B,
    n: usize,
    kings_taken: u32,
    /// Italian rule: bit 31 − i is set if the i-th piece taken is a king.
    king_order: u32,
    promoted: bool,
    path: [u8; MAX_CAPTURES],
    taken: [u8; MAX_CAPTURES],
}

impl<B: Bits, S: Sink<B>> Search<'_, '_, B, S> {
    /// Tries every jump from `cur` in `dirs` by a king or a man; returns
    /// whether there was one. Complete captures go to the sink.
    fn jumps(&mut self, cur: B, dirs: u8, king: bool) -> bool {
        let eng = self.eng;
        let lay = &eng.layout;
        let rules = &eng.rules;
        let flying = king && rules.flying;
        let targets = if king || rules.men_take_kings {
            self.opp
        } else {
            self.opp & !self.opp_kings
        };
        let mut any = false;
        let mut ds = dirs;
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            let mut victim = lay.step(cur, d);
            if flying {
                while (victim & self.empty).any() {
                    victim = lay.step(victim, d);
                }
            }
            if (victim & targets).is_zero() {
                continue;
            }
            let behind = lay.step(victim, d) & self.empty;
            if behind.is_zero() {
                continue;
            }
            any = true;

            // Take the piece.
            let victim_king = (victim & self.opp_kings).any();
            let i = self.n;
            self.opp ^= victim;
            self.captured |= victim;
            if rules.immediate {
                self.empty |= victim;
            }
            self.taken[i] = victim.lowest() as u8;
            if victim_king {
                self.kings_taken += 1;
                if i < 32 {
                    self.king_order |= 1 << (31 - i);
                }
            }
            self.n = i + 1;

            // Russian rule: a man landing on the far row is crowned at once
            // and goes on capturing as a king.
            let crowned_here = !king && rules.promo_mid && (behind & lay.promo[self.side]).any();
            if crowned_here {
                self.promoted = true;
            }
            let now_king = king || crowned_here;
            let go_on = if now_king {
                rules.king_cap
            } else {
                rules.man_cap[self.side]
            };
            let straight = go_on & (1 << d);
            let back = 1u8 << (d ^ 1);
            let turns = go_on & !(1 << d) & if rules.reversal { !0 } else { !back };

            // Going straight on is searched once, from the square right
            // behind the piece: a flying king passes the other landing
            // squares on its way, so they are the same capture.
            let mut more = false;
            self.path[i] = behind.lowest() as u8;
            if straight != 0 && self.jumps(behind, straight, now_king) {
                more = true;
            }
            // Turning may happen on any landing square.
            let mut stops = B::ZERO;
            let mut land = behind;
            loop {
                self.path[i] = land.lowest() as u8;
                if turns != 0 && self.jumps(land, turns, now_king) {
                    more = true;
                } else {
                    stops |= land;
                }
                if !flying || rules.land_behind {
                    break;
                }
                land = lay.step(land, d) & self.empty;
                if land.is_zero() {
                    break;
                }
            }
            // A capture that can go on must; only otherwise may it stop on
            // any of the landing squares.
            if !more {
                for to in stops.iter() {
                    self.path[i] = to as u8;
                    self.emit(to);
                }
            }

            // Put the piece back.
            if crowned_here {
                self.promoted = false;
            }
            self.n = i;
            if victim_king {
                self.kings_taken -= 1;
                if i < 32 {
                    self.king_order &= !(1 << (31 - i));
                }
            }
            if rules.immediate {
                self.empty ^= victim;
            }
            self.captured ^= victim;
            self.opp |= victim;
        }
        any
    }

    fn emit(&mut self, to: u32) {
        let eng = self.eng;
        let promote = !self.start_king && (self.promoted || eng.layout.promo[self.side].has(to));
        let n = self.n as u64;
        let kings = u64::from(self.kings_taken);
        let by_king = u64::from(self.start_king);
        let key = match eng.rules.precedence {
            Precedence::Free => 0,
            Precedence::Quantity => n,
            Precedence::QuantityThenKings => (n << 8) | kings,
            Precedence::Italian => {
                (n << 40) | (by_king << 39) | (kings << 32) | u64::from(self.king_order)
            }
            Precedence::KingFirst => by_king,
            Precedence::Value => (((n - kings) * 100 + kings * 199) << 1) | by_king,
        };
        self.sink.capture(&Capture {
            raw: RawMove {
                from: self.from,
                to: to as u8,
                promote,
                captured: self.captured,
            },
            key,
            path: &self.path[..self.n],
            taken: &self.taken[..self.n],
        });
    }
}

impl<B: Bits> Engine<B> {
    /// Finds every capture of the side to move and passes those that
    /// precedence allows to the sink (the sink filters by key).
    pub(crate) fn captures<S: Sink<B>>(&self, st: &State<B>, sink: &mut S) {
        self.captures_by(st, self.layout.valid, sink);
    }

    /// [`Engine::captures`] of the pieces on `starts` only: all of them where the variant
    /// leaves the choice of capture free, for no other piece's capture can make them
    /// illegal.
    pub(crate) fn captures_by<S: Sink<B>>(&self, st: &State<B>, starts: B, sink: &mut S) {
        let s = usize::from(st.side);
        let o = s ^ 1;
        let lay = &self.layout;
        let rules = &self.rules;
        let empty = lay.valid & !st.occupied();
        let opp = st.men[o] | st.kings[o];
        if opp.is_zero() {
            return;
        }

        // Men that can make a first jump, found for all men at once.
        let men = st.men[s] & starts;
        let targets = if rules.men_take_kings { opp } else { st.men[o] };
        let mut movers = B::ZERO;
        let mut ds = rules.man_cap[s];
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            let land = lay.step(lay.step(men, d) & targets, d) & empty;
            if land.any() {
                movers |= lay.step(lay.step(land, d ^ 1), d ^ 1);
            }
        }
        let kings = st.kings[s] & starts;
        if movers.is_zero() && kings.is_zero() {
            return;
        }

        let mut search = Search {
            eng: self,
            sink,
            side: s,
            from: 0,
            start_king: false,
            opp,
            opp_kings: st.kings[o],
            empty,
            captured: B::ZERO,
            n: 0,
            kings_taken: 0,
            king_order: 0,
            promoted: false,
            path: [0; MAX_CAPTURES],
            taken: [0; MAX_CAPTURES],
        };
        for (pieces, king) in [(movers, false), (kings, true)] {
            for from in pieces.iter() {
                let bit = B::bit(from);
                search.from = from as u8;
                search.start_king = king;
                // The moving piece leaves its square, which it may cross or
                // land on again.
                search.empty = empty | bit;
                let dirs = if king {
                    rules.king_cap
                } else {
                    rules.man_cap[s]
                };
                search.jumps(bit, dirs, king);
            }
        }
    }

    /// Whether the side to move has a capture, found with masks: a first jump is a
    /// capture (a capture that can go on is still one), so no search is needed. The step
    /// fast path asks this for every step, where a full capture search would cost more
    /// than the rest of reading the move.
    pub(crate) fn has_capture(&self, st: &State<B>) -> bool {
        let s = usize::from(st.side);
        let o = s ^ 1;
        let lay = &self.layout;
        let rules = &self.rules;
        let empty = lay.valid & !st.occupied();
        let opp = st.men[o] | st.kings[o];
        if opp.is_zero() {
            return false;
        }
        // As `captures`: men jump the pieces they may take, in their directions.
        let men = st.men[s];
        let targets = if rules.men_take_kings { opp } else { st.men[o] };
        let mut ds = rules.man_cap[s];
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            if (lay.step(lay.step(men, d) & targets, d) & empty).any() {
                return true;
            }
        }
        // As `Search::jumps` for a king's first jump: a flying king slides over empty
        // squares to the piece it takes. The king's own square stays occupied here, which
        // changes nothing for a first jump (the king never passes its own square).
        for from in st.kings[s].iter() {
            let mut ds = rules.king_cap;
            while ds != 0 {
                let d = ds.trailing_zeros() as usize;
                ds &= ds - 1;
                let mut victim = lay.step(B::bit(from), d);
                if rules.flying {
                    while (victim & empty).any() {
                        victim = lay.step(victim, d);
                    }
                }
                if (victim & opp).any() && (lay.step(victim, d) & empty).any() {
                    return true;
                }
            }
        }
        false
    }

    /// Appends the non-capturing moves of the side to move.
    pub(crate) fn quiet(&self, st: &State<B>, out: &mut Vec<RawMove<B>>) {
        let s = usize::from(st.side);
        let lay = &self.layout;
        let rules = &self.rules;
        let empty = lay.valid & !st.occupied();
        let mut ds = rules.man_move[s];
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            for to in (lay.step(st.men[s], d) & empty).iter() {
                out.push(RawMove {
                    from: lay.source(to, d) as u8,
                    to: to as u8,
                    promote: lay.promo[s].has(to),
                    captured: B::ZERO,
                });
            }
        }
        let kings = st.kings[s] & !self.restricted_king(st);
        for from in kings.iter() {
            let mut ds = rules.king_move;
            while ds != 0 {
                let d = ds.trailing_zeros() as usize;
                ds &= ds - 1;
                let mut to = lay.step(B::bit(from), d) & empty;
                while to.any() {
                    out.push(RawMove {
                        from: from as u8,
                        to: to.lowest() as u8,
                        promote: false,
                        captured: B::ZERO,
                    });
                    if !rules.flying {
                        break;
                    }
                    to = lay.step(to, d) & empty;
                }
            }
        }
    }

    /// The number of non-capturing moves of the side to move.
    #[inline]
    pub(crate) fn count_quiet(&self, st: &State<B>) -> u64 {
        let s = usize::from(st.side);
        let lay = &self.layout;
        let rules = &self.rules;
        let empty = lay.valid & !st.occupied();
        let mut n = 0u64;
        let mut ds = rules.man_move[s];
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            n += u64::from((lay.step(st.men[s], d) & empty).count());
        }
        let kings = st.kings[s] & !self.restricted_king(st);
        if kings.any() {
            let mut ds = rules.king_move;
            while ds != 0 {
                let d = ds.trailing_zeros() as usize;
                ds &= ds - 1;
                // The rays of different kings never overlap: a king blocks
                // the ray of any king behind it.
                let mut ray = lay.step(kings, d) & empty;
                while ray.any() {
                    n += u64::from(ray.count());
                    if !rules.flying {
                        break;
                    }
                    ray = lay.step(ray, d) & empty;
                }
            }
        }
        n
    }

    /// All legal moves in generator form (captures with duplicates removed
    /// unless the variant keeps them).
    pub(crate) fn legal(&self, st: &State<B>, out: &mut Vec<RawMove<B>>) {
        out.clear();
        self.captures(st, &mut RawSink { out, best: 0 });
        if out.is_empty() {
            self.quiet(st, out);
        } else if self.rules.dedup {
            dedup(out);
        }
    }

    /// Counts the leaves of the move tree `depth` plies deep; `dedup`
    /// merges captures with the same start, end and captured pieces.
    pub(crate) fn perft(&self, st: &State<B>, depth: usize, dedup: bool) -> u64 {
        let mut buffers: Vec<Vec<RawMove<B>>> =
            (0..depth).map(|_| Vec::with_capacity(64)).collect();
        self.perft_with(st, depth, dedup, &mut buffers)
    }

    fn perft_with(
        &self,
        st: &State<B>,
        depth: usize,
        merge: bool,
        buffers: &mut [Vec<RawMove<B>>],
    ) -> u64 {
        let Some((buf, rest)) = buffers.split_first_mut() else {
            return 1;
        };
        if depth == 0 {
            return 1;
        }
        buf.clear();
        self.captures(st, &mut RawSink { out: buf, best: 0 });
        if buf.is_empty() {
            if depth == 1 {
                return self.count_quiet(st);
            }
            self.quiet(st, buf);
        } else if merge {
            dedup(buf);
        }
        if depth == 1 {
            return buf.len() as u64;
        }
        let mut nodes = 0;
        for m in buf.iter() {
            nodes += self.perft_with(&self.make(st, m), depth - 1, merge, rest);
        }
        nodes
    }
}

/// Removes captures with the same start, end, captured pieces and crowning
/// as an earlier one: they lead to the same position and are written the
/// same way.
pub(crate) fn dedup<B: Bits>(moves: &mut Vec<RawMove<B>>) {
    if moves.len() < 2 {
        return;
    }
    let mut kept = 0;
    for i in 0..moves.len() {
        let m = moves[i];
        if !moves[..kept].contains(&m) {
            moves[kept] = m;
            kept += 1;
        }
    }
    moves.truncate(kept);
}
