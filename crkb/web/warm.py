"""Warming a worker before it takes traffic: its first request costs what any other one does."""

from __future__ import annotations

from flask import Flask

from crkb.errors import CrkbError

# A question in each language, which goes through every piece a first search loads (jieba and
# its dictionary, OpenCC, the scopes, the speller, the question's signals); asked directly, so no
# page is cached for it. Not a judged query: a warmed worker has asked none of them yet.
WARM_SEARCHES = (("en", "can a creature with vigilance attack"), ("zh", "警戒生物攻击时会横置吗"))
WARM_RULE = "100.1"


def warm(app: Flask) -> list[str]:
    """Open the store and the search index, load jieba and OpenCC, compile the glossary
    matchers of the newest texts and the page templates. Returns what was warmed; a missing or
    damaged build warms nothing (the first request reports it as usual)."""
    from crkb.web import data, pages

    done: list[str] = []
    with app.test_request_context("/"):
        served = app.extensions["crkb"]
        try:
            _bid, store = served.current()
            done.append("store")
            latest = store.version_ids()[-1]
            for lang in data.LANGS:
                v = store.newest_text(latest, lang)
                if v:
                    pages._terms(store, v, lang)
                    if lang == "zh":
                        served.badge_groups(v)
            done.append("glossary terms, translation badges")
            searcher = pages.searcher()
            searcher.warm()
            for lang, q in WARM_SEARCHES:
                searcher.search(q, lang=lang, limit=20)
            done.append("search (jieba, OpenCC)")
        except CrkbError:
            return done
    for name in ("rule.html", "_column.html", "search.html", "index.html", "error.html"):
        app.jinja_env.get_template(name)
    cache, app.config["PAGE_CACHE"] = app.config.get("PAGE_CACHE"), False
    try:  # one page through the whole request path, kept nowhere
        app.test_client().get(f"/rules/{WARM_RULE}?lang=both")
    finally:
        app.config["PAGE_CACHE"] = cache
    done.append("templates")
    return done
