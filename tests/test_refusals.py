"""What is not a rules document is refused in one line; other languages are named only for rules.

A text in a language crkb does not store is reported by name ("a rules text in Malay") only when
it looks like a rules document: enough lines that start with a rule number. Prose that merely
reads as French, or a JSON file whose short words read as Portuguese, is refused like any other
file that holds no rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crkb.cli import main
from crkb.sources.language import name_language
from crkb.sources.reader import read_bytes, read_file
from crkb.sources.webcopy import MIN_FOREIGN_RULES
from tests.conftest import ROOT

FRENCH_PROSE = (
    "Le chat\n\nLe chat est un animal domestique qui vit dans la maison. Il aime dormir au "
    "soleil et manger des croquettes. Les chats sont des animaux très indépendants, mais ils "
    "aiment aussi la compagnie de leur maître.\n"
)
PORTUGUESE_PROSE = (
    "O gato é um animal que vive em casa com a família. Ele gosta de dormir ao sol e de comer "
    "peixe. Os gatos são animais independentes, mas gostam da companhia dos donos.\n"
) * 3
FRENCH_RULE = "Le joueur qui contrôle la carte peut la jouer pendant son tour, selon la règle."


def french_rules(count: int, bullet: str = "") -> str:
    """A French copy of section 901 with `count` numbered rules (bulleted like a wiki list)."""
    lines = [
        f"{bullet}901.{i}. {FRENCH_RULE} Voir la règle 901.{i + 1}." for i in range(1, count + 1)
    ]
    return "901. Planechase\n\n" + "\n".join(lines) + "\n\n" + FRENCH_PROSE


def parse_cli(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """`crkb parse FILE --json` in process: exit code, stdout, stderr."""
    code = main(["parse", str(path), "--json"])
    out = capsys.readouterr()
    return code, out.out, out.err


def assert_refused(path: Path, code: int, err: str, reason: str) -> None:
    lines = err.strip().split("\n")
    assert code == 2 and len(lines) == 1, err
    assert str(path) in lines[0] and f"not a rules document: {reason}" in lines[0]


@pytest.mark.parametrize(
    ("text", "language"),
    [(FRENCH_PROSE, "French"), (PORTUGUESE_PROSE, "Portuguese")],
    ids=["french", "portuguese"],
)
def test_prose_in_another_language_is_not_a_rules_text(tmp_path, capsys, text, language):
    assert name_language(text) == language  # named, yet no rules text: it must be refused
    path = tmp_path / "cat.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = parse_cli(path, capsys)
    assert_refused(path, code, err, "no numbered rules found")
    assert out == "" and language not in err


@pytest.mark.parametrize("where", ["archive", "project"], ids=["archive-manifest", "releases-json"])
def test_the_manifests_are_not_rules_texts(request, capsys, where):
    if where == "archive":
        path = request.getfixturevalue("archive") / "MANIFEST.json"
    else:
        path = ROOT / "corpus" / "releases.json"
    code, _out, err = parse_cli(path, capsys)
    assert_refused(path, code, err, "no numbered rules found")
    assert "Portuguese" not in err


def test_a_few_numbered_lines_do_not_make_a_rules_text(tmp_path, capsys):
    path = tmp_path / "few.txt"
    path.write_text(french_rules(MIN_FOREIGN_RULES - 1), encoding="utf-8")
    code, _out, err = parse_cli(path, capsys)
    assert_refused(path, code, err, f"only {MIN_FOREIGN_RULES - 1} numbered rules found")


@pytest.mark.parametrize("bullet", ["", "  • "], ids=["plain", "bulleted"])
def test_a_copy_with_enough_numbered_rules_is_named_and_not_stored(tmp_path, capsys, bullet):
    path = tmp_path / "fr.txt"
    path.write_text(french_rules(MIN_FOREIGN_RULES, bullet), encoding="utf-8")
    assert main(["parse", str(path)]) == 2  # named, and no rules read from it
    err = capsys.readouterr().err.strip().split("\n")
    assert len(err) == 1 and str(path) in err[0]
    assert "a rules text in French (recognised, not stored" in err[0]
    result = read_file(path)
    assert result.language == "French" and result.documents == []


def test_glued_letters_are_a_garbled_copy_only_when_they_read_as_rules(tmp_path, capsys):
    dna = tmp_path / "genome.fa"
    dna.write_text(">chr1\n" + ("GATTACACCGTAGGCTTAAACGTACGGTACCAT" * 4 + "\n") * 30)
    code, _out, err = parse_cli(dna, capsys)
    assert_refused(dna, code, err, "no numbered rules found")
    glued = "Aplayermaycastaninstantspellanytimeheorshehaspriorityandthestackisempty"
    copy = read_bytes(f"万智牌规则\n\n{glued}。\n".encode() * 20, "copy.txt")
    assert copy.garbled and copy.documents == []


@pytest.mark.archive
@pytest.mark.parametrize(
    "name",
    ["zh/markdown/2024-04-10/index.md", "zh/dokuwiki/2021-09-24/credits.txt"],
    ids=["markdown-index", "dokuwiki-credits"],
)
def test_pages_of_a_rules_site_are_still_read_empty(archive, name):
    result = read_file(archive / name)
    assert result.documents == [] and result.language is None and not result.garbled
    assert any("a page of a rules site with no rules on it" in w for w in result.warnings)
