"""`notate html` in a real browser: headless Chromium driven through WebDriver (selenium).

The page is loaded from a file, a game opened, → pressed N times, and the FEN the page
shows compared with the one `notate show FILE --game G --ply N` prints; a click into a
variation (and into one nested in it) shows that variation's position, checked against
`notate show` of a game whose main line is the variation. Chess and draughts. Screenshots
are saved under target/test-artifacts/ (kept for people to look at, not compared).

Needs /usr/bin/chromium and /usr/bin/chromedriver (Debian's chromium and chromium-driver,
which .ci/run installs) and the notate binary built by `cargo test` (target/debug/notate).
"""

import subprocess

import pytest

from support import ARTIFACTS, NOTATE, ROOT, fen, press, show_fen

CHESS = """[Event "Browser test"]
[Site "Here"]
[Date "2024.05.06"]
[White "Alpha"]
[Black "Beta </script><!--"]
[Result "*"]

1. e4 {Best by test </script><b>x</b>} e5 (1... c5 2. Nf3 (2. c3 d5) d6 $1
{Sicilian}) 2. Nf3 Nc6 3. Bb5 a6 $1 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 *
"""

# The variations above as main lines, for `notate show`.
SICILIAN = '[Event "v"]\n\n1. e4 c5 2. Nf3 d6 *\n'
NESTED = '[Event "v"]\n\n1. e4 c5 2. c3 d5 *\n'


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    assert NOTATE.exists(), f"{NOTATE} is missing: run cargo test (or cargo build -p notate)"
    folder = tmp_path_factory.mktemp("html")
    chess = folder / "chess.pgn"
    chess.write_text(CHESS)
    (folder / "sicilian.pgn").write_text(SICILIAN)
    (folder / "nested.pgn").write_text(NESTED)
    draughts = ROOT / "corpus" / "pdn" / "variant-international.pdn"
    russian = ROOT / "corpus" / "pdn" / "variant-russian.pdn"
    out = folder / "games.html"
    subprocess.run(
        [str(NOTATE), "html", str(chess), str(draughts), str(russian), "-o", str(out)],
        check=True,
    )
    return folder, chess, draughts, russian, out


def row_of(driver, file, number):
    """The page's index of game `number` of its `file`-th input (from 0)."""
    return driver.execute_script(
        "return JSON.parse(document.getElementById('games').textContent)"
        ".findIndex(r => r[0] === arguments[0] && r[1] === arguments[1])",
        file,
        number,
    )


def open_game(driver, index):
    driver.find_element("css selector", f'#games-table tbody tr[data-index="{index}"]').click()
    assert "selected" in driver.find_element(
        "css selector", f'#games-table tbody tr[data-index="{index}"]'
    ).get_attribute("class")


def test_the_page_in_chromium(browser, page):
    from selenium.webdriver.common.keys import Keys

    folder, chess, draughts, russian, out = page
    driver = browser
    driver.get(out.as_uri())
    assert driver.execute_script("return document.readyState") == "complete"
    rows = driver.find_elements("css selector", "#games-table tbody tr")
    assert len(rows) >= 2
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors

    # Chess: → N times gives show's FEN at ply N, for every N of the main line.
    open_game(driver, 0)
    assert "Beta </script><!--" in driver.find_element("id", "title").text
    comments = [c.text for c in driver.find_elements("css selector", "#moves .comment")]
    assert "Best by test </script><b>x</b>" in comments
    plies = 14
    assert fen(driver) == show_fen(chess, 1, 0)
    for ply in range(1, plies + 1):
        press(driver, Keys.ARROW_RIGHT)
        assert fen(driver) == show_fen(chess, 1, ply), f"chess ply {ply}"
    press(driver, Keys.ARROW_RIGHT)  # past the end: stays
    assert fen(driver) == show_fen(chess, 1, plies)
    press(driver, Keys.HOME)
    press(driver, Keys.ARROW_RIGHT, 7)
    assert fen(driver) == show_fen(chess, 1, 7)
    press(driver, Keys.END)
    assert fen(driver) == show_fen(chess, 1, plies)
    press(driver, Keys.ARROW_LEFT, 3)
    assert fen(driver) == show_fen(chess, 1, plies - 3)

    # A click into a variation, then into the one nested in it.
    moves = {m.text: m for m in driver.find_elements("css selector", "#moves .variation .move")}
    moves["d6!"].click()
    assert fen(driver) == show_fen(folder / "sicilian.pgn", 1, 4)
    press(driver, Keys.ARROW_LEFT)
    assert fen(driver) == show_fen(folder / "sicilian.pgn", 1, 3)
    moves["d5"].click()
    assert fen(driver) == show_fen(folder / "nested.pgn", 1, 4)
    assert "current" in moves["d5"].get_attribute("class")
    driver.find_element("id", "flip").click()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "notate-html-chess.png"))
    driver.find_element("id", "flip").click()

    # Draughts: the first game of the international and Russian corpus files, every ply
    # of the first's main line (its variations included in the page).
    open_game(driver, row_of(driver, 1, 1))
    plies = 36
    for ply in range(0, plies + 1):
        assert fen(driver) == show_fen(draughts, 1, ply), f"draughts ply {ply}"
        press(driver, Keys.ARROW_RIGHT)
    assert fen(driver) == show_fen(draughts, 1, plies)
    assert driver.find_elements("css selector", "#moves .variation .move")
    press(driver, Keys.HOME)
    press(driver, Keys.ARROW_RIGHT, 9)
    assert len(driver.find_elements("css selector", "#board use")) > 20
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "notate-html-draughts.png"))
    open_game(driver, row_of(driver, 2, 1))
    press(driver, Keys.ARROW_RIGHT, 10)
    assert fen(driver) == show_fen(russian, 1, 10)
    assert len(driver.find_elements("css selector", "#board .dark")) == 32

    # The filter.
    box = driver.find_element("id", "filter")
    box.send_keys("alpha")
    visible = [r for r in rows if r.is_displayed()]
    assert len(visible) == 1
    assert "1 of" in driver.find_element("id", "count").text
