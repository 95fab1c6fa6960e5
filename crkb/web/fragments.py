"""A rule page's columns rendered once per rule text and kept on disk beside the build.

The linking of references and glossary terms, the hover texts and the "cited by" list cost most of
a rule page. They depend on the text (version, language, rule) only, not on the page that shows
them, so a column is rendered with markers where the page's own version goes (its rule links,
its glossary links) and kept by (version, language, rule) in the build's DiskCache; a request
looks it up and fills the markers in. Pages stay byte-identical to rendering in place.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass

from cachetools import LRUCache
from flask import current_app, request
from markupsafe import Markup

from crkb.graph.term_matching import anchor
from crkb.store import reads
from crkb.store.db import Store
from crkb.store.diskcache import DiskCache
from crkb.web import data
from crkb.web.render import Terms, linked
from crkb.web.urls import url_for

# Stand-ins for the versions in a column's links (the page's, the text's own): plain letters,
# so url_for leaves them be, and never in a rule text (checked before a column is kept).
LINK_MARK = "QcrkbLinkVersionQ"
VERSION_MARK = "QcrkbVersionQ"
DISK_PREFIX = "col\t"  # beside the pages in the build's DiskCache
MEMORY_BYTES = 2 * 1024 * 1024  # per worker, in front of the disk

Badges = dict[str, int]  # rule number → open translation findings


@dataclass(frozen=True, slots=True)
class Shown:
    """What a page needs to know about a column without rendering it: language, version, the
    rule itself (its title heads the page)."""

    lang: str
    version: str
    rule: data.Para


class Fragments:
    """Columns by (version, language, rule, badges): a small in-memory LRU bounded in bytes in
    front of the build's disk cache."""

    def __init__(self, disk: DiskCache) -> None:
        self.disk = disk
        # a string's own size: a Chinese column takes two bytes a character, not one
        self.memory: LRUCache[str, str] = LRUCache(maxsize=MEMORY_BYTES, getsizeof=sys.getsizeof)
        self._lock = threading.Lock()  # the development server runs requests in threads

    def get(self, name: str) -> str | None:
        with self._lock:
            hit: str | None = self.memory.get(name)
        if hit is not None:
            return hit
        raw = self.disk.get(DISK_PREFIX + name)
        if raw is None:
            return None
        text = raw.decode("utf-8")
        self._remember(name, text)
        return text

    def _remember(self, name: str, text: str) -> None:
        if sys.getsizeof(text) < MEMORY_BYTES // 8:
            with self._lock:
                self.memory[name] = text

    def put(self, name: str, text: str) -> None:
        self._remember(name, text)
        # written with the page that shows it (or when the request ends): one transaction
        self.disk.put(DISK_PREFIX + name, text.encode("utf-8"), later=True)


def fragment_name(version: str, lang: str, number: str, badges: Badges) -> str:
    """The cache name of a column: its text's identity and the badges shown in it."""
    name = f"{version}\t{lang}\t{number}"
    if badges:
        shown = ",".join(f"{n}={c}" for n, c in sorted(badges.items()))
        name += "\t" + hashlib.sha256(shown.encode()).hexdigest()[:16]
    return name


def shown(store: Store, version: str, lang: str, number: str) -> Shown | None:
    """The rule `number` of one text, or None when that text lacks it (one indexed query)."""
    doc = store.doc_id(version, lang)
    if doc is None:
        return None
    row = reads.heading_row(store, doc, number)
    if row is None:
        return None
    n, kind, title, text = row
    return Shown(lang, version, data.Para(n, kind, title, text, []))


def render_column(col: data.Column, badges: Badges, link_version: str | None, version: str) -> str:
    """The column's HTML, its rule links pinned to `link_version` (None: unpinned) and its other
    links to `version` (needs a request context; either may be a marker)."""

    def rule_url(n: str) -> str:
        if link_version is None:
            return url_for("pages.rule", number=n)
        return url_for("pages.versioned_rule", version=link_version, number=n)

    glossary_url = url_for("pages.glossary", version=version)

    def render(c: data.Column, para: data.Para, seen: set[str] | None) -> Markup:
        return linked(para.text, para.links, rule_url, c.hover, c.terms, glossary_url, seen)

    # the template alone, without Flask's context processors and signals: it uses none of them
    html = current_app.jinja_env.get_template("_column.html").render(
        col=dataclasses.replace(col, version=version),
        badges={col.lang: badges},
        render=render,
        rule_url=rule_url,
        glossary_anchor=anchor,
    )
    return html[:-1] if html.endswith("\n") else html


_FOLLOWED = re.compile(f'/v/{LINK_MARK}/rules/([^"#?]+)')


def fill(
    html: str, version: str, link_version: str | None, root: str = "", follow: str | None = None
) -> Markup:
    """A kept column for one page: its rule links pinned to `link_version` (or unpinned), its
    other links to the column's own `version`, all below `root` (the request's script root).
    `follow`: the column is an older release's text (a translation) whose numbers are that
    release's; each rule link follows its rule from there into the page's release (the
    `?from=` of the release picker), so a reader stays in the release the page is about."""
    if follow is not None:
        into = link_version or "latest"
        html = _FOLLOWED.sub(lambda m: f"/rules/{m[1]}?version={into}&amp;from={follow}", html)
    if link_version is None:
        html = html.replace(f"/v/{LINK_MARK}/rules/", "/rules/")
    else:
        html = html.replace(f"/v/{LINK_MARK}/", f"/v/{link_version}/")
    if root:
        html = html.replace(' href="/', f' href="{root}/')
    return Markup(html.replace(VERSION_MARK, version))


def rootless(html: str, root: str) -> str:
    """A column as kept for every mount point: its links without the script root of the request
    that rendered it (every link in a column is one url_for made; rule text is escaped, so its
    own quotes never read as an attribute)."""
    return html.replace(f' href="{root}/', ' href="/') if root else html


def column_html(
    fragments: Fragments,
    store: Store,
    col: Shown,
    number: str,
    terms: Callable[[], Terms],
    badges: Badges,
    link_version: str | None,
    follow: str | None = None,
) -> Markup:
    """The column of `number` in one text (`badges`: the open findings it shows, its own and its
    children's), from the cache or rendered and kept (`follow`: see `fill`)."""
    name = fragment_name(col.version, col.lang, number, badges)
    html = fragments.get(name)
    if html is None:
        full = data.column(store, col.version, col.lang, number, terms())
        if full is None:  # the build changed under this request: nothing to keep
            return Markup("")
        if marks_in_text(full):  # never: but then the text must not be touched by fill()
            return Markup(render_column(full, badges, link_version, col.version))
        html = rootless(render_column(full, badges, LINK_MARK, VERSION_MARK), request.script_root)
        fragments.put(name, html)
    return fill(html, col.version, link_version, request.script_root, follow)


def marks_in_text(col: data.Column) -> bool:
    """True when a rule text itself holds a marker (then the column is never kept)."""
    texts = [col.rule.text, col.rule.title or ""]
    texts += [p.text for p in col.children] + [p.title or "" for p in col.children]
    return any(LINK_MARK in t or VERSION_MARK in t for t in texts)
