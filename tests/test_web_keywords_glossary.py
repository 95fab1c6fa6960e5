"""The keywords and glossary pages over the real archive: what a reader sees in each language."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from crkb.diff.lookup import number_in
from crkb.web import data

pytestmark = pytest.mark.archive


def soup(resp) -> BeautifulSoup:
    assert resp.status_code == 200
    return BeautifulSoup(resp.get_data(as_text=True), "html.parser")


def keyword_rows(page: BeautifulSoup) -> dict[str, tuple[str, str | None, str]]:
    """number → (English name, Chinese name or None when not translated, the row's link)."""
    out = {}
    for tr in page.select("section.keywords tbody tr"):
        num, en, zh = tr.select("td")
        name = None if "untranslated" in (zh.get("class") or []) else zh.get_text(strip=True)
        out[num.get_text(strip=True)] = (en.get_text(strip=True), name, num.a["href"])
    return out


# keywords -----------------------------------------------------------------------------------------
def test_keywords_pair_each_keyword_with_the_chinese_rule_it_translates(client, store):
    """The newest translation is of an older release, renumbered since (701.4 Behold came in,
    and Cast, Counter, Create … moved down one): each row follows the renumbering, as the rule
    pages do (`crkb show 701.6 --lang both`: 701.6 Counter beside 2024-04-12's 701.5 反击)."""
    latest = store.version_ids()[-1]
    zh = store.newest_text(latest, "zh")
    assert zh is not None and zh < latest
    rows = keyword_rows(soup(client.get("/keywords")))
    assert len(rows) > 240
    assert rows["701.5"][:2] == ("Cast", "施放")
    assert rows["701.6"][:2] == ("Counter", "反击")
    assert rows["701.7"][:2] == ("Create", "派出")
    assert rows["701.8"][:2] == ("Destroy", "消灭")
    assert rows["701.50"][:2] == ("Connive", "筹谋")  # three numbers down (2024-04-12: 701.47)
    assert rows["702.2"][:2] == ("Deathtouch", "死触")  # never renumbered
    assert rows["702.19"][:2] == ("Trample", "践踏")
    assert rows["701.4"][:2] == ("Behold", None)  # newer than the translation: none, said so

    # every pairing, through the English lineage: the Chinese rule named translates the English
    # rule of the row, and a row shown untranslated has no rule in the translation's release
    zh_numbers: dict[str, str] = {}
    for section in ("701", "702"):
        for p in data.keyword_rules(store, zh, "zh", section):
            if p.title:
                assert p.title not in zh_numbers, p.title  # names are unique: the map is sound
                zh_numbers[p.title] = p.number
    paired = untranslated = 0
    for number, (en, name, _href) in rows.items():
        if name is None:
            assert number_in(store, number, latest, zh) is None, (number, en)
            untranslated += 1
        elif name in zh_numbers:
            assert number_in(store, zh_numbers[name], zh, latest) == number, (number, en, name)
            paired += 1
    assert paired > 200 and 0 < untranslated < 40


def test_keywords_link_the_rule_whose_names_they_show(client):
    """A row links the English rule of the page's release; its rule page shows the Chinese name
    the row shows (the translation's own number for it may differ)."""
    rows = keyword_rows(soup(client.get("/keywords")))
    for number in ("701.6", "701.50", "702.19"):
        en, name, href = rows[number]
        assert href == f"/rules/{number}"
        page = soup(client.get(href + "?lang=both"))
        assert en in page.select_one("article.col[lang=en]").get_text()
        assert name in page.select_one("article.col[lang=zh-Hans]").get_text()


def test_keywords_of_the_translated_release_pair_by_its_own_numbers(client, store):
    zh = store.version_ids("zh")[-1]
    page = soup(client.get(f"/keywords?version={zh}"))
    rows = keyword_rows(page)
    assert rows["701.5"][:2] == ("Counter", "反击") and rows["701.4"][:2] == ("Cast", "施放")
    assert all(name is not None for _en, name, _href in rows.values())
    assert all(href == f"/v/{zh}/rules/{n}" for n, (_e, _z, href) in rows.items())


# glossary -----------------------------------------------------------------------------------------
def parts(page: BeautifulSoup) -> list[str]:
    return [s["lang"] for s in page.select("section.glossary")]


def assert_jump_links_land(page: BeautifulSoup) -> None:
    """Every in-page link of the page (letters, parts) targets an element that exists."""
    jumps = [a["href"][1:] for a in page.select("main a[href^='#']")]
    assert jumps
    missing = [j for j in jumps if page.find(id=j) is None]
    assert missing == []


def test_keywords_of_a_release_before_the_renumbering_list_its_own_sections(client, store):
    """Before 2009 keyword abilities were section 502 (and actions 501): the page lists them,
    every keyword rule of each, not the empty 701 and 702 that release lacks."""
    old = store.version_ids()[0]
    sections = [
        s
        for chapter in ("5", "7")
        for s in store.children(old, "en", chapter)
        if s.title.startswith("Keyword")
    ]
    assert sections
    page = soup(client.get(f"/keywords?version={old}"))
    heads = [h.select_one("a").get_text() for h in page.select("section.keywords h2")]
    assert heads == [f"{s.number} {s.title}" for s in sections]
    for s, table in zip(sections, page.select("section.keywords table"), strict=True):
        named = [r.number for r in store.children(old, "en", s.number) if r.title]
        assert named and [a.get_text() for a in table.select("td.n a")] == named


def test_keywords_leave_out_the_general_rules_that_open_their_sections(client):
    """701.1 and 702.1 say what keywords are; they are no keyword and have no name."""
    page = soup(client.get("/keywords"))
    listed = [a.get_text() for a in page.select("section.keywords td.n a")]
    assert "701.2" in listed and "702.2" in listed
    assert "701.1" not in listed and "702.1" not in listed


@pytest.mark.parametrize("lang", ["zh", "both"])
def test_a_glossary_page_gives_each_address_once(client, lang):
    """The translation keeps some entries under their English headwords (X, Oracle): the page
    holding both glossaries names each address once, and gives those no "pinyin" of themselves."""
    page = soup(client.get(f"/glossary?lang={lang}"))
    ids = [e["id"] for e in page.select("[id]")]
    assert len(ids) == len(set(ids))
    for dt in page.select("#glossary-zh dt"):
        reading = dt.select_one("small.py")
        if reading is not None:
            assert reading.get_text() != dt.contents[0].strip()


def test_glossary_in_chinese_shows_the_chinese_glossary_first(client):
    page = soup(client.get("/glossary?lang=zh"))
    # the Chinese glossary first; the English one after it, for the English columns a zh rule
    # page shows where the translation lacks the rule (their terms link into it)
    assert parts(page) == ["zh-Hans", "en"]
    first = page.select_one("section.glossary")
    assert first["id"] == "glossary-zh" and first.select_one("dt").get_text().strip()[0] >= "\u4e00"
    letters = [a["href"] for a in page.select_one("nav.letters").select("a")]
    assert letters[0] == "#zh-A" and all(h.startswith("#zh-") for h in letters)
    assert page.select_one(".cols.n1") is not None  # stacked, Chinese at the top
    assert [a["href"] for a in page.select("nav.parts a")] == ["#glossary-zh", "#glossary-en"]
    assert_jump_links_land(page)
    # the readings in order syllable by syllable, as a Chinese dictionary orders them (巴黎
    # before 白昼: "ba li" before "bai zhou")
    readings = [
        dt.select_one("small.py").get_text().lower().split()
        for dt in first.select("dt")
        if dt.select_one("small.py")
    ]
    assert len(readings) > 300 and readings == sorted(readings)
    # chosen by clicking 中文 (the cookie), the same page
    assert parts(soup(client.get("/glossary"))) == ["zh-Hans", "en"]


def test_glossary_in_english_is_english_alone(client):
    page = soup(client.get("/glossary?lang=en"))
    assert parts(page) == ["en"]
    assert page.select("[lang=zh-Hans] dt") == [] and page.select_one("nav.parts") is None
    assert page.find(id="g-deathtouch") is not None
    assert all(a["href"].startswith("#en-") for a in page.select("nav.letters a"))
    assert_jump_links_land(page)


def test_glossary_in_both_is_side_by_side_with_a_jump_to_each(client):
    page = soup(client.get("/glossary?lang=both"))
    assert parts(page) == ["en", "zh-Hans"]
    assert page.select_one(".cols.n2") is not None
    # a phone stacks the two: the Chinese part is one tap away
    assert [a["href"] for a in page.select("nav.parts a")] == ["#glossary-en", "#glossary-zh"]
    navs = page.select("nav.letters")
    assert [a["href"][:4] for a in navs[1].select("a")] == ["#zh-"] * len(navs[1].select("a"))
    assert_jump_links_land(page)


def test_a_zh_rule_pages_english_column_links_terms_the_zh_glossary_holds(client, store):
    """A rule newer than the translation is shown in English on a zh page: its glossary links
    land on the zh glossary page too."""
    page = soup(client.get("/rules/701.4?lang=zh"))
    assert [a["lang"] for a in page.select("article.col")] == ["en"]
    targets = {a["href"].split("#")[1] for a in page.select("a.term")}
    assert targets
    glossary = soup(client.get("/glossary?lang=zh"))
    assert all(glossary.find(id=t) is not None for t in targets), targets


def test_glossary_of_a_release_before_any_translation_says_so(client, store):
    first_zh = store.version_ids("zh")[0]
    old = next(v for v in store.version_ids() if v < first_zh)
    page = soup(client.get(f"/glossary?version={old}&lang=zh"))
    assert parts(page) == ["en"]
    assert "no translation as of" in page.select_one("p.note").get_text()
    # a rule page says it in both languages, for the reader who chose Chinese
    rule = soup(client.get(f"/v/{old}/rules/100.1?lang=both"))
    said = [n.get_text(" ", strip=True) for n in rule.select("p.note")]
    assert any(f"no translation as of {old}" in n and f"{old} 版尚无中文翻译" in n for n in said)
