"""notate.check, notate.perft, and the Arrow and Parquet tables."""

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import notate

CORPUS = Path(__file__).resolve().parents[3] / "corpus"
FILES = sorted((CORPUS / "pgn").glob("*.pgn")) + sorted((CORPUS / "pdn").glob("*.pdn"))


def test_check_counts_what_read_reads():
    for path in FILES:
        games = list(notate.read(path))
        summary = notate.check(path)
        assert summary.games == len(games), path
        found = [str(d) for g in games for d in g.diagnostics]
        assert [str(d) for d in summary.diagnostics] == found, path
        assert summary.errors == sum(d.severity == "error" for g in games for d in g.diagnostics)
        assert summary.warnings + summary.errors == len(found)


def test_check_reports_an_illegal_move_as_the_command_does():
    summary = notate.check(b'[White "a"]\n\n1. e4 e5 2. Ke3 *\n')
    assert (summary.games, summary.errors, summary.warnings) == (1, 1, 0)
    assert str(summary.diagnostics[0]).startswith("<bytes>:3:13: error: Ke3: illegal move")


@pytest.mark.parametrize(
    ("fen", "depth", "variant", "nodes"),
    [
        (None, 1, None, 20),
        (None, 3, None, 8902),
        (None, 4, None, 197281),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2, None, 2039),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, None, 43238),
        (None, 3, "international", 658),
        (None, 4, "english", 1469),
        ("W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", 2, None, 81),
    ],
)
def test_perft_counts_are_the_published_ones(fen, depth, variant, nodes):
    assert notate.perft(fen, depth, variant=variant) == nodes


def test_perft_refuses_a_bad_position():
    with pytest.raises(notate.FenError):
        notate.perft("not a fen", 1)
    with pytest.raises(notate.NotationError, match="unknown variant"):
        notate.perft(None, 1, variant="no such game")
    assert issubclass(notate.FenError, notate.NotationError)


def test_the_games_table_has_a_row_per_game_with_its_moves():
    for path in FILES:
        games = list(notate.read(path))
        table = notate.to_arrow(path)
        assert table.num_rows == len(games), path
        rows = table.to_pylist()
        for game, row in zip(games, rows):
            assert (row["file"], row["game"], row["offset"]) == (str(path), game.number, game.offset)
            assert row["tags"] == [{"name": k, "value": v} for k, v in game.tags.items()]
            assert row["plies"] == len(game.moves)
            assert row["final_fen"] == game.final_fen
            if game.format == "pgn":
                assert row["moves_san"] == [m.san for m in game.moves]
                assert row["moves_uci"] == [m.uci for m in game.moves]
            else:
                assert row["moves"] == [m.text for m in game.moves]
            assert row["clocks"] == [m.clock for m in game.moves]
            assert row["errors"] == sum(d.severity == "error" for d in game.diagnostics)


def test_the_positions_table_has_a_row_per_position_of_the_main_line():
    path = CORPUS / "pgn" / "annotated.pgn"
    games = list(notate.read(path))
    positions = notate.to_arrow(path, positions=True)
    assert positions.num_rows == sum(len(g.moves) + 1 for g in games)
    first = [r for r in positions.to_pylist() if r["game"] == 1]
    assert [r["fen"] for r in first] == [games[0].start_fen] + games[0].fens()
    assert [r["move_san"] for r in first] == [m.san for m in games[0].moves] + [None]
    assert first[0]["hash"] == 0x463B96181691FC9C  # Polyglot's key of the start position


def test_the_reader_streams_the_same_rows_as_the_table():
    path = CORPUS / "pgn" / "generated.pgn"
    reader = notate.to_arrow_reader(path)
    assert isinstance(reader, pa.RecordBatchReader)
    assert reader.read_all().equals(notate.to_arrow(path))
    from_bytes = notate.to_arrow_reader(path.read_bytes()).read_all()
    assert from_bytes.column("movetext").equals(notate.to_arrow(path).column("movetext"))


def test_byte_ranges_together_hold_every_game_once():
    path = CORPUS / "pgn" / "generated.pgn"
    whole = notate.to_arrow(path)
    size = path.stat().st_size
    cuts = [0, size // 5, size // 3, size // 2, size - 100, None]
    parts = [notate.to_arrow(path, range=(a, b)) for a, b in zip(cuts, cuts[1:])]
    assert sum(p.num_rows for p in parts) == whole.num_rows
    offsets = [o for p in parts for o in p.column("offset").to_pylist()]
    assert offsets == whole.column("offset").to_pylist()
    assert all(p.column("game").null_count == p.num_rows for p in parts)
    with pytest.raises(ValueError, match="path"):
        notate.to_arrow(path.read_bytes(), range=(0, 10))


def test_parquet_files_hold_the_tables(tmp_path):
    path = CORPUS / "pdn" / "international.pdn"
    games_file, positions_file = tmp_path / "g.parquet", tmp_path / "p.parquet"
    rows = notate.write_parquet(path, games_file, positions=positions_file)
    assert rows == len(list(notate.read(path)))
    assert pq.read_table(games_file).equals(notate.to_arrow(path))
    assert pq.read_table(positions_file).equals(notate.to_arrow(path, positions=True))


def test_parquet_files_are_compressed_as_asked(tmp_path):
    path = CORPUS / "pgn" / "generated.pgn"
    table = notate.to_arrow(path)
    for compression, level, codec in [
        ("zstd", None, "ZSTD"),
        ("zstd", 19, "ZSTD"),
        ("lz4", None, "LZ4"),  # Parquet's LZ4_RAW, as pyarrow names it
        ("snappy", None, "SNAPPY"),
        ("none", None, "UNCOMPRESSED"),
    ]:
        out = tmp_path / f"{compression}-{level}.parquet"
        notate.write_parquet(path, out, compression=compression, level=level)
        assert pq.read_table(out).equals(table), compression
        assert pq.ParquetFile(out).metadata.row_group(0).column(0).compression == codec
    with pytest.raises(ValueError, match="level"):
        notate.write_parquet(path, tmp_path / "x.parquet", compression="lz4", level=3)
    with pytest.raises(ValueError, match="brotli"):
        notate.write_parquet(path, tmp_path / "x.parquet", compression="brotli")


def test_a_failed_write_leaves_the_earlier_files_and_nothing_beside_them(tmp_path):
    games_file, positions_file = tmp_path / "g.parquet", tmp_path / "p.parquet"
    games_file.write_bytes(b"earlier games")
    positions_file.write_bytes(b"earlier positions")
    # A gzip file cut short: its games begin well and its end cannot be read.
    import gzip

    whole = gzip.compress((CORPUS / "pgn" / "generated.pgn").read_bytes())
    broken = tmp_path / "broken.pgn.gz"
    broken.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(OSError):
        notate.write_parquet(broken, games_file, positions=positions_file)
    assert games_file.read_bytes() == b"earlier games"
    assert positions_file.read_bytes() == b"earlier positions"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.pgn.gz", "g.parquet", "p.parquet"]


def _lichess_table(path):
    """Two games in lichess's published schema (a null rating in the second)."""
    import datetime

    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {
            "Event": ["Rated Blitz game", "Rated Bullet game"],
            "Site": ["https://lichess.org/a", "https://lichess.org/b"],
            "White": ["alice", "carol"],
            "Black": ["bob", "dave"],
            "Result": ["1-0", "0-1"],
            "WhiteTitle": [None, "FM"],
            "BlackTitle": [None, None],
            "WhiteElo": pa.array([1500, None], pa.int16()),
            "BlackElo": pa.array([1490, 1700], pa.int16()),
            "WhiteRatingDiff": pa.array([6, None], pa.int16()),
            "BlackRatingDiff": pa.array([-6, None], pa.int16()),
            "UTCDate": pa.array([datetime.date(2024, 1, 31), None], pa.date32()),
            "UTCTime": pa.array([datetime.time(12, 0, 5), None], pa.time32("s")),
            "ECO": ["C20", "A00"],
            "Opening": ["King's Pawn Game", "Polish Opening"],
            "Termination": ["Normal", "Time forfeit"],
            "TimeControl": ["180+0", "60+0"],
            "movetext": [
                "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:02:59] } 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
                "1. b4 e5 2. a3 Qh4 0-1",
            ],
        }
    )
    pq.write_table(table, path, row_group_size=1)


def test_lichess_parquet_tables_read_as_their_games(tmp_path):
    path = tmp_path / "lichess.parquet"
    _lichess_table(path)
    games = list(notate.read(path))
    assert [g.tags["White"] for g in games] == ["alice", "carol"]
    assert games[0].tags["UTCDate"] == "2024.01.31"
    assert games[0].tags["UTCTime"] == "12:00:05"
    assert games[0].tags["WhiteRatingDiff"] == "+6"
    assert "WhiteElo" not in games[1].tags
    assert games[1].tags["Date"] == "????.??.??"
    assert [len(g.moves) for g in games] == [7, 4]
    table = notate.to_arrow(path)
    assert table.column("White").to_pylist() == ["alice", "carol"]
    assert table.column("WhiteElo").to_pylist() == [1500, None]
    assert table.column("plies").to_pylist() == [7, 4]
