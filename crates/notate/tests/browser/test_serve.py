"""`notate serve`'s page in a real browser: headless Chromium driven through WebDriver
(selenium), against servers started on 127.0.0.1 over a chess and a draughts index.

A search by player lists its games; a game opened and stepped through shows at each ply
the FEN `notate show` prints; a move clicked in the explorer, and one played on the board
by two clicks, show the position after it; a promotion, by clicks or by a drag, asks which
piece (Escape leaves it, the keyboard chooses); the games of that position are listed; a link
reopens a game at a ply; a draughts game steps as `notate show` says; a phone-sized window
puts the panes in one column. Screenshots go under target/test-artifacts/.
"""

import subprocess

import pytest

from support import ARTIFACTS, NOTATE, ROOT, fen, press, show_fen

GAMES = """[Event "Browser club"]
[Site "Here"]
[Date "2024.05.06"]
[White "Alpha"]
[Black "Beta"]
[WhiteElo "2100"]
[BlackElo "2000"]
[Result "1-0"]

1. e4 {[%clk 0:03:00] [%eval 0.3]} e5 {[%clk 0:02:58]} 2. Nf3 {[%cal Gf3e5,Rb8c6]
[%csl Ye5] Attack} Nc6 (2... d6 3. d4) 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0

[Event "Browser club"]
[Site "There"]
[Date "2024.06.01"]
[White "Gamma"]
[Black "Alpha"]
[Result "0-1"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 0-1

[Event "Other open"]
[Date "2023.01.01"]
[White "Beta"]
[Black "Gamma"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6 1/2-1/2
"""


class Server:
    """`notate serve INDEX` on a port the system picks, stopped at the end."""

    def __init__(self, index):
        self.process = subprocess.Popen(
            [str(NOTATE), "serve", str(index), "--bind", "127.0.0.1:0"],
            stderr=subprocess.PIPE,
            text=True,
        )
        said = ""
        for line in self.process.stderr:
            said += line
            if line.startswith("notate: serving "):
                self.url = line.rsplit(" ", 1)[1].strip()
                break
        else:
            raise AssertionError(f"notate serve ended: {said}")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    assert NOTATE.exists(), f"{NOTATE} is missing: run cargo test (or cargo build -p notate)"
    folder = tmp_path_factory.mktemp("serve")
    chess = folder / "games.pgn"
    chess.write_text(GAMES)
    draughts = ROOT / "corpus" / "pdn" / "variant-international.pdn"
    for name, path in [("chess-index", chess), ("draughts-index", draughts)]:
        subprocess.run(
            [str(NOTATE), "index", "-q", str(path), "-o", str(folder / name)], check=True
        )
    chess_server = Server(folder / "chess-index")
    draughts_server = Server(folder / "draughts-index")
    yield chess, chess_server, draughts, draughts_server
    chess_server.stop()
    draughts_server.stop()


def wait_for(driver, check, what, seconds=10):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # The page redraws its lists as answers come: an element read as it is replaced is
    # stale, and read again on the next try.
    try:
        WebDriverWait(
            driver, seconds, ignored_exceptions=(StaleElementReferenceException,)
        ).until(lambda d: check())
    except Exception as e:
        raise AssertionError(f"waited for {what}: {e}") from None


def click_when_still(driver, find, what):
    """Clicks what `find` gives, found again if the page redrew it meanwhile."""
    from selenium.common.exceptions import StaleElementReferenceException

    def click():
        try:
            find().click()
            return True
        except StaleElementReferenceException:
            return False

    wait_for(driver, click, what)


def rows(driver):
    return driver.find_elements("css selector", "#games-table tbody tr")


def explorer_moves(driver):
    return {
        r.get_attribute("data-san"): r
        for r in driver.find_elements("css selector", "#explorer-moves tbody tr")
    }


def cell_offset(driver, square):
    """The board and the centre of a chess square of it (unflipped), from its centre."""
    board = driver.find_element("id", "board")
    size = board.size
    column = "abcdefgh".index(square[0])
    row = 8 - int(square[1])
    x = (column + 0.5) * size["width"] / 8 - size["width"] / 2
    y = (row + 0.5) * size["height"] / 8 - size["height"] / 2
    return board, int(x), int(y)


def cell_centre(driver, square):
    """Clicks the centre of a chess square of the (unflipped) board."""
    from selenium.webdriver.common.action_chains import ActionChains

    board, x, y = cell_offset(driver, square)
    ActionChains(driver).move_to_element_with_offset(board, x, y).click().perform()


def drag(driver, start, end):
    """Drags the piece on one square to another, the mouse held down between them."""
    from selenium.webdriver.common.action_chains import ActionChains

    board, x, y = cell_offset(driver, start)
    _, x2, y2 = cell_offset(driver, end)
    actions = ActionChains(driver).move_to_element_with_offset(board, x, y).click_and_hold()
    actions.move_to_element_with_offset(board, (x + x2) // 2, (y + y2) // 2)
    actions.move_to_element_with_offset(board, x2, y2).release().perform()


def choices(driver):
    """The moves offered to choose from, by their SAN."""
    return {
        b.text: b
        for b in driver.find_elements("css selector", "#choice button[data-uci]")
        if b.is_displayed()
    }


def test_the_served_page_in_chromium(browser, servers):
    from selenium.webdriver.common.keys import Keys

    chess, server, draughts, draughts_server = servers
    driver = browser
    driver.get(server.url)
    wait_for(driver, lambda: len(rows(driver)) == 3, "the list")
    wait_for(driver, lambda: fen(driver) == show_fen(chess, 1, 0), "the first game")

    # Search by player: the server's list.
    box = driver.find_element("css selector", "#search input[name=player]")
    box.send_keys("gamma")
    box.send_keys(Keys.ENTER)
    wait_for(driver, lambda: len(rows(driver)) == 2, "Gamma's two games")
    assert driver.find_element("id", "count").text == "2 games"

    # Open a game with the keyboard and step through it: show's FEN at every ply.
    rows(driver)[0].send_keys(Keys.ENTER)
    wait_for(driver, lambda: "Gamma" in driver.find_element("id", "title").text, "the game")
    driver.find_element("tag name", "body").click()
    for ply in range(0, 7):
        assert fen(driver) == show_fen(chess, 2, ply), f"ply {ply}"
        press(driver, Keys.ARROW_RIGHT)

    # The first game: clocks beside the moves, the evaluation, arrows and a ring.
    driver.get(server.url + "#game=0&ply=3")
    wait_for(driver, lambda: fen(driver) == show_fen(chess, 1, 3), "game 1 at ply 3")
    assert len(driver.find_elements("css selector", "#board line.arrow")) == 2
    assert len(driver.find_elements("css selector", "#board circle.ring")) == 1
    clocks = [c.text for c in driver.find_elements("css selector", "#moves .clock")]
    assert clocks[:2] == ["0:03:00", "0:02:58"]
    press(driver, Keys.HOME)
    press(driver, Keys.ARROW_RIGHT)
    assert driver.find_element("id", "eval").text == "+0.30"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "notate-serve-chess.png"))

    # The explorer at the start: e4 in two games, d4 in one; clicking d4 plays it.
    driver.find_element("id", "start").click()
    wait_for(driver, lambda: set(explorer_moves(driver)) == {"e4", "d4"}, "the explorer")
    wait_for(
        driver,
        lambda: explorer_moves(driver)["e4"].find_elements("tag name", "td")[1].text == "2",
        "e4's two games",
    )
    click_when_still(driver, lambda: explorer_moves(driver)["d4"], "d4 in the explorer")
    wait_for(driver, lambda: fen(driver) == show_fen(chess, 2, 1), "d4 played")

    # A move played on the board, by clicking the piece and its square: d5.
    wait_for(driver, lambda: "d5" in explorer_moves(driver), "the explorer after d4")
    cell_centre(driver, "d7")
    cell_centre(driver, "d5")
    wait_for(driver, lambda: fen(driver) == show_fen(chess, 2, 2), "d5 played on the board")

    # The games of this position.
    driver.find_element("id", "games-here").click()
    wait_for(driver, lambda: driver.find_element("id", "count").text == "1 game", "the position's games")
    assert "Gamma" in rows(driver)[0].text

    # A link reopens what is shown.
    link = driver.find_element("id", "link").get_attribute("href")
    driver.get("about:blank")
    driver.get(link)
    wait_for(driver, lambda: fen(driver) == show_fen(chess, 2, 2), "the line reopened")

    # A promotion played on the board asks which piece: by two clicks, the knight.
    start = "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
    setup = driver.find_element("id", "setup-fen")
    setup.clear()
    setup.send_keys(start)
    setup.send_keys(Keys.ENTER)
    wait_for(driver, lambda: fen(driver) == start, "the position set up")
    cell_centre(driver, "b7")
    cell_centre(driver, "a8")
    wait_for(driver, lambda: len(choices(driver)) == 4, "the promotion's choice")
    assert sorted(choices(driver)) == ["bxa8=B", "bxa8=N", "bxa8=Q+", "bxa8=R+"]
    choices(driver)["bxa8=N"].click()
    wait_for(driver, lambda: fen(driver) == "N3k3/8/8/8/8/8/8/4K3 b - - 0 1", "the knight")
    # Back at the start of the line, a drag asks the same; Escape leaves the position.
    driver.find_element("tag name", "body").click()
    press(driver, Keys.HOME)
    wait_for(driver, lambda: fen(driver) == start, "the line's start")
    drag(driver, "b7", "b8")
    wait_for(driver, lambda: len(choices(driver)) == 4, "the choice after a drag")
    press(driver, Keys.ESCAPE)
    wait_for(driver, lambda: not choices(driver), "the choice left")
    assert fen(driver) == start
    # The keyboard chooses: Tab to the rook, Enter.
    drag(driver, "b7", "b8")
    wait_for(driver, lambda: len(choices(driver)) == 4, "the choice again")
    for _ in range(4):
        if driver.switch_to.active_element.text == "b8=R+":
            break
        press(driver, Keys.TAB)
    assert driver.switch_to.active_element.text == "b8=R+"
    press(driver, Keys.ENTER)
    wait_for(driver, lambda: fen(driver) == "rR2k3/8/8/8/8/8/8/4K3 b - - 0 1", "the rook")

    # A phone-sized window: one column, the list above the board.
    driver.set_window_size(420, 900)
    listed = driver.find_element("id", "list").rect
    board = driver.find_element("id", "viewer").rect
    assert board["y"] >= listed["y"] + listed["height"] - 1, (listed, board)
    driver.save_screenshot(str(ARTIFACTS / "notate-serve-phone.png"))
    driver.set_window_size(1400, 900)

    # Draughts: a game of the international corpus, stepped as show steps it.
    driver.get(draughts_server.url + "#game=0")
    wait_for(driver, lambda: fen(driver) == show_fen(draughts, 1, 0), "the draughts game")
    driver.find_element("tag name", "body").click()
    for ply in range(1, 13):
        press(driver, Keys.ARROW_RIGHT)
        assert fen(driver) == show_fen(draughts, 1, ply), f"draughts ply {ply}"
    # Its games have no result: the explorer counts none, and lists them as recent.
    recent = lambda: driver.find_elements("css selector", "#recent-games li")  # noqa: E731
    wait_for(driver, lambda: len(recent()) >= 1, "the draughts explorer's games")
    recent()[0].click()
    wait_for(driver, lambda: fen(driver) == show_fen(draughts, 1, 0), "a game opened from the explorer")
    driver.save_screenshot(str(ARTIFACTS / "notate-serve-draughts.png"))
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
