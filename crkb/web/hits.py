"""The search page's list of hits, written out in Python.

Twenty hits through Jinja (four links, a highlight and a dozen attribute lookups each) took
~0.8 ms, most of what a search page costs beyond the engine on its first asking; the same
markup built here takes a fraction of that. The markup is the template's, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from markupsafe import Markup

from crkb.web.render import escaped

Href = Callable[..., str]  # pages.rule_hrefs(): (number, version=None, lang=None) → address
TO_ZH = "中文 side by side · 中英对照"  # the side-by-side link of an English hit
TO_EN = "English side by side · 中英对照"  # and of a Chinese one


def hits_html(
    hits: Sequence[dict[str, Any]],
    latest: str,
    rule_href: Href,
    highlight: Callable[[str], str],
    history_href: Callable[[str, str], str] | None = None,
) -> Markup:
    """`<ol class="hits">…</ol>`: each hit's number and title linked to its rule (pinned to its
    release unless that is the newest), its parent once per run of hits under it, its
    highlighted text and a link to it side by side with the other language.

    With `history_href` (a search of the newest rules), a hit from an older translation links
    to its rule in the newest release, where its Chinese is read beside today's English; a rule
    that release no longer has is said to be gone, with a link to its history."""
    out = ['<ol class="hits">\n']
    hrefs: dict[tuple[str, str | None, str | None], str] = {}

    def href(number: str, version: str | None = None, lang: str | None = None) -> str:
        key = (number, version, lang)
        got = hrefs.get(key)
        if got is None:
            got = hrefs[key] = escaped(rule_href(number, version, lang))
        return got

    previous: object = None  # the parent number of the hit before
    for i, h in enumerate(hits):
        lang, number = h["lang"], h["number"]
        pinned = None if h["version"] == latest else h["version"]
        now = h.get("current_number", number)
        gone = pinned is not None and "current_number" in h and now is None
        # the rule as the newest release numbers it: an older translation's rule is read there
        linked, at = (now, None) if history_href and pinned and not gone else (number, pinned)
        title = f" {escaped(h['title'])}" if h.get("title") else ""
        out.append(
            f'    <li class="hit" lang="{"zh-Hans" if lang == "zh" else "en"}">\n'
            f'      <a class="num" href="{href(linked, at)}">'
            f"{escaped(number)}{title}</a>\n"
            f'      <span class="meta">{escaped(lang)} · {escaped(h["version"])}'
        )
        if gone:
            said = f"not in the rules of {escaped(latest)}"
            if history_href is not None:
                said = f'<a href="{escaped(history_href(number, h["version"]))}">{said}</a>'
            if lang == "zh":
                said += ' <span lang="zh-Hans">（现行规则已无此条）</span>'
            out.append(f' · <span class="gone">{said}</span>')
        elif now and now != number:
            out.append(f' · now <a href="{href(now)}">{escaped(now)}</a>')
        out.append("</span>\n")
        parent = h.get("parent")
        if parent and (i == 0 or parent["number"] != previous):
            out.append(
                f'<p class="context">in <a href="{href(parent["number"], pinned)}">'
                f"{escaped(parent['number'])} {escaped(parent['title'])}</a></p>"
            )
        previous = parent["number"] if parent else None
        other = "en" if lang == "zh" else "zh-Hans"
        out.append(
            f'      <p class="text">{highlight(h.get("highlight") or h["text"])}</p>\n'
            f'      <a class="other" lang="{other}" href="{href(linked, at, "both")}">'
            f"{TO_ZH if lang == 'en' else TO_EN}</a>\n"
            "    </li>\n"
        )
    out.append("  </ol>")
    return Markup("".join(out))
