"""notate.annotate with Debian's Stockfish (which .ci/run installs), and Game.evals.

The command-line comparison runs the notate binary `cargo test` builds (target/debug/notate).
"""

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import notate

ROOT = Path(__file__).resolve().parents[3]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
NOTATE = TARGET / "debug" / "notate"

# Few nodes: quick, and with one thread the same analysis every run.
NODES = 2000

# A blunder and its punishment (Scholar's mate), and a quiet opening with a comment.
GAMES = b"""[Event "Scholar"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Queen's Gambit"]
[White "C"]
[Black "D"]
[Result "*"]

1. d4 d5 2. c4 {a gambit} e6 3. Nc3 *
"""


def stockfish() -> str:
    found = shutil.which("stockfish") or "/usr/games/stockfish"
    assert Path(found).is_file(), "stockfish is not installed: apt-get install stockfish"
    return found


def test_annotate_writes_what_the_command_writes(tmp_path, capfd):
    path = tmp_path / "games.pgn"
    path.write_bytes(GAMES)
    assert NOTATE.exists(), f"{NOTATE} is missing: run cargo test (or cargo build -p notate)"
    command = subprocess.run(
        [str(NOTATE), "annotate", str(path), "--engine", stockfish(), "--nodes", str(NODES), "--engines", "1"],
        capture_output=True,
        check=True,
    )

    games = notate.annotate(path, stockfish(), nodes=NODES, engines=1)

    assert capfd.readouterr().out == "", "nothing is printed"
    assert [g.tags["Event"] for g in games] == ["Scholar", "Queen's Gambit"]
    assert "".join(g.to_pgn() for g in games).encode() == command.stdout
    # Every move has its evaluation but the mate, after which the game is over.
    scholar, gambit = games
    assert [e is None for e in scholar.evals()] == [False] * 6 + [True]
    assert all(e is not None for e in gambit.evals())
    # 3... Nf6 allows the mate: a blunder, with the engine's better line beside it.
    blunder = scholar.moves[5]
    assert blunder.san == "Nf6"
    assert blunder.nags == [4]
    assert blunder.variations and blunder.variations[0][0].san != "Nf6"
    assert blunder.eval.mate == 1
    # What the game held is kept, after the evaluation.
    [comment] = gambit.moves[2].comments
    assert comment.startswith("[%eval ") and comment.endswith("] a gambit")


def test_annotate_takes_bytes_and_file_objects_as_read_does(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_bytes(GAMES)
    by_path = [g.to_pgn() for g in notate.annotate(path, stockfish(), nodes=NODES, engines=2)]
    assert [g.to_pgn() for g in notate.annotate(GAMES, stockfish(), nodes=NODES, engines=1)] == by_path
    games = notate.annotate(io.BytesIO(GAMES), stockfish(), nodes=NODES, engines=1)
    assert [g.to_pgn() for g in games] == by_path
    assert [g.number for g in games] == [1, 2]


def test_an_evaluation_already_written_is_kept_unless_overwrite():
    game = b'[White "A"]\n[Black "B"]\n\n1. e4 { [%eval 9.99] } e5 *\n'
    kept = notate.annotate(game, stockfish(), nodes=NODES, engines=1)[0]
    assert kept.evals()[0].cp == 999
    replaced = notate.annotate(game, stockfish(), nodes=NODES, engines=1, overwrite=True)[0]
    assert replaced.evals()[0].cp != 999
    assert replaced.evals()[1] is not None


def test_a_game_with_an_error_is_returned_unchanged_with_a_warning():
    text = b'[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Ke3 *\n\n[White "C"]\n[Black "D"]\n\n1. e4 *\n'
    with pytest.warns(UserWarning, match=r"<bytes>: game 1 passed through unchanged: .*Ke3"):
        broken, good = notate.annotate(text, stockfish(), nodes=NODES, engines=1)
    assert [d.severity for d in broken.diagnostics] == ["error"]
    assert broken.evals() == [None, None]
    assert good.evals()[0] is not None


def test_evals_gives_each_main_line_moves_evaluation_or_none():
    game = next(
        notate.read(
            b'[Event "Rated Blitz game"]\n[Site "https://lichess.org/abcdefgh"]\n\n'
            b"1. e4 { [%eval 0.18] [%clk 0:03:00] } 1... e5 { [%eval 0.2] [%clk 0:03:00] } "
            b"2. Nf3 { [%clk 0:02:58] } 2... Nc6 { [%eval -1.05] } ( 2... d6 { [%eval 0.5] } ) "
            b"3. Bc4 { [%eval #-3] } 3... Nd4 { [%eval #2] } *\n"
        )
    )
    evals = game.evals()
    assert [(e.cp, e.mate) if e else None for e in evals] == [
        (18, None),
        (20, None),
        None,
        (-105, None),
        (None, -3),
        (None, 2),
    ]
    # The same evaluations as the moves give, one per main-line move.
    assert len(evals) == len(game.moves)
    assert [(e.cp, e.mate) if e else None for e in evals] == [
        (m.eval.cp, m.eval.mate) if m.eval else None for m in game.moves
    ]


def test_an_engine_that_cannot_be_started_is_an_engine_error(tmp_path):
    missing = tmp_path / "no-such-engine"
    with pytest.raises(notate.EngineError, match=f"cannot start the engine {missing}"):
        notate.annotate(GAMES, missing, nodes=NODES)
    # A program that ends at once, without UCI's handshake.
    with pytest.raises(notate.EngineError, match="is not a UCI engine"):
        notate.annotate(GAMES, shutil.which("true"), nodes=NODES)
    assert issubclass(notate.EngineError, notate.NotationError)


def test_options_go_to_the_engine_as_given():
    with pytest.raises(notate.EngineError, match="refused the option No Such Option"):
        notate.annotate(GAMES, stockfish(), nodes=NODES, options={"No Such Option": True})
    games = notate.annotate(GAMES, stockfish(), nodes=NODES, engines=1, hash=16, options={"Ponder": False})
    assert len(games) == 2


def test_the_cache_file_keeps_the_analyses_for_a_later_run(tmp_path):
    cache = tmp_path / "analyses"
    first = [g.to_pgn() for g in notate.annotate(GAMES, stockfish(), nodes=NODES, engines=1, cache=cache)]
    kept = cache.stat().st_size
    assert kept > 0
    again = [g.to_pgn() for g in notate.annotate(GAMES, stockfish(), nodes=NODES, engines=1, cache=cache)]
    assert again == first
    # Every position came from the file: nothing was analysed, so nothing was added.
    assert cache.stat().st_size == kept


def test_a_source_that_does_not_exist_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        notate.annotate(tmp_path / "missing.pgn", stockfish(), nodes=NODES)


def test_draughts_analysis_is_not_offered():
    draughts = b'[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n'
    with pytest.raises(ValueError, match="draughts analysis is not offered"):
        notate.annotate(draughts, stockfish(), nodes=NODES)


def test_one_limit_at_most_and_sensible_settings():
    with pytest.raises(ValueError, match="one limit at most"):
        notate.annotate(GAMES, stockfish(), nodes=NODES, depth=3)
    with pytest.raises(ValueError, match="timeout"):
        notate.annotate(GAMES, stockfish(), nodes=NODES, timeout=0)
    with pytest.raises(ValueError, match="at least 1"):
        notate.annotate(GAMES, stockfish(), nodes=NODES, engines=0)
