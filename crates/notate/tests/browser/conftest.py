"""The browser the tests drive: Debian's headless Chromium through chromedriver
(selenium), one per test module."""

import shutil
import tempfile

import pytest

from support import CHROMEDRIVER, CHROMIUM, require_browser


@pytest.fixture(scope="module")
def browser():
    require_browser()
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="notate-html-chromium-")
    options = Options()
    options.binary_location = str(CHROMIUM)
    for arg in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,900",
        f"--user-data-dir={profile}",
    ]:
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


