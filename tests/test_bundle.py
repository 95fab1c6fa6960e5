"""The bundled archive as a user meets it: `crkb build` reads corpus/archive.tar.xz directly, a
damaged bundle stops the build in one line, and other corpora are layered over it."""

from __future__ import annotations

import json
import lzma
import os
import shutil
from pathlib import Path

import pytest

from crkb import bundle, config
from crkb.cli import main
from crkb.web import create_app
from tests.conftest import BUNDLE
from tests.test_fetch import FakeOpener, _manifest, _release

pytestmark = pytest.mark.archive

OLD, NEW = "en/txt/2023-11-17.txt", "en/txt/2024-04-10.txt"  # NEW is release 2024-04-12


# --- the shipped bundle ---------------------------------------------------------------------------
def test_the_bundle_holds_every_document_of_the_archive_and_stays_small(archive: Path):
    listed = json.loads((archive / "MANIFEST.json").read_text("utf-8"))  # the archive's own list
    manifest = bundle.load_manifest(BUNDLE)
    members = {m["path"]: m for m in manifest["members"]}
    assert len(listed) >= 150
    for row in listed:  # every document, byte for byte, with its public source
        assert members[row["path"]]["sha256"] == row["sha256"], row["path"]
        assert members[row["path"]]["source"] == row["source"]
        assert bundle.sha256((archive / row["path"]).read_bytes()) == row["sha256"]
    shipped = sum(p.stat().st_size for p in (BUNDLE.parent).rglob("*") if p.is_file())
    assert BUNDLE.stat().st_size == manifest["archive"]["bytes"] < 2_000_000
    assert shipped <= 8_000_000


def test_a_build_of_the_bundle_serves_every_release_and_names_where_each_came_from(
    archive_build: Path,
):
    client = create_app({"DATA": str(archive_build)}).test_client()
    versions = client.get("/api/versions").get_json()["versions"]
    assert sum("en" in v["langs"] for v in versions) >= 124
    assert sum("zh" in v["langs"] for v in versions) >= 6
    by_id = {v["id"]: v for v in versions}
    assert by_id["2024-04-12"]["sources"] == [
        "corpus/archive.tar.xz:en/txt/2024-04-10.txt",
        "corpus/archive.tar.xz:zh/txt/2024-04-10.txt",
    ]
    assert all(s.startswith("corpus/archive.tar.xz:") for v in versions for s in v["sources"])
    page = client.get("/rules/702.19")
    assert page.status_code == 200
    zh = client.get("/api/rules/702.19?lang=zh").get_json()
    assert zh["text"] and zh["text"][:12] in page.get_data(as_text=True)


# --- a small bundle standing in for the project's corpus/ -----------------------------------------
@pytest.fixture(scope="module")
def small(archive: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A project corpus folder holding a bundle of two releases, the newer one cut in half (as
    if the archive had only a truncated copy), and the whole copy of it apart."""
    src = tmp_path_factory.mktemp("small-src")
    for name in (OLD, NEW):
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        data = (archive / name).read_bytes()
        (src / name).write_bytes(data[: len(data) // 2] if name == NEW else data)
    project = tmp_path_factory.mktemp("project") / "corpus"
    bundle.make(src, project / "archive.tar.xz", preset=1)
    whole = tmp_path_factory.mktemp("whole")
    (whole / "2024-04-10.txt").write_bytes((archive / NEW).read_bytes())
    return {"project": project, "src": src, "whole": whole / "2024-04-10.txt"}


@pytest.fixture
def project(
    small: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Path]:
    """`crkb` run with the small bundle as its bundled corpus and a fresh user folder."""
    monkeypatch.setattr(config, "bundled_corpus", lambda: small["project"])
    monkeypatch.setenv("CRKB_USER_CORPUS", str(tmp_path / "user"))
    monkeypatch.delenv("CRKB_CORPUS", raising=False)
    return {**small, "data": tmp_path / "data", "user": tmp_path / "user"}


def _versions(data: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, dict]:
    capsys.readouterr()
    assert main(["versions", "--json", "--data", str(data)]) == 0
    return {v["id"]: v for v in json.loads(capsys.readouterr().out)["versions"]}


def test_the_default_build_reads_the_bundle_and_shows_its_progress(project, capsys):
    assert main(["build", "--data", str(project["data"])]) == 0
    err = capsys.readouterr().err
    shown = f"{project['project'] / 'archive.tar.xz'}"
    assert f"corpus: 2 files from 1 layer(s); {shown} verified and read in" in err
    assert "parse [2/2]" in err
    steps = [ln for ln in err.splitlines() if ln.startswith("step ")]
    assert steps[0].startswith("step 1/") and steps[-1].split()[1].split("/")[0] == str(len(steps))
    assert f"flagged: {shown}:{NEW}: truncated" in err
    v = _versions(project["data"], capsys)
    assert set(v) == {"2023-11-17", "2024-04-12"} and v["2024-04-12"]["flags"]["truncated"]
    assert v["2023-11-17"]["sources"] == [f"{shown}:{OLD}"]


def test_strict_checks_the_files_given_not_the_bundles_known_ones(project, tmp_path, capsys):
    """The bundle's own flagged copy (a truncated release, stored as such) fails no --strict
    build; a bad file in a layer the user gives does, and the previous build keeps serving."""
    assert main(["build", "--strict", "--data", str(project["data"])]) == 0
    assert f"flagged: {project['project'] / 'archive.tar.xz'}:{NEW}: truncated" in (
        capsys.readouterr().err
    )
    given = tmp_path / "given"
    given.mkdir()
    (given / "notes.txt").write_text("Shopping list\n\nMilk\n" * 20, encoding="utf-8")
    (given / "empty.txt").write_text("", encoding="utf-8")
    code = main(["build", "--strict", "--corpus", str(given), "--data", str(project["data"])])
    err = capsys.readouterr().err
    assert code == 2 and "--strict: 2 file(s) not used as they are: " in err
    last = err.strip().splitlines()[-1]  # one run names every file to mend
    assert str(given / "notes.txt") in last and str(given / "empty.txt") in last
    assert set(_versions(project["data"], capsys)) == {"2023-11-17", "2024-04-12"}


def test_a_fixed_copy_in_a_layer_replaces_the_bundled_file(project, tmp_path, capsys):
    fix = tmp_path / "fix"
    (fix / "en" / "txt").mkdir(parents=True)
    shutil.copy(project["whole"], fix / NEW)
    shutil.copy(project["src"] / OLD, fix / OLD)  # the same bytes: replaced without a word
    assert main(["build", "--corpus", str(fix), "--data", str(project["data"])]) == 0
    err = capsys.readouterr().err
    shown = f"{project['project'] / 'archive.tar.xz'}"
    replaced = [ln for ln in err.splitlines() if ln.startswith("replaced:")]
    assert replaced == [f"replaced: {shown}:{NEW} by {fix / NEW} (a later corpus layer)"]
    v = _versions(project["data"], capsys)
    assert v["2024-04-12"]["sources"] == [str(fix / NEW)]
    assert "truncated" not in v["2024-04-12"]["flags"]
    assert v["2023-11-17"]["sources"] == [str(fix / OLD)]


def test_a_newer_copy_of_a_release_under_another_name_wins_and_is_no_defect(
    project, tmp_path, monkeypatch, capsys
):
    flat = tmp_path / "flat"
    flat.mkdir()
    shutil.copy(project["whole"], flat / "CR-20240410.txt")
    monkeypatch.setenv("CRKB_CORPUS", str(flat))
    assert main(["build", "--strict", "--data", str(project["data"])]) == 0  # nothing skipped
    err = capsys.readouterr().err
    assert f"replaced: {project['project'] / 'archive.tar.xz'}:{NEW} by {flat}" in err
    v = _versions(project["data"], capsys)
    assert v["2024-04-12"]["sources"] == [str(flat / "CR-20240410.txt")]


def test_fetch_skips_bundled_releases_and_its_folder_is_layered(project, monkeypatch, capsys):
    whole = project["whole"].read_bytes()
    old = (project["src"] / OLD).read_bytes()
    url = "https://media.wizards.com/2024/downloads/MagicCompRules%2020240410.txt"
    opener = FakeOpener({url: whole})
    monkeypatch.setattr("urllib.request.build_opener", lambda *a: opener)
    releases = [_release("2023-11-17", old, url + ".old"), _release("2024-04-10", whole, url)]
    manifest = _manifest(project["user"].parent, releases)
    assert main(["fetch", "--manifest", str(manifest), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["downloaded"] == ["2024-04-10.txt"] and out["bundled"] == ["2023-11-17.txt"]
    fetched = project["user"] / NEW
    assert out["dest"] == str(fetched.parent) and fetched.read_bytes() == whole
    assert [r[0] for r in opener.requests] == [url]  # the bundled release was not downloaded
    assert main(["build", "--data", str(project["data"])]) == 0
    assert f"by {fetched} (a later corpus layer)" in capsys.readouterr().err
    assert _versions(project["data"], capsys)["2024-04-12"]["sources"] == [str(fetched)]


def test_no_bundled_builds_only_what_is_given(project, tmp_path, capsys):
    assert main(["build", "--no-bundled", "--data", str(project["data"])]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--no-bundled" in err[0] and "--corpus" in err[0]
    only = tmp_path / "only"
    only.mkdir()
    shutil.copy(project["whole"], only / "2024-04-10.txt")
    assert (
        main(["build", "--no-bundled", "--corpus", str(only), "--data", str(project["data"])]) == 0
    )
    assert "archive.tar.xz" not in capsys.readouterr().err
    assert set(_versions(project["data"], capsys)) == {"2024-04-12"}


# --- a damaged bundle -----------------------------------------------------------------------------
def _missing_member(corpus: Path, src: Path) -> None:
    """The archive remade without one member, its manifest still listing it."""
    listed = json.loads((corpus / "archive.json").read_text("utf-8"))
    fewer = corpus.parent / "fewer"
    (fewer / "en" / "txt").mkdir(parents=True)
    shutil.copy(src / NEW, fewer / NEW)
    remade = bundle.make(fewer, corpus / "archive.tar.xz", preset=1)
    listed["archive"] = remade["archive"]
    (corpus / "archive.json").write_text(json.dumps(listed), "utf-8")


def _member_changed(corpus: Path, src: Path) -> None:
    listed = json.loads((corpus / "archive.json").read_text("utf-8"))
    listed["members"][0]["sha256"] = "0" * 64
    (corpus / "archive.json").write_text(json.dumps(listed), "utf-8")


def _flip_byte(corpus: Path, src: Path) -> None:
    path = corpus / "archive.tar.xz"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def _truncate(corpus: Path, src: Path) -> None:
    path = corpus / "archive.tar.xz"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


DAMAGE = {
    "bad checksum": (_flip_byte, "damaged: sha256"),
    "truncated": (_truncate, "truncated ("),
    "member missing": (_missing_member, f"member {OLD} is missing"),
    "member changed": (_member_changed, "do not match the manifest's sha256"),
    "archive gone": (lambda c, s: (c / "archive.tar.xz").unlink(), "bundled archive is missing"),
    "manifest gone": (lambda c, s: (c / "archive.json").unlink(), "is missing"),
}


@pytest.mark.parametrize("case", list(DAMAGE))
def test_a_damaged_bundle_stops_the_build_in_one_line_and_keeps_the_data_serving(
    case, project, tmp_path, monkeypatch, capsys
):
    assert main(["build", "--data", str(project["data"])]) == 0
    before = _versions(project["data"], capsys)
    link = os.readlink(project["data"] / "current")
    corpus = tmp_path / "damaged" / "corpus"
    shutil.copytree(project["project"], corpus)
    damage, reason = DAMAGE[case]
    damage(corpus, project["src"])
    monkeypatch.setattr(config, "bundled_corpus", lambda: corpus)
    capsys.readouterr()
    assert main(["build", "--data", str(project["data"])]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    line = err[0]
    assert line.startswith(f"crkb build: {corpus / 'archive'}") and reason in line, line
    assert "git checkout" in line or "make_bundle" in line  # what to do
    assert os.readlink(project["data"] / "current") == link
    assert _versions(project["data"], capsys) == before
    assert [p.name for p in (project["data"] / "builds").iterdir()] == [link.split("/")[-1]]


def test_a_bundle_that_is_not_xz_is_named(project, tmp_path, monkeypatch, capsys):
    corpus = tmp_path / "corpus"
    shutil.copytree(project["project"], corpus)
    junk = lzma.compress(b"not a tar at all" * 100)
    listed = json.loads((corpus / "archive.json").read_text("utf-8"))
    listed["archive"].update(bytes=len(junk), sha256=bundle.sha256(junk))
    (corpus / "archive.json").write_text(json.dumps(listed), "utf-8")
    (corpus / "archive.tar.xz").write_bytes(junk)
    monkeypatch.setattr(config, "bundled_corpus", lambda: corpus)
    assert main(["build", "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot be unpacked" in err[0] and not (tmp_path / "data").exists()
