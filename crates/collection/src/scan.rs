//! `notate scan`: structure only, through the reader's fast path (a [`Visitor`] that
//! counts; no move is read by any rules).

use std::io;
use std::io::Write;
use std::ops::{AddAssign, ControlFlow};

use notation::{At, Dialect, Nag, RawGame, RawValue, ReadOptions, Skip, Visitor};

use crate::job::{Ended, Job, Stopped, with_rules};
use crate::pipeline;
use crate::pipeline::{Input, Origin, Task};

/// Counts for `scan`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games.
    pub games: u64,
    /// Tag pairs.
    pub tags: u64,
    /// Move tokens.
    pub moves: u64,
    /// Annotation glyphs (suffix annotations included).
    pub nags: u64,
    /// Comments.
    pub comments: u64,
    /// Variations.
    pub variations: u64,
}

impl AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.games += o.games;
        self.tags += o.tags;
        self.moves += o.moves;
        self.nags += o.nags;
        self.comments += o.comments;
        self.variations += o.variations;
    }
}

impl Visitor for Counts {
    type Output = ();

    fn tag(&mut self, _: &[u8], _: RawValue<'_>, _: At<'_>) -> ControlFlow<()> {
        self.tags += 1;
        ControlFlow::Continue(())
    }
    fn move_token(&mut self, _: &[u8], _: At<'_>) -> ControlFlow<()> {
        self.moves += 1;
        ControlFlow::Continue(())
    }
    fn nag(&mut self, _: Nag, _: At<'_>) -> ControlFlow<()> {
        self.nags += 1;
        ControlFlow::Continue(())
    }
    fn comment(&mut self, _: &[u8], _: At<'_>) -> ControlFlow<()> {
        self.comments += 1;
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _: At<'_>) -> ControlFlow<(), Skip> {
        self.variations += 1;
        ControlFlow::Continue(Skip(false))
    }
    fn end_game(&mut self, _: RawGame<'_>) {
        self.games += 1;
    }
}

/// Counts one stream.
pub struct ScanTask {
    /// The lexical dialect.
    pub dialect: Dialect,
}

impl Task for ScanTask {
    type Item = Counts;

    fn run(
        &self,
        mut input: Input<'_>,
        _origin: Origin,
        sink: &mut dyn FnMut(Counts) -> io::Result<()>,
    ) -> io::Result<u64> {
        let mut counts = Counts::default();
        let mut reader = input.reader(self.dialect, ReadOptions::default());
        reader.visit_all(&mut counts)?;
        let buffer = reader.into_vec();
        input.give_back(buffer);
        sink(counts)?;
        Ok(counts.games)
    }
}

/// `notate scan`: reads the structure of every game of the job's inputs (no move is
/// played) and writes the counts to `out` in one line.
///
/// # Errors
/// [`Stopped::Closed`] when whoever reads `out` went away.
pub fn run(job: &mut Job<'_>, out: &mut dyn Write) -> Result<Ended, Stopped> {
    let mut counts = Counts::default();
    job.each(|_, opened, job| {
        let dialect = with_rules!(opened.format, job.variant, |rules| {
            notation::Rules::dialect(rules)
        });
        let task = ScanTask { dialect };
        pipeline::drive(&task, opened, job.jobs, &mut |c, _| {
            counts += c;
            Ok(())
        })
    })?;
    let line = writeln!(
        out,
        "games={} tags={} sans={} nags={} comments={} variations={}",
        counts.games, counts.tags, counts.moves, counts.nags, counts.comments, counts.variations
    )
    .and_then(|()| out.flush());
    if let Err(e) = line {
        job.write_failed(&e)?;
    }
    Ok(job.ended(false))
}
