#!/usr/bin/env python3
"""A fake UCI engine for the engine crate's tests.

Its behaviour is its first argument, else the FAKE_ENGINE environment variable, else the name
it was called by (the tests call it through symbolic links named after the behaviours), else
"good":
  good           answers every search with the same info lines and best move
  crash          exits (status 3) when told to search
  hang           never answers a search, nor quit
  garbage        prints lines that are no UCI and malformed info lines, then a good answer
  noscore        info lines with a depth and nodes but no score, then a best move
  bestonly       a score but no principal variation, then a best move
  notuci         prints a banner and never says uciok
  exit-at-start  exits before reading anything
  refuse         says "No such option: NAME" for every option set
  crash-once     crashes at its first search as "crash" does, then (started again) answers
                 as "good": whether it crashed is kept in the file FAKE_ENGINE_STATE names
"""
import os
import sys

MODES = {"good", "crash", "hang", "garbage", "noscore", "bestonly", "notuci", "exit-at-start", "refuse", "crash-once"}
called = os.path.basename(sys.argv[0])
mode = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("FAKE_ENGINE", called if called in MODES else "good")


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


if mode == "exit-at-start":
    sys.exit(0)
if mode == "notuci":
    say("Fake Chess Program 1.0, not an engine")
    say("type 'help' for help")

for command in sys.stdin:
    words = command.split()
    if not words:
        continue
    if words[0] == "uci" and mode != "notuci":
        say("id name Fake Engine " + mode)
        say("id author the engine crate's tests")
        say("option name Threads type spin default 1 min 1 max 8")
        say("option name Clear Hash type button")
        say("uciok")
    elif words[0] == "setoption" and mode == "refuse":
        name = " ".join(words[2 : words.index("value")] if "value" in words else words[2:])
        say("No such option: " + name)
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "crash-once":
            state = os.environ.get("FAKE_ENGINE_STATE", "")
            if state and not os.path.exists(state):
                open(state, "w").close()
                sys.exit(3)
        if mode == "hang":
            continue
        if mode == "garbage":
            say("Segmentation fault? no, just noise")
            say("info score cp")
            say("info depth x score mate")
            say("info pv")
            say("info depth 99999999999999999999 nodes -5 score cp 1e3")
            say("info multipv 2 depth 9 score cp -900 pv a7a6")
            say("bestmovement e2e4")
            sys.stdout.buffer.write(b"\x01\x02 \xff\xfe not UTF-8\n")
            sys.stdout.flush()
        if mode == "noscore":
            say("info depth 1 nodes 20")
            say("info depth 2 nodes 60 pv e2e4")
            say("bestmove e2e4")
            continue
        if mode == "bestonly":
            say("info depth 3 nodes 100 score mate -2")
            say("bestmove g8h8")
            continue
        say("info string fake search")
        say("info depth 1 seldepth 1 multipv 1 score cp 10 nodes 20 pv d2d4")
        say("info depth 2 seldepth 2 multipv 1 score cp 17 nodes 80 pv e2e4 e7e5")
        say("info depth 2 currmove g1f3 currmovenumber 2")
        say("bestmove e2e4 ponder e7e5")
    elif words[0] == "quit" and mode != "hang":
        break
