//! The games table's per-move list columns, filled a game's main line at a time.
//!
//! Arrow's generic builders take one value per call, through a type-erased struct builder
//! for evaluations; a main line comes whole, column by column ([`crate::MoveColumns`]), so
//! these columns keep plain vectors that a game extends in one go, and become arrays at
//! the end of a batch.

use std::sync::Arc;

use arrow_array::{
    ArrayRef, Float64Array, Int32Array, ListArray, StringArray, StructArray, UInt16Array,
};
use arrow_buffer::{Buffer, NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::FieldRef;

use crate::schema::Eval;
use crate::schema::{
    eval_fields, eval_item, nags_item, nullable_item, string_item, tag_fields, tag_item,
};

/// An offset into a column's values. The caller finishes a batch long before its texts
/// near Arrow's 2 GiB ([`crate::GamesBuilder::bytes`]), as the generic builders require.
/// How much more the columns of a batch are to hold: the rest of an input of which
/// `read` bytes (of `total`) gave what they hold now.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rest {
    pub(crate) read: usize,
    pub(crate) total: usize,
}

impl Rest {
    /// Room for the items of the rest, at the rate of those so far.
    fn reserve<T>(self, items: &mut Vec<T>) {
        let rest = self.total.saturating_sub(self.read);
        let more = items.len().saturating_mul(rest) / self.read.max(1);
        items.reserve(more);
    }
}

fn offset(at: usize) -> i32 {
    i32::try_from(at).unwrap_or_else(|_| unreachable!("a batch's column holds under 2 GiB"))
}

/// A list column's rows: where each ends among the items, and which are null.
struct ListRows {
    ends: Vec<i32>,
    validity: NullBufferBuilder,
}

impl ListRows {
    fn new() -> ListRows {
        ListRows {
            ends: vec![0],
            validity: NullBufferBuilder::new(0),
        }
    }

    /// Ends a row, the items so far being `items`.
    fn end_row(&mut self, items: usize, valid: bool) {
        self.ends.push(offset(items));
        self.validity.append(valid);
    }

    fn reserve(&mut self, rest: Rest) {
        rest.reserve(&mut self.ends);
    }

    fn finish(&mut self) -> (OffsetBuffer<i32>, Option<NullBuffer>) {
        let ends = std::mem::replace(&mut self.ends, vec![0]);
        (
            OffsetBuffer::new(ScalarBuffer::from(ends)),
            self.validity.finish(),
        )
    }
}

fn list(item: FieldRef, rows: &mut ListRows, values: ArrayRef) -> ListArray {
    let (offsets, nulls) = rows.finish();
    ListArray::try_new(item, offsets, values, nulls)
        .unwrap_or_else(|e| unreachable!("the rows end within the items: {e}"))
}

/// Texts one after another, and where each ends: a `utf8` column's buffers.
pub(crate) struct Texts {
    bytes: Vec<u8>,
    ends: Vec<i32>,
}

impl Texts {
    pub(crate) fn new() -> Texts {
        Texts {
            bytes: Vec::new(),
            ends: vec![0],
        }
    }

    fn len(&self) -> usize {
        self.ends.len() - 1
    }

    pub(crate) fn push(&mut self, text: &str) {
        self.bytes.extend_from_slice(text.as_bytes());
        self.ends.push(offset(self.bytes.len()));
    }

    pub(crate) fn reserve(&mut self, rest: Rest) {
        rest.reserve(&mut self.bytes);
        rest.reserve(&mut self.ends);
    }

    /// Adds `texts` one after another, each ending at its entry of `ends`. Ends that are
    /// not in order at character boundaries of `texts` (not as documented) add the
    /// pieces between them that are `str`s, and empty texts for the others.
    fn extend(&mut self, texts: &str, ends: &[usize]) {
        // Folds with no early exit, which the compiler vectorises; moves are ASCII.
        let pairs = ends.iter().zip(ends.get(1..).unwrap_or_default());
        let in_order = pairs.fold(true, |ok, (a, b)| ok & (a <= b))
            && ends.last().is_none_or(|&end| end <= texts.len());
        let boundaries =
            in_order && (texts.is_ascii() || ends.iter().all(|&end| texts.is_char_boundary(end)));
        if !boundaries {
            let mut start = 0;
            for &end in ends {
                self.push(texts.get(start..end).unwrap_or(""));
                start = end;
            }
            return;
        }
        let base = self.bytes.len();
        self.bytes.extend_from_slice(texts.as_bytes());
        self.ends.extend(ends.iter().map(|&end| offset(base + end)));
    }

    #[allow(unsafe_code)]
    pub(crate) fn finish(&mut self) -> StringArray {
        let ends = std::mem::replace(&mut self.ends, vec![0]);
        let bytes = std::mem::take(&mut self.bytes);
        // Checks that the ends are in order (their first is 0).
        let offsets = OffsetBuffer::new(ScalarBuffer::from(ends));
        // SAFETY: the bytes are whole `str`s one after another (`push` and `extend` take
        // nothing else), so UTF-8, and every end is the end of one of them or, in
        // `extend`, checked to be a character boundary of its `str`, in order; `offset`
        // made each an `i32`. Arrow's own check of all that would cost the lichess file's
        // games table 18 M instructions of its 800 M (`to_arrow`, lichess ×10).
        unsafe { StringArray::new_unchecked(offsets, Buffer::from_vec(bytes), None) }
    }
}

/// Which of a column's values are null, a byte each until the column is finished.
struct Validity(Vec<bool>);

impl Validity {
    fn reserve(&mut self, rest: Rest) {
        rest.reserve(&mut self.0);
    }

    fn extend(&mut self, valid: impl IntoIterator<Item = bool>) {
        self.0.extend(valid);
    }

    fn finish(&mut self) -> Option<NullBuffer> {
        let valid = std::mem::take(&mut self.0);
        if valid.iter().all(|&v| v) {
            None
        } else {
            Some(NullBuffer::from(valid))
        }
    }
}

/// `list<utf8>`: a game's moves as texts.
pub(crate) struct TextList {
    texts: Texts,
    rows: ListRows,
}

impl TextList {
    pub(crate) fn new() -> TextList {
        TextList {
            texts: Texts::new(),
            rows: ListRows::new(),
        }
    }

    /// Adds an item to the row being built.
    pub(crate) fn push(&mut self, text: &str) {
        self.texts.push(text);
    }

    /// Adds items to the row being built: `texts` one after another, each ending at its
    /// entry of `ends` (byte offsets into `texts`, at character boundaries).
    pub(crate) fn extend(&mut self, texts: &str, ends: &[usize]) {
        self.texts.extend(texts, ends);
    }

    pub(crate) fn end_row(&mut self, valid: bool) {
        self.rows.end_row(self.texts.len(), valid);
    }

    pub(crate) fn reserve(&mut self, rest: Rest) {
        self.texts.reserve(rest);
        self.rows.reserve(rest);
    }

    pub(crate) fn finish(&mut self) -> ListArray {
        let texts = self.texts.finish();
        list(string_item(), &mut self.rows, Arc::new(texts))
    }
}

/// `list<struct<name: utf8, value: utf8>>`: a game's tag pairs.
pub(crate) struct TagList {
    names: Texts,
    values: Texts,
    rows: ListRows,
}

impl TagList {
    pub(crate) fn new() -> TagList {
        TagList {
            names: Texts::new(),
            values: Texts::new(),
            rows: ListRows::new(),
        }
    }

    pub(crate) fn push(&mut self, name: &str, value: &str) {
        self.names.push(name);
        self.values.push(value);
    }

    pub(crate) fn end_row(&mut self) {
        self.rows.end_row(self.names.len(), true);
    }

    pub(crate) fn reserve(&mut self, rest: Rest) {
        self.names.reserve(rest);
        self.values.reserve(rest);
        self.rows.reserve(rest);
    }

    pub(crate) fn finish(&mut self) -> ListArray {
        let columns = vec![
            Arc::new(self.names.finish()) as ArrayRef,
            Arc::new(self.values.finish()),
        ];
        let pairs = StructArray::try_new(tag_fields(), columns, None)
            .unwrap_or_else(|e| unreachable!("two text columns of one length: {e}"));
        list(tag_item(), &mut self.rows, Arc::new(pairs))
    }
}

/// `list<float64>`, items nullable: the clocks.
pub(crate) struct ClockList {
    values: Vec<f64>,
    validity: Validity,
    rows: ListRows,
}

impl ClockList {
    pub(crate) fn new() -> ClockList {
        ClockList {
            values: Vec::new(),
            validity: Validity(Vec::new()),
            rows: ListRows::new(),
        }
    }

    pub(crate) fn extend(&mut self, clocks: &[Option<f64>]) {
        self.values
            .extend(clocks.iter().map(|c| c.unwrap_or_default()));
        self.validity.extend(clocks.iter().map(Option::is_some));
    }

    pub(crate) fn end_row(&mut self) {
        self.rows.end_row(self.values.len(), true);
    }

    pub(crate) fn reserve(&mut self, rest: Rest) {
        rest.reserve(&mut self.values);
        self.validity.reserve(rest);
        self.rows.reserve(rest);
    }

    pub(crate) fn finish(&mut self) -> ListArray {
        let values = Float64Array::new(
            ScalarBuffer::from(std::mem::take(&mut self.values)),
            self.validity.finish(),
        );
        list(
            nullable_item(arrow_schema::DataType::Float64),
            &mut self.rows,
            Arc::new(values),
        )
    }
}

/// `list<struct<cp: int32, mate: int32>>`, items nullable: the evaluations.
pub(crate) struct EvalList {
    cp: Vec<i32>,
    cp_validity: Validity,
    mate: Vec<i32>,
    mate_validity: Validity,
    validity: Validity,
    rows: ListRows,
}

impl EvalList {
    pub(crate) fn new() -> EvalList {
        EvalList {
            cp: Vec::new(),
            cp_validity: Validity(Vec::new()),
            mate: Vec::new(),
            mate_validity: Validity(Vec::new()),
            validity: Validity(Vec::new()),
            rows: ListRows::new(),
        }
    }

    pub(crate) fn extend(&mut self, evals: &[Option<Eval>]) {
        if evals.iter().all(Option::is_none) {
            // Nearly every game has no evaluation: nulls, written at once.
            let n = evals.len();
            self.cp.resize(self.cp.len() + n, 0);
            self.cp_validity
                .0
                .resize(self.cp_validity.0.len() + n, false);
            self.mate.resize(self.mate.len() + n, 0);
            self.mate_validity
                .0
                .resize(self.mate_validity.0.len() + n, false);
            self.validity.0.resize(self.validity.0.len() + n, false);
            return;
        }
        // A pass for each vector, each of a known length: no check of room per item.
        let cp = |eval: &Option<Eval>| match *eval {
            Some(Eval::Centipawns(cp)) => Some(cp),
            _ => None,
        };
        let mate = |eval: &Option<Eval>| match *eval {
            Some(Eval::Mate(n)) => Some(n),
            _ => None,
        };
        self.cp
            .extend(evals.iter().map(|e| cp(e).unwrap_or_default()));
        self.cp_validity
            .extend(evals.iter().map(|e| cp(e).is_some()));
        self.mate
            .extend(evals.iter().map(|e| mate(e).unwrap_or_default()));
        self.mate_validity
            .extend(evals.iter().map(|e| mate(e).is_some()));
        self.validity.extend(evals.iter().map(Option::is_some));
    }

    pub(crate) fn end_row(&mut self) {
        self.rows.end_row(self.cp.len(), true);
    }

    pub(crate) fn reserve(&mut self, rest: Rest) {
        rest.reserve(&mut self.cp);
        self.cp_validity.reserve(rest);
        rest.reserve(&mut self.mate);
        self.mate_validity.reserve(rest);
        self.validity.reserve(rest);
        self.rows.reserve(rest);
    }

    pub(crate) fn finish(&mut self) -> ListArray {
        let cp = Int32Array::new(
            ScalarBuffer::from(std::mem::take(&mut self.cp)),
            self.cp_validity.finish(),
        );
        let mate = Int32Array::new(
            ScalarBuffer::from(std::mem::take(&mut self.mate)),
            self.mate_validity.finish(),
        );
        let evals = StructArray::try_new(
            eval_fields(),
            vec![Arc::new(cp) as ArrayRef, Arc::new(mate)],
            self.validity.finish(),
        )
        .unwrap_or_else(|e| unreachable!("two integer columns of one length: {e}"));
        list(eval_item(), &mut self.rows, Arc::new(evals))
    }
}

/// `list<list<uint16>>`: each move's glyphs.
pub(crate) struct NagList {
    values: Vec<u16>,
    ends: Vec<i32>,
    rows: ListRows,
}

impl NagList {
    pub(crate) fn new() -> NagList {
        NagList {
            values: Vec::new(),
            ends: vec![0],
            rows: ListRows::new(),
        }
    }

    /// Adds a move's glyphs to the row being built.
    pub(crate) fn push(&mut self, nags: &[u16]) {
        self.values.extend_from_slice(nags);
        self.ends.push(offset(self.values.len()));
    }

    /// Adds moves' glyphs: `nags` one move after another, each move's ending at its entry
    /// of `ends`.
    pub(crate) fn extend(&mut self, nags: &[u16], ends: &[usize]) {
        let base = self.values.len();
        self.values.extend_from_slice(nags);
        self.ends.extend(ends.iter().map(|&end| offset(base + end)));
    }

    pub(crate) fn end_row(&mut self) {
        self.rows.end_row(self.ends.len() - 1, true);
    }

    pub(crate) fn reserve(&mut self, rest: Rest) {
        rest.reserve(&mut self.values);
        rest.reserve(&mut self.ends);
        self.rows.reserve(rest);
    }

    pub(crate) fn finish(&mut self) -> ListArray {
        let values = UInt16Array::new(ScalarBuffer::from(std::mem::take(&mut self.values)), None);
        let ends = std::mem::replace(&mut self.ends, vec![0]);
        let per_move = ListArray::try_new(
            Arc::new(arrow_schema::Field::new(
                "item",
                arrow_schema::DataType::UInt16,
                false,
            )),
            OffsetBuffer::new(ScalarBuffer::from(ends)),
            Arc::new(values),
            None,
        )
        .unwrap_or_else(|e| unreachable!("the moves end within the glyphs: {e}"));
        list(nags_item(), &mut self.rows, Arc::new(per_move))
    }
}
