"""Reading PGN into Arrow against rust_pgn_reader_python_binding, the Rust binding Python users
pick for speed (a benchmark, not a test).

    pip install rust_pgn_reader_python_binding   # the peer: not a dependency of notate
    python crates/python/benches/peers.py FILE [--runs N]

``notate.to_arrow`` reads the file's bytes; the binding's ``parse_games_from_strings`` reads
the same games as a list of strings, cut from the bytes beforehand (at the offsets notate's
table gives), which is not timed. Both read on every core (``num_threads`` is the number of
CPUs). The two are run in turn, ``--runs`` times each, and the medians compared; the peer is
timed both without its comments (its default: it then keeps neither clocks nor evaluations,
which notate's table holds) and with them. The counts of games and moves of both are
printed, so that a reader can see that they read the same games.
"""

import argparse
import os
import statistics
import time

import notate
import pyarrow  # noqa: F401  (imported before the clock starts, as a program using it has)
import rust_pgn_reader_python_binding as peer


def timed(f):
    start = time.perf_counter()
    out = f()
    return time.perf_counter() - start, out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    with open(args.file, "rb") as f:
        data = f.read()
    threads = os.cpu_count() or 1

    # The games as strings for the peer, cut where notate's table says they start.
    table = notate.to_arrow(data)
    starts = table.column("offset").to_pylist()
    ends = starts[1:] + [len(data)]
    games = [data[a:b].decode("utf-8", "replace") for a, b in zip(starts, ends)]

    ways = {
        "notate.to_arrow(bytes)": lambda: notate.to_arrow(data),
        "peer, no comments": lambda: peer.parse_games_from_strings(games, num_threads=threads),
        "peer, comments": lambda: peer.parse_games_from_strings(
            games, num_threads=threads, store_comments=True
        ),
    }
    times = {name: [] for name in ways}
    last = {}
    for _ in range(args.runs):
        # In turn, so that whatever else the machine does falls on all of them alike.
        for name, way in ways.items():
            seconds, last[name] = timed(way)
            times[name].append(seconds)

    ours = last["notate.to_arrow(bytes)"]
    moves = sum(ours.column("plies").to_pylist())
    theirs = last["peer, no comments"]
    print(f"{args.file}: {len(data) / 1e6:.1f} MB, {len(games)} games, {threads} threads")
    print(f"games: notate {ours.num_rows}, peer {theirs.num_games}")
    print(f"moves (plies): notate {moves}, peer {theirs.num_moves}")
    ours_median = statistics.median(times["notate.to_arrow(bytes)"])
    for name, runs in times.items():
        median = statistics.median(runs)
        print(
            f"{name:24} median {median:.4f} s (min {min(runs):.4f}, max {max(runs):.4f}), "
            f"{len(games) / median / 1e3:.0f} k games/s, "
            f"notate's speed / this: {median / ours_median:.2f}x"
        )


if __name__ == "__main__":
    main()
