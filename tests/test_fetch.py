"""`crkb fetch`: manifest, checksums, the rules page — with recorded pages, never the network."""

from __future__ import annotations

import hashlib
import io
import json
import urllib.error
from pathlib import Path

import pytest

from crkb import fetch
from crkb.cli import main
from crkb.errors import BadInput

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures" / "fetch"
PAGE = (FIXTURES / "rules_page.html").read_bytes()
OLD = b"Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of June 6, 2025.\n"
NEW = (
    b"Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of July 25, 2025.\n"
)
OLD_URL = "https://media.wizards.com/2025/downloads/MagicCompRules%2020250606.txt"
NEW_URL = "https://media.wizards.com/2025/downloads/MagicCompRules%2020250725.txt"


class FakeOpener:
    """Serves recorded bytes for known URLs; anything else fails like an unreachable host."""

    def __init__(self, pages: dict[str, bytes]):
        self.pages = pages
        self.requests: list[tuple[str, str | None, float]] = []

    def open(self, req, data=None, timeout=None):
        self.requests.append((req.full_url, req.get_header("User-agent"), timeout))
        if req.full_url not in self.pages:
            raise urllib.error.URLError("Name or service not known")
        return io.BytesIO(self.pages[req.full_url])


def _release(fdate: str, body: bytes, url: str | None) -> fetch.Release:
    return fetch.Release(
        effective=fdate,
        file_date=fdate,
        file=f"en/txt/{fdate}.txt",
        url=url,
        sha256=hashlib.sha256(body).hexdigest(),
        bytes=len(body),
    )


def _manifest(tmp_path: Path, releases: list[fetch.Release]) -> Path:
    from dataclasses import asdict

    path = tmp_path / "releases.json"
    path.write_text(json.dumps({"releases": [asdict(r) for r in releases]}), "utf-8")
    return path


def test_downloads_verifies_and_skips_present(tmp_path: Path) -> None:
    releases = [
        _release("2025-06-06", OLD, OLD_URL),
        _release("2025-07-25", NEW, NEW_URL),
        _release("1999-04-21", b"old", None),
    ]
    opener = FakeOpener({OLD_URL: OLD, NEW_URL: NEW})
    dest = tmp_path / "txt"
    report = fetch.fetch_all(releases, dest, opener)
    assert report.downloaded == ["2025-06-06.txt", "2025-07-25.txt"]
    assert report.no_url == ["1999-04-21.txt"]
    assert (dest / "2025-07-25.txt").read_bytes() == NEW
    # every request names crkb and carries a timeout
    assert all(ua and ua.startswith("crkb/") and t for _u, ua, t in opener.requests)
    # a second run finds both files in place and downloads nothing
    again = fetch.fetch_all(releases, dest, opener)
    assert again.downloaded == [] and again.present == ["2025-06-06.txt", "2025-07-25.txt"]
    assert len(opener.requests) == 2


def test_a_damaged_file_in_place_is_fetched_again(tmp_path: Path) -> None:
    dest = tmp_path / "txt"
    dest.mkdir()
    (dest / "2025-07-25.txt").write_bytes(NEW[:-5] + b"xxxx\n")  # same size, other bytes
    report = fetch.fetch_all(
        [_release("2025-07-25", NEW, NEW_URL)], dest, FakeOpener({NEW_URL: NEW})
    )
    assert report.downloaded == ["2025-07-25.txt"]
    assert (dest / "2025-07-25.txt").read_bytes() == NEW


def test_checksum_mismatch_is_one_line_and_discards(tmp_path: Path) -> None:
    dest = tmp_path / "txt"
    opener = FakeOpener({NEW_URL: NEW + b"tampered"})
    with pytest.raises(BadInput) as e:
        fetch.fetch_all([_release("2025-07-25", NEW, NEW_URL)], dest, opener)
    msg = str(e.value)
    assert "2025-07-25.txt" in msg and "checksum" in msg and "\n" not in msg
    assert not (dest / "2025-07-25.txt").exists()
    assert not list(dest.glob("*")) if dest.exists() else True


def test_latest_link_on_the_rules_page() -> None:
    url, fdate = fetch.latest_link(PAGE.decode("utf-8"))
    # the page links the PDF, DOCX, basic rules and an older .txt; the newest .txt is the answer
    assert (url, fdate) == (NEW_URL, "2025-07-25")
    assert fetch.latest_link("<html><a href='/en/news'>News</a></html>") is None


def test_check_latest_against_the_manifest() -> None:
    opener = FakeOpener({fetch.RULES_PAGE: PAGE})
    older = fetch.check_latest([_release("2025-06-06", OLD, OLD_URL)], opener)
    assert older["newer"] is True and older["file_date"] == "2025-07-25"
    same = fetch.check_latest([_release("2025-07-25", NEW, NEW_URL)], opener)
    assert same["newer"] is False and same["manifest_newest"] == "2025-07-25"


def test_cli_network_failure_is_one_line_exit_2(monkeypatch, tmp_path: Path, capsys) -> None:
    monkeypatch.setattr("urllib.request.build_opener", lambda *a: FakeOpener({}))
    manifest = _manifest(tmp_path, [_release("2025-07-25", NEW, NEW_URL)])
    code = main(["fetch", "--manifest", str(manifest), "--dest", str(tmp_path / "d")])
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("crkb fetch:")]
    assert code == 2 and len(errors) == 1 and NEW_URL in errors[0] and "Traceback" not in err
    assert main(["fetch", "--latest", "--manifest", str(manifest)]) == 2


def test_cli_fetch_and_latest_json(monkeypatch, tmp_path: Path, capsys) -> None:
    opener = FakeOpener({NEW_URL: NEW, fetch.RULES_PAGE: PAGE})
    monkeypatch.setattr("urllib.request.build_opener", lambda *a: opener)
    manifest = _manifest(tmp_path, [_release("2025-07-25", NEW, NEW_URL)])
    assert (
        main(["fetch", "--manifest", str(manifest), "--dest", str(tmp_path / "d"), "--json"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["downloaded"] == ["2025-07-25.txt"]
    assert main(["fetch", "--latest", "--manifest", str(manifest), "--json"]) == 0
    latest = json.loads(capsys.readouterr().out)["latest"]
    assert latest["url"] == NEW_URL and latest["newer"] is False
    assert main(["fetch", "--manifest", str(tmp_path / "missing.json")]) == 2


def test_shipped_manifest_matches_the_archive(archive: Path) -> None:
    releases = fetch.load_manifest(ROOT / "corpus" / "releases.json")
    rows = {r["path"]: r for r in json.loads((archive / "MANIFEST.json").read_text("utf-8"))}
    english = sorted(p for p in rows if p.startswith("en/txt/"))
    assert [r.file for r in releases] == english  # one entry per official English release
    for r in releases:
        assert (r.sha256, r.bytes) == (rows[r.file]["sha256"], rows[r.file]["bytes"])
        assert r.url is None or r.url.startswith("https://media.wizards.com/")
        assert r.url is None or r.url.endswith(r.file_date.replace("-", "") + ".txt")
    newest = releases[-1]
    assert newest.url == NEW_URL and newest.effective == "2025-07-25"
    # the file under 2024-04-10 states April 12, 2024 as its effective date
    assert {r.file_date: r.effective for r in releases}["2024-04-10"] == "2024-04-12"
    # releases before the plain-text downloads were recorded have no invented URL
    assert all(r.url is None for r in releases if r.file_date < "2012-10-01")
    # the shipped bytes really are the archive's: spot-check one checksum from the file itself
    body = (archive / newest.file).read_bytes()
    assert hashlib.sha256(body).hexdigest() == newest.sha256


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ('{"releases": [{"date": "2030-01-01", "url": "x"}]}', "release 1 of the manifest needs"),
        ("[1]", 'no "releases" list'),
        ('{"releases": [3]}', "(it has int)"),
        ("{", "not a releases manifest"),
    ],
)
def test_a_manifest_of_another_shape_is_named_in_one_line(tmp_path: Path, content, says) -> None:
    path = tmp_path / "manifest.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(BadInput) as e:
        fetch.load_manifest(path)
    assert str(e.value).startswith(f"{path}: ") and says in str(e.value)
    assert "__init__" not in str(e.value)
