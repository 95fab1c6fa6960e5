"""The search page's list of hits, written out in Python.

Twenty hits through Jinja (four links, a highlight and a dozen attribute lookups each) took
~0.8 ms, most of what a search page costs beyond the engine on its first asking; the same
markup built here takes a fraction of that. The markup is the template's, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from markupsafe import Markup, escape

Href = Callable[..., str]  # pages.rule_href: (number, version=None, lang=None) → address
OTHER = {"en": "中文 side by side · 中英对照", "zh": "English side by side · 中英对照"}


def hits_html(
    hits: Sequence[dict[str, Any]],
    latest: str,
    rule_href: Href,
    highlight: Callable[[str], Markup],
) -> Markup:
    """`<ol class="hits">…</ol>`: each hit's number and title linked to its rule (pinned to its
    release unless that is the newest), its parent once per run of hits under it, its
    highlighted text and a link to it side by side with the other language."""
    out = ['<ol class="hits">\n']
    previous: object = None  # the parent number of the hit before
    for i, h in enumerate(hits):
        lang, number = h["lang"], h["number"]
        pinned = None if h["version"] == latest else h["version"]
        title = f" {escape(h['title'])}" if h.get("title") else ""
        out.append(
            f'    <li class="hit" lang="{"zh-Hans" if lang == "zh" else "en"}">\n'
            f'      <a class="num" href="{escape(rule_href(number, pinned))}">'
            f"{escape(number)}{title}</a>\n"
            f'      <span class="meta">{escape(lang)} · {escape(h["version"])}'
        )
        now = h.get("current_number")
        if now and now != number:
            out.append(f' · now <a href="{escape(rule_href(now))}">{escape(now)}</a>')
        out.append("</span>\n")
        parent = h.get("parent")
        if parent and (i == 0 or parent["number"] != previous):
            out.append(
                f'<p class="context">in <a href="{escape(rule_href(parent["number"], pinned))}">'
                f"{escape(parent['number'])} {escape(parent['title'])}</a></p>"
            )
        previous = parent["number"] if parent else None
        other = "en" if lang == "zh" else "zh-Hans"
        both = escape(rule_href(number, pinned, "both"))
        out.append(
            f'      <p class="text">{highlight(h.get("highlight") or h["text"])}</p>\n'
            f'      <a class="other" lang="{other}" href="{both}">'
            f"{OTHER['en' if lang == 'en' else 'zh']}</a>\n"
            "    </li>\n"
        )
    out.append("  </ol>")
    return Markup("".join(out))
