"""The 1999 to May 2009 layouts of the official English rules: counts, examples, wrapping, slips."""

from __future__ import annotations

from pathlib import Path

import pytest

from crkb.errors import NotARulesDocument
from crkb.sources.decode import decode
from crkb.sources.reader import read_bytes, read_file

LEGACY_FILES = [
    "1999-04-23", "1999-11-01", "2001-07-23", "2001-09-24", "2002-02-20", "2002-10-07",
    "2003-03-15", "2003-07-01", "2003-10-01", "2003-12-01", "2004-02-01", "2004-06-01",
    "2004-10-01", "2005-02-01", "2005-08-01", "2005-10-01", "2006-02-01", "2006-05-01",
    "2006-06-01", "2006-07-15", "2006-10-01", "2007-02-01", "2007-05-01", "2007-07-13",
    "2007-09-07", "2007-10-01", "2008-02-01", "2008-05-01", "2008-07-15", "2008-10-01",
    "2009-02-01", "2009-05-01",
]  # fmt: skip


def doc(archive: Path, name: str):
    """The one English document of a legacy release."""
    result = read_file(archive / "en" / "txt" / f"{name}.txt")
    assert result.format == "legacy-txt"
    assert len(result.documents) == 1
    return result.documents[0]


# Independent tallies, made at the shell (not with the parser), for each file F:
#   sed 's/\r$//' F | tr '\r' '\n' | awk '
#     /^ *100\.1\.? / && !body && !done {body=1}
#     body && /^ *Glossary *$/ {body=0; gloss=1; done=1; prev=""; next}
#     gloss && /^ *(Index|Credits) *$/ {gloss=0}
#     body && /^ *[0-9][0-9][0-9]\.[0-9]+\.? ?[^ ,;:)a-z0-9]/ \
#          && (prev ~ /^[ -]*$/ || prev ~ /^ *[0-9][0-9][0-9]\.[0-9]/) {r++}
#     body && /^ *[0-9][0-9][0-9]\.( [0-9]+|[0-9]*)[a-z]+\.? [^ ,;:)a-z]/ \
#          && (prev ~ /^[ -]*$/ || prev ~ /^ *[0-9][0-9][0-9]\.[0-9]/) {s++}
#     body && /^ *(EXAMPLE|Example) *:/ {e++}
#     gloss && /^[^ \t0-9-]/ && prev ~ /^[ -]*$/ {g++}
#     {prev=$0}
#     END {print r, s, e, g}'                                  # rules subrules examples glossary
#   sed 's/\r$//' F | tr '\r' '\n' | grep -aE '^ *[0-9]{3}\.? +[[A-Z]' | grep -av '\.\.\.' \
#     | grep -aoE '^ *[0-9]{3}' | tr -d ' ' | sort -u | wc -l   # sections
# (A wrapped line that starts with a number, "212.2c).", follows a non-blank line or has
# punctuation after the number; section numbers are counted once across contents and body.
# "606. 8b" (2005-08-01 to 2007-05-01), a space after the dot, is a subrule: the "( [0-9]+" above.)
COUNTS = {
    # name: (sections, rules, subrules, examples, glossary)
    "1999-04-23": (63, 196, 151, 36, 175),
    "1999-11-01": (63, 201, 155, 37, 188),
    "2001-07-23": (66, 245, 229, 62, 205),
    "2002-10-07": (66, 254, 246, 61, 214),
    "2003-10-01": (69, 319, 367, 89, 299),
    "2004-06-01": (69, 323, 375, 95, 307),
    "2005-08-01": (81, 389, 491, 136, 339),
    "2007-05-01": (85, 455, 617, 164, 373),
    "2008-10-01": (85, 486, 688, 165, 398),
    "2009-05-01": (85, 491, 698, 166, 403),
}


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_counts_match_independent_tallies(archive: Path, name: str):
    c = doc(archive, name).counts()
    got = (c["sections"], c["rules"], c["subrules"], c["examples"], c["glossary"])
    assert got == COUNTS[name]


def test_every_legacy_file_parses(archive: Path):
    for name in LEGACY_FILES:
        d = doc(archive, name)
        kinds = {r.kind for r in d.rules}
        assert kinds == {"chapter", "section", "rule", "subrule"}, name
        assert [r.number for r in d.rules if r.kind == "chapter"][:5] == list("12345"), name
        assert not d.flags.get("truncated"), name
        assert d.glossary and d.credits and d.contents and d.intro, name
        assert not any(w.startswith("line") and "before the first rule" in w for w in d.warnings)


def test_rulings_summary_is_refused(archive: Path):
    with pytest.raises(NotARulesDocument, match="rulings summary"):
        read_file(archive / "en" / "txt" / "1999-04-21.txt")


def test_a_file_under_the_wrong_date_is_filed_under_its_stated_release(archive: Path):
    d = doc(archive, "2006-06-01")
    assert (d.version, d.alias) == ("2004-06-01", "2006-06-01")


def test_first_strike(archive: Path):
    rules = doc(archive, "2009-05-01").rule_map()
    assert rules["502.2"].title == "First Strike"
    assert rules["502.2a"].text.startswith("First strike is a static ability")
    assert rules["502.2a"].parent == "502.2"


def test_every_example_is_kept(archive: Path):
    rules = doc(archive, "2009-05-01").rule_map()
    # 418.5b, 503.3 and 600.4a. each have four "Example:" lines in the source.
    for number in ("418.5b", "503.3", "600.4a"):
        assert len(rules[number].examples) == 4, number
    assert rules["418.5b"].examples[0].startswith('An effect that reads "Wild Mongrel')
    assert not any(e.startswith("Example") for r in rules.values() for e in r.examples)


def test_sections_and_chapters_have_titles(archive: Path):
    for name in ("1999-04-23", "1999-11-01", "2003-10-01", "2009-05-01"):
        d = doc(archive, name)
        for r in d.rules:
            if r.kind in ("chapter", "section"):
                emptied = "section is now empty" in r.text or "intentionally left blank" in r.text
                assert r.title or emptied, (name, r.number)
        rules = d.rule_map()
        assert rules["1"].title == "The Game" and rules["100"].title == "General"


def test_wrapped_lines_are_joined(archive: Path):
    d = doc(archive, "1999-04-23")
    assert d.flags.get("wrapped") is True
    rules = d.rule_map()
    assert rules["314.1b"].text == (
        'Then, simultaneously, all damage is removed from permanents and all "until end of '
        'turn" and "this turn" effects end. This action doesn\'t go on the stack.'
    )
    assert rules["214.6"].title == "Artifacts"
    assert rules["214.7a"].examples == [
        'Merfolk or Wizard is acceptable, but not Merfolk Wizard. Words like "opponent" or '
        '"swamp" can\'t be chosen because they have other meanings in the game.'
    ]
    ability = next(g for g in d.glossary if g.term == "Ability")
    assert ability.text.count("\n") == 1  # two paragraphs, blank-line separated in the source
    # A line broken after a compound's hyphen joins without a space.
    d2 = doc(archive, "2001-07-23")
    assert '"at end of turn"-triggered abilities' in d2.rule_map()["313.1"].text
    assert "\n" not in d2.rule_map()["212.2a"].text  # "212.2c)." inside it is a reference
    assert not doc(archive, "2009-05-01").flags.get("wrapped")
    # A line broken after a minus sign joins without a space; a suspended hyphen keeps it.
    d3 = doc(archive, "2004-02-01")
    assert 'target creature gets -1/-1 until end of turn."' in d3.rule_map()["415.1"].examples[0]
    assert "power- and toughness-changing" in d3.rule_map()["418.5b"].examples[0]


def test_unwrapped_text_is_the_source_line_minus_its_number(archive: Path):
    for name in ("1999-11-01", "2005-08-01", "2009-05-01"):
        path = archive / "en" / "txt" / f"{name}.txt"
        lines = decode(path.read_bytes()).text.split("\n")
        for r in doc(archive, name).rules:
            first = r.text.split("\n")[0]
            assert first and lines[r.line - 1].endswith(first), (name, r.number)


def test_publisher_slips(archive: Path):
    d = doc(archive, "1999-11-01")
    rules = d.rule_map()
    assert rules["305.3"].text.startswith("The main phase begins")  # "305.3.The"
    assert rules["408.2f"].text.startswith("Card text that isn't an ability")  # "408.f"
    assert any("408.f read as 408.2f" in w for w in d.warnings)
    senses = next(g for g in d.glossary if g.term == "Draw").senses
    assert len(senses) == 2 and senses[1].startswith("A game ends in a draw")


def test_truncated_document_is_flagged(archive: Path):
    data = (archive / "en" / "txt" / "2009-05-01.txt").read_bytes()
    d = read_bytes(data[: len(data) // 2], "2009-05-01.txt").documents[0]
    assert d.flags.get("truncated") is True
    assert any("truncated" in w for w in d.warnings)
    assert d.counts()["rules"] > 100 and not d.glossary
