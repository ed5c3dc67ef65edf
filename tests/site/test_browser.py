"""The site in a real browser: headless Chromium (the distribution's ``chromium`` and
``chromium-driver``) through Selenium. The pages open from ``file://``, a header's button
sorts its column (by mouse and by keyboard), the drill-downs open, markup in a name stays
text, and no page logs an error.

``tox -e browser`` runs these (``EF_TEST_GROUP=browser``: there they may not skip).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

webdriver = pytest.importorskip(
    "selenium.webdriver", reason="selenium is not installed (the test-browser extra)"
)

from selenium.webdriver.chrome.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from ef.evaluation import build_site  # noqa: E402

from ..conftest import short_scratch  # noqa: E402
from .records import QUERIES, SCRIPT_NAME, scenario  # noqa: E402


def _chromium() -> tuple[str, str]:
    """The browser and its driver, from the distribution's packages (or the environment)."""
    browser = os.environ.get("EF_CHROMIUM") or shutil.which("chromium")
    driver = os.environ.get("EF_CHROMEDRIVER") or shutil.which("chromedriver")
    if not browser or not driver:
        pytest.skip("chromium and chromedriver are not installed (apt: chromium chromium-driver)")
    return browser, driver


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    binary, driver = _chromium()
    with short_scratch("ef-chromium-") as scratch:
        yield from _driven(binary, driver, scratch)


def _driven(binary: str, driver: str, scratch: Path) -> Iterator[WebDriver]:
    """Chromium through its driver, its profile and TMPDIR in ``scratch``; quit afterwards."""
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument(f"--user-data-dir={scratch / 'profile'}")
    if os.geteuid() == 0:  # Chromium refuses to run as root inside its sandbox
        options.add_argument("--no-sandbox")
    options.add_argument("--window-size=1200,900")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=driver, env={**os.environ, "TMPDIR": str(scratch)})
    chrome = webdriver.Chrome(service=service, options=options)
    try:
        yield chrome
    finally:
        chrome.quit()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("browsed") / "site"
    with pytest.warns():  # the scenario's weak runs are warned about; not this test's subject
        records = scenario()
    build_site(records, out, baseline="bm25", queries={"scifact": QUERIES})
    return out


def _open(browser: WebDriver, site: Path, title: str) -> None:
    """Open the page titled ``title`` by following links from the index, as a reader would."""
    browser.get((site / "index.html").as_uri())
    if title != "Leaderboards":
        browser.find_element(By.LINK_TEXT, title).click()
    assert browser.find_element(By.TAG_NAME, "h1").text == title


def _column(browser: WebDriver, table: str, index: int) -> list[str]:
    rows = browser.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")
    return [row.find_elements(By.CSS_SELECTOR, "th, td")[index].text for row in rows]


def _number(text: str) -> float:
    return float(text.split(maxsplit=1)[0].rstrip("▲▼"))


def _sorted_header(browser: WebDriver, table: str) -> list[tuple[str, str]]:
    heads = browser.find_elements(By.CSS_SELECTOR, f"#{table} thead th[aria-sort]")
    return [(h.text.strip(), str(h.get_attribute("aria-sort"))) for h in heads]


def test_a_header_button_sorts_its_column_both_ways(browser: WebDriver, site: Path) -> None:
    _open(browser, site, "scifact")
    assert _sorted_header(browser, "leaderboard") == [("ndcg@10", "descending")]
    header = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#leaderboard thead th")]
    column = header.index("mrr@10")
    button = browser.find_element(By.XPATH, "//table[@id='leaderboard']//button[.='mrr@10']")
    button.click()
    assert _sorted_header(browser, "leaderboard") == [("mrr@10", "descending")]
    values = [_number(t) for t in _column(browser, "leaderboard", column)]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) > 1  # a real reorder, not a constant column
    button.click()
    assert _sorted_header(browser, "leaderboard") == [("mrr@10", "ascending")]
    values = [_number(t) for t in _column(browser, "leaderboard", column)]
    assert values == sorted(values)
    status = browser.find_element(By.ID, "ef-status")
    assert status.get_attribute("textContent") == "Sorted by mrr@10, ascending."


def test_the_keyboard_sorts_a_column(browser: WebDriver, site: Path) -> None:
    _open(browser, site, "scifact")
    button = browser.find_element(By.XPATH, "//table[@id='leaderboard']//button[.='system']")
    assert button.tag_name == "button"
    button.send_keys(Keys.ENTER)  # a focused button: Enter presses it
    assert _sorted_header(browser, "leaderboard") == [("system", "ascending")]
    names = [n.removesuffix(" (baseline)") for n in _column(browser, "leaderboard", 0)]
    assert names == sorted(names, key=str.casefold)
    button.send_keys(Keys.SPACE)
    assert _sorted_header(browser, "leaderboard") == [("system", "descending")]


def test_a_drill_down_opens_from_the_leaderboard(browser: WebDriver, site: Path) -> None:
    _open(browser, site, "scifact")
    browser.find_element(By.CSS_SELECTOR, "a[aria-label='weak against bm25']").click()
    assert browser.find_element(By.TAG_NAME, "h1").text == "weak against bm25"
    summary = browser.find_element(By.ID, "summary")
    assert "ndcg@10" in summary.text
    folded = browser.find_element(By.XPATH, "//details[summary[starts-with(., 'mrr@10:')]]")
    table = folded.find_element(By.TAG_NAME, "table")
    assert not table.is_displayed()
    folded.find_element(By.TAG_NAME, "summary").click()
    assert table.is_displayed()
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert len(rows) == len(QUERIES)
    texts = {row.find_elements(By.CSS_SELECTOR, "th, td")[1].text for row in rows}
    assert texts == set(QUERIES.values())  # markup in a query shows as its characters
    outcomes = [row.find_elements(By.CSS_SELECTOR, "td")[-1].text for row in rows]
    counts = re.findall(r"(\d+) (win|tie|loss)", folded.find_element(By.TAG_NAME, "summary").text)
    for count, outcome in counts:
        assert outcomes.count(outcome) == int(count)
    browser.find_element(By.LINK_TEXT, "scifact").click()  # the breadcrumb back
    assert browser.find_element(By.TAG_NAME, "h1").text == "scifact"


def test_the_form_opens_the_drill_down_of_any_two_systems(browser: WebDriver, site: Path) -> None:
    _open(browser, site, "scifact")
    Select(browser.find_element(By.NAME, "a")).select_by_visible_text("weak")
    Select(browser.find_element(By.NAME, "b")).select_by_visible_text("dense")
    browser.find_element(By.XPATH, "//button[.='Show drill-down']").click()
    assert browser.find_element(By.TAG_NAME, "h1").text == "weak against dense"
    _open(browser, site, "scifact")
    Select(browser.find_element(By.NAME, "a")).select_by_visible_text("dense")
    Select(browser.find_element(By.NAME, "b")).select_by_visible_text("dense")
    browser.find_element(By.XPATH, "//button[.='Show drill-down']").click()
    message = browser.find_element(By.CSS_SELECTOR, ".ef-message")
    assert message.text == "Choose two different systems."
    assert message.get_attribute("role") == "alert"


def test_a_regression_is_marked_and_said(browser: WebDriver, site: Path) -> None:
    _open(browser, site, "dense")
    marks = browser.find_elements(By.CSS_SELECTOR, "table sup.ef-down")
    assert marks
    said = browser.find_elements(By.XPATH, "//table//span[@class='ef-sr']")
    assert any("regression" in (s.get_attribute("textContent") or "") for s in said)
    colour = marks[0].value_of_css_property("color")
    assert colour != browser.find_element(By.TAG_NAME, "h1").value_of_css_property("color")


def test_an_entry_unfolds_its_manifest(browser: WebDriver, site: Path) -> None:
    _open(browser, site, "bm25")
    entry = browser.find_elements(By.CSS_SELECTOR, "details.ef-entry")[0]
    manifest = entry.find_element(By.CSS_SELECTOR, "pre.ef-manifest")
    assert not manifest.is_displayed()
    entry.find_element(By.TAG_NAME, "summary").click()
    assert manifest.is_displayed()
    assert '"ef_evaluation"' in manifest.text
    assert "Ties:" in entry.text


def test_a_name_that_is_markup_is_text(browser: WebDriver, site: Path) -> None:
    _open(browser, site, SCRIPT_NAME)
    assert browser.execute_script("return typeof window.pwned") == "undefined"
    assert browser.title.startswith(SCRIPT_NAME)


def _console(browser: WebDriver) -> list[dict[str, Any]]:
    """What the pages logged to the console since the last call (errors included)."""
    logged: list[dict[str, Any]] = browser.get_log("browser")  # type: ignore[no-untyped-call]
    return logged


def test_every_page_renders_without_an_error(
    browser: WebDriver, site: Path, tmp_path: Path
) -> None:
    _console(browser)  # what earlier tests logged
    for page in sorted(site.glob("*.html")):
        browser.get(page.as_uri())
        assert browser.find_element(By.TAG_NAME, "h1").text
        main: WebElement = browser.find_element(By.TAG_NAME, "main")
        assert main.size["width"] > 0
        assert browser.execute_script("return typeof window.pwned") == "undefined"
        errors = [e for e in _console(browser) if e["level"] == "SEVERE"]
        assert not errors, (page.name, errors)
        shot = tmp_path / f"{page.stem}.png"
        assert browser.save_screenshot(str(shot))
        assert shot.read_bytes().startswith(b"\x89PNG")
