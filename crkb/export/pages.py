"""The pack's HTML pages, pure functions of the documents (relative links only, no request out)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from html import escape

from crkb.export import links
from crkb.graph.term_matching import anchor
from crkb.model import Document, Reference, Rule
from crkb.numbers import kind_of
from crkb.search.planning import MAX_QUERY

LANG_NAMES = {"en": "English", "zh": "简体中文"}
HTML_LANG = {"en": "en", "zh": "zh-Hans"}
UI = {
    "en": {"home": "Contents", "glossary": "Glossary", "keywords": "Keywords", "search": "Search"},
    "zh": {"home": "目录", "glossary": "词汇表", "keywords": "关键词", "search": "搜索"},
}


@dataclass(slots=True)
class Text:
    """One language of the pack: its document and the lookups its pages need."""

    doc: Document
    sections: list[Rule] = field(default_factory=list)
    chapters: list[Rule] = field(default_factory=list)
    by_section: dict[str, list[Rule]] = field(default_factory=dict)
    refs: dict[str, list[Reference]] = field(default_factory=dict)
    numbers: set[str] = field(default_factory=set)
    terms: links.Terms = field(default_factory=lambda: links.Terms(None, {}))
    # this text's numbers that the other language's text numbers otherwise (None: it lacks the
    # rule); a number not listed is the same there (see `twin_numbers` in crkb/export/pack.py)
    twins: dict[str, str | None] = field(default_factory=dict)

    @property
    def lang(self) -> str:
        return self.doc.lang


def section_of(number: str) -> str | None:
    """The section page a number lives on (`702.2b` → `702`); None for a chapter."""
    head = number.split(".", 1)[0]
    return head if len(head) == 3 else None


def make_text(doc: Document) -> Text:
    """Group a document's rules by section page and its references by source."""
    t = Text(doc)
    for r in doc.rules:
        t.numbers.add(r.number)
        if r.kind == "chapter":
            t.chapters.append(r)
            continue
        if r.kind == "section":
            t.sections.append(r)
        sec = section_of(r.number)
        if sec is not None:
            t.by_section.setdefault(sec, []).append(r)
    refs: dict[str, list[Reference]] = defaultdict(list)
    for ref in doc.references:
        refs[ref.source].append(ref)
    t.refs = dict(refs)
    t.terms = links.glossary_terms(((g.term, g.text) for g in doc.glossary), doc.lang)
    return t


def rule_href(text: Text, number: str, prefix: str) -> str | None:
    """Where a rule number is in this language's pages, relative to a page at `prefix`."""
    if number not in text.numbers:
        return None
    sec = section_of(number)
    if sec is None:
        return f"{prefix}index.html#ch-{number}"
    frag = "" if number == sec else f"#{number}"
    return f"{prefix}{text.lang}/{sec}.html{frag}"


def head(title: str, lang: str, prefix: str, extra: str = "") -> str:
    """The document head: the pack's own style, manifest and script, nothing from elsewhere."""
    return (
        f'<!doctype html>\n<html lang="{HTML_LANG.get(lang, lang)}">\n'
        '<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{prefix}assets/style.css">\n'
        f'<link rel="manifest" href="{prefix}manifest.webmanifest">\n'
        f'<link rel="icon" href="{prefix}assets/icon.svg">\n'
        '<meta name="theme-color" content="#5b3a1a">\n'
        f'<script src="{prefix}assets/pack.js" defer></script>\n{extra}</head>\n'
    )


def nav(lang: str, prefix: str, other: str | None = None, find: bool = True) -> str:
    """The bar on every page: contents, glossary, keywords, the other language, a search box."""
    ui = UI.get(lang, UI["en"])
    parts = [
        f'<a href="{prefix}index.html">{ui["home"]}</a>',
        f'<a href="{prefix}{lang}/glossary.html">{ui["glossary"]}</a>',
        f'<a href="{prefix}{lang}/keywords.html">{ui["keywords"]}</a>',
    ]
    if other:
        parts.append(other)
    if not find:
        return '<header class="bar"><nav>' + " ".join(parts) + "</nav></header>\n"
    return (
        '<header class="bar"><nav>' + " ".join(parts) + "</nav>"
        f'<form class="find" action="{prefix}search.html" method="get" role="search">'
        f'<input type="search" name="q" placeholder="deathtouch · 死触 · 702.2"'
        f' maxlength="{MAX_QUERY}" aria-label="{ui["search"]}">'
        '<input type="hidden" name="lang" value="auto">'
        f'<button type="submit">{ui["search"]}</button></form></header>\n'
    )


def twin_number(text: Text, number: str) -> str | None:
    """The number, in the other language's text, of this text's rule `number` (None: it lacks
    the rule). The two may be of different releases: a translation is numbered as its own."""
    return text.twins.get(number, number)


def _other_link(text: Text, other: Text | None, number: str, prefix: str) -> str:
    """The small link from a rule to the same rule in the other language ("" if it lacks it)."""
    there = twin_number(text, number) if other else None
    url = rule_href(other, there, prefix) if other and there else None
    if other is None or url is None or there is None:
        return ""
    name = "中文" if other.lang == "zh" else "EN"
    return (
        f'<a class="other" href="{escape(url)}" lang="{HTML_LANG[other.lang]}"'
        f' title="{escape(there)} {LANG_NAMES[other.lang]}">{name}</a>'
    )


def _rule_html(r: Rule, text: Text, other: Text | None) -> str:
    prefix = "../"
    seen: set[str] = set()
    glossary = f"{prefix}{text.lang}/glossary.html"

    def href(target: str) -> str | None:
        return rule_href(text, target, prefix)

    refs = text.refs.get(r.number, [])
    title = f' <b class="t">{escape(r.title)}</b>' if r.title and r.kind != "section" else ""
    same = bool(title) and r.text.strip() == (r.title or "").strip()  # a titled rule's text
    body = "" if same else links.linked(r.text, refs, href, text.terms, glossary, seen)
    examples = "".join(
        f'<p class="ex">{links.linked(e, refs, href, text.terms, glossary, seen)}</p>'
        for e in r.examples
    )
    tag = "h2" if r.kind == "section" else "div"
    return (
        f'<{tag} class="r {r.kind}" id="{escape(r.number)}">'
        f'<a class="n" href="#{escape(r.number)}">{escape(r.number)}</a>{title} '
        f'<span class="x">{body}</span> {_other_link(text, other, r.number, prefix)}'
        f"{examples}</{tag}>\n"
    )


def section_page(
    text: Text, section: Rule, other: Text | None, prev: str | None, nxt: str | None
) -> str:
    """One section in one language: every rule an element whose id is its number."""
    lang = text.lang
    sec = section.number
    there = twin_number(text, sec) if other else None
    other_url = rule_href(other, there, "../") if other and there else None
    switch = (
        f'<a class="other" href="{escape(other_url)}">{"中文" if lang == "en" else "English"}</a>'
        if other_url
        else ""
    )
    rules = text.by_section.get(sec, [section])
    steps = []
    if prev:
        steps.append(f'<a rel="prev" href="{prev}.html">← {prev}</a>')
    if nxt:
        steps.append(f'<a rel="next" href="{nxt}.html">{nxt} →</a>')
    return (
        head(f"{sec} {section.title or section.text}", lang, "../")
        + "<body>\n"
        + nav(lang, "../", switch)
        + f'<main class="rules" data-section="{escape(sec)}"'
        + f' data-version="{escape(text.doc.version)}">\n'
        + "".join(_rule_html(r, text, other) for r in rules)
        + f'<p class="steps">{" ".join(steps)}</p>\n</main>\n</body>\n</html>\n'
    )


def _contents(text: Text) -> str:
    out = [
        f'<section class="col" id="toc-{text.lang}" lang="{HTML_LANG[text.lang]}">'
        f"<h2>{LANG_NAMES[text.lang]}"
        f' <small>{escape(text.doc.version)}</small></h2>\n<ol class="contents">\n'
    ]
    for ch in text.chapters:
        out.append(
            f'<li id="{"ch-" + ch.number if text.lang == "en" else "zh-ch-" + ch.number}">'
            f"<b>{escape(ch.number)} {escape(ch.title or ch.text)}</b><ul>\n"
        )
        for s in text.sections:
            if s.number[0] == ch.number:
                out.append(
                    f'<li><a href="{text.lang}/{s.number}.html">{escape(s.number)}'
                    f" {escape(s.title or s.text)}</a></li>\n"
                )
        out.append("</ul></li>\n")
    out.append(
        f'</ol><p><a href="{text.lang}/glossary.html">{UI[text.lang]["glossary"]}</a> · '
        f'<a href="{text.lang}/keywords.html">{UI[text.lang]["keywords"]}</a></p></section>\n'
    )
    return "".join(out)


def index_page(texts: list[Text], release: str, made: str) -> str:
    """The table of contents of every language, and the release the pack holds."""
    lang = texts[0].lang if texts else "en"
    versions = ", ".join(f"{LANG_NAMES[t.lang]} {t.doc.version}" for t in texts)
    return (
        head(f"Comprehensive Rules {release}", lang, "")
        + "<body>\n"
        + nav(lang, "")
        + "<main>\n<h1>Magic: The Gathering Comprehensive Rules"
        ' <span lang="zh-Hans">万智牌完整规则</span></h1>\n'
        f'<p class="release" data-release="{escape(release)}">Release {escape(release)}'
        f" ({escape(versions)}). Offline pack made by crkb on {escape(made)}.</p>\n"
        + '<p class="jump">'
        + " · ".join(f'<a href="#toc-{t.lang}">{LANG_NAMES[t.lang]}</a>' for t in texts)
        + "</p>\n"
        f'<div class="cols n{len(texts)}">\n'
        + "".join(_contents(t) for t in texts)
        + "</div>\n</main>\n</body>\n</html>\n"
    )


def glossary_page(text: Text, other: Text | None, pairs: dict[str, str]) -> str:
    """The glossary of one language; each entry linked to its rules and to the other language's
    entry (`pairs`: this language's term → the other's anchor)."""
    lang = text.lang
    prefix = "../"
    out = [
        head(UI[lang]["glossary"], lang, prefix),
        "<body>\n",
        nav(
            lang,
            prefix,
            f'<a class="other" href="../{other.lang}/glossary.html">'
            f"{'中文' if lang == 'en' else 'English'}</a>"
            if other
            else None,
        ),
        f'<main class="glossary"><h1>{UI[lang]["glossary"]}</h1>\n<dl>\n',
    ]

    def href(target: str) -> str | None:
        return rule_href(text, target, prefix)

    none = links.Terms(None, {})
    for g in text.doc.glossary:
        a = anchor(g.term)
        refs = text.refs.get("glossary:" + g.term, [])
        pair = pairs.get(g.term)
        twin = (
            f' <a class="other" href="../{other.lang}/glossary.html#{escape(pair)}">'
            f"{'中文' if lang == 'en' else 'EN'}</a>"
            if other and pair
            else ""
        )
        body = "<br>".join(
            links.linked(line, refs, href, none, "", set()) for line in g.text.split("\n")
        )
        out.append(f'<dt id="{escape(a)}">{escape(g.term)}{twin}</dt><dd>{body}</dd>\n')
    out.append("</dl></main>\n</body>\n</html>\n")
    return "".join(out)


KEYWORD_SECTIONS = ("701", "702")


def keywords_page(text: Text, other: Text | None) -> str:
    """The keyword actions (701) and keyword abilities (702), each linked to its rule."""
    lang = text.lang
    out = [
        head(UI[lang]["keywords"], lang, "../"),
        "<body>\n",
        nav(
            lang,
            "../",
            f'<a class="other" href="../{other.lang}/keywords.html">'
            f"{'中文' if lang == 'en' else 'English'}</a>"
            if other
            else None,
        ),
        f'<main class="keywords"><h1>{UI[lang]["keywords"]}</h1>\n',
    ]
    for sec in KEYWORD_SECTIONS:
        rules = [r for r in text.by_section.get(sec, []) if kind_of(r.number) == "rule"]
        head_rule = next((r for r in text.sections if r.number == sec), None)
        if head_rule is None:
            continue
        out.append(
            f"<h2>{escape(sec)}. {escape(head_rule.title or head_rule.text)}</h2>\n"
            '<ul class="kw">\n'
        )
        for r in rules:
            if not r.title:
                continue
            twin = _other_link(text, other, r.number, "../")
            out.append(
                f'<li><a href="{sec}.html#{escape(r.number)}">{escape(r.number)}'
                f" {escape(r.title)}</a> {twin}</li>\n"
            )
        out.append("</ul>\n")
    out.append("</main>\n</body>\n</html>\n")
    return "".join(out)


def search_page(langs: list[str]) -> str:
    """The search page; its script loads each language's index as a script, on demand."""
    data = " ".join(f'data-{lang}="data/search-{lang}.js"' for lang in langs)
    return (
        head("Search · 搜索", "en", "", '<script src="assets/search.js" defer></script>\n')
        + "<body>\n"
        + nav("en", "", find=False)
        + f'<main class="search" id="search" {data}>\n'
        '<form class="big" id="searchform" action="search.html" method="get" role="search">'
        '<input type="search" name="q" id="q" placeholder="deathtouch · 死触 · 702.2"'
        f' maxlength="{MAX_QUERY}" aria-label="Search" autofocus>'
        '<select name="lang" id="lang" aria-label="Language">'
        '<option value="auto">auto</option><option value="en">English</option>'
        '<option value="zh">中文</option></select>'
        '<button type="submit">Search</button></form>\n'
        '<p id="status" class="note" aria-live="polite"></p>\n'
        '<ol id="hits" class="hits"></ol>\n'
        '<p id="more" class="note"></p>\n'
        "<noscript>Search needs JavaScript; the contents page works without it.</noscript>\n"
        "</main>\n</body>\n</html>\n"
    )
