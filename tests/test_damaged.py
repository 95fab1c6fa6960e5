"""A damaged build, or one from another crkb or another term dictionary, as a user meets it.

The bundled seeds build in about two seconds; each case copies it, damages one part, and runs the
commands and pages that read that part. Each must answer with one line naming the file, the reason
and `crkb build` (exit 2), and the web with a 503 page or JSON error carrying the same message —
never a traceback or a 500. What the damage does not touch keeps working.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from crkb import __version__
from crkb.web import create_app
from tests.conftest import SEEDS

RULE, QUERY = "903.1", "commander"


@pytest.fixture(scope="module")
def seeds_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from crkb.build import build

    data = tmp_path_factory.mktemp("seeds-data")
    build([SEEDS], data, progress=lambda _msg: None)
    return data


def _noise(n: int, seed: int = 0) -> bytes:
    return random.Random(seed).randbytes(n)


# damage to the store --------------------------------------------------------------------------
def overwrite(path: Path) -> None:
    path.write_bytes(_noise(path.stat().st_size))


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def empty(path: Path) -> None:
    path.write_bytes(b"")


def bad_pages(path: Path) -> None:
    """Noise over every page but the header and the meta table: the file opens, its tables don't."""
    conn = sqlite3.connect(path)
    meta_page = conn.execute("SELECT rootpage FROM sqlite_master WHERE name='meta'").fetchone()[0]
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    raw = bytearray(path.read_bytes())
    for page in range(2, len(raw) // page_size + 1):
        if page != meta_page:
            raw[(page - 1) * page_size : page * page_size] = _noise(page_size, page)
    path.write_bytes(bytes(raw))


def set_meta(key: str, value: str | None) -> Callable[[Path], None]:
    def change(path: Path) -> None:
        conn = sqlite3.connect(path)
        if value is None:
            conn.execute("DROP TABLE meta")
        else:
            conn.execute("UPDATE meta SET value=? WHERE key=?", (value, key))
        conn.commit()
        conn.close()

    return change


STORE_CASES = {
    "garbage": (overwrite, "damaged store (not an SQLite file)"),
    "truncated": (truncate, "bytes where its header promises"),
    "empty": (empty, "damaged store (not an SQLite file)"),
    "bad-pages": (bad_pages, "damaged store (database disk image is malformed)"),
    "other-schema": (set_meta("schema", "0"), "built by another version of crkb (schema '0'"),
    "other-crkb": (set_meta("crkb", "0.0.1"), f"built by crkb 0.0.1, this is crkb {__version__}"),
    "no-meta": (set_meta("meta", None), "damaged store (no such table: meta)"),
}


# damage to the index --------------------------------------------------------------------------
def each(pattern: str, change: Callable[[Path], None]) -> Callable[[Path], None]:
    def apply(index: Path) -> None:
        files = sorted(index.glob(pattern))
        assert files, pattern
        for f in files:
            change(f)

    return apply


def edit_meta(change: Callable[[dict], None]) -> Callable[[Path], None]:
    def apply(index: Path) -> None:
        meta = json.loads((index / "meta.json").read_text(encoding="utf-8"))
        change(meta)
        (index / "meta.json").write_text(json.dumps(meta), encoding="utf-8")

    return apply


def add_word(index: Path) -> None:
    """The index's dictionary file no longer the one its fingerprint was taken of."""
    with open(index / "userdict.txt", "a", encoding="utf-8") as f:
        f.write("新词条\n")


def other_terms(index: Path) -> None:
    """The build's term dictionary is not the one the index was built with."""
    (index.parent / "terms.json").write_text('{"Deathtouch": "死触"}', encoding="utf-8")


INDEX_CASES = {
    "segments-garbage": (each("*.seg", overwrite), "damaged search index"),
    "segments-truncated": (each("*.seg", truncate), "damaged search index"),
    "toc-garbage": (each("*.toc", overwrite), "damaged search index"),
    "meta-truncated": (each("meta.json", truncate), "no usable search index"),
    "missing": (shutil.rmtree, "no usable search index"),
    "postings-truncated": (each("postings-*.npy", truncate), "damaged search index"),
    "postings-garbage": (each("postings-*.npy", overwrite), "damaged search index"),
    "postings-terms-garbage": (each("postings-terms.json", overwrite), "damaged search index"),
    "other-format": (
        edit_meta(lambda m: m.update(format=99)),
        "search index built by another version of crkb (format 99",
    ),
    "other-userdict": (add_word, "built with another Chinese term dictionary"),
    "other-jieba": (
        edit_meta(lambda m: m.update(dictionary="0" * 16)),
        "built with another Chinese term dictionary",
    ),
    "other-terms": (other_terms, "built with another term dictionary than"),
}


# helpers --------------------------------------------------------------------------------------
def damaged_copy(seeds_build: Path, tmp_path: Path) -> tuple[Path, Path]:
    """(data dir, build dir) of a private copy of the seeds build."""
    data = tmp_path / "data"
    shutil.copytree(seeds_build, data, symlinks=True)
    return data, (data / "current").resolve()


def one_line(command: str, err: str, file: Path, reason: str) -> str:
    """The message of a one-line failure naming `file`, the reason and the rebuild."""
    assert "Traceback" not in err
    lines = err.strip().split("\n")
    assert len(lines) == 1, err
    assert lines[0].startswith(f"crkb {command}: {file}: "), lines[0]
    assert reason in lines[0] and "crkb build" in lines[0], lines[0]
    return lines[0].removeprefix(f"crkb {command}: ")


def web_503(client, url: str, message: str) -> None:
    r = client.get(url)
    assert r.status_code == 503, (url, r.status_code)
    if url.startswith("/api/"):
        assert r.get_json() == {"error": message}
    else:
        shown = BeautifulSoup(r.get_data(as_text=True), "html.parser").select_one(".message")
        assert shown is not None and shown.get_text() == message


COMMANDS = {
    "versions": ("versions",),
    "show": ("show", RULE),
    "search": ("search", QUERY, "--lang", "en"),
}


# tests ----------------------------------------------------------------------------------------
def test_an_intact_copy_serves(seeds_build, tmp_path, runner):
    """The control: copying the build is not what the damage tests see fail."""
    data, _build = damaged_copy(seeds_build, tmp_path)
    for argv in COMMANDS.values():
        code, out, err = runner(*argv, data=data)
        assert code == 0 and out and not err, (argv, err)
    client = create_app({"DATA": str(data), "TESTING": True}).test_client()
    for url in (f"/rules/{RULE}", f"/api/rules/{RULE}", f"/search?q={QUERY}", "/api/versions"):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("case", list(STORE_CASES), ids=list(STORE_CASES))
def test_damaged_or_foreign_store_is_named_with_a_rebuild_hint(case, seeds_build, tmp_path, runner):
    damage, reason = STORE_CASES[case]
    data, build = damaged_copy(seeds_build, tmp_path)
    store = build / "crkb.sqlite"
    damage(store)
    messages = set()
    for name, argv in COMMANDS.items():
        if case == "bad-pages" and name == "search":
            continue  # search reads only the index, which is intact
        code, _out, err = runner(*argv, data=data)
        assert code == 2, (name, err)
        messages.add(one_line(name, err, store, reason))
    (message,) = messages  # the same words from every command
    client = create_app({"DATA": str(data), "TESTING": True}).test_client()
    for url in (f"/rules/{RULE}", f"/api/rules/{RULE}", f"/v/latest/rules/{RULE}"):
        web_503(client, url, message)
    if case != "bad-pages":  # these fail at open: every page says so
        for url in ("/", "/api/versions", f"/search?q={QUERY}", f"/api/search?q={QUERY}"):
            web_503(client, url, message)


def test_damaged_sounds_are_named_when_a_chinese_slip_first_reads_them(
    seeds_build, tmp_path, runner
):
    """The Chinese words' sounds are read at the first slip of a Chinese query, not at open."""
    data, build = damaged_copy(seeds_build, tmp_path)
    index = build / "index"
    (index / "sounds.json").write_text('{"readings": {"peng": "朋"}}', encoding="utf-8")
    code, out, err = runner(*COMMANDS["search"], data=data)  # an English query: not read
    assert code == 0 and out and not err
    code, _out, err = runner("search", "朋洛客", "--lang", "zh", data=data)
    assert code == 2
    message = one_line("search", err, index, "damaged search index")
    client = create_app({"DATA": str(data), "TESTING": True}).test_client()
    web_503(client, "/api/search?q=朋洛客&lang=zh", message)


@pytest.mark.parametrize("case", list(INDEX_CASES), ids=list(INDEX_CASES))
def test_damaged_or_foreign_index_is_named_with_a_rebuild_hint(case, seeds_build, tmp_path, runner):
    damage, reason = INDEX_CASES[case]
    data, build = damaged_copy(seeds_build, tmp_path)
    index = build / "index"
    damage(index)
    code, _out, err = runner(*COMMANDS["search"], data=data)
    assert code == 2
    message = one_line("search", err, index, reason)
    for argv in (COMMANDS["versions"], COMMANDS["show"]):  # the store is intact and still serves
        code, out, err = runner(*argv, data=data)
        assert code == 0 and out and not err
    client = create_app({"DATA": str(data), "TESTING": True}).test_client()
    web_503(client, f"/search?q={QUERY}", message)
    web_503(client, f"/api/search?q={QUERY}", message)
    assert client.get(f"/rules/{RULE}").status_code == 200


def test_index_block_damaged_after_opening_is_a_503_not_a_500(seeds_build, tmp_path):
    """Whoosh reads stored fields lazily: a bad block shows only in the query that reads it."""
    from crkb.search.engine import Searcher

    data, build = damaged_copy(seeds_build, tmp_path)
    searcher = Searcher(build / "index")
    assert searcher.search(QUERY, lang="en")["hits"]
    (seg,) = (build / "index").glob("*.seg")
    size = seg.stat().st_size
    with open(seg, "r+b") as f:  # the open searcher still reads this file: damage it in place
        f.write(_noise(size - 4096))
    app = create_app({"DATA": str(data), "TESTING": True})
    served = app.extensions["crkb"]
    served.current()
    served.memo[("searcher",)] = searcher  # the server opened its index before the damage
    r = app.test_client().get(f"/api/search?q={QUERY}%20deck&lang=en")
    assert r.status_code == 503, r.get_data(as_text=True)[:300]
    assert re.match(
        rf"^{re.escape(str(build / 'index'))}: damaged search index \(", r.get_json()["error"]
    )
    assert "crkb build" in r.get_json()["error"]
