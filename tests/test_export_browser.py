"""The offline pack in Chromium: from file://, at phone width, and offline after one visit."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

from crkb.cli import main
from tests.conftest import SHOTS
from tests.contrast import worst_contrast

pytestmark = [pytest.mark.archive, pytest.mark.browser]


@pytest.fixture(scope="module")
def pack(archive_build: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("browser-pack") / "pack"
    assert main(["export", str(dest), "--data", str(archive_build)]) == 0
    return dest


def _search(page, base: str, query: str, lang: str = "auto") -> list[str]:
    page.goto(f"{base}/search.html?" + urllib.parse.urlencode({"q": query, "lang": lang}))
    page.wait_for_function("document.body.dataset.done === '1'")
    return page.eval_on_selector_all("[data-rule]", "els => els.map(e => e.dataset.rule)")


def test_search_from_a_folder_in_both_languages(page, pack, archive_build):
    base = pack.as_uri()
    assert _search(page, base, "vigilance")[0] == "702.20"
    assert _search(page, base, "警戒")[0] == "702.20"
    assert _search(page, base, "飛行", "zh")[0] == "702.9"  # Traditional, through the pack's table
    assert _search(page, base, "vigilence")[0] == "702.20"  # a typo
    assert "Showing results for “vigilance”" in page.inner_text("#status")
    # a slip of pinyin input: 避邪 typed for 辟邪 (Hexproof), 朋洛客 for 鹏洛客
    assert _search(page, base, "避邪", "zh")[0].startswith("702.11")
    assert "Showing results for “辟邪”" in page.inner_text("#status")
    assert _search(page, base, "朋洛客", "zh")[0].startswith("306")
    _search(page, base, "其实", "zh")  # an everyday word that sounds like 起事: meant
    assert "Showing results for" not in page.inner_text("#status")
    # an accented name, typed with or without its accent, as the server finds it
    accented = _search(page, base, "Dandân", "en")[0]
    assert _search(page, base, "Dandan", "en")[0] == accented
    from crkb.search.engine import Searcher
    from crkb.store.location import current_build

    server = Searcher(current_build(archive_build) / "index").search("Dandan", lang="en")
    assert accented == server["hits"][0]["number"] and "Dandân" in server["hits"][0]["text"]
    hits = _search(page, base, "trample", "en")
    assert hits[0].startswith("702.19") and len(hits) > 3
    assert page.locator(".hit").first.get_attribute("data-rule") == hits[0]
    assert page.locator(".hit mark").first.inner_text().lower().startswith("trampl")
    page.click(".hit a.num >> nth=0")
    page.wait_for_url("**/en/702.html#702.19*")
    page.screenshot(path=str(SHOTS / "pack-search-hit.png"))


def test_a_common_word_says_how_many_rules_it_met_beyond_those_listed(page, pack):
    hits = _search(page, pack.as_uri(), "damage")
    status = page.inner_text("#status")
    found = re.match(r"The best (\d+) of (\d+) hits", status)
    assert found and int(found[1]) == len(hits) == 20 < int(found[2]), status
    # "More hits" lists 50, then 100, the hits already read staying where they were
    seen = hits
    for n in (50, 100):
        page.click("#more a")
        page.wait_for_url(f"**/search.html?*n={n}*")
        page.wait_for_function("document.body.dataset.done === '1'")
        longer = page.eval_on_selector_all("[data-rule]", "els => els.map(e => e.dataset.rule)")
        assert len(longer) == len(set(longer)) == n and longer[: len(seen)] == seen
        assert page.inner_text("#status").startswith(f"The best {n} of {found[2]} hits")
        seen = longer
    assert page.locator("#more a").count() == 0
    assert "add words to narrow" in page.inner_text("#more")
    _search(page, pack.as_uri(), "deathtouch")
    assert page.inner_text("#more") == ""  # a query meeting few rules lists them all


def test_a_rule_number_lists_the_rule_first_one_click_away(page, pack):
    """search.html lists hits for a rule number as for any query (`data-rule`, in rank order):
    the rule first, then its own rules; one click on it opens the rule."""
    base = pack.as_uri()
    assert _search(page, base, "702.19b") == ["702.19b"]
    assert "1 hit ·" in page.inner_text("#status")
    page.click(".hit a.num >> nth=0")
    page.wait_for_url("**/en/702.html#702.19b")
    page.goto((pack / "index.html").as_uri())
    page.fill("form.find input[name=q]", "rule 702.19")
    page.press("form.find input[name=q]", "Enter")
    page.wait_for_url("**/search.html?*")
    page.wait_for_function("document.body.dataset.done === '1'")
    hits = page.eval_on_selector_all("[data-rule]", "els => els.map(e => e.dataset.rule)")
    assert hits[0] == "702.19" and "702.19b" in hits[1:]
    assert all(h.startswith("702.19") for h in hits)
    page.click(".hit a.num >> nth=0")
    page.wait_for_url("**/en/702.html#702.19")
    assert page.locator('[id="702.19"]').is_visible()
    assert _search(page, base, "规则702.19c") == ["702.19c"]
    page.click(".hit a.num >> nth=0")
    page.wait_for_url("**/zh/702.html#702.19c")
    # typed as on a Chinese keyboard, and chapters as the rules and Chinese users name them
    assert _search(page, base, "７０２．１９ｂ") == ["702.19b"]
    assert _search(page, base, "702。19b") == ["702.19b"]
    for chapter in ("第八章", "第８章", "section 8"):
        hits = _search(page, base, chapter)
        assert hits[0] == "8" and all(h.startswith("8") for h in hits), chapter
    # a number no rule has is no slip for one that does (702.190 is not 702.170)
    for missing in ("702.190", "922.1", "702.9z"):
        _search(page, base, missing)
        assert "Showing results for" not in page.inner_text("#status"), missing


def test_navigation_contents_reference_and_the_other_language(page, pack):
    page.goto((pack / "index.html").as_uri())
    page.click("a[href='en/702.html']")
    page.wait_for_url("**/en/702.html")
    assert "Keyword Abilities" in page.inner_text("h2.r")
    page.click("[id='702.2b'] a.ref:has-text('704')")
    page.wait_for_url("**/en/704.html")
    assert page.locator("[id='704.5j']").count() == 1
    page.goto((pack / "en" / "702.html").as_uri() + "#702.2")
    page.click("[id='702.2'] > a.other")
    page.wait_for_url("**/zh/702.html#702.2")
    assert "死触" in page.inner_text("[id='702.2']")
    page.click("[id='702.2'] > a.other")
    page.wait_for_url("**/en/702.html#702.2")
    page.click("[id='702.2a'] a.term")
    page.wait_for_url("**/en/glossary.html#g-*")
    assert page.evaluate("document.querySelector(location.hash.replace('.', '\\\\.')) !== null")
    page.click("a.other:has-text('中文') >> nth=0")
    page.wait_for_url("**/zh/glossary.html*")
    page.click("header a:has-text('关键词')")
    page.wait_for_url("**/zh/keywords.html")
    page.click("a[href='702.html#702.2']")
    page.wait_for_url("**/zh/702.html#702.2")


def test_phone_width_has_no_horizontal_scrolling(phone, pack):
    for path in (
        "index.html",
        "en/702.html",
        "zh/702.html",
        "en/glossary.html",
        "zh/keywords.html",
        "search.html?q=%E6%AD%BB%E8%A7%A6",
    ):
        phone.goto(pack.as_uri() + "/" + path)
        phone.wait_for_load_state("load")
        wide = phone.evaluate("document.scrollingElement.scrollWidth")
        assert wide <= phone.evaluate("window.innerWidth"), path
    phone.screenshot(path=str(SHOTS / "pack-phone-search.png"))


def test_a_rule_jumped_to_on_a_phone_stands_below_the_bar(phone, pack):
    """The bar wraps on a phone; the rule an address or a reference names is not behind it."""
    for path, target in (("en/702.html#702.9b", "702.9b"), ("en/glossary.html", None)):
        if target is None:  # a glossary entry far down the page, by its own address
            phone.goto(pack.as_uri() + "/" + path)
            target = phone.evaluate("[...document.querySelectorAll('dt[id]')].at(-40).id")
            phone.goto(pack.as_uri() + f"/{path}#{target}")
        else:
            phone.goto(pack.as_uri() + "/" + path)
        phone.wait_for_load_state("load")
        bar = phone.evaluate("document.querySelector('.bar').getBoundingClientRect().bottom")
        top = phone.evaluate(f"document.getElementById({target!r}).getBoundingClientRect().top")
        assert top >= bar, (path, target, top, bar)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_pack_reads_in_the_light_and_in_the_dark(browser, pack, scheme):
    """The pack follows a phone set to dark, every text at WCAG's contrast of 4.5 or more, a
    rule jumped to and a search's marks included."""
    context = browser.new_context(color_scheme=scheme, viewport={"width": 375, "height": 812})
    try:
        pg = context.new_page()
        pages = ("index.html", "en/702.html#702.2", "zh/glossary.html", "search.html?q=trample")
        for path in pages:
            pg.goto(pack.as_uri() + "/" + path)
            if path.startswith("search"):
                pg.wait_for_function("document.body.dataset.done === '1'")
            ratio, where, ground = worst_contrast(pg)
            assert ratio >= 4.5, f"{scheme} {path}: {where} {ratio:.2f}"
            assert (ground < 0.05) if scheme == "dark" else (ground > 0.9), (path, ground)
        pg.screenshot(path=str(SHOTS / f"pack-search-{scheme}.png"))
    finally:
        context.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def served(pack):
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "http.server",
            str(port),
            "--bind",
            "127.0.0.1",
            "--directory",
            str(pack),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield base
    proc.terminate()
    proc.wait(10)


def test_offline_after_one_visit(browser, served):
    context = browser.new_context()
    outside: list[str] = []
    errors: list[str] = []
    context.on("request", lambda r: None if r.url.startswith(served) else outside.append(r.url))
    pg = context.new_page()
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        pg.goto(served + "/index.html")
        assert pg.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        manifest = pg.evaluate("document.querySelector('link[rel=manifest]').href")
        assert manifest == served + "/manifest.webmanifest"
        context.set_offline(True)
        pg.goto(served + "/")
        assert "Comprehensive Rules" in pg.inner_text("h1")
        pg.goto(served + "/en/702.html#702.2")
        assert "Deathtouch" in pg.inner_text("[id='702.2']")
        assert _search(pg, served, "死触")[0] == "702.2"
        pg.goto(served + "/zh/702.html")
        assert "死触" in pg.inner_text("[id='702.2']")
    finally:
        context.close()
    assert outside == []
    assert errors == []


def test_a_question_is_read_with_the_servers_vocabulary(browser, archive_build, tmp_path):
    """The server's question words and factors go into the pack and its search uses them: a
    question about a term ranks inside that term's rules, its statements before its bare
    heading."""
    dest = tmp_path / "pack"
    assert main(["export", str(dest), "--data", str(archive_build), "--lang", "en"]) == 0
    context = browser.new_context()
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        hits = _search(pg, dest.as_uri(), "what is deathtouch", "en")
        assert hits[0] != "702.2" and all(h.startswith("702.2") for h in hits[:3]), hits[:5]
        assert _search(pg, dest.as_uri(), "deathtouch", "en")[0] == "702.2"  # not a question
    finally:
        context.close()
    assert errors == []


def test_the_pack_ranks_questions_as_the_server_does(browser, archive_build, tmp_path):
    """Questions not in any judged file: the pack's first hits are mostly the server's (its
    citation, pointer and variant signals are the server's, shipped in the index)."""
    from crkb.search.engine import Searcher
    from crkb.store.location import INDEX_DIR, current_build

    dest = tmp_path / "pack"
    assert main(["export", str(dest), "--data", str(archive_build), "--lang", "en"]) == 0
    server = Searcher(current_build(archive_build) / INDEX_DIR)
    context = browser.new_context()
    pg = context.new_page()
    try:
        for q in (
            "what happens if a player draws from an empty library",
            "can you block with a tapped creature",
            "what happens when a creature has lethal damage marked on it",
        ):
            mine = _search(pg, dest.as_uri(), q, "en")[:5]
            theirs = [h["number"] for h in server.search(q, lang="en", limit=5)["hits"]]
            assert len(set(mine) & set(theirs)) >= 3, (q, mine, theirs)
    finally:
        context.close()


def test_players_words_are_read_in_the_pack_as_on_the_server(page, pack, archive_build):
    """ "etb", "sba", 抽牌 and 坟场 are in no rule: the pack puts them in the rules' words as the
    server does (crkb.search.players), and finds what the server finds."""
    from crkb.search.engine import Searcher
    from crkb.store.location import INDEX_DIR, current_build

    server = Searcher(current_build(archive_build) / INDEX_DIR)
    for q, lang in (("etb", "en"), ("sba", "en"), ("抽牌", "zh"), ("坟场", "zh"), ("MDFC", "zh")):
        mine = _search(page, pack.as_uri(), q, lang)[:5]
        theirs = [h["number"] for h in server.search(q, lang=lang, limit=5)["hits"]]
        assert mine[:1] == theirs[:1] and len(set(mine) & set(theirs)) >= 2, (q, mine, theirs)
    # an everyday word is no misspelling in the pack either ("wear" was read as "bear")
    assert _search(page, pack.as_uri(), "when does summoning sickness wear off", "en")[0] == "302.6"
    assert "Showing results for" not in page.inner_text("#status")
    _search(page, pack.as_uri(), "does ramping a land use up my land drop", "en")  # nor a form
    assert "Showing results for" not in page.inner_text("#status")  # of one ("ramp", not "damp")
