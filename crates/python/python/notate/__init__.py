"""Chess (PGN) and draughts (PDN) games at Rust speed.

Read games lazily with :func:`read`, check a collection with :func:`check`, count positions
with :func:`perft`, index a collection by position with :func:`index` and ask it with
:class:`Index` (the opening explorer and position search), analyse chess games with a UCI engine with :func:`annotate`, and turn a collection into Arrow tables (:func:`to_arrow`,
:func:`to_arrow_reader`) or Parquet files (:func:`write_parquet`) for pandas, Polars, DuckDB
or Spark. Every function takes a *source*: a path (``.gz``, ``.bz2`` and ``.zst`` files are
decompressed), ``bytes``, or a binary file object.

>>> import notate
>>> game = next(notate.read(b'[White "A"]\\n[Black "B"]\\n\\n1. e4 e5 2. Nf3 *\\n'))
>>> [m.uci for m in game.moves]
['e2e4', 'e7e5', 'g1f3']

The submodule :mod:`notate.spark` (Spark reads past one machine) is loaded on first use,
``notate.spark``, and imports neither pyarrow nor pyspark before then.
"""

from ._notate import (
    Diagnostic,
    EngineError,
    Eval,
    FenError,
    Found,
    Game,
    Games,
    Index,
    Move,
    NotationError,
    Summary,
    annotate,
    check,
    index,
    perft,
    read,
    to_arrow,
    to_arrow_reader,
    write_parquet,
)
from ._interop import to_python_chess

Game.to_python_chess = to_python_chess


def __getattr__(name):
    # `notate.spark` needs pyarrow (and pyspark once used): it is imported on first use, so
    # that `import notate` stays light and `notate.spark.read(…)` works without its own import.
    if name == "spark":
        import importlib

        return importlib.import_module(".spark", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Diagnostic",
    "EngineError",
    "Eval",
    "FenError",
    "Found",
    "Game",
    "Games",
    "Index",
    "Move",
    "NotationError",
    "Summary",
    "annotate",
    "check",
    "index",
    "perft",
    "read",
    "to_arrow",
    "to_arrow_reader",
    "to_python_chess",
    "write_parquet",
]
