"""Per-process state: the open Store (reopened when a new build is published) and a page cache."""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cachetools import LRUCache

from crkb.errors import NotFound, StoreError
from crkb.store.db import DB_NAME, Store
from crkb.store.diskcache import DiskCache
from crkb.store.location import INDEX_DIR, current_build, current_link, link_target
from crkb.web import rendering
from crkb.web.fragments import Fragments

# glossary matchers: every text of the releases in use, EN and ZH (~0.3 MB each once used, its
# automaton and rendered links: ~15 MB over the 47 texts of bench_web's last 40 releases)
TERMS_KEPT = 48
# per worker; the shared tier on disk (~15 µs a page) holds the rest. 2 MB since session 17,
# when the players' questions brought a worker to the 150 MB budget (3 MB before).
PAGE_CACHE_BYTES = 2 * 1024 * 1024
ENTRY_BYTES = 200  # a cached page's own overhead (key, tuple), beside its body

Page = tuple[int, str, bytes]  # status, mimetype, body
PageKey = tuple[object, ...]


def _page_size(value: Page) -> int:
    return len(value[2]) + ENTRY_BYTES


class PageCache:
    """Rendered responses, least recently used dropped first, bounded by their bytes (a
    glossary page is ~400 kB, a rule page ~15 kB): a worker's memory stays flat under load."""

    def __init__(self, max_bytes: int = PAGE_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._items: LRUCache[PageKey, Page] = LRUCache(maxsize=max_bytes, getsizeof=_page_size)
        self._lock = threading.Lock()

    @property
    def bytes(self) -> int:
        """The bytes held now (bodies and their overhead)."""
        return int(self._items.currsize)

    def get(self, key: PageKey) -> Page | None:
        with self._lock:
            hit: Page | None = self._items.get(key)
            return hit

    def put(self, key: PageKey, value: Page) -> None:
        if _page_size(value) > self.max_bytes // 8:
            return  # one huge page must not flush everything else
        with self._lock:
            self._items[key] = value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


class Served:
    """The build being served. `current()` costs one readlink when nothing changed."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.build_id: str | None = None
        self.store: Store | None = None
        self.memo: dict[
            tuple[object, ...], object
        ] = {}  # per-build derived values (searcher, lineage…)
        self.terms: LRUCache[tuple[object, ...], object] = LRUCache(maxsize=TERMS_KEPT)
        self.pages = PageCache()
        self._fragments: Fragments | None = None
        self._fragments_of: Store | None = None  # the store `_fragments` is beside
        self._link = current_link(data)
        self._reviews: Path | None = None
        self._lock = threading.Lock()
        self._memo_lock = threading.Lock()

    def current(self) -> tuple[str, Store]:
        """(build id, Store) of the newest published build; the old one stays if the new fails."""
        cid = link_target(self._link)
        if cid is not None and cid == self.build_id and self.store is not None:
            return cid, self.store
        with self._lock:
            if cid is not None and cid != self.build_id:
                try:
                    store = Store(current_build(self.data) / DB_NAME)
                except StoreError:
                    if self.store is None:
                        raise
                else:
                    if self.store is not None:  # the old build's objects may go now
                        gc.unfreeze()
                    self.store, self.build_id = store, cid
                    self.memo = {}
                    self.terms.clear()
                    self.pages.clear()
                    self._fragments = None
            if self.store is None or self.build_id is None:
                raise StoreError(f"{self.data}: no build yet; run `crkb build`")
            return self.build_id, self.store

    def fragments(self) -> Fragments:
        """The rendered rule columns kept beside the build being served."""
        _bid, store = self.current()
        kept = self._fragments
        if kept is None or self._fragments_of is not store:
            path = store.path.parent / rendering.cache_name()
            if kept is None or kept.disk.path != path:
                rendering.drop_former(path)
                kept = self._fragments = Fragments(DiskCache(path))
            self._fragments_of = store
        return kept

    def disk(self) -> DiskCache:
        """The cache on disk beside the build being served (pages and columns)."""
        return self.fragments().disk

    def flush(self) -> None:
        """Write what the cache on disk left for later (at the end of every request)."""
        kept = self._fragments
        if kept is not None:
            kept.disk.flush()

    def reviews_stamp(self) -> int:
        """When the translators' review file last changed: rule pages badge open findings, so a
        new verdict must not be hidden by a cached page."""
        if self._reviews is None:
            from crkb.checks.store_findings import reviews_path

            self._reviews = reviews_path(self.data)
        try:
            return os.stat(self._reviews).st_mtime_ns
        except OSError:
            return 0

    def badge_groups(self, version: str) -> dict[str, dict[str, int]]:
        """Open findings of `version` by the rule page that badges them (the rule's own page and
        its parent's), grouped once per build and review-file change (the counts are kept only
        so grouped)."""
        from crkb.checks.review import ReviewFile
        from crkb.checks.store_findings import open_counts, reviews_path
        from crkb.numbers import parent_of

        def group() -> dict[str, dict[str, int]]:
            _bid, store = self.current()
            groups: dict[str, dict[str, int]] = {}
            reviews = ReviewFile(reviews_path(self.data))
            for number, count in open_counts(store, reviews, version).items():
                groups.setdefault(number, {})[number] = count
                parent = parent_of(number)
                if parent is not None:
                    groups.setdefault(parent, {})[number] = count
            return groups

        groups: dict[str, dict[str, int]] = self.memoised(
            ("badge groups", version, self.reviews_stamp()), group
        )
        return groups

    def renumbered(self, version: str) -> dict[str, tuple[str, str]]:
        """English number → (the number the translation of `version` gives it, its Chinese
        text) for each rule the translation holds under a sibling's number (the check's
        `misnumbered_rule` findings): a rule page shows that text where the number finds none.
        Kept per build as that small map, not the findings."""
        from crkb.checks.findings import unmark
        from crkb.checks.store_findings import findings

        def make() -> dict[str, tuple[str, str]]:
            _bid, store = self.current()
            try:
                _vid, found = findings(store, version, keep=False)
            except (NotFound, StoreError):  # a store built without checks: nothing to say
                return {}
            return {
                f.rule: (f.items[1], unmark(f.zh))
                for f in found
                if f.kind == "misnumbered_rule" and len(f.items) == 2
            }

        kept: dict[str, tuple[str, str]] = self.memoised(("renumbered", version), make)
        return kept

    def index_dir(self) -> Path:
        """The search index beside the store being served (not the `current` link, which a
        build may have switched since this request opened the store)."""
        _bid, store = self.current()
        return store.path.parent / INDEX_DIR

    def memoised(self, key: tuple[object, ...], make: Callable[[], Any]) -> Any:  # noqa: ANN401
        """A value computed once per build (searcher, glossary orderings, lineage); the glossary
        matchers of the texts in use (`("terms", …)`, ~0.3 MB each) only for the last few."""
        kept = self.terms if key[:1] == ("terms",) else self.memo
        with self._memo_lock:  # an LRU reorders on reading: threads take turns
            value = kept.get(key)
        if value is None:
            value = make()
            with self._memo_lock:
                kept[key] = value
        return value
