"""Text contrast as WCAG measures it, read in the browser: what a dark or light page must keep."""

from __future__ import annotations

from typing import Any

# every element with text of its own, against the nearest background painted behind it
WORST_CONTRAST = """() => {
  const lum = (c) => {
    const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      v = Number(v) / 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const behind = (el) => {
    for (; el; el = el.parentElement) {
      const c = getComputedStyle(el).backgroundColor, m = c.match(/[\\d.]+/g);
      if (m && (m.length < 4 || Number(m[3]) > 0)) return c;
    }
    return "rgb(255, 255, 255)";
  };
  let worst = [99, ""];
  for (const el of document.body.querySelectorAll("*")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const [a, b] = [lum(getComputedStyle(el).color), lum(behind(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < worst[0]) worst = [ratio, el.tagName + "." + el.className];
  }
  return [worst[0], worst[1], lum(behind(document.body))];
}"""


def worst_contrast(page: Any) -> tuple[float, str, float]:
    """(the lowest contrast ratio of any text on the page, the element that has it, the
    relative luminance of the page's own background)."""
    ratio, where, ground = page.evaluate(WORST_CONTRAST)
    return ratio, where, ground
