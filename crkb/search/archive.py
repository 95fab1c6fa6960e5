"""The archive's plain-text releases and term map, as the search scripts and tests need them."""

from __future__ import annotations

import pickle
from pathlib import Path

from crkb.model import Document


def load_documents(corpus: Path, cache: Path | None = None) -> list[Document]:
    """Every document of `corpus`/{en,zh}/txt/*.txt that parses (others are skipped)."""
    from crkb.errors import CrkbError
    from crkb.sources.reader import read_file

    files = sorted(Path(corpus).glob("en/txt/*.txt")) + sorted(Path(corpus).glob("zh/txt/*.txt"))
    stamp = [(f.name, f.stat().st_size) for f in files]
    if cache is not None and cache.exists():
        try:
            saved_stamp, saved = pickle.loads(cache.read_bytes())
            if saved_stamp == stamp:
                return list(saved)
        except Exception:  # noqa: BLE001 - a stale or broken cache is simply rebuilt
            pass
    docs: list[Document] = []
    for f in files:
        try:
            docs.extend(read_file(f).documents)
        except (CrkbError, ImportError):
            continue
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(pickle.dumps((stamp, docs)))
    return docs


def term_map(docs: list[Document], corpus: Path | None = None) -> dict[str, str]:
    """English term → Chinese term from paired glossaries and the provisional terms list."""
    from crkb.graph.terms import build_dictionary, pair_glossaries, parse_terms_list

    by = {(d.lang, d.version): d for d in docs}
    lists = [
        pair_glossaries(by[("en", v)], d)
        for (lang, v), d in sorted(by.items(), reverse=True)
        if lang == "zh" and ("en", v) in by
    ]
    if corpus is not None:
        p = Path(corpus) / "zh" / "terms" / "translatedterms.txt"
        if p.exists():
            lists.append(parse_terms_list(p.read_text(encoding="utf-8", errors="replace")))
    return build_dictionary(lists)
