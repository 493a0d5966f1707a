"""notate.spark.read: a local Spark reads the corpus in byte ranges that cut games in two,
and its rows are those of notate.to_arrow on each whole file."""

import gzip
import os
import shutil
import sys
from pathlib import Path

import pyarrow as pa
import pytest

import notate
import notate.spark

CORPUS = Path(__file__).resolve().parents[3] / "corpus"
# Small enough that most ranges start inside a game.
SPLIT = 1500
COMPARED = ["file", "game", "offset", "tags", "UTCTime", "movetext", "moves_san", "moves_uci", "moves",
            "clocks", "plies", "start_fen", "final_fen", "outcome", "opening_eco", "errors"]


def java_missing():
    home = os.environ.get("JAVA_HOME")
    return shutil.which("java") is None and not (home and Path(home, "bin", "java").exists())


@pytest.fixture(scope="module")
def spark():
    if java_missing():
        pytest.skip("SKIPPED: no Java on this machine (java on PATH or JAVA_HOME): Spark cannot run")
    from pyspark.sql import SparkSession

    # Spark's driver and executors talk on the loopback interface only, and its Python
    # workers are this interpreter (with notate and pyarrow), not the system's.
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("notate-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    yield session
    session.stop()


def whole_reads(paths, positions=False):
    """notate.to_arrow of each whole file, in Spark's types."""
    tables = [notate.spark.to_spark_types(notate.to_arrow(p, positions=positions), positions) for p in paths]
    return pa.concat_tables(tables)


def rows(table, columns):
    out = table.select(columns).to_pylist()
    return sorted(out, key=lambda r: (r["file"], r["offset"], r.get("ply") or 0))


def test_ranges_cut_games_in_two():
    tasks = notate.spark.plan(CORPUS / "pgn", SPLIT)
    offsets = {
        (str(p), o)
        for p in notate.spark.files(CORPUS / "pgn")
        for o in notate.to_arrow(p).column("offset").to_pylist()
    }
    inside = [t for t in tasks if t[1] and (t[0], t[1]) not in offsets]
    assert len(inside) > 10, "most ranges start inside a game"


def test_the_rows_are_those_of_whole_reads(spark, tmp_path):
    paths = notate.spark.files(CORPUS)
    frame = notate.spark.read(spark, CORPUS, split_bytes=SPLIT)
    assert frame.rdd.getNumPartitions() >= 1
    got = frame.toArrow()
    expected = whole_reads(paths)
    # Types as to_arrow's in Spark's terms (a numbered game is never null there).
    assert [(f.name, f.type) for f in got.schema] == [(f.name, f.type) for f in expected.schema]
    assert rows(got, COMPARED) == rows(expected, COMPARED)


def test_a_compressed_file_is_one_task_with_the_same_rows(spark, tmp_path):
    source = CORPUS / "pgn" / "generated.pgn"
    packed = tmp_path / "generated.pgn.gz"
    packed.write_bytes(gzip.compress(source.read_bytes()))
    assert notate.spark.plan(packed, SPLIT) == [(str(packed), None, None)]
    got = notate.spark.read(spark, packed, split_bytes=SPLIT).toArrow()
    expected = whole_reads([str(packed)])
    assert rows(got, COMPARED) == rows(expected, COMPARED)


def test_the_positions_table_too(spark):
    source = CORPUS / "pgn" / "annotated.pgn"
    got = notate.spark.read(spark, source, split_bytes=SPLIT, positions=True).toArrow()
    expected = whole_reads([str(source)], positions=True)
    columns = ["file", "game", "offset", "ply", "fen", "hash", "move_san", "move_uci"]
    assert rows(got, columns) == rows(expected, columns)


def test_an_index_built_by_ranges_answers_as_one_built_whole(spark, tmp_path):
    for folder, questions in [
        (CORPUS / "pgn", [{}, {"moves": "e4"}, {"moves": "d4 d5"}, {"variant": "crazyhouse"},
                          {"variant": "atomic"}, {"variant": "racingkings"}]),
        (CORPUS / "pdn", [{}, {"variant": "russian"}, {"variant": "pool"}, {"variant": "frisian"}]),
    ]:
        out = tmp_path / f"{folder.name}-index"
        games = notate.spark.index(spark, folder, out, split_bytes=SPLIT, work=tmp_path / "work")
        assert os.listdir(tmp_path / "work") == [], "the shards are removed"
        whole = tmp_path / f"{folder.name}-whole"
        assert games == notate.index(notate.spark.files(folder), whole) > 10
        merged, one = notate.Index(out), notate.Index(whole)
        assert len(notate.spark.plan(folder, SPLIT)) > 20
        for question in questions:
            assert merged.explore(**question, top_games=8, recent_games=8) == one.explore(
                **question, top_games=8, recent_games=8
            ), question
            assert list(merged.find(**question)) == list(one.find(**question)), question
