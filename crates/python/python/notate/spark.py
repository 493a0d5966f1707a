"""Spark: the games (or positions) table of files past one machine, read in parallel,
and their position index, built in parallel.

:func:`read` plans byte ranges over each uncompressed file (one task per compressed file,
which can only be read from its start), and every task reads its range as ``notate parquet
--range`` does: exactly the games that begin in it, each with the offset a whole read
gives. The ranges of a file together hold each of its games once, whatever the split
size.

>>> from pyspark.sql import SparkSession
>>> import notate.spark
>>> spark = SparkSession.builder.getOrCreate()
>>> games = notate.spark.read(spark, "lichess/", split_bytes=256 << 20)
>>> games.groupBy("opening_name").count().orderBy("count", ascending=False).show()

:func:`index` builds the position index (``notate index``) of such files: a shard per
task, of the same byte ranges, merged on the driver.

>>> notate.spark.index(spark, "lichess/", "/shared/lichess-index")
>>> notate.Index("/shared/lichess-index").explore(moves="e4 c5")

The files must be readable at the same path by every executor (a shared or local file
system). Spark has no unsigned integers: ``game``, ``offset`` and ``hash`` are ``long``
(``hash`` is the Polyglot key's 64 bits, read as a signed number), ``plies``,
``errors``, ``warnings`` and ``ply`` are ``long``, glyphs ``int``.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Iterable, Iterator, Optional, Union

import pyarrow as pa

import notate

PathLike = Union[str, "os.PathLike[str]"]

_COMPRESSED = (".gz", ".bz2", ".zst")
_GAMES = (".pgn", ".pdn")


def _spark_type(t: pa.DataType) -> pa.DataType:
    """The type Spark reads in place of ``t``: signed integers wide enough for it, and
    text for a time of day (Spark's Arrow reader has no time type)."""
    if pa.types.is_time(t):
        return pa.string()
    if pa.types.is_uint64(t) or pa.types.is_uint32(t):
        return pa.int64()
    if pa.types.is_uint16(t) or pa.types.is_uint8(t):
        return pa.int32()
    if pa.types.is_list(t):
        item = t.value_field
        return pa.list_(item.with_type(_spark_type(item.type)))
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(_spark_type(f.type)) for f in t])
    return t


@functools.lru_cache(maxsize=2)
def schema(positions: bool = False) -> pa.Schema:
    """The Arrow schema of the DataFrame :func:`read` makes: ``notate.to_arrow``'s, with
    Spark's signed integers in place of unsigned ones."""
    sample = notate.to_arrow(b"", positions=positions, format="pgn")
    return pa.schema([f.with_type(_spark_type(f.type)) for f in sample.schema])


def to_spark_types(data, positions: bool = False):
    """A record batch or table of ``notate.to_arrow``'s schema in :func:`schema`'s types:
    times of day as ``HH:MM:SS`` text, unsigned integers as signed ones."""
    import pyarrow.compute as pc

    columns = []
    for field, column in zip(data.schema, data.columns):
        if pa.types.is_time(field.type):
            micros = pc.cast(column, pa.int64())
            column = pc.strftime(pc.cast(micros, pa.timestamp("us")), "%H:%M:%S")
        columns.append(column)
    converted = type(data).from_arrays(columns, names=data.schema.names)
    return converted.cast(schema(positions), safe=False)


def files(paths: Union[PathLike, Iterable[PathLike]]) -> list[str]:
    """The game files ``paths`` name: files as given, and every ``.pgn``/``.pdn`` file
    (compressed or not) below a folder, in sorted order."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    found: list[str] = []
    for path in map(os.fspath, paths):
        if os.path.isdir(path):
            below = []
            for folder, _, names in os.walk(path):
                for name in names:
                    stem = name.lower()
                    for ext in _COMPRESSED:
                        if stem.endswith(ext):
                            stem = stem[: -len(ext)]
                    if stem.endswith(_GAMES):
                        below.append(os.path.join(folder, name))
            found.extend(sorted(below))
        elif os.path.exists(path):
            found.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    return found


def plan(paths: Union[PathLike, Iterable[PathLike]], split_bytes: int = 128 << 20) -> list[tuple]:
    """The tasks of a read: ``(path, start, end)`` for each range of ``split_bytes`` of an
    uncompressed file, ``(path, None, None)`` for a compressed file (read whole)."""
    if split_bytes < 1:
        raise ValueError("split_bytes is at least 1")
    tasks = []
    for path in files(paths):
        if path.lower().endswith(_COMPRESSED):
            tasks.append((path, None, None))
            continue
        size = os.path.getsize(path)
        starts = list(range(0, max(size, 1), split_bytes))
        for i, start in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else None
            tasks.append((path, start, end))
    return tasks


def read(
    spark,
    paths: Union[PathLike, Iterable[PathLike]],
    split_bytes: int = 128 << 20,
    positions: bool = False,
    numbered: bool = True,
    format: Optional[str] = None,
    variant: Optional[str] = None,
):
    """A ``pyspark.sql.DataFrame`` of the games table of ``paths`` (files, or folders
    read recursively), or with ``positions=True`` of the positions table: the rows of
    ``notate.to_arrow`` on each whole file.

    Each uncompressed file is read in ranges of ``split_bytes``, a task each, in parallel
    (``mapInArrow``); a compressed file is one task. A range does not know how many games
    come before it, so ``numbered`` numbers each file's games by their offsets (a sort per
    file); with ``numbered=False`` the ``game`` column of a ranged read is null.

    Spark's Python workers must import notate. Unless the user has chosen their interpreter
    (``PYSPARK_PYTHON``, the ``spark.pyspark.python`` setting, or ``SparkContext.pythonExec``
    set to another program than Spark's default ``python3``), ``read`` sets the context's
    ``pythonExec`` to the driver's own interpreter, ``sys.executable``, for this read and the
    session's later Python work: Spark would otherwise start the first ``python3`` on
    ``PATH``, which lacks notate when the driver runs from a virtualenv that is not first on
    ``PATH``.
    """
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    from pyspark.sql.pandas.types import from_arrow_schema

    _workers_run_this_python(spark)
    tasks = plan(paths, split_bytes)
    target = schema(positions)
    task_schema = "path string, start long, end long"
    ranges = spark.createDataFrame(tasks, task_schema).repartition(max(len(tasks), 1))

    def read_ranges(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import notate as worker

        for batch in batches:
            rows = zip(*(batch.column(i).to_pylist() for i in range(3)))
            for path, start, end in rows:
                where = None if start is None else (start, end)
                reader = worker.to_arrow_reader(
                    path, positions=positions, range=where, format=format, variant=variant
                )
                for part in reader:
                    yield to_spark_types(part, positions)

    frame = ranges.mapInArrow(read_ranges, from_arrow_schema(target))
    if numbered:
        if positions:
            games = Window.partitionBy("file").orderBy("offset")
            frame = frame.withColumn("game", F.dense_rank().over(games).cast("long"))
        else:
            games = Window.partitionBy("file").orderBy("offset")
            frame = frame.withColumn("game", F.row_number().over(games).cast("long"))
        frame = frame.select(*target.names)
    return frame


def index(
    spark,
    paths: Union[PathLike, Iterable[PathLike]],
    out: PathLike,
    split_bytes: int = 128 << 20,
    variant: Optional[str] = None,
    variations: bool = False,
    work: Optional[PathLike] = None,
) -> int:
    """Builds the position index of ``paths`` (files, or folders read recursively) in the
    folder ``out`` with Spark: the index ``notate.index(files(paths), out)`` builds on one
    machine, the same answers (each game's file, number in the file and offset
    included). Returns the number of games in it.

    The tasks are :func:`plan`'s, as :func:`read` reads: each builds a shard of its byte
    range of a file (``notate.index(..., range=(start, end))``; a compressed file whole)
    on an executor, into a folder of ``work`` (default: beside ``out``), which every
    executor and the driver must reach at the same path, as they must the files; the
    driver then merges the shards into ``out`` (``notate.index(shards, out,
    merge=True)``) and removes them.
    """
    import shutil
    import tempfile

    _workers_run_this_python(spark)
    tasks = plan(paths, split_bytes)
    if not tasks:
        raise ValueError(f"no game files in {paths!r}")
    out = os.path.abspath(os.fspath(out))
    parent = os.path.abspath(os.fspath(work)) if work is not None else os.path.dirname(out)
    os.makedirs(parent, exist_ok=True)
    folder = tempfile.mkdtemp(prefix=os.path.basename(out) + ".shards-", dir=parent)
    try:
        numbered = [(i, path, start, end) for i, (path, start, end) in enumerate(tasks)]
        frame = spark.createDataFrame(
            numbered, "task long, path string, start long, end long"
        ).repartition(len(numbered))

        def build_shards(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
            import notate as worker

            for batch in batches:
                rows = zip(*(batch.column(i).to_pylist() for i in range(4)))
                for task, path, start, end in rows:
                    where = None if start is None else (start, end)
                    games = worker.index(
                        [path],
                        os.path.join(folder, f"shard-{task:09d}"),
                        range=where,
                        variant=variant,
                        variations=variations,
                    )
                    yield pa.RecordBatch.from_pydict({"task": [task], "games": [games]})

        built = frame.mapInArrow(build_shards, "task long, games long").collect()
        if sorted(row["task"] for row in built) != list(range(len(numbered))):
            raise RuntimeError("some shards were not built")
        # In the plan's order: each file's ranges one after another, in order.
        shards = [os.path.join(folder, f"shard-{i:09d}") for i in range(len(numbered))]
        return notate.index(shards, out, merge=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _workers_run_this_python(spark) -> None:
    """Spark's Python workers run the driver's interpreter, unless the user chose one."""
    try:
        context = spark.sparkContext
    except Exception:
        # Spark Connect has no SparkContext here: its workers are the server's to choose.
        return
    chosen = (
        os.environ.get("PYSPARK_PYTHON")
        or context.getConf().get("spark.pyspark.python")
        or getattr(context, "pythonExec", "python3") != "python3"
    )
    if not chosen:
        context.pythonExec = sys.executable
