"""Reading a PGN file into Game objects and into Arrow, against python-chess's read_game
loop, in one run (a benchmark, not a test).

    python crates/python/benches/read.py FILE [--runs N] [--no-python-chess]

Prints each way's time and throughput, and the ratios the Python issue asks for: objects and
Arrow against python-chess, Arrow against ``notate.check``. Each way is timed ``--runs``
times (python-chess once) and its median taken; the modules each way uses (pyarrow,
python-chess) are imported first, as a program working with them has, so that what is
timed is the reading. The first call of each way also warms the file in the page cache.
"""

import argparse
import os
import statistics
import time

import notate


def timed(f):
    start = time.perf_counter()
    n = f()
    return time.perf_counter() - start, n


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--no-python-chess", action="store_true", help="skip the slow peer")
    parser.add_argument("--runs", type=int, default=5, help="runs of each notate way")
    args = parser.parse_args()
    # Imported before any timing: a session working with Arrow or python-chess has them.
    import pyarrow  # noqa: F401

    if not args.no_python_chess:
        import chess.pgn  # noqa: F401
    size = os.path.getsize(args.file)

    def objects():
        # Every game and every main-line move as Python objects.
        return sum(len(game.moves) for game in notate.read(args.file))

    def arrow():
        return notate.to_arrow(args.file).num_rows

    def check():
        return notate.check(args.file).games

    def python_chess():
        import chess.pgn

        moves = 0
        with open(args.file, encoding="utf-8", errors="replace") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                moves += sum(1 for _ in game.mainline_moves())
        return moves

    ways = [("notate.read (objects)", objects), ("notate.to_arrow", arrow), ("notate.check", check)]
    if not args.no_python_chess:
        ways.append(("python-chess read_game", python_chess))
    seconds = {}
    for name, way in ways:
        runs = 1 if name.startswith("python-chess") else args.runs
        times = []
        for _ in range(runs):
            elapsed, count = timed(way)
            times.append(elapsed)
        elapsed = statistics.median(times)
        seconds[name] = elapsed
        print(f"{name:24} {elapsed:8.3f} s {size / elapsed / 1e6:8.1f} MB/s  ({count})", flush=True)
    arrow_vs_check = seconds["notate.check"] / seconds["notate.to_arrow"]
    print(f"Arrow throughput / check throughput: {arrow_vs_check:.2f}")
    if "python-chess read_game" in seconds:
        peer = seconds["python-chess read_game"]
        print(f"objects: {peer / seconds['notate.read (objects)']:.0f}x python-chess")
        print(f"Arrow:   {peer / seconds['notate.to_arrow']:.0f}x python-chess")


if __name__ == "__main__":
    main()
