"""The real archive: counts against independent tallies, text fidelity, version identity."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from crkb.sources.decode import decode
from tests.conftest import parsed

# Independent tallies of the source text, made with shell tools, not with crkb's parser:
#   body()  { perl -0777 -pe 's/\r\n?/\n/g; s/^\xEF\xBB\xBF//' < "$1" | awk '/^1\. /{c++} c>=2' \
#             | awk '/^(Glossary|词汇表)$/{exit} {print}'; }
#   sections: body F | grep -cE '^ ?[0-9]{3}\. '
#   rules:    body F | grep -cE '^ ?[0-9]{3}\.[0-9]+([^0-9a-z]|$)'
#   subrules: body F | grep -cE '^ ?[0-9]{3}\.[0-9]+[a-z]'
#   examples: body F | grep -cE '^ ?Example:'      (Chinese: '^ ?例如：')
#   glossary: perl … F | awk '/^1\. /{c++} c>=2' | awk '/^(Glossary|词汇表)$/{f=1}
#             /^(Credits|版权信息)$/{if(f)exit} f' | awk 'BEGIN{RS=""} END{print NR-1}'
TALLIES = [
    ("en/txt/2009-09-04.txt", 108, 684, 864, 189, 419),
    ("en/txt/2010-06-18.txt", 119, 766, 963, 201, 441),
    ("en/txt/2011-09-30.txt", 123, 819, 1046, 217, 460),
    ("en/txt/2012-10-01.txt", 124, 836, 1072, 220, 470),
    ("en/txt/2014-07-18.txt", 126, 862, 1141, 223, 494),
    ("en/txt/2015-07-17.txt", 126, 869, 1171, 226, 503),
    ("en/txt/2017-04-28.txt", 129, 909, 1291, 243, 531),
    ("en/txt/2018-06-08.txt", 130, 933, 1351, 243, 543),
    ("en/txt/2019-10-04.txt", 132, 965, 1421, 248, 562),
    ("en/txt/2020-09-25.txt", 133, 982, 1494, 252, 576),
    # plus the one entry written with no blank line before it ("Affinity", under Adventurer Card)
    ("en/txt/2021-11-15.txt", 137, 1024, 1593, 265, 612 + 1),
    ("en/txt/2023-06-16.txt", 142, 1093, 1760, 274, 659),
    ("en/txt/2024-04-10.txt", 144, 1115, 1847, 277, 681),
    ("en/txt/2025-07-25.txt", 146, 1147, 1932, 276, 715),
    # less the 2 blocks of its appendix of provisional names (暂译名称列表), no glossary entries
    ("zh/txt/2022-06-10.txt", 138, 1037, 1631, 266, 629 - 2),
    ("zh/txt/2023-10-13.txt", 142, 1097, 1791, 276, 664),
    ("zh/txt/2024-02-06.txt", 143, 1108, 1829, 276, 673),
    ("zh/txt/2024-04-10.txt", 144, 1115, 1847, 277, 681),
]


@pytest.mark.parametrize(("name", "sections", "rules", "subrules", "examples", "glossary"), TALLIES)
def test_counts_equal_independent_tallies(
    archive, name, sections, rules, subrules, examples, glossary
):
    (doc,) = parsed(str(archive / name)).documents
    assert doc.counts() == {
        "sections": sections,
        "rules": rules,
        "subrules": subrules,
        "examples": examples,
        "glossary": glossary,
    }


# "702. 37a" (July 2009): the publisher's space after the section's dot is part of the number.
_NUM = re.compile(r"^ ?\d{3}\. ?\d+[a-z]{0,2}\.? *")  # the number and every space after it


def _modern_files(archive: Path) -> list[Path]:
    files = sorted((archive / "en" / "txt").glob("*.txt")) + sorted(
        (archive / "zh" / "txt").glob("*.txt")
    )
    return [p for p in files if p.stem >= "2009-07-08"]


def test_every_modern_rule_text_equals_its_source_line(archive):
    """Over every modern release: a rule's first line is its source line minus the number (and the
    spaces after it), exactly;
    every further line of its text, and every example, is a line of the source too."""
    checked = 0
    for path in _modern_files(archive):
        lines = decode(path.read_bytes()).text.split("\n")
        (doc,) = parsed(str(path)).documents
        for rule in doc.rules:
            if rule.kind not in ("rule", "subrule"):
                continue
            source = lines[rule.line - 1]
            first, *rest = rule.text.split("\n")
            assert _NUM.sub("", source, count=1) == first, (path.name, rule.number)
            following = lines[rule.line : rule.line + 40]
            for extra in rest:
                assert extra in following, (path.name, rule.number, extra)
            for ex in rule.examples:
                assert any(ln.endswith(ex.split("\n")[0]) for ln in following), (
                    path.name,
                    rule.number,
                )
            checked += 1
    assert checked > 150_000


def test_no_body_line_is_lost(archive):
    """Every non-blank line between the first chapter and the glossary lands in some rule."""
    for path in _modern_files(archive)[-3:]:
        (doc,) = parsed(str(path)).documents
        kept = set()
        for r in doc.rules:
            kept.update(r.text.split("\n"))
            for ex in r.examples:
                kept.update(ex.split("\n"))
        lines = decode(path.read_bytes()).text.split("\n")
        start = min(r.line for r in doc.rules) - 1
        end = max(r.line for r in doc.rules)
        for ln in lines[start:end]:
            if ln.strip():
                body = re.sub(r"^ ?(?:\d{1,3}\.(?:\d+[a-z]*)?\.? ?|Example: |例如：)", "", ln)
                assert body in kept or ln.strip() in kept, (path.name, ln[:60])


def test_examples_four_or_more_are_all_attached(archive):
    (doc,) = parsed(str(archive / "en/txt/2024-04-10.txt")).documents
    many = [r for r in doc.rules if len(r.examples) >= 4]
    assert many, "some rules have four or more examples"
    source = decode((archive / "en/txt/2024-04-10.txt").read_bytes()).text
    assert sum(len(r.examples) for r in doc.rules) == len(re.findall(r"^Example:", source, re.M))


def test_version_identity(archive):
    cases = {
        "en/txt/2024-04-10.txt": ("2024-04-12", "2024-04-10"),
        "zh/txt/2024-04-10.txt": ("2024-04-12", "2024-04-10"),
        "en/txt/2009-07-08.txt": ("2009-07-11", "2009-07-08"),
        "en/txt/2025-07-25.txt": ("2025-07-25", None),
    }
    for name, (version, alias) in cases.items():
        (doc,) = parsed(str(archive / name)).documents
        assert (doc.version, doc.alias) == (version, alias), name


def test_known_references_resolve(archive):
    (doc,) = parsed(str(archive / "en/txt/2024-04-10.txt")).documents
    refs = {(r.source, r.target): r for r in doc.references}
    assert ("115.3", "115.7") in refs
    stale = refs[("502.2", "727")]
    assert stale.title == "Day and Night" and stale.stale
    (zh,) = parsed(str(archive / "zh/txt/2024-04-10.txt")).documents
    assert ("115.3", "115.6") in {(r.source, r.target) for r in zh.references}
