"""Game.evals: the evaluations written after the main line's moves."""

import notate


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
