"""Type stubs of the Rust half of ``notate``."""

import os
from typing import Any, BinaryIO, Iterator, Mapping, Optional, Sequence, Tuple, Union

import pyarrow

Source = Union[str, os.PathLike, bytes, bytearray, BinaryIO]
"""A path (``.gz``, ``.bz2``, ``.zst`` decompressed), the bytes of a file, or a binary file object."""

Range = Tuple[int, Optional[int]]
"""``(start, end)`` bytes of an uncompressed file; ``end`` ``None`` for its end."""

class NotationError(Exception):
    """A notation that cannot be read: a FEN, a variant or game type, a format. The base of
    the package's errors."""

class FenError(NotationError):
    """A FEN that does not describe a position of its game."""

class EngineError(NotationError):
    """An analysis engine that cannot be started: no such program, one that does not speak
    UCI, or one that refuses an option it is given."""

class Eval:
    """An engine's evaluation: centipawns from White's side, or mate in so many moves."""

    @property
    def cp(self) -> Optional[int]:
        """Centipawns from White's side (``None`` for a mate)."""
    @property
    def mate(self) -> Optional[int]:
        """Mate in this many moves, positive when White mates (``None`` otherwise)."""

class Move:
    """A move with what is written after it."""

    @property
    def san(self) -> Optional[str]:
        """Chess: the move in SAN (``Nf3``); ``None`` for draughts."""
    @property
    def uci(self) -> Optional[str]:
        """Chess: the move in UCI (``g1f3``); ``None`` for draughts."""
    @property
    def text(self) -> str:
        """The move as its notation writes it: SAN, or PDN (``32-28``)."""
    @property
    def comments(self) -> list[str]:
        """Comments after the move."""
    @property
    def comments_before(self) -> list[str]:
        """Comments before it, at the start of a variation."""
    @property
    def nags(self) -> list[int]:
        """Annotation glyphs (``!`` is 1, ``?`` is 2, …)."""
    @property
    def clock(self) -> Optional[float]:
        """The mover's clock after the move, in seconds (``[%clk]``, ``[%clock]``)."""
    @property
    def eval(self) -> Optional[Eval]:
        """The evaluation after the move (``[%eval]``)."""
    @property
    def variations(self) -> list[list["Move"]]:
        """Alternatives to this move, each played from the position before it."""

class Diagnostic:
    """A warning or an error found reading a game, where it was found."""

    @property
    def file(self) -> str: ...
    @property
    def game(self) -> Optional[int]:
        """The game's number in its input (``None`` outside any game)."""
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def severity(self) -> str:
        """``"warning"`` or ``"error"``."""
    @property
    def message(self) -> str: ...

class Game:
    """A game: tags, moves, result, positions, opening and diagnostics."""

    @property
    def number(self) -> int:
        """Its number in its input, from 1."""
    @property
    def offset(self) -> int:
        """The byte offset of its first byte in its input (decompressed)."""
    @property
    def file(self) -> str: ...
    @property
    def format(self) -> str:
        """``"pgn"`` (chess) or ``"pdn"`` (draughts)."""
    @property
    def tags(self) -> dict[str, str]:
        """Tag pairs in the order written."""
    @property
    def result(self) -> str: ...
    @property
    def variant(self) -> str:
        """The chess variant or draughts game type it was read in."""
    @property
    def comments(self) -> list[str]:
        """Comments before the first move."""
    @property
    def moves(self) -> list[Move]:
        """The main line, up to the first error."""
    @property
    def unread(self) -> Optional[str]:
        """The movetext after an error, as written."""
    @property
    def start_fen(self) -> Optional[str]: ...
    @property
    def final_fen(self) -> Optional[str]: ...
    @property
    def opening(self) -> Optional[Tuple[str, str]]:
        """``(eco, name)`` of the opening its moves reach (chess)."""
    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    def fens(self) -> list[str]:
        """The FEN after each ply of the main line."""
    def evals(self) -> list[Optional[Eval]]:
        """The evaluation after each move of the main line (``[%eval]``), ``None`` after a
        move that has none: one entry per move of ``moves``."""
    def to_pgn(self) -> str:
        """The game in the export format."""
    def to_pdn(self) -> str:
        """The game in the export format."""
    def to_dict(self) -> dict:
        """The game as ``notate json`` writes it."""
    def to_python_chess(self): ...

class Games(Iterator[Game]):
    """The games of a source, read as they are asked for."""

    def __next__(self) -> Game: ...
    @property
    def diagnostics(self) -> list[Diagnostic]:
        """What was found outside any game, once the games are all read."""

class Summary:
    """What ``check`` found."""

    games: int
    moves: int
    errors: int
    warnings: int
    diagnostics: list[Diagnostic]

def read(
    source: Source, format: Optional[str] = None, variant: Optional[str] = None, strict: bool = False
) -> Games:
    """The games of ``source``, read lazily."""

def check(
    source: Source, format: Optional[str] = None, variant: Optional[str] = None, strict: bool = False
) -> Summary:
    """Reads every game and plays every move, on every core."""

def perft(fen: Optional[str], depth: int, variant: Optional[str] = None) -> int:
    """Leaf positions ``depth`` plies below ``fen`` (the start position when ``None``) of
    chess, ``"chess960"``, a chess variant (``"crazyhouse"``, ``"atomic"``, ``"antichess"``,
    ``"kingofthehill"``, ``"threecheck"``, ``"horde"``, ``"racingkings"``) or a draughts
    variant (a name or a ``GameType`` number)."""

def annotate(
    source: Source,
    engine: Union[str, os.PathLike],
    *,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    movetime: Optional[int] = None,
    engines: Optional[int] = None,
    threads: int = 1,
    hash: Optional[int] = None,
    options: Optional[Mapping[str, Union[str, int, bool]]] = None,
    timeout: Optional[float] = None,
    overwrite: bool = False,
    accuracy_tags: bool = False,
    cache: Optional[Union[str, os.PathLike]] = None,
) -> list[Game]:
    """The chess games of ``source`` analysed by the UCI engine at ``engine``, as
    ``notate annotate`` writes them: ``[%eval]`` after every main-line move, lichess's glyphs
    for inaccuracies, mistakes and blunders, and the engine's better line beside each mistake
    and blunder. One limit per position (``nodes``, ``depth`` or ``movetime`` in ms; 100,000
    nodes when none is given); ``engines`` processes at once (all cores by default). Raises
    ``EngineError`` for an engine that cannot be started, ``ValueError`` for draughts."""

def to_arrow(
    source: Source,
    positions: bool = False,
    range: Optional[Range] = None,
    format: Optional[str] = None,
    variant: Optional[str] = None,
    strict: bool = False,
) -> pyarrow.Table:
    """The games table (or the positions table) of ``source``."""

def to_arrow_reader(
    source: Source,
    positions: bool = False,
    range: Optional[Range] = None,
    format: Optional[str] = None,
    variant: Optional[str] = None,
    strict: bool = False,
) -> pyarrow.RecordBatchReader:
    """As ``to_arrow``, streamed."""

def write_parquet(
    source: Source,
    path: Union[str, os.PathLike],
    positions: Optional[Union[str, os.PathLike]] = None,
    range: Optional[Range] = None,
    format: Optional[str] = None,
    variant: Optional[str] = None,
    strict: bool = False,
    compression: str = "zstd",
    level: Optional[int] = None,
) -> int:
    """Writes the games table (and the positions table) as Parquet; returns the games written.
    ``compression`` is ``zstd`` (at ``level`` 1 to 22, 3 by default), ``lz4``, ``snappy`` or
    ``none``."""

def index(
    paths: Sequence[Union[str, os.PathLike]],
    out: Union[str, os.PathLike],
    append: bool = False,
    variant: Optional[str] = None,
    range: Optional[Range] = None,
    merge: bool = False,
    variations: bool = False,
) -> int:
    """Builds a position index of ``paths`` in the folder ``out`` (or adds them to it, with
    ``append``), as ``notate index`` does; returns the games indexed. ``range=(start, end)``
    indexes the games that begin in those bytes of one uncompressed file (a shard, as
    ``notate index --range``); ``merge=True`` merges the indexes ``paths`` (shards, a
    file's ranges in order) into ``out`` and returns its games."""

class Found:
    """The games ``Index.find`` found: dicts with ``file``, ``number`` and ``offset``."""
    def __iter__(self) -> Iterator[dict[str, Any]]: ...
    def __next__(self) -> dict[str, Any]: ...
    def __len__(self) -> int: ...

class Index:
    """A position index, open for questions (``notate explore`` and ``notate find``)."""
    def __init__(self, path: Union[str, os.PathLike]) -> None: ...
    @property
    def games(self) -> int: ...
    @property
    def game(self) -> str:
        """``"chess"`` or ``"draughts"``."""
    def explore(
        self,
        fen: Optional[str] = None,
        moves: Optional[str] = None,
        variant: Optional[str] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        ratings: Optional[Sequence[str]] = None,
        speeds: Optional[Sequence[str]] = None,
        player: Optional[str] = None,
        color: Optional[str] = None,
        max_moves: int = 12,
        top_games: int = 4,
        recent_games: int = 4,
    ) -> dict[str, Any]:
        """The dict of ``notate explore --json`` (lichess's explorer shape)."""
    def find(
        self,
        fen: Optional[str] = None,
        moves: Optional[str] = None,
        variant: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> Found:
        """The games that reached the position, lazily."""
