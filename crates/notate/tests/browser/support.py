"""What the browser tests share: where things are, `notate show`'s FEN, keys pressed and
the FEN a page shows. The browser itself is the `browser` fixture of conftest.py."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
NOTATE = TARGET / "debug" / "notate"
ARTIFACTS = TARGET / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def require_browser():
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        message = (
            f"SKIPPED THE BROWSER TEST: {' and '.join(missing)} missing; "
            "install Debian's chromium and chromium-driver (apt-get install chromium "
            "chromium-driver) to run it"
        )
        print("\n" + "!" * 78 + "\n" + message + "\n" + "!" * 78)
        pytest.skip(message)


def show_fen(path, game, ply):
    """The FEN `notate show` prints for a game of a file after `ply` plies."""
    out = subprocess.run(
        [str(NOTATE), "show", str(path), "--game", str(game), "--ply", str(ply)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    fens = [line[len("FEN: "):] for line in out.splitlines() if line.startswith("FEN: ")]
    assert len(fens) == 1, out
    return fens[0]


def press(driver, key, times=1):
    from selenium.webdriver.common.action_chains import ActionChains

    actions = ActionChains(driver)
    for _ in range(times):
        actions.send_keys(key)
    actions.perform()


def fen(driver):
    return driver.find_element("id", "fen").get_attribute("value")


