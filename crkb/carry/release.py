"""The carry between two releases of a built store: arguments checked, the lineage followed."""

from __future__ import annotations

from collections.abc import Mapping

from crkb.carry.rules import Carry, carry
from crkb.diff.lookup import lineage
from crkb.diff.match import match_documents
from crkb.errors import BadInput, NotFound
from crkb.graph.terms import build_dictionary, pair_glossaries
from crkb.store.db import Store


def releases(
    store: Store, zh: str | None, en: str | None, names: tuple[str, str] = ("--zh", "--en")
) -> tuple[str, str]:
    """(V, W) version ids, or the one-line reason why the pair cannot be carried; `names` are
    how the caller calls the two arguments (`--zh`/`--en` on the command line)."""
    zh_arg, en_arg = names
    if not zh:
        raise BadInput(f"{zh_arg}: give the release whose Chinese translation is carried")
    if not en:
        raise BadInput(f"{en_arg}: give the later English release to carry it to")
    v = store.resolve_version(zh, "zh" if zh == "latest" else None)  # the newest translation
    w = store.resolve_version(en)
    if store.doc_id(v, "zh") is None:
        raise NotFound(f"{zh_arg} {zh}: release {v} has no Chinese text to carry forward")
    if store.doc_id(v, "en") is None:
        raise NotFound(f"{zh_arg} {zh}: release {v} has no English text to compare against")
    if store.doc_id(w, "en") is None:
        raise NotFound(f"{en_arg} {en}: release {w} has no English text")
    if w <= v:
        raise BadInput(
            f"{en_arg} {en}: release {w} is not later than {v}, the translation's release"
        )
    return v, w


def mapping_between(store: Store, v: str, w: str) -> dict[str, str]:
    """V's rule number → W's, following the stored lineage release by release (as `crkb history`
    does); releases outside the lineage (partial copies) are matched directly."""
    try:
        line = lineage(store, "en")
    except NotFound:
        line = None
    if line is None or v not in line.versions or w not in line.versions:
        return match_documents(store.document(v, "en"), store.document(w, "en"))
    steps = line.versions[line.versions.index(v) : line.versions.index(w) + 1]
    current = {n: n for n in store.document(v, "en").rule_map()}
    for a, b in zip(steps, steps[1:], strict=False):
        step = line.pairs.get((a, b), {})
        current = {o: step[n] for o, n in current.items() if n in step}
    return current


def term_names(store: Store, v: str) -> dict[str, str]:
    """English term → Chinese name: V's own glossary first, then the build's term dictionary."""
    stored = store.step_result("terms")
    built: Mapping[str, str] = stored if isinstance(stored, dict) else {}
    own = pair_glossaries(store.document(v, "en"), store.document(v, "zh"))
    return build_dictionary([own, list(built.items())])


def forward(
    store: Store, zh: str | None, en: str | None, names: tuple[str, str] = ("--zh", "--en")
) -> Carry:
    """Carry the Chinese translation of release `zh` to English release `en`."""
    v, w = releases(store, zh, en, names)
    return carry(
        store.document(v, "en"),
        store.document(v, "zh"),
        store.document(w, "en"),
        mapping_between(store, v, w),
        term_names(store, v),
    )
