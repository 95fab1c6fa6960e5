"""`crkb export`: the offline pack's files, pages, search data and refusals; the zip download."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from crkb.cli import main
from crkb.export import links, searchdata
from crkb.export.pack import parse_langs
from crkb.model import Document, GlossaryEntry, Reference, Rule


def test_references_and_first_glossary_use_become_relative_links():
    terms = links.glossary_terms(
        [("Deathtouch", "A keyword ability."), ("Old (Obsolete)", "")], "en"
    )
    refs = [Reference("702.2b", "704", "704"), Reference("702.2b", "999.1", "999.1", dangling=True)]
    html = links.linked(
        "Deathtouch and deathtouch; see rule 704 and 999.1 and 7040.",
        refs,
        lambda n: f"../en/{n}.html",
        terms,
        "../en/glossary.html",
        set(),
    )
    assert html.count('class="term"') == 1  # the first use only
    assert '<a class="term" href="../en/glossary.html#g-deathtouch">Deathtouch</a>' in html
    assert '<a class="ref" href="../en/704.html">704</a>' in html
    assert "999.1" in html and "999.1.html" not in html  # dangling: plain text
    assert "7040." in html  # a longer number is not a reference to 704


def test_a_subtype_links_only_where_written_as_a_name():
    """A glossary subtype (as the glossary defines Case, Role, Plains) is a name: the "case" of
    "in that case" is an everyday word; a card type or keyword links in lower case as before."""
    terms = links.glossary_terms(
        [
            ("Case", "An enchantment subtype. See rule 719, “Case Cards.”"),
            (
                "Role",
                "Roles are colorless enchantment tokens. Each one has the Aura and Role subtypes.",
            ),
            ("Plains", "One of the five basic land types."),
            ("Room", "1. A subsection of a dungeon card.\n2. An enchantment subtype."),
            ("Creature", "A card type. A creature is a permanent."),
            ("Trample", "A keyword ability."),
        ],
        "en",
    )

    def linked(text: str) -> list[str]:
        html = links.linked(text, [], lambda n: None, terms, "g.html", set())
        return re.findall(r'<a class="term" href="g.html#[^"]+">([^<]+)</a>', html)

    assert linked("In that case, the creature with trample plays the role of a case.") == [
        "creature",
        "trample",
    ]
    assert linked("in that case, a Case; the Roles of Plains") == ["Case", "Roles", "Plains"]
    assert linked("plains, a room of a dungeon") == ["room"]  # not every sense is a subtype
    assert linked("Æther: in that case, the Cases") == ["Cases"]  # text beyond ASCII: the regex


def test_text_is_escaped_not_interpreted():
    html = links.linked("<b>x</b> & y", [], lambda n: None, links.Terms(None, {}), "", set())
    assert html == "&lt;b&gt;x&lt;/b&gt; &amp; y"


def test_traditional_table_keeps_only_characters_the_pack_uses():
    table = searchdata.t2s_table({"触", "时"}, lambda s: s.replace("觸", "触").replace("時", "时"))
    assert table == {"觸": "触", "時": "时"}


def _doc(lang: str, rules: list[Rule], glossary: list[GlossaryEntry], refs: list[Reference]):
    return Document(
        lang=lang,
        version="2024-01-01",
        source="x",
        format="txt",
        rules=rules,
        glossary=glossary,
        references=refs,
    )


def test_a_glossary_term_pins_the_subrule_that_defines_it_first():
    rules = [
        Rule("702", "section", "Keyword Abilities", "Keyword Abilities"),
        Rule("702.2", "rule", "Deathtouch", "Deathtouch", parent="702"),
        Rule("702.2a", "subrule", "Deathtouch is a static ability.", parent="702.2"),
    ]
    doc = _doc(
        "en",
        rules,
        [GlossaryEntry("Deathtouch", "A keyword ability. See rule 702.2.")],
        [Reference("glossary:Deathtouch", "702.2", "702.2")],
    )
    pinned, sections = searchdata.pins(doc)
    assert pinned["deathtouch"] == ["702.2"]  # titled: the rule itself
    rules[1].title = None
    pinned, _ = searchdata.pins(doc)
    assert pinned["deathtouch"] == ["702.2a", "702.2"]


def test_english_index_maps_every_word_to_the_servers_stem():
    doc = _doc("en", [Rule("100.1", "rule", "Players attacking with creatures.")], [], [])
    index = searchdata.english_index(doc)
    forms = index["forms"]
    assert isinstance(forms, dict)
    assert forms["attacking"] == forms["attack"] if "attack" in forms else forms["attacking"]
    assert forms["creatures"] == "creatur"  # Porter, as the server's analyser
    assert "with" not in forms  # stop words are not searchable words
    post = index["post"]
    assert isinstance(post, dict) and post["player"] == [0, 1.0]


def test_bad_languages_are_named():
    assert parse_langs("zh, en") == ["zh", "en"]
    with pytest.raises(Exception, match="--lang 'fr'"):
        parse_langs("fr")


# -- the real archive --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pack(archive_build: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("pack") / "pack"
    assert main(["export", str(dest), "--data", str(archive_build)]) == 0
    return dest


@pytest.mark.archive
def test_export_prints_what_it_wrote(archive_build, tmp_path, capsys):
    assert main(["export", str(tmp_path / "p"), "--data", str(archive_build), "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert re.match(r"pack of \d{4}-\d\d-\d\d \(zh \d{4}-\d\d-\d\d\): \d+ files, [\d.]+ MB", out)
    assert not (tmp_path / "p" / "en").exists()
    assert (tmp_path / "p" / "zh" / "702.html").exists()
    # a Chinese pack of an English release with no translation of its own says what it holds
    args = ["--data", str(archive_build), "--lang", "zh", "--version", "2025-07-25"]
    assert main(["export", str(tmp_path / "q"), *args]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("pack of 2024-04-12 (zh 2024-04-12)")
    assert (
        "note: 2025-07-25 has no Chinese text of its own; the pack holds the translation of"
        " 2024-04-12, the newest before it"
    ) in err


@pytest.mark.archive
def test_the_default_pack_holds_both_languages_linked_both_ways(pack: Path):
    info = json.loads((pack / "crkb-pack.json").read_text())
    assert set(info["versions"]) == {"en", "zh"}
    en = (pack / "en" / "702.html").read_text()
    zh = (pack / "zh" / "702.html").read_text()
    assert 'id="702.2"' in en and "Deathtouch" in en
    assert 'id="702.2"' in zh and "死触" in zh
    assert 'href="../zh/702.html#702.2"' in en
    assert 'href="../en/702.html#702.2"' in zh
    assert '<a class="ref" href="../en/704.html">704</a>' in en
    assert 'class="term" href="../en/glossary.html#g-' in en
    index = (pack / "index.html").read_text()
    assert 'href="en/702.html"' in index and 'href="zh/702.html"' in index
    assert info["release"] in index
    # numbers are written without a trailing dot, as on the site (SPEC)
    contents = BeautifulSoup(index, "html.parser").select("ol.contents b, ol.contents a")
    assert contents and not [x for x in contents if re.match(r"\d+(\.\d+)*\. ", x.get_text())]
    for lang in ("en", "zh"):
        assert (pack / lang / "glossary.html").stat().st_size > 10000
        assert 'href="702.html#702.2"' in (pack / lang / "keywords.html").read_text()
    assert 'href="../zh/glossary.html#g-' in (pack / "en" / "glossary.html").read_text()


@pytest.mark.archive
def test_no_file_of_the_pack_asks_for_anything_outside_it(pack: Path):
    outside = re.compile(
        r"""(?:src|href)\s*=\s*["']?(?:https?:)?//|url\(\s*["']?(?:https?:)?//|@import"""
        r"|fetch\((?!event\.request\))|XMLHttpRequest"
    )
    for path in pack.rglob("*"):
        if path.suffix in (".html", ".js", ".css", ".webmanifest"):
            assert not outside.search(path.read_text(encoding="utf-8")), path


@pytest.mark.archive
def test_the_service_worker_lists_every_file(pack: Path):
    sw = (pack / "sw.js").read_text()
    files = json.loads(re.search(r"var FILES = (\[.*?\]);", sw).group(1))
    on_disk = {p.relative_to(pack).as_posix() for p in pack.rglob("*") if p.is_file()}
    assert set(files) == on_disk - {"sw.js"}
    manifest = json.loads((pack / "manifest.webmanifest").read_text())
    assert manifest["display"] == "standalone"
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    assert (pack / "assets" / "icon-192.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.archive
def test_an_older_release_before_any_translation_is_english_only(archive_build, tmp_path, capsys):
    assert (
        main(
            ["export", str(tmp_path / "p"), "--data", str(archive_build), "--version", "2019-01-25"]
        )
        == 0
    )
    assert "pack of 2019-01-25 (en 2019-01-25)" in capsys.readouterr().out
    assert not (tmp_path / "p" / "zh").exists()
    assert (
        main(
            [
                "export",
                str(tmp_path / "q"),
                "--data",
                str(archive_build),
                "--version",
                "2019-01-25",
                "--lang",
                "en,zh",
            ]
        )
        == 2
    )
    assert "no zh text at or before 2019-01-25" in capsys.readouterr().err


@pytest.mark.archive
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "fr"], "--lang 'fr': expected en, zh or en,zh"),
        (["--lang", ""], "--lang '': expected en, zh or en,zh"),
        (["--version", "1890-01-01"], "unknown version '1890-01-01'"),
    ],
)
def test_bad_arguments_are_one_line(archive_build, tmp_path, capsys, args, message):
    assert main(["export", str(tmp_path / "p"), "--data", str(archive_build), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "p").exists()


@pytest.mark.archive
def test_a_folder_that_is_not_a_pack_is_left_alone(archive_build, tmp_path, capsys):
    (tmp_path / "mine.txt").write_text("keep me")
    assert main(["export", str(tmp_path), "--data", str(archive_build)]) == 2
    assert "not empty and not a crkb pack" in capsys.readouterr().err
    assert (tmp_path / "mine.txt").read_text() == "keep me"


@pytest.mark.archive
def test_a_pack_is_replaced_by_a_new_export(archive_build, pack, capsys):
    (pack / "stale.html").write_text("old")
    assert main(["export", str(pack), "--data", str(archive_build)]) == 0
    assert not (pack / "stale.html").exists()
    assert (pack / "en" / "702.html").exists()


@pytest.mark.archive
def test_the_home_page_offers_the_pack_as_a_zip(archive_build):
    from crkb.web import create_app

    client = create_app({"DATA": str(archive_build)}).test_client()
    home = client.get("/")
    assert b'href="/pack.zip"' in home.data
    got = client.get("/pack.zip")
    assert got.status_code == 200 and got.mimetype == "application/zip"
    assert "attachment" in got.headers["Content-Disposition"]
    names = zipfile.ZipFile(io.BytesIO(got.data)).namelist()
    top = names[0].split("/")[0]
    assert {
        f"{top}/index.html",
        f"{top}/search.html",
        f"{top}/en/702.html",
        f"{top}/zh/702.html",
    } <= set(names)
    again = client.get("/pack.zip")  # kept beside the builds, not made again
    assert again.data == got.data
    assert len(list((archive_build / "packs").glob("*.zip"))) == 1


@pytest.mark.archive
def test_a_zip_made_by_former_code_is_made_again(archive_build, tmp_path):
    """A crkb upgraded in place (a fix to the pack's pages) does not serve the former pack."""
    import shutil

    from crkb.web import create_app

    data = tmp_path / "data"
    shutil.copytree(archive_build, data, symlinks=True, ignore=shutil.ignore_patterns("packs"))
    client = create_app({"DATA": str(data)}).test_client()
    fresh = client.get("/pack.zip").data
    (zipped,) = (data / "packs").glob("*.zip")
    zipped.write_bytes(b"made by former code")
    (data / "packs" / (zipped.name + ".code")).write_text("former")
    assert client.get("/pack.zip").data[:2] == b"PK"
    names = zipfile.ZipFile(io.BytesIO(fresh)).namelist()
    assert zipfile.ZipFile(zipped).namelist() == names


@pytest.mark.archive
def test_the_pack_downloads_when_the_data_folder_is_named_relatively(archive_build, monkeypatch):
    """`make run` serves ./instance: the zip is read from there, not from the package."""
    from crkb.web import create_app

    monkeypatch.chdir(archive_build.parent)
    client = create_app({"DATA": archive_build.name}).test_client()
    got = client.get("/pack.zip")
    assert got.status_code == 200 and got.mimetype == "application/zip"
    assert zipfile.ZipFile(io.BytesIO(got.data)).namelist()


def test_the_servers_question_vocabulary_goes_into_the_pack():
    """The pack reads questions with the server's own words, patterns, factors and weights."""
    from crkb.search import candidates, question, ranking, weights

    doc = _doc("en", [Rule("100.1", "rule", "Players can attack.")], [], [])
    ask = searchdata.english_index(doc)["ask"]
    assert isinstance(ask, dict)
    assert ask["filler"] == sorted(question.EN_FILLER) and "what" in ask["filler"]
    assert ask["soft"] == sorted(question.EN_SOFT)
    assert "how many" in ask["quantity"] and ask["irregular"] == dict(question.EN_IRREGULAR)
    states = ask["signals"]["states"]
    assert states == [ranking.STATES_EN.pattern, "i", ranking.STATES]
    assert ask["factors"]["heading"] == candidates.HEADING
    assert ask["weights"] == dict(weights.LEARNED)
    zh = searchdata.query_words("zh")
    assert zh["filler"] == sorted(question.ZH_FILLER) and "吗" in zh["filler"]
    assert zh["signals"]["states"][0] == ranking.STATES_ZH.pattern


def test_the_pack_ships_how_often_each_rule_is_referred_to():
    """The citation prior the server ranks with goes into the pack's index, per rule number."""
    rules = [
        Rule("100.1", "rule", "Players can attack."),
        Rule("100.2", "rule", "See rule 100.1."),
        Rule("100.3", "rule", "As rule 100.1 says."),
    ]
    refs = [Reference("100.2", "100.1", "rule 100.1"), Reference("100.3", "100.1", "rule 100.1")]
    cited = searchdata.english_index(_doc("en", rules, [], refs))["cited"]
    assert cited == {"100.1": 2}


def test_the_pack_searches_each_rules_players_questions():
    """The players' questions written for a rule (crkb/search/asked.py) go into the pack's index
    beside its text, stemmed as the server stems them, with the server's factors for them."""
    from crkb.search import candidates

    rules = [
        Rule("100.1", "rule", "A player's hand holds the cards they have drawn."),
        Rule("100.2", "rule", "The active player discards down to seven cards."),
    ]
    doc = _doc("en", rules, [], [])
    index = searchdata.english_index(doc, [(), ("most cards a player may hold after a turn",)])
    asked = index["asked"]
    assert isinstance(asked, dict)
    assert asked["hold"] == [1, 1.0] and "discard" not in asked  # its questions, not its text
    assert index["askedlen"] == [0, 7.0]  # most, card, player, may, hold, after, turn
    factors = index["ask"]["factors"]  # type: ignore[index]
    assert factors["asked"] == candidates.ASKED_GAIN
    assert factors["askedPool"] == candidates.ASKED_POOL


@pytest.mark.archive
def test_the_default_packs_rules_carry_their_players_questions(pack: Path):
    for lang in ("en", "zh"):
        script = (pack / "data" / f"search-{lang}.js").read_text(encoding="utf-8")
        start = script.index(f".{lang}=") + len(lang) + 2
        data = json.loads(script[start : script.rindex(";")])
        with_questions = sum(1 for n in data["askedlen"] if n > 0)
        assert with_questions / len(data["docs"]) > 0.95, lang


# -- the other language's twin of a rule, across releases ---------------------------------------


def _twin_of(html: str, number: str) -> str | None:
    """Where the rule `number` of a section page links in the other language (None: no link)."""
    start = html.index(f'id="{number}"')
    end = html.find('class="r ', start)
    found = re.search(r'<a class="other" href="([^"]+)"', html[start : end if end > 0 else None])
    return found.group(1) if found else None


def _titled(store, version: str, lang: str, section: str, title: str) -> str:
    rules = store.document(version, lang).rules
    return next(r.number for r in rules if r.number.startswith(section + ".") and r.title == title)


@pytest.mark.archive
def test_twin_links_follow_the_renumbering_since_the_translation(pack: Path, store):
    info = json.loads((pack / "crkb-pack.json").read_text())
    en_v, zh_v = info["versions"]["en"], info["versions"]["zh"]
    assert en_v > zh_v  # the newest English beside an older translation
    counter = _titled(store, en_v, "en", "701", "Counter")
    fanji = _titled(store, zh_v, "zh", "701", "反击")
    assert counter != fanji  # renumbered since the translation (701.6 and 701.5)
    en = (pack / "en" / "701.html").read_text()
    zh = (pack / "zh" / "701.html").read_text()
    assert _twin_of(en, counter) == f"../zh/701.html#{fanji}"
    assert _twin_of(zh, fanji) == f"../en/701.html#{counter}"
    # the Chinese rule under Counter's English number is another rule: it links elsewhere
    assert _twin_of(zh, counter) not in (None, f"../en/701.html#{counter}")
    for lang, mine, theirs in (("en", counter, f"../zh/701.html#{fanji}"), ("zh", fanji, None)):
        keywords = (pack / lang / "keywords.html").read_text().splitlines()
        line = next(x for x in keywords if f'href="701.html#{mine}"' in x)
        twin = re.search(r'class="other" href="([^"]+)"', line)
        assert twin and twin.group(1) == (theirs or f"../en/701.html#{counter}"), line


@pytest.mark.archive
def test_a_rule_added_since_the_translation_has_no_twin(pack: Path, store):
    from crkb.diff.lookup import number_in

    info = json.loads((pack / "crkb-pack.json").read_text())
    en_v, zh_v = info["versions"]["en"], info["versions"]["zh"]
    zh_numbers = {r.number for r in store.document(zh_v, "zh").rules}
    # keywords printed since the translation (Behold, Triple, …) under a number that is
    # another rule's there: linking by number would show that other rule
    added = [
        r.number
        for r in store.document(en_v, "en").rules
        if r.number[:4] in ("701.", "702.")
        and r.title
        and r.number in zh_numbers
        and number_in(store, r.number, en_v, zh_v) is None
    ]
    assert added
    for n in added:
        sec = n.split(".")[0]
        assert _twin_of((pack / "en" / f"{sec}.html").read_text(), n) is None, n
        keywords = (pack / "en" / "keywords.html").read_text().splitlines()
        line = next(x for x in keywords if f'href="{sec}.html#{n}"' in x)
        assert 'class="other"' not in line, line


def test_twin_numbers_pair_two_releases_both_ways():
    from crkb.export import pack as packing
    from crkb.export import pages

    class Built:  # what a build kept: the English release's numbers in its translation's
        def step_result(self, key: str) -> object:
            assert key == "zh-numbers:2025-01-01"
            return {"100.2": "100.3", "100.3": None, "100.4": "100.2"}

    versions = {"en": "2025-01-01", "zh": "2024-01-01"}
    twins = packing.twin_numbers(Built(), versions)  # type: ignore[arg-type]
    # English 100.2 is the translation's 100.3; 100.3 was added; 100.4 is its 100.2; and the
    # translation's 100.4 (no English rule maps to it) was removed since
    assert twins["en"] == {"100.2": "100.3", "100.3": None, "100.4": "100.2"}
    assert twins["zh"] == {"100.3": "100.2", "100.2": "100.4", "100.4": None}
    assert packing.twin_numbers(Built(), {"en": "2024-01-01", "zh": "2024-01-01"}) == {}  # type: ignore[arg-type]

    def text(lang: str, version: str, numbers: list[str]) -> pages.Text:
        rules = [Rule("100", "section", "General", "General")]
        rules += [Rule(n, "rule", f"{lang} {n}", parent="100") for n in numbers]
        doc = Document(
            lang=lang,
            version=version,
            source="x",
            format="txt",
            rules=rules,
            glossary=[],
            references=[],
        )
        return pages.make_text(doc)

    en = text("en", "2025-01-01", ["100.1", "100.2", "100.3", "100.4"])
    zh = text("zh", "2024-01-01", ["100.1", "100.2", "100.3", "100.4"])
    en.twins, zh.twins = twins["en"], twins["zh"]
    en_html = pages.section_page(en, en.sections[0], zh, None, None)
    zh_html = pages.section_page(zh, zh.sections[0], en, None, None)
    assert _twin_of(en_html, "100.1") == "../zh/100.html#100.1"  # not renumbered
    assert _twin_of(en_html, "100.2") == "../zh/100.html#100.3"
    assert _twin_of(en_html, "100.3") is None
    assert _twin_of(en_html, "100.4") == "../zh/100.html#100.2"
    assert _twin_of(zh_html, "100.2") == "../en/100.html#100.4"
    assert _twin_of(zh_html, "100.3") == "../en/100.html#100.2"
    assert _twin_of(zh_html, "100.4") is None
