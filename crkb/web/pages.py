"""The HTML pages: home, rule pages, glossary, keywords, search, diff, history, translation."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup, escape

from crkb.diff.lookup import number_in, translated_number, whereabouts
from crkb.errors import BadInput, NotFound
from crkb.graph.term_matching import anchor
from crkb.numbers import normalise
from crkb.search.analysis import has_cjk
from crkb.search.engine import MAX_LIMIT, Searcher
from crkb.search.planning import MAX_QUERY
from crkb.store.db import Store
from crkb.views import params, shapes
from crkb.web import data, fragments, urls
from crkb.web.hits import hits_html
from crkb.web.render import Link, Terms, highlight, highlighted, linked
from crkb.web.serving import lang_choice, reading_choice, served

bp = Blueprint("pages", __name__)


def missing_rule(number: str, version: str | None, message: str) -> NotFound:
    e = NotFound(message)
    e.number, e.version = number, version  # type: ignore[attr-defined]  # read by the 404 page
    return e


resolve = params.url_version


def _langs() -> list[str]:
    return params.langs(lang_choice())


def _common(store: Store, version: str) -> dict[str, Any]:
    ids = store.version_ids()
    return {
        "version": version,
        "latest": ids[-1],
        "versions": list(reversed(ids)),
        "zh_versions": set(store.version_ids("zh")),
        "choice": lang_choice(),
        "lang_names": data.LANG_NAMES,
    }


ACTION_MARK = "QcrkbActionQ"  # where a page's own action goes in a kept release picker


def _version_form(store: Store, vid: str) -> Callable[[str], Markup]:
    """The release picker of a rule page of `vid` (~120 options, a tenth of an old page's
    rendering), rendered once per build and release; each page fills in its own action."""

    def make() -> str:
        ids = store.version_ids()
        macro = current_app.jinja_env.get_template("_macros.html").module.version_form  # type: ignore[attr-defined]  # a template's macros are its module's attributes
        return str(
            macro(
                ACTION_MARK,
                vid,
                list(reversed(ids)),
                ids[-1],
                set(store.version_ids("zh")),
                origin=vid,  # the rule is followed from this release's numbers to the chosen one's
            )
        )

    html: str = served().memoised(("version form", vid), make)
    return lambda action: Markup(html.replace(ACTION_MARK, str(escape(action))))


def rule_url(number: str, version: str | None) -> str:
    if version is None:
        return urls.url_for("pages.rule", number=number)
    return urls.url_for("pages.versioned_rule", version=version, number=number)


def _terms(store: Store, version: str, lang: str) -> Terms:
    terms: Terms = served().memoised(
        ("terms", version, lang), lambda: data.terms_for(store, version, lang)
    )
    return terms


@bp.get("/")
@bp.get("/v/<version>/")
def home(version: str | None = None) -> ResponseReturnValue:
    _bid, store = served().current()
    vid = resolve(store, version)
    langs = _langs()
    cols = []
    for lang in langs:
        v = store.newest_text(vid, lang)
        if v:
            cols.append((lang, v, data.chapters(store, v, lang), data.sections(store, v, lang)))
    infos = {v.id: v for v in store.versions()} if request.path == "/" or version else {}
    return render_template(
        "index.html",
        cols=cols,
        infos=infos,
        pinned=version is not None,
        translated=store.newest_text(vid, "zh"),  # the translation the translators' check opens
        **_common(store, vid),
    )


@bp.get("/rules/<number>")
def rule(number: str) -> ResponseReturnValue:
    asked = request.args.get("version")
    if asked:
        _bid, store = served().current()
        vid = resolve(store, asked)
        target = params.url_rule_number(number)
        query: dict[str, Any] = {"lang": request.args["lang"]} if request.args.get("lang") else {}
        origin = request.args.get("from")  # the release picker: the rule as numbered there
        if origin and origin != vid:
            there = number_in(store, target, resolve(store, origin), vid)
            if there is None:  # not in the chosen release: where it was, release by release
                return redirect(url_for("pages.history", number=target, version=origin, absent=vid))
            target = there
        if vid == store.version_ids()[-1]:
            return redirect(url_for("pages.rule", number=target, **query))
        return redirect(url_for("pages.versioned_rule", version=vid, number=target, **query))
    return _rule_page(number, None)


@bp.get("/v/<version>/rules/<number>")
def versioned_rule(version: str, number: str) -> ResponseReturnValue:
    return _rule_page(number, version)


def _rule_page(raw: str, version: str | None) -> ResponseReturnValue:
    _bid, store = served().current()
    number = params.url_rule_number(raw)
    if number != raw:  # the canonical address, asked the same way (`?lang=`)
        query = request.query_string.decode("latin-1")
        return redirect(rule_url(number, version) + (f"?{query}" if query else ""), code=301)
    vid = resolve(store, version)
    link_version = None if version is None else vid
    cols, missing = [], []
    for lang in _langs():
        col = _column_of(store, vid, lang, number)
        if col is None:
            missing.append((lang, store.newest_text(vid, lang)))
        else:
            cols.append(col)
    # a rule the translation numbers as its sibling: said, and its Chinese text shown
    misnumbered = (
        served().renumbered(vid).get(number)
        if any(lang == "zh" and v == vid for lang, v in missing)
        else None
    )
    if not cols:
        others = [lang for lang in data.LANGS if lang not in _langs()]
        # the rule may exist only in the language not chosen: shown, and `missing` notes it
        for lang in others:
            col = _column_of(store, vid, lang, number)
            if col is not None:
                cols.append(col)
        if not cols:
            raise missing_rule(number, link_version, f"rule {number} is not in the rules of {vid}")
    main = cols[0]
    crumbs = (  # the page's numbers: labelled in English where the translation numbers differ
        data.breadcrumb(store, main.version, main.lang, number)
        if main.rule.number == number
        else data.breadcrumb(store, vid, "en", number)
    )
    badges = {c.lang: served().badge_groups(c.version) for c in cols if c.lang == "zh"}
    reworded = {c.lang for c in cols if c.version != vid and _reworded(store, c, vid, number)}

    def column_html(col: fragments.Shown) -> Markup:
        shown = col.rule.number  # an older translation's number for the rule may differ
        return fragments.column_html(
            served().fragments(),
            store,
            col,
            shown,
            lambda: _terms(store, col.version, col.lang),
            badges.get(col.lang, {}).get(shown, {}),
            link_version,
            # an older translation's references are to its own release's numbers: followed
            # from there into this page's release
            None if col.version == vid else col.version,
        )

    return render_template(
        "rule.html",
        number=number,
        cols=cols,
        missing=missing,
        misnumbered=misnumbered,
        reworded=reworded,
        damage=_damage(store, vid),
        crumbs=crumbs,
        column_html=column_html,
        version_form=_version_form(store, vid),
        rule_url=lambda n: rule_url(n, link_version),
        # followed to its newest number when asked (the whole lineage is loaded only then)
        current_url=urls.url_for("pages.rule", number=number, version="latest", **{"from": vid}),
        pinned=version is not None,
        **_common(store, vid),
    )


def _damage(store: Store, vid: str) -> str | None:
    """What the copy of release `vid` lost, said on its rule pages: a judge reading
    "don?t" must know it is the copy, not the rule (None: a sound copy)."""
    flags = (
        served()
        .memoised(("version flags",), lambda: {v.id: v.flags for v in store.versions()})
        .get(vid, {})
    )
    said = []
    if flags.get("lost_characters"):
        said.append(
            f"lost {flags['lost_characters']} characters, shown as ? where the source wrote"
            " ’, “, ” or a dash (don?t for don’t)"
        )
    if flags.get("replacement_chars"):
        said.append(
            f"contains {flags['replacement_chars']} characters it could not read, shown as �"
        )
    if flags.get("truncated"):
        said.append("is cut short: rules after its end are missing")
    if not said:
        return None
    return f"The copy of release {vid} that crkb holds " + "; it ".join(said) + "."


def _reworded(store: Store, col: fragments.Shown, vid: str, number: str) -> bool:
    """True when the English of rule `number` in `vid` says otherwise than the English that
    an older text (`col`) was made from: the translation shown is stale there."""
    then = store.rule(col.version, "en", col.rule.number)
    now = store.rule(vid, "en", number)
    if then is None or now is None:
        return False
    return (then.text, then.examples) != (now.text, now.examples)


def _column_of(store: Store, vid: str, lang: str, number: str) -> fragments.Shown | None:
    """The rule `number` of release `vid` in one language: from the newest text of that
    language not newer than `vid`, under the number it has there (an older translation's
    rules are numbered as its own release's English), or None when that text lacks the rule."""
    v = store.newest_text(vid, lang)
    if v is None:
        return None
    if v == vid:
        there: str | None = number
    elif lang == "zh":  # None when the release lacks the rule: nothing stands beside it
        there = translated_number(store, number, vid)
    else:  # `vid` has no text in this language, so no lineage holds it: the same number
        there = number
    return fragments.shown(store, v, lang, there) if there else None


# The glossaries a language choice shows, in order. With zh the English one follows the Chinese:
# a rule the translation lacks is shown in English on a zh rule page, and its terms link there.
GLOSSARY_PARTS = {"en": ("en",), "zh": ("zh", "en")}


@bp.get("/glossary")
def glossary() -> ResponseReturnValue:
    from pypinyin import lazy_pinyin

    _bid, store = served().current()
    vid = resolve(store, request.args.get("version"))
    link_version = None if vid == store.version_ids()[-1] else vid
    choice = lang_choice()
    lists = []
    for lang in GLOSSARY_PARTS.get(choice, data.LANGS):
        v = store.newest_text(vid, lang)
        if not v:
            continue
        entries = data.glossary(store, v, lang)
        links = data.glossary_links(store, v, lang)
        hover: dict[str, str] = {}  # the glossary quotes its targets' titles already
        if lang == "zh":
            # syllable by syllable, as a Chinese dictionary orders them: 巴黎 (ba li) before
            # 白昼 (bai zhou), which letter by letter ("bali" after "bai…") came after it
            keyed = [(tuple(p.lower() for p in lazy_pinyin(t)), t, x) for t, x in entries]
            keyed.sort()
            groups: dict[str, list[tuple[str, str, str, str | None]]] = {}
            for key, term, text in keyed:
                reading = " ".join(lazy_pinyin(term)) if has_cjk(term) else ""  # not "X X"
                first = key[0][:1] if key else ""
                groups.setdefault(first.upper() if first.isalpha() else "#", []).append(
                    (term, text, reading, None)
                )
        else:
            groups = {}
            for term, text in sorted(entries, key=lambda e: e[0].lower()):
                first = term[:1].upper()
                groups.setdefault(first if first.isalpha() else "#", []).append(
                    (term, text, "", None)
                )
        lists.append((lang, v, groups, links, hover))

    def render(text: str, ls: list[Link], hover: dict[str, str], v: str) -> Markup:
        # an older translation's entries cite its own release's numbers: linked into it
        at = link_version if v == vid else v
        return linked(text, ls, lambda t: rule_url(t, at), hover)

    shown = {part[0] for part in lists}
    # one address per headword on the page: an entry both glossaries hold under the same
    # (English) headword, or one a translation holds twice, keeps it where it is first shown
    taken: set[str] = set()
    for _lang, _v, groups, _links, _hover in lists:
        for listed in groups.values():
            for i, (term, text, reading, _id) in enumerate(listed):
                aid = anchor(term)
                listed[i] = (term, text, reading, None if aid in taken else aid)
                taken.add(aid)
    return render_template(
        "glossary.html",
        lists=lists,
        side_by_side=choice == "both" and len(lists) > 1,
        missing=[lang for lang in _langs() if lang not in shown],
        render=render,
        anchor=anchor,
        rule_url=lambda n: rule_url(n, link_version),
        **_common(store, vid),
    )


@bp.get("/keywords")
def keywords() -> ResponseReturnValue:
    _bid, store = served().current()
    vid = resolve(store, request.args.get("version"))
    link_version = None if vid == store.version_ids()[-1] else vid
    en, zh = (store.newest_text(vid, lang) for lang in data.LANGS)
    groups = []
    for section in data.keyword_sections(store, en):
        titles = {}
        for lang, v in (("en", en), ("zh", zh)):
            if v:
                sec = store.rule(v, lang, section)
                titles[lang] = sec.title if sec else section
        groups.append((section, titles, _keyword_rows(store, en, zh, section)))
    return render_template(
        "keywords.html",
        groups=groups,
        zh_version=zh,
        rule_url=lambda n: rule_url(n, link_version),
        **_common(store, vid),
    )


def _keyword_rows(
    store: Store, en: str | None, zh: str | None, section: str
) -> list[tuple[str, str, str | None, str | None]]:
    """(number, English name, Chinese name, the Chinese rule's number) of each rule of section
    701 or 702 of the English text `en`. The translation `zh` may be of an older release and
    numbered as it: each English rule is paired with the rule it translates, following the
    renumbering as the rule pages do (no Chinese name: not translated there yet)."""
    zh_rules = [] if zh is None else data.keyword_rules(store, zh, "zh", section)
    zh_names = {p.number: p.title or p.text for p in zh_rules}
    if en is None:  # no English text (a partial copy): the translation's own numbers
        return [(n, "", name, n) for n, name in zh_names.items()]
    rows: list[tuple[str, str, str | None, str | None]] = []
    for p in data.keyword_rules(store, en, "en", section):
        there = p.number if zh == en else translated_number(store, p.number, en)
        name = zh_names.get(there) if there else None
        rows.append((p.number, p.title or p.text, name, there if name else None))
    return rows


def searcher() -> Searcher:
    """The search index of the build being served, opened once per build."""
    kept: Searcher = served().memoised(("searcher",), lambda: Searcher(served().index_dir()))
    return kept


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def search_args() -> tuple[str, str, str | None, int]:
    """(q, lang, version, limit) from the query string; BadInput when malformed."""
    # control characters (%00) are nothing anyone typed: each parts words as a space would, and
    # a query of them alone is no query
    q = _CONTROL.sub(" ", request.args.get("q", ""))
    lang = params.lang(request.args.get("lang") or "auto", (*params.SEARCH_LANGS, "both"))
    if lang == "both":
        lang = "auto"
    version = request.args.get("version") or None
    raw_limit = request.args.get("limit", "10")
    # ASCII digits only: str.isdigit() also takes "²" (which int() refuses) and "٣"
    if not re.fullmatch(r"[0-9]{1,3}", raw_limit) or not 1 <= int(raw_limit) <= 100:
        raise BadInput(f"limit must be a whole number from 1 to 100, not {raw_limit[:20]!r}")
    return q, lang, version, int(raw_limit)


@bp.get("/search")
def search() -> ResponseReturnValue:
    _bid, store = served().current()
    q, lang, version, limit = search_args()
    q = q if q.strip() else ""  # spaces alone: the empty search form, not "0 results for '  '"
    if version is not None:
        version = resolve(store, version)
    number = normalise(q) if q else None
    at = version or store.version_ids()[-1]
    if number is not None and (
        any(
            v and store.rule(v, lg, number)
            for lg in data.LANGS
            for v in [store.newest_text(at, lg)]
        )
        or _went(store, number, at)  # an old number: its page says where the rule went
    ):
        # the language searched is the language shown (auto: the reader's own choice)
        shown: dict[str, Any] = {"lang": lang} if lang in data.LANGS else {}
        if version and version != store.version_ids()[-1]:
            return redirect(
                url_for("pages.versioned_rule", version=version, number=number, **shown)
            )
        return redirect(url_for("pages.rule", number=number, **shown))
    result, note = None, None
    try:
        if q:
            # the page links each hit to its rule side by side: the other text is not shown
            result = _listed(q, lang, version, max(limit, PAGE_STEPS[0]))
    except NotFound as e:  # e.g. Chinese words in a release older than any translation
        result, note = None, str(e)
    # a release with no Chinese text is searched in the newest translation before it: said so
    read_in = (
        result["version"]
        if result and version and result["lang"] == "zh" and result["version"] != version
        else None
    )
    common = _common(store, version or store.version_ids()[-1])
    return render_template(
        "search.html",
        q=q,
        note=note,
        elsewhere=_elsewhere(store, q, result) if result else None,
        slang=lang,
        result=result,
        read_in=read_in,
        hits=hits_html(
            result["hits"],
            common["latest"],
            rule_hrefs(),
            highlighted,
            # a search of the newest rules reads an older translation's hits in them
            None if version else _history_href,
        )
        if result
        else "",
        svers=version,
        version_options=_search_versions(store, version),
        more_limit=_more(len(result["hits"])) if result else None,
        # 702.2l: no rule letter is l or o (they read as 1 and 0), said where nothing is found
        no_letter=number if number and "." in number and number[-1] in "lo" else None,
        **common,
    )


# A search that reads as a term (a few words, no question): the kind a judge types for a rule
# that may have left the rules (mana burn) or not reached the translation yet.
_TERM = re.compile(r"[A-Za-z][A-Za-z' -]{2,40}|[\u3400-\u9fff]{2,10}")
TERM_WORDS = 4


def _elsewhere(store: Store, q: str, result: dict[str, Any]) -> dict[str, Any] | None:
    """Where the rules say a term that no rule of the searched release says: the releases that
    did and their rules (newest first), or None. Read for a term-like search only, which the
    speller did not correct (a typo is in no release either): a scan of every release's texts
    (~150 ms for English) that only such a search pays."""
    term = " ".join(q.split())
    lang, vid = result["lang"], result["version"]
    if result.get("did_you_mean") or not vid or not _TERM.fullmatch(term):
        return None
    if len(term.split()) > TERM_WORDS or store.saying(lang, term, vid):
        return None

    found = store.saying(lang, term, None)
    if not found:
        return None
    versions = sorted({v for v, _n in found})
    last = versions[-1]
    return {
        "term": term,
        "first": versions[0],
        "last": last,
        "later": last > vid,
        "numbers": [n for v, n in found if v == last][:5],
    }


def _history_href(number: str, version: str) -> str:
    return url_for("pages.history", number=number, version=version)


PAGE_STEPS = (20, 50, MAX_LIMIT)  # the hits a search page lists, and after "More results"


def _more(shown: int) -> int | None:
    """The hits "More results" lists after a page of `shown` (None: the page lists the most)."""
    return next((n for n in PAGE_STEPS if n > shown), None)


def _listed(q: str, lang: str, version: str | None, limit: int) -> dict[str, Any]:
    """A search page's result of `limit` hits: those of the shorter page it grew from ("More
    results"), in their order, then the rest of the longer ranking. A longer ranking reads more
    candidates and may order its head otherwise; the hits a reader has seen stay where they were."""
    steps = [n for n in PAGE_STEPS if n < limit] + [limit]
    first: dict[str, Any] | None = None
    hits: list[dict[str, Any]] = []
    for n in steps:
        got = shapes.search(searcher(), q, lang, version, n, other=False)
        first = first or got
        seen = {h["number"] for h in hits}
        hits += [h for h in got["hits"] if h["number"] not in seen][: n - len(hits)]
    assert first is not None  # steps is never empty
    return {**first, "hits": hits}


def _went(store: Store, number: str, version: str) -> bool:
    """True when the lineage knows where the rule of a number `version` lacks went."""
    try:
        return bool(whereabouts(store, number, version))
    except NotFound:
        return False


def _search_versions(store: Store, chosen: str | None) -> Markup:
    """The search form's release options (~125), rendered once per build: a chosen release's
    are the same with the choice moved (rendering them for each of ~125 releases cost a first
    search in it ~0.4 ms, and kept ~1 MB)."""

    def make(chosen: str | None) -> str:
        macro = current_app.jinja_env.get_template("_macros.html").module.search_versions  # type: ignore[attr-defined]  # a template's macros are its module's attributes
        ids = store.version_ids()
        return str(macro(list(reversed(ids)), chosen, set(store.version_ids("zh"))))

    newest = served().memoised(("search versions", None), lambda: make(None))
    if not chosen:
        return Markup(newest)
    unchosen, picked = f'<option value="{chosen}" >', f'<option value="{chosen}" selected>'
    if newest.count(unchosen) == 1 and newest.count(NEWEST_CHOSEN) == 1:
        return Markup(newest.replace(NEWEST_CHOSEN, NEWEST_OPTION).replace(unchosen, picked))
    return Markup(make(chosen))  # a release id the markup would not show as it is


NEWEST_CHOSEN = '<option value="" selected>'  # the options' first, as _macros.html writes it
NEWEST_OPTION = '<option value="" >'


def rule_hrefs() -> Callable[..., str]:
    """A function of (number, version=None, lang=None) giving a rule page's address, pinned to
    `version` (None: unpinned), with `?lang=`: what url_for gives, each address's pattern
    looked up once for the many rules of one page."""
    plain = urls.formatter("pages.rule", ("number",))
    chosen = urls.formatter("pages.rule", ("number", "lang"))
    pinned = urls.formatter("pages.versioned_rule", ("version", "number"))
    pinned_chosen = urls.formatter("pages.versioned_rule", ("version", "number", "lang"))

    def href(number: str, version: str | None = None, lang: str | None = None) -> str:
        if version is None:
            return chosen(number, lang) if lang else plain(number)
        return pinned_chosen(version, number, lang) if lang else pinned(version, number)

    return href


@bp.get("/v/<version>/rules/<number>/history")
def versioned_history(version: str, number: str) -> ResponseReturnValue:
    """A rule's history as numbered in a release, at the address its rule page has."""
    query: dict[str, Any] = {k: v for k, v in request.args.items() if k != "number"}
    return redirect(url_for("pages.history", **{**query, "number": number, "version": version}))


@bp.get("/rules/<number>/history")
def history(number: str) -> ResponseReturnValue:
    _bid, store = served().current()
    n = params.url_rule_number(number)
    version = request.args.get("version")
    vid = resolve(store, version)
    result = None
    # the translation's own history, where there is one (only one lineage is loaded: a rule
    # the English release lacks is followed in English, which answers 404)
    if lang_choice() == "zh" and store.rule(vid, "en", n) is not None:
        v = store.newest_text(vid, "zh")
        there = None if v is None else n if v == vid else translated_number(store, n, vid)
        if v is not None and there is not None and store.rule(v, "zh", there) is not None:
            result = shapes.history(store, there, v, "zh")
    if result is None:
        try:
            result = shapes.history(store, n, vid, pinned=params.names_release(version))
        except NotFound as e:  # the 404 page says where the number went, a tap away
            raise missing_rule(n, vid if version else None, str(e)) from None
        if result["version"] != vid:  # an old number: the rule the last release to have it had
            return redirect(url_for("pages.history", number=n, version=result["version"]))
    runs = data.history_runs(result["history"])
    newest = store.version_ids(result["lang"])[-1]
    first = str(result["history"][0]["version"]) if result["history"] else newest
    last = str(result["history"][-1]["version"]) if result["history"] else newest
    # asked for in a release that lacks it (the release picker, "Read the current text")
    absent = request.args.get("absent")
    if absent not in store.version_ids() or absent == newest:
        absent = None
    return render_template(
        "history.html",
        number=n,
        result=result,
        runs=runs,
        ended=(last, newest) if last < newest else None,
        absent=absent,
        first=first,
        put_in=_put_in(runs, result["lang"]),
        **_common(store, vid),
    )


def _put_in(runs: list[data.Run], lang: str) -> list[Markup | None]:
    """Each run's text with the words its change put in marked (`ins`), None where its text
    is the run's before it (or the first)."""
    from crkb.diff import textdiff
    from crkb.markup import merged_html

    out: list[Markup | None] = []
    for run, older in zip(runs, [*runs[1:], None], strict=True):
        if older is None or run.text is None or older.text is None or run.text == older.text:
            out.append(None)
            continue
        _gone, added = textdiff.highlight(older.text, run.text, lang)
        out.append(Markup(merged_html(run.text, added)))
    return out


@bp.get("/diff/<old>/<new>")
def diff(old: str, new: str) -> ResponseReturnValue:
    _bid, store = served().current()
    a, b = resolve(store, old), resolve(store, new)
    kind = shapes.change_kind(request.args.get("kind"))
    zh = set(store.version_ids("zh"))
    lang = "zh" if lang_choice() == "zh" and {a, b} <= zh else "en"
    result = shapes.diff(store, a, b, lang)
    changes = [_marked(c, lang) for c in result["changes"] if not kind or c["kind"] == kind]
    return render_template(
        "diff.html",
        a=result["from"],
        b=result["to"],
        changes=changes,
        total=len(result["changes"]),
        summary=result["summary"],
        kind=kind,
        lang=lang,
        # asked for Chinese, but a release has no Chinese text: the English changes, said so
        no_zh=[v for v in (a, b) if v not in zh] if lang_choice() == "zh" else [],
        # both languages asked for: the English changes, and the way to the Chinese ones
        zh_too=lang_choice() == "both" and {a, b} <= zh,
        **_common(store, b),
    )


def _marked(change: dict[str, Any], lang: str) -> dict[str, Any]:
    """A change with its old and new texts as HTML where only the words taken out (`del`) and
    put in (`ins`) are marked: a judge reads what changed in a long rule at a glance."""
    from crkb.diff import textdiff
    from crkb.markup import merged_html

    old, new = change.get("old_text"), change.get("new_text")
    if old is None or new is None or old == new:
        return change
    gone, added = textdiff.highlight(old, new, lang)
    return {
        **change,
        "old_html": Markup(merged_html(old, gone)),
        "new_html": Markup(merged_html(new, added)),
    }


@bp.get("/releases/<version>")
def release(version: str) -> ResponseReturnValue:
    """A release's own page: what changed since the release before it."""
    _bid, store = served().current()
    v = resolve(store, version)
    ids = store.version_ids("en")
    if v not in ids or ids.index(v) == 0:
        raise NotFound(f"release {v} has no earlier English release to compare with")
    return redirect(url_for("pages.diff", old=ids[ids.index(v) - 1], new=v))


@bp.get("/translation/<version>")
def translation(version: str) -> ResponseReturnValue:
    _bid, store = served().current()
    vid = resolve(store, version, "zh")
    kind = request.args.get("kind") or None
    chapter = params.chapter(request.args.get("chapter"))
    every = params.flag("all", request.args.get("all"))
    g.no_cache = True  # reviewers mark findings between builds
    result = shapes.translation(
        store, served().data, vid, kind=kind, chapter=chapter, include_reviewed=every
    )
    ids, newest_en = store.version_ids(), store.version_ids("en")[-1]
    newer = ids.index(newest_en) > ids.index(result["version"])
    return render_template(
        "translation.html",
        result=result,
        carry_to=newest_en if newer else None,  # the worklist's way in
        findings=result["findings"],
        kinds=result["counts"],
        kind=kind,
        chapter=chapter,
        every=every or None,
        mark=highlight,
        **_common(store, vid),
    )


@bp.app_context_processor
def _helpers() -> dict[str, Any]:
    from urllib.parse import urlencode

    start: list[str] = []  # the path and the other arguments, made on first use (3 per page)

    def lang_url(choice: str) -> str:
        if not start:
            args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
            query = urlencode(args) + "&" if args else ""
            start.append(f"{request.script_root}{request.path}?{query}")
        return start[0] + urlencode([("lang", choice)])

    ui_zh = reading_choice(request) == "zh"

    def say(en: str, zh: str) -> str:
        """A label in the language the site is read in: Chinese for a reader who chose 中文,
        else English (rule texts and messages are never translated here, only the labels)."""
        return zh if ui_zh else en

    return {"lang_url": lang_url, "max_query": MAX_QUERY, "say": say, "ui_zh": ui_zh}


@bp.get("/v/")
def home_pick() -> ResponseReturnValue:
    """The home page's version selector (a GET form) lands here."""
    _bid, store = served().current()
    vid = resolve(store, request.args.get("version"))
    if vid == store.version_ids()[-1]:
        return redirect(url_for("pages.home"))
    return redirect(url_for("pages.home", version=vid))
