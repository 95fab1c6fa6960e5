"""A glossary term is suggested and linked only where the text uses it as the game term: not a
different inflection of its stem ("may limit" is not the format Limited) and, for an adjective the
glossary defines by what it qualifies ("A modified creature is a creature …"), only before that
("modified permanents"), not as the everyday verb ("are modified by the Tournament Rules")."""

from __future__ import annotations

from pathlib import Path

from crkb.carry.draft import worklist_md
from crkb.carry.release import forward
from crkb.carry.rules import carry
from crkb.checks.translation import TermIndex
from crkb.graph.term_matching import glossary_anchors, longest_first, term_uses
from crkb.model import Document, GlossaryEntry, Rule
from crkb.store.db import DB_NAME, Store
from crkb.store.location import current_build

GLOSSARY = [
    ("Card", "The standard component of the game."),
    ("Copy", "1. To create a new object whose copiable values have been set to those of another."),
    ("Creature", "A card type. A creature is a permanent. See rule 302, “Creatures.”"),
    ("Deck", "The collection of cards a player starts the game with."),
    ("Limited", "A way of playing in which each player gets a quantity of unopened product."),
    ("Modified", "A modified creature is a creature that has a counter on it. See rule 700.9."),
    ("Offering", "A keyword ability that modifies when you can cast a spell."),
    ("Permanent", "A card or token on the battlefield. See rule 110, “Permanents.”"),
]
NAMES = {
    "Card": "牌",
    "Copy": "复制",
    "Creature": "生物",
    "Deck": "套牌",
    "Limited": "限制赛",
    "Modified": "有饰装的",
    "Offering": "献祭",
    "Permanent": "永久物",
}


def _links(text: str) -> dict[str, str]:
    """Linked words → glossary anchor, as a rule page links them."""
    anchors, _texts = glossary_anchors(GLOSSARY, "en")
    pattern = longest_first(anchors, "en")
    return {text[a:b]: t for a, b, t in term_uses(text, pattern, anchors, set())}


def test_everyday_modified_and_limited_are_not_links() -> None:
    assert _links("Formats are modified by the Tournament Rules and limited to sixty.") == {}
    assert _links("It uses a modified rule, for a limited duration.") == {}


def test_the_game_terms_are_links_and_the_noun_after_them_still_is() -> None:
    links = _links("Costs are modified by effects. Some effects refer to modified permanents.")
    assert links == {"modified": "g-modified", "permanents": "g-permanent"}
    assert _links("A modified creature is a creature.")["modified"] == "g-modified"
    assert _links("In limited play, a limited deck.") == {
        "limited": "g-limited",
        "deck": "g-deck",
    }
    assert _links("A Limited format")["Limited"] == "g-limited"


def test_a_term_is_not_met_by_another_inflection_of_its_stem() -> None:
    index = TermIndex([t for t, _ in GLOSSARY])
    found = index.find("These rules may limit it; a card was offered; it copies one.")
    assert set(found) == {"Card", "Copy"}  # base forms still inflect: copies → Copy
    found = index.find("In a limited game, offerings and the card’s copy.")
    assert set(found) == {"Limited", "Offering", "Card", "Copy"}


def _doc(lang: str, version: str, rules: list[tuple[str, str]]) -> Document:
    return Document(
        lang,  # type: ignore[arg-type]
        version,
        f"{version}-{lang}.txt",
        "txt",
        rules=[Rule(n, "rule", t, parent="100") for n, t in rules],
        glossary=[GlossaryEntry(t, x) for t, x in GLOSSARY] if lang == "en" else [],
    )


def test_the_worklist_suggests_only_the_terms_the_new_text_uses() -> None:
    en_old = _doc("en", "2024-01-01", [("100.4", "Each player may have a sideboard.")])
    zh_old = _doc("zh", "2024-01-01", [("100.4", "每位牌手可以拥有备牌。")])
    en_new = _doc(
        "en",
        "2024-06-01",
        [
            ("100.4", "Each player may have a sideboard. Sideboards are modified by formats."),
            ("100.6", "These rules may limit the use of some cards."),
            ("700.9", "Some effects refer to modified permanents. In limited play, copies."),
        ],
    )
    c = carry(en_old, zh_old, en_new, {"100.4": "100.4"}, NAMES)
    terms = {r.number: {t["en"] for t in r.terms} for r in c.rules}
    assert terms["100.4"] == set()
    assert terms["100.6"] == {"Card"}
    assert terms["700.9"] == {"Copy", "Limited", "Modified", "Permanent"}
    md = worklist_md(c)
    assert "Modified = 有饰装的; Permanent = 永久物" in md
    assert md.count("Modified =") == 1 and md.count("Limited =") == 1


def test_the_real_worklist_and_rule_pages(archive_build: Path, client) -> None:
    """2024-04-10's translation carried to the newest English release: 100.4's added "are
    modified by the … Tournament Rules" and 100.6's "may limit the use" suggest neither term,
    and the rule pages link neither word; 700.9's "modified permanents" is both."""
    from bs4 import BeautifulSoup

    store = Store(current_build(archive_build) / DB_NAME)
    c = forward(store, "2024-04-10", "latest")
    terms = {r.number: {t["en"] for t in r.terms} for r in c.rules if r.number}
    assert "Sideboard" in terms["100.4"] and "Modified" not in terms["100.4"]
    assert "Tournament Rules" in terms["100.6"] and "Limited" not in terms["100.6"]

    def links(number: str) -> dict[str, str]:
        page = BeautifulSoup(client.get(f"/rules/{number}?lang=en").data, "html.parser")
        text = page.find(id=f"en-{number}").select_one("p.text")
        return {a.get_text(): a["href"].partition("#")[2] for a in text.select("a.term")}

    assert "g-modified" not in links("100.4").values()
    assert "g-limited" not in links("603.6c").values()  # "aren't limited to"
    assert links("700.9")["modified"] == "g-modified"
    assert links("100.4b")["limited"] == "g-limited"  # "In limited play"
