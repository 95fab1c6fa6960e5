"""Per-process state: the open Store (reopened when a new build is published) and a page cache."""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path

from crkb.errors import StoreError
from crkb.store.db import DB_NAME, Store
from crkb.store.location import INDEX_DIR, current_build, current_id

PAGE_CACHE_SIZE = 4096
PAGE_CACHE_BYTES = 64 * 1024 * 1024


class PageCache:
    """A bounded LRU of rendered responses: key → (status, mimetype, body), bounded by count and
    by bytes (a glossary page is ~400 kB, a rule page ~20 kB)."""

    def __init__(self, size: int = PAGE_CACHE_SIZE, max_bytes: int = PAGE_CACHE_BYTES) -> None:
        self.size, self.max_bytes, self.bytes = size, max_bytes, 0
        self._items: OrderedDict[tuple, tuple[int, str, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> tuple[int, str, bytes] | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: tuple, value: tuple[int, str, bytes]) -> None:
        if len(value[2]) > self.max_bytes // 8:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= len(old[2])
            self._items[key] = value
            self.bytes += len(value[2])
            while len(self._items) > self.size or self.bytes > self.max_bytes:
                _k, dropped = self._items.popitem(last=False)
                self.bytes -= len(dropped[2])

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._items)


class Served:
    """The build being served. `current()` costs one readlink when nothing changed."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.build_id: str | None = None
        self.store: Store | None = None
        self.memo: dict[tuple, object] = {}  # per-build derived values (term regexes, lineage…)
        self.pages = PageCache()
        self._lock = threading.Lock()

    def current(self) -> tuple[str, Store]:
        """(build id, Store) of the newest published build; the old one stays if the new fails."""
        cid = current_id(self.data)
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
                    self.store, self.build_id = store, cid
                    self.memo = {}
                    self.pages.clear()
            if self.store is None or self.build_id is None:
                raise StoreError(f"{self.data}: no build yet; run `crkb build`")
            return self.build_id, self.store

    def reviews_stamp(self) -> int:
        """When the translators' review file last changed: rule pages badge open findings, so a
        new verdict must not be hidden by a cached page."""
        from crkb.checks.store_findings import reviews_path

        try:
            return reviews_path(self.data).stat().st_mtime_ns
        except OSError:
            return 0

    def open_findings(self, version: str) -> dict[str, int]:
        """Rule → open translation findings in `version`, read once per build and review-file
        change (rule pages badge them)."""
        from crkb.checks.review import ReviewFile
        from crkb.checks.store_findings import open_counts, reviews_path

        _bid, store = self.current()
        stamp = self.reviews_stamp()
        make = lambda: open_counts(store, ReviewFile(reviews_path(self.data)), version)  # noqa: E731
        return self.memoised(("open findings", version, stamp), make)  # type: ignore[return-value]

    def index_dir(self) -> Path:
        """The search index beside the store being served (not the `current` link, which a
        build may have switched since this request opened the store)."""
        _bid, store = self.current()
        return store.path.parent / INDEX_DIR

    def memoised(self, key: tuple, make):
        """A value computed once per build (term regexes, glossary orderings, lineage)."""
        value = self.memo.get(key)
        if value is None:
            value = make()
            self.memo[key] = value
        return value
