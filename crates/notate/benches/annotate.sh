#!/bin/sh
# Times `notate annotate` (a release build) against the python-chess loop beside this
# script, on the same games, engine, node limit and number of engine processes, and
# `--engines 2` against `--engines 1`. Needs python-chess (`pip install chess`).
#
#   crates/notate/benches/annotate.sh GAMES.pgn [NODES] [ENGINE]
#
# Prints each run's wall seconds (from /usr/bin/time) and notate's own account of its
# search time. For the figures in README: the first 200 games of the lichess bench file,
# NODES 100000, on 2 cores.
set -eu
games=$1
nodes=${2:-100000}
engine=${3:-/usr/games/stockfish}
here=$(cd "$(dirname "$0")" && pwd)
notate=${NOTATE:-$here/../../../target/release/notate}
python=${PYTHON:-python3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

timed() {
    label=$1
    shift
    /usr/bin/time -f "$label: %e s wall" "$@"
}

timed "notate --engines 2" "$notate" annotate --engine "$engine" --nodes "$nodes" \
    --engines 2 -o "$out/notate2.pgn" "$games"
timed "python-chess, 2 processes" "$python" "$here/python_chess_annotate.py" \
    "$engine" "$nodes" 2 "$games" >"$out/python.pgn"
timed "notate --engines 1" "$notate" annotate --engine "$engine" --nodes "$nodes" \
    --engines 1 -o "$out/notate1.pgn" "$games"
if cmp -s "$out/notate1.pgn" "$out/notate2.pgn"; then
    echo "--engines 1 and 2 wrote the same file"
else
    echo "--engines 1 and 2 wrote different files" >&2
    exit 1
fi
