"""A build step: every rule column of the newest texts, and every rule page of the newest release
in each language choice, rendered into the build's web cache, so those pages are a lookup from
their first request (and any other page a thin template over kept columns)."""

from __future__ import annotations

import time
from pathlib import Path

from crkb.errors import CrkbError

# each choice of language (a rule page without `?lang=` and no cookie is the `both` page)
PAGE_CHOICES = ("?lang=both", "?lang=en", "?lang=zh")


def prerender(data: Path) -> tuple[int, float]:
    """(columns rendered, seconds) for the build current in `data`: each rule of the newest
    English and Chinese texts as the rule pages ask for them, then those pages."""
    from crkb.numbers import normalise
    from crkb.store import reads
    from crkb.web import create_app, fragments, pages
    from crkb.web import data as web_data

    t0 = time.perf_counter()
    app = create_app({"DATA": str(data), "PAGE_CACHE": False})
    served = app.extensions["crkb"]
    with app.test_request_context("/"):
        try:
            _bid, store = served.current()
        except CrkbError:
            return 0, time.perf_counter() - t0
        kept: list[tuple[str, bytes]] = []
        shown: set[str] = set()
        latest = store.version_ids()[-1]
        for lang in web_data.LANGS:
            version = store.newest_text(latest, lang)
            if version is None:
                continue
            groups = served.badge_groups(version) if lang == "zh" else {}
            terms = pages._terms(store, version, lang)
            doc = store.doc_id(version, lang)
            for number in reads.numbers(store, doc) if doc is not None else ():
                if normalise(number) != number:
                    continue  # not a page's number (the page redirects to the normal form)
                col = web_data.column(store, version, lang, number, terms)
                if col is None or fragments.marks_in_text(col):
                    continue
                badges = groups.get(number, {})
                html = fragments.render_column(
                    col, badges, fragments.LINK_MARK, fragments.VERSION_MARK
                )
                name = fragments.fragment_name(version, lang, number, badges)
                kept.append((fragments.DISK_PREFIX + name, html.encode("utf-8")))
                shown.add(number)
        served.disk().put_many(kept)
        numbers = sorted(shown)
    app.config["PAGE_CACHE"] = True
    client = app.test_client()
    for number in numbers:
        for choice in PAGE_CHOICES:
            client.get(f"/rules/{number}{choice}")  # kept by the page cache's own hook
    served.disk().close()
    return len(kept), time.perf_counter() - t0
