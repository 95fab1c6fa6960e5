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
) -> Markup:
    """`<ol class="hits">…</ol>`: each hit's number and title linked to its rule (pinned to its
    release unless that is the newest), its parent once per run of hits under it, its
    highlighted text and a link to it side by side with the other language."""
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
        title = f" {escaped(h['title'])}" if h.get("title") else ""
        out.append(
            f'    <li class="hit" lang="{"zh-Hans" if lang == "zh" else "en"}">\n'
            f'      <a class="num" href="{href(number, pinned)}">'
            f"{escaped(number)}{title}</a>\n"
            f'      <span class="meta">{escaped(lang)} · {escaped(h["version"])}'
        )
        now = h.get("current_number")
        if now and now != number:
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
            f'      <a class="other" lang="{other}" href="{href(number, pinned, "both")}">'
            f"{TO_ZH if lang == 'en' else TO_EN}</a>\n"
            "    </li>\n"
        )
    out.append("  </ol>")
    return Markup("".join(out))
