"""Browser flows on Debian's Chromium: search, links both ways, language, version, phone width."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.conftest import SHOTS
from tests.contrast import worst_contrast

pytestmark = [pytest.mark.archive, pytest.mark.browser]

PAGES = [
    "/",
    "/rules/702.2",
    "/v/2024-04-12/rules/702.2",
    "/v/2024-04-12/rules/115?lang=both",  # translation badges
    "/rules/601.2",
    "/glossary",
    "/keywords",
    "/search?q=trample",
    "/rules/999.9",
]


@pytest.fixture(scope="module")
def base_url(archive_build: Path):
    from werkzeug.serving import make_server

    from crkb.web import create_app

    server = make_server("127.0.0.1", 0, create_app({"DATA": str(archive_build)}), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(5)


def test_search_from_home_page_to_the_rule(page, base_url):
    page.goto(base_url + "/")
    page.fill("form.bigfind input[name=q]", "deathtouch")
    page.press("form.bigfind input[name=q]", "Enter")
    page.wait_for_url("**/search?q=deathtouch*")
    assert page.locator(".hit").count() > 0
    page.screenshot(path=str(SHOTS / "search.png"))
    page.click(".hit a.num[href='/rules/702.2']")
    page.wait_for_url("**/rules/702.2")
    assert "Deathtouch" in page.inner_text("h1")


def test_follow_a_cross_reference_and_a_cited_by_link(page, base_url):
    page.goto(base_url + "/rules/702.2?lang=en")
    ref = page.locator("article.col a.ref[href='/rules/704']").first
    assert ref.get_attribute("title").startswith("704")
    ref.click()
    page.wait_for_url("**/rules/704")
    assert page.inner_text("h1").startswith("704")
    cited = page.locator(".citedby a[href^='/rules/']").first
    target = cited.get_attribute("href")
    cited.click()
    page.wait_for_url("**" + target)
    assert page.inner_text("h1").startswith(target.rsplit("/", 1)[1])
    # and back: the page we came from cites 704
    assert page.locator("article.col a.ref[href='/rules/704']").count() > 0


def test_switch_language_and_it_is_remembered(page, base_url):
    page.goto(base_url + "/rules/702.2")
    assert page.locator("article.col").count() == 2
    page.screenshot(path=str(SHOTS / "side-by-side.png"), full_page=False)
    page.click(".langs a:has-text('中文')")
    page.wait_for_url("**lang=zh")
    assert page.locator("article.col").count() == 1
    assert "死触" in page.inner_text("article.col")
    page.goto(base_url + "/rules/702.3")
    assert page.locator("article.col[lang=zh-Hans]").count() == 1
    assert page.locator("article.col[lang=en]").count() == 0
    page.click(".langs a:has-text('Both')")
    assert page.locator("article.col").count() == 2


def test_switch_version_shows_banner(page, base_url):
    page.goto(base_url + "/rules/702.2")
    page.select_option(".tools form.vsel select", "2024-04-12")
    page.click(".tools form.vsel button")
    page.wait_for_url("**/v/2024-04-12/rules/702.2")
    assert "2024-04-12" in page.inner_text(".banner")
    page.click(".banner a")
    page.wait_for_url("**/rules/702.2")
    assert page.locator(".banner").count() == 0


def test_phone_width_has_no_horizontal_scrolling(phone, base_url):
    for path in PAGES:
        phone.goto(base_url + path)
        wide = phone.evaluate("document.scrollingElement.scrollWidth")
        inner = phone.evaluate("window.innerWidth")
        assert wide <= inner, f"{path}: {wide} > {inner}"
    phone.goto(base_url + "/rules/702.2?lang=both")
    phone.screenshot(path=str(SHOTS / "phone-rule.png"))
    phone.goto(base_url + "/")
    phone.screenshot(path=str(SHOTS / "phone-home.png"))


def test_phone_home_jumps_to_every_release(phone, base_url):
    """The releases stand below both contents on a phone: one tap, not 13,000 pixels."""
    phone.goto(base_url + "/?lang=both")
    phone.click("nav.parts a[href='#releases']")
    top = phone.evaluate("document.getElementById('releases').getBoundingClientRect().top")
    assert phone.evaluate("window.scrollY") > 5000 and abs(top) < 50


CONTRAST_PAGES = [
    "/",
    "/rules/702.2?lang=both",
    "/v/2024-04-12/rules/115?lang=both",  # translation badges
    "/search?q=trample",
    "/diff/2025-06-06/2025-07-25",  # words taken out and put in
    "/translation/2024-04-12?chapter=1",
    "/rules/999.9",
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_text_reads_in_the_light_and_in_the_dark(browser, base_url, scheme):
    """A judge in a dim hall sets the phone to dark: the pages follow it, and every text keeps
    WCAG's contrast of 4.5 against what is behind it, in either scheme."""
    context = browser.new_context(color_scheme=scheme, viewport={"width": 375, "height": 812})
    try:
        pg = context.new_page()
        for path in CONTRAST_PAGES:
            pg.goto(base_url + path)
            ratio, where, ground = worst_contrast(pg)
            assert ratio >= 4.5, f"{scheme} {path}: {where} {ratio:.2f}"
            assert (ground < 0.05) if scheme == "dark" else (ground > 0.9), (path, ground)
        pg.goto(base_url + "/rules/702.2?lang=both")
        pg.screenshot(path=str(SHOTS / f"phone-rule-{scheme}.png"))
    finally:
        context.close()


def test_phone_keywords_keep_each_rule_number_on_one_line(phone, base_url):
    """On a phone the keyword table's long 701.1 row squeezed the Rule column to a character
    a line; every number stays whole."""
    phone.goto(base_url + "/keywords")
    lines = phone.evaluate(
        "[...document.querySelectorAll('.keywords td.n a')].map(a => a.getClientRects().length)"
    )
    assert len(lines) > 200 and set(lines) == {1}
    phone.screenshot(path=str(SHOTS / "phone-keywords.png"))


def test_phone_glossary_jumps_to_the_chinese_part(phone, base_url):
    """Both languages stack on a phone: the Chinese glossary is a tap away, and with Chinese
    chosen it comes first."""
    phone.goto(base_url + "/glossary?lang=both")
    phone.click("nav.parts a[href='#glossary-zh']")
    top = phone.evaluate("document.getElementById('glossary-zh').getBoundingClientRect().top")
    assert phone.evaluate("window.scrollY") > 10000 and abs(top) < 50
    phone.goto(base_url + "/glossary?lang=zh")
    top = phone.evaluate("document.getElementById('glossary-zh').getBoundingClientRect().top")
    assert top < phone.evaluate("window.innerHeight")
    phone.click("#glossary-zh nav.letters a[href='#zh-S']")
    assert abs(phone.evaluate("document.getElementById('zh-S').getBoundingClientRect().top")) < 50
    phone.screenshot(path=str(SHOTS / "phone-glossary-zh.png"))


def test_phone_rule_page_jumps_between_the_stacked_languages(page, phone, base_url):
    """On a phone the Chinese of a long rule sits screens below the English: a tap at the
    English head reaches it, and one there comes back; side by side, no such link shows."""
    phone.goto(base_url + "/rules/702?lang=both")
    phone.click("#col-en .colhead a.jump")
    top = phone.evaluate("document.getElementById('col-zh').getBoundingClientRect().top")
    assert phone.evaluate("window.scrollY") > 2000 and abs(top) < 50
    phone.click("#col-zh .colhead a.jump")
    assert phone.evaluate("window.scrollY") < 1000
    page.goto(base_url + "/rules/702?lang=both")
    assert not page.is_visible("#col-en .colhead a.jump")


def test_english_in_a_chinese_page_keeps_latin_glyphs(page, base_url):
    """With Chinese chosen, an English hit is not set in the CJK font (full-width quotes)."""
    page.goto(base_url + "/rules/702.2?lang=zh")  # remembers the choice
    page.goto(base_url + "/search?q=trample")
    font = "getComputedStyle(document.querySelector('{}')).fontFamily"
    assert "WenQuanYi" in page.evaluate(font.format("article, main, body"))
    english = page.evaluate(font.format("li.hit[lang=en]"))
    assert not english.startswith('"WenQuanYi'), english


def test_copying_a_badged_rule_copies_the_rule_alone(page, phone, base_url):
    """A rule's translation badge stands beside its text: selecting the text and copying it
    leaves the badge out; the badge is still seen and followed, at desktop and phone width."""
    for pg in (page, phone):
        pg.goto(base_url + "/v/2024-04-12/rules/115?lang=zh")
        rule = pg.locator("[id='zh-115.3']")
        copied = rule.locator("p.text").evaluate(
            """p => { const r = document.createRange(); r.selectNodeContents(p);
                const s = getSelection(); s.removeAllRanges(); s.addRange(r);
                return s.toString(); }"""
        )
        assert copied.startswith("115.3 ") and "翻译问题" not in copied, copied[:40]
        badge = rule.locator("a.badge")
        assert badge.is_visible()
        box, text = badge.bounding_box(), rule.locator("p.text").bounding_box()
        inner = pg.evaluate("window.innerWidth")
        assert box["x"] >= text["x"] and box["x"] + box["width"] <= inner  # within the column
        assert box["y"] < text["y"] + 30  # beside the rule's first line
    phone.screenshot(path=str(SHOTS / "phone-badge.png"))
    page.locator("[id='zh-115.3'] a.badge").click()
    page.wait_for_url("**/translation/2024-04-12?chapter=115.3*")
