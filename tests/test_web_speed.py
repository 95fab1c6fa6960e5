"""What makes every page as fast as a stored one, seen from outside: conditional and compressed
answers, rule columns rendered once (at build time for the newest release) and kept on disk for
every worker, warm workers. The speed itself is measured by scripts/bench_web.py, not here."""

from __future__ import annotations

import gzip
import os
import sqlite3
from pathlib import Path

import pytest

from crkb.store.db import Store
from crkb.store.diskcache import DiskCache
from crkb.store.location import current_build
from crkb.web import create_app, data, fragments, rendering

pytestmark = pytest.mark.archive


# conditional and compressed answers ---------------------------------------------------------------
@pytest.mark.parametrize("url", ["/rules/702.2?lang=both", "/api/rules/702.2", "/search?q=trample"])
def test_a_repeat_visit_is_a_304_without_a_body(client, url: str) -> None:
    first = client.get(url)
    assert first.status_code == 200
    etag, modified = first.headers["ETag"], first.headers["Last-Modified"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == etag
    since = client.get(url, headers={"If-Modified-Since": modified})
    assert since.status_code == 304
    other = client.get(url, headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.get_data() == first.get_data()


@pytest.mark.parametrize("url", ["/rules/702.2?lang=zh", "/glossary", "/api/search?q=trample"])
def test_gzip_answers_decompress_to_the_same_page(client, url: str) -> None:
    plain = client.get(url)
    packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.get_data()) < len(plain.get_data()) / 2
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert packed.headers["ETag"] != plain.headers["ETag"]  # each encoding its own tag
    again = client.get(
        url, headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]}
    )
    assert again.status_code == 304


def test_small_answers_and_errors_are_not_compressed(client) -> None:
    small = client.get("/api/rules/100.1?lang=en", headers={"Accept-Encoding": "gzip"})
    assert small.status_code == 200 and len(small.get_data()) < 1024
    assert "Content-Encoding" not in small.headers
    missing = client.get("/rules/99999", headers={"Accept-Encoding": "gzip"})
    assert missing.status_code == 404 and "Content-Encoding" not in missing.headers
    assert "ETag" not in missing.headers


def test_a_rebuild_changes_the_etag(archive_build: Path, tmp_path: Path) -> None:
    real = current_build(archive_build)
    (tmp_path / "builds").mkdir()
    for name in ("a", "b"):
        os.symlink(real, tmp_path / "builds" / name)
    os.symlink("builds/a", tmp_path / "current")
    c = create_app({"DATA": str(tmp_path)}).test_client()
    before = c.get("/rules/702.2")
    assert (
        c.get("/rules/702.2", headers={"If-None-Match": before.headers["ETag"]}).status_code == 304
    )
    os.symlink("builds/b", tmp_path / "next")
    os.replace(tmp_path / "next", tmp_path / "current")
    after = c.get("/rules/702.2", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.get_data() == before.get_data()
    assert after.headers["ETag"] != before.headers["ETag"]


# rule columns rendered once -----------------------------------------------------------------------
def _sample(store: Store, version: str, lang: str, n: int = 60) -> list[str]:
    rows = store.conn.execute(
        "SELECT number FROM rules WHERE doc=?", (store.doc_id(version, lang),)
    )
    numbers = [x for (x,) in rows]
    return numbers[:: max(1, len(numbers) // n)]


def test_a_kept_column_is_the_column_rendered_in_place(archive_build: Path, store: Store) -> None:
    """Markers stand for the versions in a kept column: filled in, it is byte for byte what
    rendering with the real versions gives, pinned or not, in each language."""
    app = create_app({"DATA": str(archive_build)})
    latest = store.version_ids()[-1]
    with app.test_request_context("/"):
        for version, lang in [
            (latest, "en"),
            (store.version_ids("zh")[-1], "zh"),
            ("2010-02-01", "en"),
        ]:
            terms = data.terms_for(store, version, lang)
            for number in _sample(store, version, lang):
                col = data.column(store, version, lang, number, terms)
                assert col is not None
                marked = fragments.render_column(
                    col, {}, fragments.LINK_MARK, fragments.VERSION_MARK
                )
                for pin in (None, latest, "2010-02-01"):
                    direct = fragments.render_column(col, {}, pin, version)
                    assert fragments.fill(marked, version, pin) == direct, (version, number, pin)


def test_pages_of_the_newest_release_need_no_rendering_after_the_build(
    archive_build: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build step renders every column of the newest texts: a page asks no rule's links,
    references or citations any more, and shows the same page."""
    from crkb.web.prerender import prerender

    number = "702.15"
    before = create_app({"DATA": str(archive_build), "PAGE_CACHE": False}).test_client()
    expected = before.get(f"/rules/{number}?lang=both").get_data()
    count, _seconds = prerender(archive_build)
    newest = {lang: store.version_ids(lang)[-1] for lang in ("en", "zh")}
    assert count >= len(_sample(store, newest["en"], "en", 10**6))  # every rule of the English
    names, contents = DiskCache(current_build(archive_build) / rendering.cache_name()).counts()
    assert names >= count and contents <= names

    def no_rendering(*args: object, **kwargs: object) -> None:
        raise AssertionError("a column was rendered on the request path")

    monkeypatch.setattr(data, "column", no_rendering)
    after = create_app({"DATA": str(archive_build), "PAGE_CACHE": False}).test_client()
    for lang in ("en", "zh", "both"):
        assert after.get(f"/rules/{number}?lang={lang}").status_code == 200
    assert after.get(f"/rules/{number}?lang=both").get_data() == expected
    pinned = after.get(f"/v/{newest['en']}/rules/{number}?lang=both")
    assert f'href="/v/{newest["en"]}/rules/' in pinned.get_data(as_text=True)


def test_a_page_rendered_by_one_worker_is_served_by_another(
    archive_build: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages are kept on disk beside the build: a second app (another worker, or one started
    later) answers from there without rendering."""
    from crkb.web import pages

    url = "/v/2012-07-01/rules/613.1?lang=en"
    first = create_app({"DATA": str(archive_build)}).test_client().get(url)
    assert first.status_code == 200

    def no_rendering(*args: object, **kwargs: object) -> None:
        raise AssertionError("the page was rendered again")

    monkeypatch.setattr(pages, "render_template", no_rendering)
    second = create_app({"DATA": str(archive_build)}).test_client().get(url)
    assert second.status_code == 200 and second.get_data() == first.get_data()


@pytest.mark.parametrize("page_cache", [True, False])
def test_a_column_rendered_by_one_worker_is_shown_by_another(
    archive_build: Path, store: Store, monkeypatch: pytest.MonkeyPatch, page_cache: bool
) -> None:
    """A column is written to disk with the page that shows it, or when the request ends if no
    page is kept: another worker showing it on another page does not render it again."""
    from crkb.store import reads
    from crkb.views.params import url_rule_number

    version = "2012-07-01"  # no Chinese text: the `both` page shows the English column alone
    disk = DiskCache(current_build(archive_build) / rendering.cache_name())
    number = next(
        n
        for n in reads.numbers(store, store.doc_id(version, "en") or 0)
        if url_rule_number(n) == n
        and disk.get(fragments.DISK_PREFIX + fragments.fragment_name(version, "en", n, {})) is None
    )
    disk.close()
    url = f"/v/{version}/rules/{number}"
    first = create_app({"DATA": str(archive_build), "PAGE_CACHE": page_cache}).test_client()
    shown = first.get(f"{url}?lang=en").get_data(as_text=True)

    def no_rendering(*args: object, **kwargs: object) -> None:
        raise AssertionError("the column was rendered again")

    monkeypatch.setattr(fragments, "render_column", no_rendering)
    second = create_app({"DATA": str(archive_build)}).test_client().get(f"{url}?lang=both")
    assert second.status_code == 200
    column = shown[shown.index('<article class="col"') : shown.index("</article>")]
    assert column in second.get_data(as_text=True)


def test_pages_kept_by_former_code_are_not_served_by_an_upgraded_crkb(
    archive_build: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pages and columns kept beside a build are the rendering of the code that made them:
    crkb upgraded in place (a mended template) renders its own, not the former code's."""
    url = "/v/2012-07-01/rules/100.1?lang=en"

    def served_by(code: str) -> str:
        monkeypatch.setattr(rendering, "signature", lambda: code)
        client = create_app({"DATA": str(archive_build)}).test_client()
        return client.get(url).get_data(as_text=True)

    fresh = served_by("former")
    assert "100.1" in fresh
    with sqlite3.connect(current_build(archive_build) / rendering.cache_name()) as conn:
        conn.execute("UPDATE blobs SET body = ?", (b"\x00text/html\nthe former code's page",))
    assert served_by("former") == "the former code's page"  # what that code kept is served
    assert served_by("upgraded") == fresh  # rendered again by the new code
    cache = current_build(archive_build) / "cache"
    assert not list(cache.glob("web-former*"))  # and the former code's cache is gone
    monkeypatch.undo()
    assert rendering.cache_name().startswith("cache/web-")


# warm workers -----------------------------------------------------------------------------------
def test_a_warmed_worker_has_jieba_opencc_and_the_index_loaded(archive_build: Path) -> None:
    from crkb.sources import script
    from crkb.web.warm import warm

    script._t2s.cache_clear()  # the process's converter, as a new worker has none yet
    app = create_app({"DATA": str(archive_build)})
    done = warm(app)
    assert done == [
        "store",
        "glossary terms, translation badges",
        "search (jieba, OpenCC)",
        "templates",
    ]
    searcher = app.extensions["crkb"].memo[("searcher",)]
    assert searcher._cutter is not None and script._t2s.cache_info().currsize == 1
    assert app.config["PAGE_CACHE"] is True  # the warm-up page was kept nowhere, and it is back on


def test_warming_without_a_build_warms_nothing(tmp_path: Path) -> None:
    from crkb.web.warm import warm

    app = create_app({"DATA": str(tmp_path)})
    assert warm(app) == []
    assert app.test_client().get("/rules/702.2").status_code == 503


# the cache on disk -------------------------------------------------------------------------------
@pytest.mark.parametrize("place", ["garbage", "missing directory"])
def test_a_cache_that_cannot_be_used_is_only_a_miss(tmp_path: Path, place: str) -> None:
    path = tmp_path / rendering.cache_name()
    if place == "garbage":
        path.parent.mkdir()
        path.write_bytes(b"not a database at all" * 100)
    else:
        path = tmp_path / "gone" / rendering.cache_name()
    cache = DiskCache(path)
    cache.put("new", b"body")
    assert cache.get("new") is None
    assert cache.counts() == (0, 0)


def test_caching_leaves_the_build_directory_time_alone(tmp_path: Path) -> None:
    """Old builds are pruned oldest first by their directory's time: a worker caching pages of
    an old build must not make it look new."""
    build = tmp_path / "builds" / "old"
    build.mkdir(parents=True)
    os.utime(build, (1_000_000, 1_000_000))
    cache = DiskCache(build / rendering.cache_name())
    cache.put("page", b"body")
    assert cache.get("page") == b"body"
    cache.close()
    assert build.stat().st_mtime == 1_000_000


def test_the_same_content_is_stored_once(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path / rendering.cache_name())
    cache.put("a", b"same column")
    cache.put("b", b"same column")
    cache.put("c", b"another")
    assert cache.get("a") == cache.get("b") == b"same column"
    assert cache.counts() == (3, 2)
    with sqlite3.connect(tmp_path / rendering.cache_name()) as conn:
        assert conn.execute("SELECT count(*) FROM blobs").fetchone() == (2,)


# glossary matching per text --------------------------------------------------------------------
def test_matching_the_terms_a_text_holds_finds_what_one_regex_over_all_terms_finds(
    store: Store,
) -> None:
    """Each text is matched by a regex over the glossary terms it holds (compiled in
    microseconds) instead of one over every term (~10 ms per release): same matches, same
    places, in every rule and glossary text of a few releases in both languages."""
    from crkb.graph import term_matching
    from crkb.web import render

    docs = [("2005-10-01", "en"), (store.version_ids("en")[-1], "en")]
    docs += [(store.version_ids("zh")[-1], "zh")]
    for version, lang in docs:
        doc = store.doc_id(version, lang)
        rows = store.conn.execute(
            "SELECT term, text FROM glossary WHERE doc=? ORDER BY ord", (doc,)
        ).fetchall()
        terms = render.glossary_terms(rows, lang)
        assert terms.pattern is not None
        whole = term_matching._build_regex(tuple(terms.pattern.alts), lang)
        texts = [t for (t,) in store.conn.execute("SELECT text FROM rules WHERE doc=?", (doc,))]
        found = 0
        odd = [
            "Æther and ſome Kelvin K trample",
            "in that case, a Case; Æther: in that case, Cases",
        ]
        for text in texts + [x for _term, x in rows] + odd:
            a = [(m.span(), m.group(0), m.group(1)) for m in whole.finditer(text)]
            b = [(m.span(), m.group(0), m.group(1)) for m in terms.pattern.finditer(text)]
            assert a == b, (version, lang, text)
            found += len(a)
        assert found > 1000, (version, lang)  # the texts do use their glossary


def test_a_cache_an_older_crkb_wrote_compressed_is_still_read(tmp_path: Path) -> None:
    import zlib

    path = tmp_path / rendering.cache_name()
    DiskCache(path).put("new", b"kept whole")
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO blobs VALUES (?, ?)", (b"digest", zlib.compress(b"old body")))
        conn.execute("INSERT INTO names VALUES ('old', ?)", (b"digest",))
    cache = DiskCache(path)
    assert cache.get("old") == b"old body"
    assert cache.get("new") == b"kept whole"


def test_kept_columns_count_their_real_size_against_the_bound(tmp_path: Path) -> None:
    # a Chinese column takes two bytes a character: counted by its length, the 2 MB bound held
    # twice as much Chinese as it says
    kept = fragments.Fragments(DiskCache(tmp_path / rendering.cache_name()))
    column = "战场上的永久物" * 1000  # 7,000 characters
    kept.put("zh column", column)
    assert kept.get("zh column") == column
    assert kept.memory.currsize >= 2 * len(column)
    for i in range(fragments.MEMORY_BYTES // (2 * len(column)) + 20):
        kept.put(f"zh column {i}", column + str(i))
    assert kept.memory.currsize <= fragments.MEMORY_BYTES
