"""notate.index and notate.Index: the position index from Python, answering as
`notate explore --json` and `notate find` do (the notate binary `cargo test` builds)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

import notate

ROOT = Path(__file__).resolve().parents[3]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
NOTATE = TARGET / "debug" / "notate"
CORPUS = ROOT / "corpus" / "pgn"


def command(*args: str) -> str:
    assert NOTATE.exists(), f"{NOTATE} is missing: run cargo test (or cargo build -p notate)"
    done = subprocess.run([str(NOTATE), *args], capture_output=True, text=True, check=True)
    return done.stdout


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("index") / "db"
    games = notate.index([CORPUS / "model.pgn", CORPUS / "generated.pgn"], out)
    assert games > 10
    return out


def test_explore_gives_the_dict_of_the_command(index_dir):
    index = notate.Index(index_dir)
    assert index.game == "chess" and index.games > 10
    for moves in ["", "e4", "e4 e5 Nf3", "d2d4,d7d5"]:
        answer = index.explore(moves=moves)
        assert answer == json.loads(command("explore", str(index_dir), "--moves", moves, "--json"))
        assert set(answer) == {"white", "draws", "black", "moves", "topGames", "recentGames", "opening"}
    filtered = index.explore(moves="e4", speeds=["blitz"], ratings=["1800"], since="2024-01")
    assert filtered == json.loads(
        command(
            "explore", str(index_dir), "--moves", "e4", "--speeds", "blitz", "--ratings", "1800",
            "--since", "2024-01", "--json",
        )
    )


def test_find_gives_the_games_lazily(index_dir):
    index = notate.Index(index_dir)
    found = index.find(moves="e4 e5")
    assert len(found) > 0
    references = list(found)
    lines = command("find", str(index_dir), "--moves", "e4 e5").splitlines()
    assert [f"{r['file']}\t{r['number']}\t{r['offset']}" for r in references] == lines
    assert len(list(index.find(moves="e4 e5", limit=1))) == 1


def test_bad_questions_raise(index_dir, tmp_path):
    index = notate.Index(index_dir)
    with pytest.raises(notate.FenError):
        index.explore(fen="not a fen")
    with pytest.raises(notate.FenError):
        index.explore(moves="e4 e4")
    with pytest.raises(ValueError):
        index.explore(speeds=["fast"])
    with pytest.raises(notate.NotationError):
        notate.Index(tmp_path / "nothing")


def test_shards_of_ranges_merge_into_the_index_of_the_whole_file(tmp_path):
    source = CORPUS / "generated.pgn"
    size = source.stat().st_size
    cuts = [0, size // 3, size // 2 + 17, size]
    shards = []
    for i, start in enumerate(cuts):
        end = cuts[i + 1] if i + 1 < len(cuts) else None
        shards.append(tmp_path / f"shard-{i}")
        notate.index([source], shards[-1], range=(start, end))
    whole = tmp_path / "whole"
    games = notate.index([source], whole)
    merged = tmp_path / "merged"
    assert notate.index(shards, merged, merge=True) == games
    one, joined = notate.Index(whole), notate.Index(merged)
    for moves in ["", "e4", "d4", "e4 e5 Nf3"]:
        assert joined.explore(moves=moves, top_games=8, recent_games=8) == one.explore(
            moves=moves, top_games=8, recent_games=8
        )
        assert list(joined.find(moves=moves)) == list(one.find(moves=moves))
    # A shard after the file's start cannot be asked before it is merged; shards that
    # leave bytes out are not merged.
    with pytest.raises(notate.NotationError, match="merge it"):
        notate.Index(shards[1])
    with pytest.raises(notate.NotationError, match="no shard holds its bytes"):
        notate.index([shards[0], shards[2], shards[3]], tmp_path / "bad", merge=True)
    with pytest.raises(ValueError):
        notate.index([source], tmp_path / "bad", range=(10, 5))
    with pytest.raises(ValueError):
        notate.index(shards, tmp_path / "bad", merge=True, append=True)
