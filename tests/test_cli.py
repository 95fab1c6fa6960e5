"""The command line as a user meets it: build, versions, parse, show; wrong files; atomic builds."""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from crkb.cli import main
from tests.conftest import SEEDS


def run(*args: str, data: Path | None = None) -> subprocess.CompletedProcess:
    """Run `python -m crkb` as a user would (separate process: real exit codes and stderr)."""
    cmd = [sys.executable, "-m", "crkb", *args]
    if data is not None and args[0] in ("build", "versions", "show"):
        cmd += ["--data", str(data)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def _synthetic_next_release(source: str) -> str:
    """The newest release, moved forward: a new section, a subrule after k, a new effective date."""
    text = source.replace(
        "These rules are effective as of July 25, 2025.",
        "These rules are effective as of March 6, 2026.",
    )
    new_section = (
        "733. Test Cards\n\n733.1. Test cards are a new kind of card.\n\n"
        "733.1a A test card has a test ability.\n\nExample: A test card is tested.\n\n"
        "733.1b Test abilities are described in rule 702.2m.\n\n"
    )
    text = text.replace(
        "8. Multiplayer Rules\n\n800. General", new_section + "8. Multiplayer Rules\n\n800. General"
    )
    last = max(re.findall(r"^702\.2([a-z]) ", text, re.M))
    extra = ""
    letters = "abcdefghijkmnpqrstuvwxyz"
    for letter in letters[letters.index(last) + 1 : letters.index("m") + 1]:
        extra += f"702.2{letter} Synthetic subrule {letter} of deathtouch.\n\n"
    anchor = re.search(rf"^702\.2{last} .*\n\n", text, re.M)
    assert anchor
    return text[: anchor.end()] + extra + text[anchor.end() :]


def test_next_release_parses_without_code_change(archive, tmp_path):
    raw = (
        (archive / "en/txt/2025-07-25.txt")
        .read_bytes()
        .decode("utf-8-sig")
        .replace("\r\n", "\n")
        .replace("\r", "\n")
    )
    path = tmp_path / "2026-03-06.txt"
    path.write_text(_synthetic_next_release(raw), encoding="utf-8")
    out = run("parse", str(path), "--json")
    assert out.returncode == 0, out.stderr
    (doc,) = json.loads(out.stdout)["documents"]
    assert doc["version"] == "2026-03-06"
    rules = {r["number"]: r for r in doc["rules"]}
    assert rules["733"]["kind"] == "section" and rules["733"]["title"] == "Test Cards"
    assert rules["733.1a"]["parent"] == "733.1"
    assert rules["733.1a"]["examples"] == ["A test card is tested."]
    assert rules["702.2m"]["text"] == "Synthetic subrule m of deathtouch."
    assert "702.2l" not in rules
    assert {
        "from": "733.1b",
        "to": "702.2m",
        "raw": "702.2m",
        "title": None,
        "dangling": False,
        "stale": False,
    } in doc["references"]
    assert doc["counts"]["sections"] == 147


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("empty.txt", b"", "empty file"),
        ("binary.txt", bytes(range(256)) * 40, "binary"),
        ("notes.txt", b"Shopping list\n\nMilk\nEggs\n" * 20, "no numbered rules"),
        ("oneline.txt", b"x" * 5_000_000, "line longer"),
    ],
    ids=["empty", "binary", "not-rules", "5MB-single-line"],
)
def test_wrong_files_get_one_line(tmp_path, name, content, reason):
    path = tmp_path / name
    path.write_bytes(content)
    out = run("parse", str(path))
    assert out.returncode == 2
    lines = out.stderr.strip().split("\n")
    assert len(lines) == 1 and str(path) in lines[0] and reason in lines[0]
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("seed", "reason"),
    [
        ("002", "a garbled copy (spaces and digits stripped by the copying site)"),
        ("003", "a rules text in Malay (recognised, not stored"),
    ],
    ids=["garbled", "malay"],
)
@pytest.mark.parametrize("json_out", [False, True], ids=["text", "json"])
def test_a_file_with_no_rules_to_read_is_refused_by_parse(seed, reason, json_out):
    """A garbled copy or a copy in another language yields no rules: exit 2, one line that names
    the file and says why, nothing on stdout."""
    path = next(SEEDS.rglob(f"{seed}_*.txt"))
    out = run("parse", str(path), *(["--json"] if json_out else []))
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().split("\n")
    assert len(lines) == 1 and str(path) in lines[0] and reason in lines[0], out.stderr


@pytest.mark.parametrize("encoding", ["utf-8", "big5"])
def test_a_translation_in_traditional_characters_is_named_not_stored(tmp_path, encoding):
    """The translation is kept, searched and checked in Simplified characters: the same text in
    Traditional ones (saved as UTF-8, or as Big5 in Taiwan) is named with a way to read it, and
    a build does not store it beside the Simplified one, nor under it."""
    import opencc

    simplified = Path(__file__).parent / "fixtures" / "parse" / "zh-2024-04-10.txt"
    text = simplified.read_text(encoding="utf-8-sig")
    traditional = tmp_path / "2024-04-10-traditional.txt"
    traditional.write_bytes(opencc.OpenCC("s2t").convert(text).encode(encoding, "replace"))
    assert run("parse", str(simplified)).returncode == 0  # the Simplified text is read
    out = run("parse", str(traditional))
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().split("\n")
    assert len(lines) == 1 and str(traditional) in lines[0], out.stderr
    assert "a rules text in Traditional Chinese (recognised, not stored" in lines[0]
    assert "Simplified characters" in lines[0] and "t2s" in lines[0]
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(simplified, corpus / "2024-04-10.txt")
    shutil.copy(traditional, corpus / "2024-04-10-tw.txt")
    data = tmp_path / "data"
    out = run("build", "--no-bundled", "--corpus", str(corpus), data=data)
    assert out.returncode == 0, out.stderr
    said = [
        ln for ln in out.stderr.split("\n") if "2024-04-10-tw.txt" in ln and "parse [" not in ln
    ]
    assert len(said) == 1 and "recognised, not stored" in said[0] and "Traditional" in said[0]
    shown = json.loads(run("show", "100.1", "--lang", "zh", "--json", data=data).stdout)
    assert shown["text"] in text  # the Simplified rule, as its source writes it


@pytest.mark.archive
def test_a_translations_rule_says_where_the_newest_english_numbers_it_otherwise(
    archive_build, client
):
    """722.1 of the 2024-04-12 translation (the monarch) is 724.1 of English 2025-07-25, whose
    722.1 is 720.1 in the translation: `show --lang zh` says so under the rule, its JSON and
    the API carry it; a number both number alike carries nothing."""
    out = run("show", "722.1", "--lang", "zh", data=archive_build)
    assert out.returncode == 0 and out.stdout.startswith("[2024-04-12 zh] 722.1 ")
    assert (
        "(this rule is 724.1 in the newest English release, 2025-07-25; its rule 722.1 is 720.1"
        " in this translation; `--lang both` pairs them)"
    ) in out.stdout.splitlines()
    shown = json.loads(run("show", "722.1", "--lang", "zh", "--json", data=archive_build).stdout)
    api = client.get("/api/rules/722.1?lang=zh").get_json()
    assert (
        shown["newer_english"]
        == api["newer_english"]
        == {
            "version": "2025-07-25",
            "number": "724.1",
            "its_rule_here": "720.1",
            "has_number": True,
        }
    )
    assert "newer_english" not in client.get("/api/rules/702.2?lang=zh").get_json()
    pinned = client.get("/api/rules/722.1?lang=zh&version=2024-04-12").get_json()
    assert "newer_english" not in pinned  # the release asked for, numbered as it is


@pytest.mark.archive
def test_search_takes_every_alias_a_release_has(archive_build, client):
    """A second copy's date is an alias of its release (2009-07-08 of 2009-07-11): search
    takes it as every other command does."""
    versions = json.loads(run("versions", "--json", data=archive_build).stdout)["versions"]
    second = [
        (a, v["id"]) for v in versions if v["flags"].get("duplicate_of") for a in v["aliases"]
    ]
    assert len(second) >= 3
    for alias, vid in second:
        args = ["trample", "--version", alias, "--json", "--data", str(archive_build)]
        out = run("search", *args)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["version"] == vid
        api = client.get(f"/api/search?q=trample&version={alias}")
        assert api.status_code == 200 and api.get_json()["version"] == vid


@pytest.mark.archive
def test_a_rule_a_translation_numbers_as_its_sibling_is_one_misnumbered_rule(archive_build):
    """The 2021-09-24 DokuWiki translation labels 702.19g's text 702.19e on the same page: the
    check reports that once, on 702.19g, with the text the translation numbers 702.19e, and
    neither a doubled 702.19e nor a missing 702.19g."""
    args = ["--version", "2021-09-24", "--chapter", "702.19", "--json"]
    out = run("check", *args, "--data", str(archive_build))
    found = {f["kind"]: f for f in json.loads(out.stdout)["findings"]}
    assert "missing_rule" not in found and "doubled_rule" not in found
    wrong = found["misnumbered_rule"]
    assert wrong["rule"] == "702.19g"
    assert wrong["detail"] == "rule 702.19g is numbered 702.19e in the translation"
    assert wrong["zh"] == (
        "同一个生物上的多个践踏异能并无意义。同一个生物上的多个践踏鹏洛客异能并无意义。"
    )
    assert wrong["en"].startswith("Multiple instances of trample on the same creature")
    text = run("check", "--version", "2021-09-24", "--data", str(archive_build)).stdout
    assert "702.19g  misnumbered_rule" in text


def test_a_build_of_nothing_usable_names_each_file_and_keeps_the_previous_build(tmp_path):
    """Every file of a corpus of junk is named with its reason, as a build that succeeds names
    the files it skips; the build fails in one last line, and the previous build keeps serving."""
    good = tmp_path / "good"
    good.mkdir()
    snippet = Path(__file__).parent / "fixtures" / "parse" / "en-2024-03-08-bom-cr.txt"
    (good / "2024-03-08.txt").write_bytes(snippet.read_bytes())
    data = tmp_path / "data"
    assert run("build", "--no-bundled", "--corpus", str(good), data=data).returncode == 0
    before = run("versions", "--json", data=data).stdout
    link = os.readlink(data / "current")
    junk = tmp_path / "junk"
    junk.mkdir()
    reasons = {
        "a.txt": (b"", "empty file"),  # names that do not say the reason
        "b.dat": (bytes(range(256)) * 40, "binary"),
        "c.txt": (b"Shopping list\n\nMilk\nEggs\n" * 20, "no numbered rules found"),
        "d.txt": (next(SEEDS.rglob("002_*.txt")).read_bytes(), "garbled copy"),
        "e.txt": (next(SEEDS.rglob("003_*.txt")).read_bytes(), "Malay"),
    }
    for name, (content, _reason) in reasons.items():
        (junk / name).write_bytes(content)
    out = run("build", "--no-bundled", "--corpus", str(junk), data=data)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    *said, last = out.stderr.strip().split("\n")
    for name, (_content, reason) in reasons.items():
        named = [ln for ln in said if str(junk / name) in ln and reason in ln]
        assert len(named) == 1, (name, out.stderr)
    assert last.startswith("crkb build: ") and str(junk) in last
    assert "no usable rules document found" in last and "5 file(s) not used" in last
    assert os.readlink(data / "current") == link
    assert run("versions", "--json", data=data).stdout == before


def test_missing_file_and_bad_arguments(tmp_path):
    out = run("parse", str(tmp_path / "nope.txt"))
    assert out.returncode == 2 and "nope.txt" in out.stderr and "no such file" in out.stderr
    out = run("show", "not-a-rule", data=tmp_path)
    assert (
        out.returncode == 2
        and "not-a-rule" in out.stderr
        and len(out.stderr.strip().split("\n")) == 1
    )
    out = run("versions", data=tmp_path / "empty")
    assert out.returncode == 2 and "crkb build" in out.stderr
    out = run("frobnicate")
    assert out.returncode == 2 and len(out.stderr.strip().split("\n")) == 1


def test_build_lists_every_distinct_release_once(archive, archive_build, capsys):
    assert main(["versions", "--json", "--data", str(archive_build)]) == 0
    versions = json.loads(capsys.readouterr().out)["versions"]
    ids = [v["id"] for v in versions]
    assert len(ids) == len(set(ids))
    # Independently: the dates the official files state about themselves.
    stated = set()
    pattern = re.compile(
        r"(?:effective|current) as of ([A-Z][a-z]+ \d{1,2}, \d{4})"
        r"|(\d{4})年(\d{1,2})月(\d{1,2})日起生效"
    )
    from datetime import datetime

    for path in sorted((archive / "en" / "txt").glob("*.txt")) + sorted(
        (archive / "zh" / "txt").glob("*.txt")
    ):
        raw = path.read_bytes()
        text = (
            raw.decode("utf-16") if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else raw.decode("latin-1")
        )
        m = pattern.search(text)
        if path.stem >= "2009-07-08" and m and m.group(1):
            stated.add(datetime.strptime(m.group(1), "%B %d, %Y").date().isoformat())
    modern = {i for i in ids if i >= "2009-07-08"}
    assert stated <= modern
    by_id = {v["id"]: v for v in versions}
    assert "2009-07-08" in by_id["2009-07-11"]["aliases"]
    assert "2017-09-25" in by_id["2017-09-29"]["aliases"]
    assert by_id["2024-04-12"]["langs"] == ["en", "zh"]
    assert by_id["2024-04-12"]["counts"]["zh"]["rules"] == 1115
    assert "duplicate_of" in by_id["2009-10-01"]["flags"]
    assert len(versions[0]["sources"]) >= 1


def test_show_rule_with_children_examples_and_references(archive_build, capsys):
    assert main(["show", "702.2", "--json", "--data", str(archive_build)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["title"] == "Deathtouch" and d["version"] == "2025-07-25"
    assert [c["number"] for c in d["children"]][:3] == ["702.2a", "702.2b", "702.2c"]
    assert (
        main(
            [
                "show",
                "rule 115.3",
                "--lang",
                "both",
                "--version",
                "2024-04-10",
                "--json",
                "--data",
                str(archive_build),
            ]
        )
        == 0
    )
    both = json.loads(capsys.readouterr().out)
    assert "115.7" in [r["to"] for r in both["en"]["references"]]
    assert "115.6" in [r["to"] for r in both["zh"]["references"]]
    assert main(["show", "704.5j", "--data", str(archive_build)]) == 0
    text = capsys.readouterr().out
    assert "704.5j" in text and "cited by" in text


def test_failed_build_leaves_previous_data_serving(archive_build, tmp_path):
    before = run("versions", "--json", data=archive_build)
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "a.txt").write_bytes(b"")
    (junk / "b.txt").write_bytes(b"not rules\n" * 10)
    out = run("build", "--no-bundled", "--corpus", str(junk), data=archive_build)
    assert out.returncode == 2 and "no usable rules document" in out.stderr
    after = run("versions", "--json", data=archive_build)
    assert after.stdout == before.stdout and after.returncode == 0


def test_strict_build_fails_on_a_bad_file(archive, tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "2024-04-10.txt").write_bytes((archive / "en/txt/2024-04-10.txt").read_bytes())
    (corpus / "broken.txt").write_bytes(b"\x00\x01" * 100)
    ok = run("build", "--no-bundled", "--corpus", str(corpus), data=tmp_path / "d1")
    assert ok.returncode == 0 and "skipped: " in ok.stderr and "broken.txt" in ok.stderr
    strict = run("build", "--no-bundled", "--corpus", str(corpus), "--strict", data=tmp_path / "d2")
    assert strict.returncode == 2 and "broken.txt" in strict.stderr
    assert not (tmp_path / "d2" / "current").exists()


def test_diff_history_search_check_commands(archive_build, capsys):
    data = ["--data", str(archive_build)]
    assert main(["diff", "2023-11-17", "2024-02-06", "--json", *data]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["from"] == "2023-11-17" and d["to"] == "2024-02-02"
    moves = {(c["old_number"], c["new_number"]) for c in d["changes"] if c["kind"] == "moved"}
    assert ("728.2", "729.2") in moves and ("701.34d", "701.34e") in moves
    assert d["summary"]["removed"] == 0
    assert main(["history", "702.7a", "--json", *data]) == 0
    h = json.loads(capsys.readouterr().out)
    assert {"version": "2009-05-01", "number": "502.2a"} in [
        {"version": r["version"], "number": r["number"]} for r in h["history"]
    ]
    assert main(["search", "rule 702.19c", "--json", *data]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["hits"][0]["number"] == "702.19c"
    assert main(["check", "--version", "2024-04-10", "--json", *data]) == 0
    c = json.loads(capsys.readouterr().out)
    assert c["version"] == "2024-04-12"
    assert any(f["rule"] == "115.3" and f["kind"] == "references" for f in c["findings"])
    first = c["findings"][0]["id"]
    assert main(["check", "--version", "2024-04-10", "--mark", f"{first}=false_alarm", *data]) == 0
    capsys.readouterr()
    assert main(["check", "--version", "2024-04-10", "--json", *data]) == 0
    again = json.loads(capsys.readouterr().out)
    assert first not in [f["id"] for f in again["findings"]]
    assert len(again["findings"]) == len(c["findings"]) - 1
    # with --all the marked one is listed with its verdict, and not counted open
    assert main(["check", "--version", "2024-04-10", "--all", "--json", *data]) == 0
    every = json.loads(capsys.readouterr().out)["findings"]
    marked = sum(1 for f in every if f["status"] != "open")
    assert main(["check", "--version", "2024-04-10", "--all", *data]) == 0
    head, *lines = capsys.readouterr().out.splitlines()
    assert marked >= 1 and len(every) == c["total"]
    assert (
        head
        == f"2024-04-12: {len(again['findings'])} open findings, {marked} marked of {c['total']}"
    )
    assert [ln.endswith("  [false_alarm]") for ln in lines if ln.startswith(first)] == [True]
    # the kinds counted are those listed; the marked ones are counted apart
    assert sum(again["counts"].values()) == len(again["findings"]) and again["marked"] == marked
    # a verdict is on this release's translation: the same finding of another is still open,
    # and a note is shown with its verdict
    assert main(["check", "--version", "2024-03-08", "--json", *data]) == 0
    older = json.loads(capsys.readouterr().out)
    shared = next(f["id"] for f in older["findings"] if f["id"] in {g["id"] for g in every})
    mark = ["check", "--version", "2024-04-10", "--mark", f"{shared}=reviewed"]
    assert main([*mark, "--note", "翻译组已知", *data]) == 0
    assert capsys.readouterr().out == f"{shared}: reviewed in 2024-04-12\n"
    assert main(["check", "--version", "2024-03-08", "--json", *data]) == 0
    assert shared in [f["id"] for f in json.loads(capsys.readouterr().out)["findings"]]
    assert main(["check", "--version", "2024-04-10", "--all", *data]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.endswith("  [reviewed: 翻译组已知]") for ln in lines if ln.startswith(shared)] == [
        True
    ]
    assert main(["check", "--version", "2024-04-10", "--all", "--json", *data]) == 0
    rows = json.loads(capsys.readouterr().out)["findings"]
    assert [f.get("note") for f in rows if f["id"] == shared] == ["翻译组已知"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["search", ""], "QUERY: empty"),
        (["search", "   "], "QUERY: empty"),
        # a pasted rule: refused as the API and the page refuse it, not searched cut short
        (["search", "trample " * 30], "the query is too long (at most 200 characters)"),
        (["check", "--kind", "bogus"], "kind must be one of missing_rule"),
    ],
)
def test_empty_searches_and_unknown_kinds_are_refused_in_one_line(
    archive_build, capsys, args, says
):
    assert main([*args, "--data", str(archive_build)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err


@pytest.mark.parametrize(
    ("args", "argument"),
    [
        (["diff", "", "2024-04-12"], "FROM"),
        (["diff", "2024-04-12", " "], "TO"),
        (["show", "100.1", "--version", ""], "--version"),
        (["forward", "--zh", "", "--en", "latest"], "--zh"),
    ],
)
def test_an_empty_release_is_refused_not_read_as_the_newest(args, argument):
    """An unset variable (`crkb diff "$FROM" …`) is a slip: refused in one line naming the
    argument, never answered about the newest release."""
    out = run(*args)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1
    assert f"argument {argument}: give a release id, an alias or latest, not nothing" in out.stderr


def test_show_both_reads_a_named_release_as_latest(archive_build, capsys):
    """`--version <the newest id>` is `--version latest`: with both languages, the newest
    translation stands beside it, under its own number for a renumbered rule (Counter)."""
    data = ["--data", str(archive_build)]
    assert main(["versions", "--json", *data]) == 0
    newest = json.loads(capsys.readouterr().out)["versions"][-1]["id"]
    answers = []
    for version in ("latest", newest):
        assert main(["show", "701.6", "--version", version, "--lang", "both", "--json", *data]) == 0
        answers.append(json.loads(capsys.readouterr().out))
    assert answers[0] == answers[1]
    assert (answers[1]["en"]["title"], answers[1]["zh"]["title"]) == ("Counter", "反击")


@pytest.mark.parametrize("lang", ["en", "both"])
def test_show_an_old_number_names_the_rules_number_in_the_release(archive_build, capsys, lang):
    """A judge types 502.9b from a 2009 printout: the one-line error names the rule's number in
    the release asked for, by its history, which is then shown."""
    data = ["--data", str(archive_build)]
    assert main(["history", "502.9b", "--version", "2009-05-01", "--json", *data]) == 0
    rows = json.loads(capsys.readouterr().out)["history"]
    then = {h["version"]: h["number"] for h in rows}["2015-01-23"]
    assert main(["show", "502.9b", "--version", "2015-01-23", "--lang", lang, *data]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"the rule is {then} here" in err
    assert main(["show", then, "--version", "2015-01-23", *data]) == 0
    # a date with no release is still said so, whichever languages are asked for
    assert main(["show", "100.1", "--version", "2099-01-01", "--lang", lang, *data]) == 2
    assert "no release of that date" in capsys.readouterr().err


def test_show_writes_chapter_and_section_numbers_without_a_dot(archive_build, capsys):
    assert main(["show", "9", "--data", str(archive_build)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert re.match(r"^\[\S+ en\] 9 Casual Variants$", out[0])
    assert any(re.match(r"^\s+901 Planechase$", line) for line in out[1:])
    assert not [line for line in out if re.match(r"^\W*\d{1,3}\. ", line)]


def test_a_terminal_that_cannot_show_every_character_gets_escapes_not_a_traceback(
    archive_build, store
):
    """Rules quote with ’ even in English; a Latin-1 or ASCII stdout shows \\u escapes for what
    it cannot show, and --json is escaped to ASCII, which reads back as the rule's own text."""
    env = {**os.environ, "PYTHONIOENCODING": "latin-1"}
    latest = store.version_ids()[-1]
    rule = next(r for r in store.document(latest, "en").rules if "’" in r.text)
    base = [sys.executable, "-m", "crkb", "show", rule.number, "--data", str(archive_build)]
    r = subprocess.run(base, capture_output=True, env=env, timeout=120)
    assert r.returncode == 0 and b"Traceback" not in r.stderr
    assert rule.text.replace("’", "\\u2019").encode("latin-1", "backslashreplace") in r.stdout
    r = subprocess.run([*base, "--json"], capture_output=True, env=env, timeout=120)
    assert r.returncode == 0 and json.loads(r.stdout)["text"] == rule.text


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_output_that_cannot_be_written_is_one_line(archive_build):
    with open("/dev/full", "w") as full:
        r = subprocess.run(
            [sys.executable, "-m", "crkb", "show", "702", "--data", str(archive_build)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("crkb show: ") and "No space left" in r.stderr


def test_export_into_a_file_is_one_line(archive_build, tmp_path, capsys):
    (tmp_path / "a-file").write_text("x")
    assert main(["export", str(tmp_path / "a-file" / "pack"), "--data", str(archive_build)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a-file is a file, not a folder" in err


def test_show_both_leaves_out_an_older_translations_rule_the_release_lacks(
    archive_build, store, capsys
):
    """The translation in force numbers by its own older release: a number the newest English
    release has dropped is another rule there, so both languages say where the rule went."""
    latest = store.version_ids()[-1]
    zh = store.newest_text(latest, "zh")
    english = {r.number for r in store.document(latest, "en").rules}
    gone = next(r.number for r in store.document(zh, "zh").rules if r.number not in english)
    assert main(["show", gone, "--lang", "both", "--data", str(archive_build)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not found in version latest" in err
    assert main(["show", gone, "--lang", "zh", "--data", str(archive_build)]) == 0
    assert capsys.readouterr().out.startswith(f"[{zh} zh] {gone} ")


def test_show_and_search_say_what_a_reader_needs(archive_build, store, capsys):
    data = ["--data", str(archive_build)]
    latest = store.version_ids()[-1]
    zh = store.newest_text(latest, "zh")
    # a rule newer than the translation, both languages asked: the missing side is said
    before = {r.number for r in store.document(zh, "en").rules}
    new = next(r.number for r in store.document(latest, "en").rules if r.number not in before)
    assert main(["show", new, "--lang", "both", *data]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"[{latest} en] {new} ")
    assert out[-1] == f"(zh: rule {new} is not in the {zh} text)"
    # the rules citing one, in the rules' order (310.9 before 310.10), glossary entries last
    assert main(["show", "704", "--json", *data]) == 0
    cited = json.loads(capsys.readouterr().out)["cited_by"]
    rules = [c for c in cited if ":" not in c]
    assert cited == rules + sorted(c for c in cited if ":" in c)
    assert rules == sorted(
        rules, key=lambda n: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", n)]
    )
    # a Chinese reader's 第…条
    assert main(["show", "第704.5j条", *data]) == 0
    assert capsys.readouterr().out.startswith(f"[{latest} en] 704.5j ")
    # an old number searched: no hits, and where its rule went
    assert main(["history", "704.5j", "--json", *data]) == 0
    old = next(h for h in json.loads(capsys.readouterr().out)["history"] if h["number"] != "704.5j")
    assert main(["search", old["number"], *data]) == 0
    assert capsys.readouterr().out.startswith("no hits (last numbered so in ")
    # a heading's hit is its title once
    assert main(["search", "trample", *data]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.endswith("] Trample")
    # a huge argument is named, not echoed whole
    assert main(["show", "7" * 100_000, *data]) == 2
    assert len(capsys.readouterr().err) < 200


def test_serve_on_a_port_in_use_is_one_line(archive_build, tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "crkb",
                "serve",
                "--port",
                str(port),
                "--data",
                str(archive_build),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and f"--port {port}" in lines[0] and "in use" in lines[0]


# a build that cannot finish, or cannot be written: what the user is told --------------------
@pytest.fixture(scope="module")
def seeds_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory holding a build of the bundled seeds (about seven seconds)."""
    from crkb.build import build

    data = tmp_path_factory.mktemp("seeds-data")
    build([SEEDS], data, progress=lambda _msg: None)
    return data


def _own_copy(seeds_data: Path, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(seeds_data, data, symlinks=True)
    return data


def _one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def _refuse_writes_in(monkeypatch: pytest.MonkeyPatch, data: Path) -> None:
    """The OS refuses to create anything inside `data`, as a read-only directory does (the
    tests run as root, for whom a chmod refuses nothing)."""
    real_mkdir, real_open = os.mkdir, os.open
    creating = os.O_CREAT | os.O_WRONLY | os.O_RDWR

    def refused(path: object) -> bool:
        return Path(os.fsdecode(path)).is_relative_to(data)

    def mkdir(path, *args, **kwargs):
        if refused(path):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))
        return real_mkdir(path, *args, **kwargs)

    def open_(path, flags, *args, **kwargs):
        if flags & creating and refused(path):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", mkdir)
    monkeypatch.setattr(os, "open", open_)


def _build_seeds(runner, data: Path):
    return runner("build", "--no-bundled", "--corpus", str(SEEDS), "--data", str(data))


def test_a_build_interrupted_while_pages_render_publishes_nothing(
    seeds_data, tmp_path, runner, monkeypatch
):
    """Ctrl-C in the last step (the newest release's pages): the previous build still serves,
    nothing of the new one is left, and the message says so truthfully."""
    data = _own_copy(seeds_data, tmp_path)
    before = os.readlink(data / "current")
    builds = sorted(os.listdir(data / "builds"))
    rendered: list[Path] = []

    def interrupted(view: Path) -> tuple[int, float]:
        rendered.append((view / "current").resolve())
        raise KeyboardInterrupt

    monkeypatch.setattr("crkb.web.prerender.prerender", interrupted)
    code, out, err = _build_seeds(runner, data)
    assert code == 130 and not out
    assert err.strip().splitlines()[-1] == "crkb build: interrupted; nothing was changed"
    assert rendered and rendered[0].name.startswith(".tmp-")  # the pages of the unpublished build
    assert os.readlink(data / "current") == before
    assert sorted(os.listdir(data / "builds")) == builds
    assert runner("show", "903.1", data=data).code == 0


def test_a_build_interrupted_after_the_switch_says_the_new_build_serves(
    seeds_data, tmp_path, runner, monkeypatch
):
    """Ctrl-C once `current` has switched (older builds being removed): the message says the new
    build serves, not that nothing changed."""
    from crkb.store import location

    data = _own_copy(seeds_data, tmp_path)
    before = os.readlink(data / "current")

    def interrupted(data: Path, keep: Path) -> None:
        raise KeyboardInterrupt  # while older builds are removed

    monkeypatch.setattr(location, "_prune", interrupted)
    code, _out, err = _build_seeds(runner, data)
    now = os.readlink(data / "current")
    assert code == 130 and now != before
    published = (data / now).resolve()
    last = err.strip().splitlines()[-1]
    assert last == f"crkb build: interrupted after publishing {published}, which now serves"


UNWRITABLE = "cannot write a build there: Permission denied"
NO_DIRECTORY = "not a directory, so no build can be written there"
# a data directory that cannot hold a build → what `crkb build: DATA: ` is followed by
DATA_CASES = {
    "read-only, a build in it": UNWRITABLE + " (in {data}/builds)",
    "read-only, empty": UNWRITABLE,
    "a file": NO_DIRECTORY,
    "in a file": "{file} is " + NO_DIRECTORY,
}


@pytest.mark.parametrize("case", list(DATA_CASES))
def test_a_data_dir_that_cannot_hold_a_build_is_one_line(
    case, seeds_data, tmp_path, runner, monkeypatch
):
    """Refused before any file is parsed, with one line naming the directory and why (exit 2);
    nothing in it changes."""
    file = tmp_path / "file"
    file.write_text("not a directory\n")
    data = {"a file": file, "in a file": file / "data"}.get(case, tmp_path / "data")
    if case == "read-only, a build in it":
        data = _own_copy(seeds_data, tmp_path)
    elif case == "read-only, empty":
        data.mkdir()
    before = sorted(os.listdir(data)) if data.is_dir() else None
    if case.startswith("read-only"):
        _refuse_writes_in(monkeypatch, data)
    code, out, err = _build_seeds(runner, data)
    assert code == 2 and not out
    reason = DATA_CASES[case].format(data=data, file=file)
    assert _one_line(err) == f"crkb build: {data}: {reason}"
    assert (sorted(os.listdir(data)) if data.is_dir() else None) == before
    assert file.read_text() == "not a directory\n"


def test_marking_an_unknown_finding_is_refused(seeds_data, tmp_path, runner):
    """A typo in an id is named, not kept as a verdict on nothing (exit 2)."""
    data = _own_copy(seeds_data, tmp_path)
    code, out, _err = runner("check", "--json", data=data)
    known, vid = json.loads(out)["findings"][0]["id"], json.loads(out)["version"]
    for mark in ("abc=reviewed", f"{known}x=false_alarm", "=reviewed", "abc=open"):
        code, out, err = runner("check", "--mark", mark, data=data)
        fid = mark.partition("=")[0]
        assert code == 2 and not out, mark
        assert _one_line(err) == (
            f"crkb check: --mark {mark!r}: no finding has the id {fid!r} in {vid}"
            " (`crkb check --all --json` lists them; --version names another release)"
        )
    assert not (data / "reviews.json").exists()
    for status in ("reviewed", "open"):  # a finding of the build is marked, and unmarked
        ran = runner("check", "--mark", f"{known}={status}", data=data)
        assert ran == (0, f"{known}: {status} in {vid}\n", "")
    code, out, err = runner("check", "--note", "looked at", data=data)  # a note needs a verdict
    assert (code, out) == (2, "") and _one_line(err) == (
        "crkb check: --note: give it with --mark ID=STATUS (the verdict it explains)"
    )


def test_marked_findings_are_counted_apart_and_listed_with_their_notes_on_the_web(
    seeds_data, tmp_path, runner
):
    """The findings page lists the open findings, its kind counts adding up to what it lists;
    it says how many are marked and lists them too on request, each with its verdict and note,
    as /api/translation?all=1 does."""
    from bs4 import BeautifulSoup

    from crkb.web import create_app

    data = _own_copy(seeds_data, tmp_path)
    code, out, _err = runner("check", "--json", data=data)
    report = json.loads(out)
    first, vid = report["findings"][0], report["version"]
    ran = runner("check", "--mark", f"{first['id']}=false_alarm", "--note", "同义", data=data)
    assert ran[0] == 0
    client = create_app({"DATA": str(data), "PAGE_CACHE": False}).test_client()
    page = BeautifulSoup(client.get(f"/translation/{vid}").data, "html.parser")
    listed = page.select(".finding")
    assert len(listed) == len(report["findings"]) - 1
    chips = [a.get_text() for a in page.select(".summary a")]
    assert chips[0] == f"all {len(listed)}"
    assert sum(int(c.rsplit(" ", 1)[1]) for c in chips[1:]) == len(listed)
    said = page.select_one(".marked")
    assert said.get_text().startswith("1 more marked reviewed or false alarm")
    every = BeautifulSoup(client.get(said.select_one("a")["href"]).data, "html.parser")
    assert len(every.select(".finding")) == len(report["findings"])
    assert [v.get_text() for v in every.select(".verdict")] == ["Marked false alarm: 同义"]
    api = client.get(f"/api/translation?version={vid}&all=1").get_json()
    assert api["marked"] == 1 and [(f["status"], f.get("note")) for f in api["findings"]][
        [f["id"] for f in api["findings"]].index(first["id"])
    ] == ("false_alarm", "同义")
    assert client.get(f"/api/translation?version={vid}&all=maybe").status_code == 400
    # the CSV a translator opens in a spreadsheet carries the note too
    code, out, _err = runner("check", "--all", "--csv", data=data)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == len(report["findings"])
    assert [(r["status"], r["note"]) for r in rows if r["id"] == first["id"]] == [
        ("false_alarm", "同义")
    ]
    assert all(r["note"] == "" for r in rows if r["id"] != first["id"])


def test_marking_in_a_read_only_data_dir_is_one_line(seeds_data, tmp_path, runner, monkeypatch):
    """The review file that cannot be written is named, and no temporary file is left."""
    data = _own_copy(seeds_data, tmp_path)
    code, out, _err = runner("check", "--json", data=data)
    known = json.loads(out)["findings"][0]["id"]
    _refuse_writes_in(monkeypatch, data)
    code, out, err = runner("check", "--mark", f"{known}=reviewed", data=data)
    assert code == 2 and not out
    reviews = data / "reviews.json"
    assert _one_line(err) == f"crkb check: {reviews}: cannot save the verdict: Permission denied"
    assert not reviews.exists() and not list(data.glob(".reviews-*"))


@pytest.mark.archive
def test_chinese_hits_are_read_in_the_newest_rules_and_removed_ones_said_gone(
    archive_build, client, store
):
    """Damage assignment order (509.2 of the 2024-04-12 translation) left the rules in
    2024-11-08: a judge searching in Chinese is told, and every other Chinese hit opens its rule
    in the newest release, beside today's English, not the 2024 page."""
    latest = store.version_ids()[-1]
    api = client.get("/api/search?q=伤害分配顺序&lang=zh&limit=20").get_json()
    hits = {h["number"]: h for h in api["hits"]}
    assert hits["509.2"]["version"] == "2024-04-12" and hits["509.2"]["current_number"] is None
    assert store.rule(latest, "en", "509.2") is not None  # the number now names another rule
    out = run("search", "伤害分配顺序", "--lang", "zh", "--data", str(archive_build)).stdout
    assert out.startswith("509.2 (not in the newest English release) [2024-04-12 zh]")
    page = BeautifulSoup(client.get("/search?q=伤害分配顺序&lang=zh").data, "html.parser")
    items = {li.select_one("a.num").get_text().split()[0]: li for li in page.select("li.hit")}
    gone = items["509.2"]
    assert gone.select_one("a.num")["href"] == "/v/2024-04-12/rules/509.2"
    said = gone.select_one(".gone a")
    assert said.get_text() == f"not in the rules of {latest}"
    assert said["href"] == "/rules/509.2/history?version=2024-04-12"
    kept = [
        (n, li)
        for n, li in items.items()
        if hits[n].get("current_number", n) is not None and hits[n]["version"] != latest
    ]
    assert kept
    for n, li in kept:
        now = hits[n].get("current_number", n)
        assert li.select_one("a.num")["href"] == f"/rules/{now}"
        assert li.select_one(".gone") is None
    # a search of an older release keeps its hits there
    pinned = BeautifulSoup(
        client.get("/search?q=伤害分配顺序&lang=zh&version=2024-04-12").data, "html.parser"
    )
    first = pinned.select_one("li.hit a.num")
    assert first["href"].startswith("/v/2024-04-12/rules/")
