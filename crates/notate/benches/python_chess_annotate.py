"""The yardstick of `notate annotate`'s speed: the loop a python-chess user writes.

Every position after a move of each game's main line is analysed by the engine with a
node limit (`chess.engine.SimpleEngine`, one thread, a clean state per position as
`notate annotate` gives it), the evaluation put before the move's comment in lichess's
form, K engine processes (one per worker process), the games written in input order.

    python python_chess_annotate.py ENGINE NODES K GAMES.pgn > annotated.pgn

`annotate.sh` beside it times this against `notate annotate` on the same games.
"""

import io
import sys
from multiprocessing import Pool

import chess
import chess.engine
import chess.pgn

ENGINE = None
NODES = 0


def start(path, nodes):
    global ENGINE, NODES
    ENGINE = chess.engine.SimpleEngine.popen_uci(path)
    ENGINE.configure({"Threads": 1})
    NODES = nodes


def written(score):
    if score.is_mate():
        return f"#{score.mate()}"
    return f"{score.score() / 100:.2f}"


def annotate(text):
    game = chess.pgn.read_game(io.StringIO(text))
    board = game.board()
    for node in list(game.mainline()):
        board.push(node.move)
        if board.is_game_over():
            continue
        # A new `game` object per call: python-chess then sends `ucinewgame`.
        info = ENGINE.analyse(board, chess.engine.Limit(nodes=NODES), game=object())
        eval_ = "[%eval " + written(info["score"].white()) + "]"
        node.comment = f"{eval_} {node.comment}" if node.comment else eval_
    return str(game)


def main():
    engine, nodes, processes, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    texts = []
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            texts.append(str(game))
    with Pool(processes, initializer=start, initargs=(engine, nodes)) as pool:
        for out in pool.imap(annotate, texts):
            sys.stdout.write(out + "\n\n")


if __name__ == "__main__":
    main()
