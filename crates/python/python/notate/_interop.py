"""Moving over from python-chess: a game as a ``chess.pgn.Game``."""

from __future__ import annotations

from typing import Any


def to_python_chess(game: Any) -> Any:
    """The chess game as a python-chess ``chess.pgn.Game`` (read from its export-format
    text, so tags, moves, comments, glyphs and variations carry over).

    Needs python-chess (``pip install chess``); raises ``ImportError`` without it, and
    ``ValueError`` for a draughts game.
    """
    try:
        import chess.pgn
    except ImportError as missing:
        raise ImportError(
            "Game.to_python_chess needs python-chess: pip install chess"
        ) from missing
    import io

    if game.format != "pgn":
        raise ValueError("a draughts game has no python-chess form")
    converted = chess.pgn.read_game(io.StringIO(game.to_pgn()))
    if converted is None:
        raise ValueError("python-chess read no game from the export")
    return converted
