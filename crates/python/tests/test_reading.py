"""notate.read, Game, Move and Diagnostic: what a Python user reads of a game."""

import bz2
import gzip
import io
from pathlib import Path

import pytest

import notate

CORPUS = Path(__file__).resolve().parents[3] / "corpus"

LICHESS_GAME = b"""[Event "Rated Blitz game"]
[Site "https://lichess.org/abcdefgh"]
[White "alice"]
[Black "bob"]
[Result "1-0"]
[UTCDate "2024.01.31"]
[WhiteElo "1500"]

1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%eval #-3] [%clk 0:02:59.5] } 2. Qh5?! { [%clk 0:02:58] } 2... Nc6 (2... g6 3. Qxe5+ Qe7) 3. Bc4 Nf6?? 4. Qxf7# 1-0

"""


def only(games):
    """The one game of an iterator."""
    games = list(games)
    assert len(games) == 1
    return games[0]


def test_a_game_has_its_tags_in_order_and_its_result():
    game = only(notate.read(LICHESS_GAME))
    assert list(game.tags) == ["Event", "Site", "White", "Black", "Result", "UTCDate", "WhiteElo"]
    assert game.tags["White"] == "alice"
    assert game.result == "1-0"
    assert (game.number, game.offset, game.file, game.format) == (1, 0, "<bytes>", "pgn")
    assert game.variant == "Standard"
    assert repr(game) == "<Game <bytes> 1: alice - bob 1-0>"


def test_moves_carry_san_uci_comments_glyphs_clocks_evaluations_and_variations():
    moves = only(notate.read(LICHESS_GAME)).moves
    assert [m.san for m in moves] == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    assert [m.uci for m in moves] == ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
    assert [m.text for m in moves] == [m.san for m in moves]
    assert [m.clock for m in moves[:4]] == [180.0, 179.5, 178.0, None]
    assert (moves[0].eval.cp, moves[0].eval.mate) == (17, None)
    assert (moves[1].eval.cp, moves[1].eval.mate) == (None, -3)
    assert moves[2].eval is None
    assert moves[2].nags == [6] and moves[5].nags == [4]
    assert moves[0].comments == ["[%eval 0.17] [%clk 0:03:00]"]
    [variation] = moves[3].variations
    assert [m.san for m in variation] == ["g6", "Qxe5+", "Qe7"]
    assert [m.uci for m in variation] == ["g7g6", "h5e5", "d8e7"]


def test_positions_follow_the_main_line():
    game = only(notate.read(LICHESS_GAME))
    assert game.start_fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    fens = game.fens()
    assert len(fens) == len(game.moves) == 7
    assert fens[0] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert fens[-1] == game.final_fen
    assert game.opening == ("C20", "King's Pawn Game: Wayward Queen Attack")


def test_variations_nested_ten_thousand_deep_are_read_without_recursion():
    text = "1. e4 " + "(1. d4 " * 10_000 + ")" * 10_000 + " *"
    game = only(notate.read(text.encode()))
    line, depth = game.moves, 0
    while line[0].variations:
        line, depth = line[0].variations[0], depth + 1
    assert depth == 10_000 and line[0].san == "d4"


def test_paths_bytes_file_objects_and_compressed_files_read_the_same_games(tmp_path):
    path = CORPUS / "pgn" / "annotated.pgn"
    data = path.read_bytes()
    (tmp_path / "a.pgn.gz").write_bytes(gzip.compress(data))
    (tmp_path / "a.pgn.bz2").write_bytes(bz2.compress(data))
    sources = [
        path,
        str(path),
        data,
        bytearray(data),
        io.BytesIO(data),
        tmp_path / "a.pgn.gz",
        tmp_path / "a.pgn.bz2",
        gzip.compress(data),
    ]
    readings = [[g.to_pgn() for g in notate.read(source)] for source in sources]
    assert len(readings[0]) > 1
    assert all(reading == readings[0] for reading in readings)
    with open(path, "rb") as file:
        games = list(notate.read(file))
    assert games[0].file == str(path)


def test_offsets_point_at_each_games_first_byte():
    path = CORPUS / "pgn" / "model.pgn"
    data = path.read_bytes()
    games = list(notate.read(path))
    assert [g.number for g in games] == list(range(1, len(games) + 1))
    for game in games:
        assert data[game.offset : game.offset + 1] == b"["


def test_the_export_format_reads_back_as_the_same_game():
    for path in sorted((CORPUS / "pgn").glob("*.pgn")) + sorted((CORPUS / "pdn").glob("*.pdn")):
        for game in notate.read(path):
            if any(d.severity == "error" for d in game.diagnostics):
                continue
            exported = game.to_pgn()
            again = only(notate.read(exported.encode(), format=game.format))
            assert again.to_pgn() == exported, (path, game.number)
            assert [m.text for m in again.moves] == [m.text for m in game.moves]


def test_a_game_with_an_error_is_yielded_with_its_moves_up_to_the_error():
    text = b'[White "a"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n[White "b"]\n\n1. d4 *\n'
    first, second = notate.read(text)
    assert [m.san for m in first.moves] == ["e4", "e5"]
    assert first.unread is not None and "Ke3" in first.unread
    [error] = [d for d in first.diagnostics if d.severity == "error"]
    assert (error.line, error.column, error.game) == (3, 13, 1)
    assert error.message.startswith("Ke3: illegal move")
    assert str(error) == f"<bytes>:3:13: error: {error.message} (game 1)"
    assert [m.san for m in second.moves] == ["d4"]
    assert second.diagnostics == []


def test_strict_reading_makes_what_was_forgiven_an_error():
    text = b'[White "a"]\n\n1. e4 e5 2. Ng1-f3 *\n'
    lenient = only(notate.read(text))
    [forgiven] = lenient.diagnostics
    assert forgiven.severity == "warning" and "Ng1-f3" in forgiven.message
    assert [m.san for m in lenient.moves] == ["e4", "e5", "Nf3"]
    strict = only(notate.read(text, strict=True))
    assert [d.severity for d in strict.diagnostics] == ["error"]


def test_text_after_the_last_game_is_reported_by_the_iterator():
    games = notate.read(b"1. e4 *\n\n  {unterminated")
    assert len(list(games)) == 1
    assert [str(d) for d in games.diagnostics] == [
        "<bytes>:3:3: error: comment has no closing }",
        "<bytes>:3:3: warning: comment after the last game outside any game; ignored",
    ]
    empty = notate.read(b"")
    assert list(empty) == []
    assert [d.message for d in empty.diagnostics] == ["no game in the input"]


def test_draughts_games_have_moves_in_pdn_notation():
    path = CORPUS / "pdn" / "international.pdn"
    games = list(notate.read(path))
    assert games and all(g.format == "pdn" for g in games)
    game = games[0]
    assert game.moves and all(m.san is None and m.uci is None for m in game.moves)
    assert all(("-" in m.text) or ("x" in m.text) for m in game.moves)
    assert game.fens()[-1] == game.final_fen
    assert game.opening is None
    assert game.to_pdn() == game.to_pgn()


def test_a_draughts_game_type_can_be_given_for_games_that_declare_none():
    text = b"1. 22-18 11-15 2. 18x11 8x15 *\n"
    assert only(notate.read(text, format="pdn", variant="english")).variant.startswith("English")
    with pytest.raises(notate.NotationError):
        notate.read(text, format="pdn", variant="no such draughts")
    with pytest.raises(ValueError):
        notate.read(LICHESS_GAME, variant="russian")


def test_to_dict_is_notate_json():
    game = only(notate.read(LICHESS_GAME))
    d = game.to_dict()
    assert (d["file"], d["game"], d["result"]) == ("<bytes>", 1, "1-0")
    assert d["tags"][0] == ["Event", "Rated Blitz game"]
    assert [m["san"] for m in d["mainline"]] == [m.san for m in game.moves]
    assert d["final_fen"] == game.final_fen
    assert d["opening"] == {"eco": "C20", "name": "King's Pawn Game: Wayward Queen Attack"}


def test_bad_sources_and_arguments_raise_clear_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        notate.read(tmp_path / "missing.pgn")
    with pytest.raises(TypeError, match="path, bytes or a binary file object"):
        notate.read(42)
    with pytest.raises(ValueError, match="unknown format"):
        notate.read(b"", format="epd")
    with pytest.raises(OSError, match="binary mode"):
        list(notate.read(io.StringIO("1. e4 *")))


def test_python_chess_reads_the_same_game():
    chess = pytest.importorskip("chess.pgn", reason="python-chess is installed by cargo xtask test")
    game = only(notate.read(LICHESS_GAME))
    converted = game.to_python_chess()
    assert isinstance(converted, chess.Game)
    assert [m.uci() for m in converted.mainline_moves()] == [m.uci for m in game.moves]
    assert converted.headers["White"] == "alice"


def test_games_read_ahead_in_chunks_keep_their_numbers_offsets_and_lines():
    # Several megabytes: the input is cut into chunks read on every core.
    game = (CORPUS / "pgn" / "model.pgn").read_bytes().strip() + b"\n\n"
    bad = game.replace(b"Nf3", b"Nf7", 1)
    assert bad != game
    data = b"".join(bad if i == 4000 else game for i in range(6000))
    games = notate.read(data)
    numbers, offsets = [], []
    for g in games:
        numbers.append(g.number)
        offsets.append(g.offset)
        if g.number == 4001:
            [error] = [d for d in g.diagnostics if d.severity == "error"]
            line_start = data.rindex(b"\n", 0, data.index(b"Nf7", g.offset)) + 1
            assert error.line == data.count(b"\n", 0, line_start) + 1
            assert data[line_start:].split(b"\n", 1)[0][error.column - 1 :].startswith(b"Nf7")
    assert numbers == list(range(1, 6001))
    assert offsets == [i * len(game) for i in range(6000)]


def test_an_iterator_dropped_early_stops_the_reading():
    data = (CORPUS / "pgn" / "generated.pgn").read_bytes() * 200
    for _ in range(20):
        games = notate.read(data)
        assert next(games).number == 1
        del games
    assert next(notate.read(data)).number == 1


def test_variant_games_are_played_by_their_rules_and_agree_with_python_chess():
    """Every variant game of the corpus: read without a diagnostic, converted to the
    python-chess board of its variant, and, its main line's moves played there by
    python-chess's rules, the same pieces, pockets and side to move after every move."""
    variant = pytest.importorskip(
        "chess.variant", reason="python-chess is installed by cargo xtask test"
    )
    import chess

    games = list(notate.read(CORPUS / "pgn" / "variants.pgn"))
    assert {game.variant for game in games} == {
        "Crazyhouse",
        "Atomic",
        "Antichess",
        "King of the Hill",
        "Three-check",
        "Horde",
        "Racing Kings",
    }
    for game in games:
        assert not game.diagnostics, game.number
        board_class = variant.find_variant(game.variant)
        assert type(game.to_python_chess().board()) is board_class, game.variant
        board = board_class(game.start_fen) if game.start_fen else board_class()
        ours = game.fens()
        assert len(ours) == len(game.moves)
        for ply, move in enumerate(game.moves):
            board.push(chess.Move.from_uci(move.uci))
            # Placement (with pockets and promoted marks) and side to move; python-chess
            # writes three-check counters in another of the FEN forms.
            assert ours[ply].split(" ")[:2] == board.fen().split(" ")[:2], (game.number, ply)
