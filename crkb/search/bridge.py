"""The English bridge: a Chinese question also asked of the English text of the same release.

The translation says the same rule in other words (起始生命 where the rule says 生命值设为40; the
English says "starting life total"), so the English text, searched with the question's words put
into English, finds answers the Chinese wording hides. The words are put into English by a word
table learned from the two texts themselves (IBM Model 1 over the rules the releases share, at
build time): no hand-made list, and it follows the translation's own choices.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

ROUNDS = 6  # EM rounds: the table changes little after five
MIN_SHARE = 0.2  # an English word kept for a Chinese one takes at least this share of it
MOST = 3  # at most so many English words for one Chinese word
NULL = ""  # the empty Chinese word, which English words with no counterpart align to
# Reciprocal-rank fusion of the Chinese ranking and the bridge's (measured on the development
# questions): a rule's score is 1 / (K + rank) in the Chinese list plus WEIGHT / (K + rank) in
# the English one.
K = 2
WEIGHT = 0.5
DEPTH = 20  # how many of each list are fused


def learn(
    pairs: Iterable[tuple[Sequence[str], Sequence[str]]], rounds: int = ROUNDS
) -> dict[str, dict[str, float]]:
    """IBM Model 1: for each Chinese word, the share of it each English word takes, learned
    from (Chinese words, English words) of rules that say the same thing."""
    zh_ids: dict[str, int] = {NULL: 0}
    en_ids: dict[str, int] = {}
    occ_of_link: list[int] = []  # for every (English occurrence, Chinese word) pair of a rule
    key_of_link: list[int] = []
    occ = 0
    zs_of_pair: list[list[int]] = []
    es_of_pair: list[list[int]] = []
    for zh, en in pairs:
        zs = [0, *(zh_ids.setdefault(w, len(zh_ids)) for w in zh)]
        es = [en_ids.setdefault(w, len(en_ids)) for w in en]
        if len(zs) > 1 and es:
            zs_of_pair.append(zs)
            es_of_pair.append(es)
    nz = len(zh_ids)
    for zs, es in zip(zs_of_pair, es_of_pair, strict=True):
        for e in es:
            occ_of_link.extend([occ] * len(zs))
            key_of_link.extend(e * nz + z for z in zs)
            occ += 1
    if not occ:
        return {}
    keys, link_param = np.unique(np.array(key_of_link, dtype=np.int64), return_inverse=True)
    links_occ = np.array(occ_of_link, dtype=np.int64)
    z_of_param = keys % nz
    t = np.ones(len(keys))
    for _ in range(rounds):
        tl = t[link_param]
        norm = np.bincount(links_occ, weights=tl, minlength=occ)
        count = np.bincount(link_param, weights=tl / norm[links_occ], minlength=len(keys))
        total = np.bincount(z_of_param, weights=count, minlength=nz)
        t = count / np.where(total[z_of_param] > 0, total[z_of_param], 1.0)
    zh_of = {i: w for w, i in zh_ids.items()}
    en_of = {i: w for w, i in en_ids.items()}
    out: dict[str, dict[str, float]] = {}
    for key, share in zip(keys.tolist(), t.tolist(), strict=True):
        z = key % nz
        if z and share >= MIN_SHARE:
            out.setdefault(zh_of[z], {})[en_of[key // nz]] = share
    return out


def table(shares: Mapping[str, Mapping[str, float]]) -> dict[str, list[str]]:
    """Chinese word → its English words, the largest share first (at most MOST)."""
    out: dict[str, list[str]] = {}
    for zh, got in shares.items():
        out[zh] = [en for en, _s in sorted(got.items(), key=lambda kv: (-kv[1], kv[0]))[:MOST]]
    return out


def translate(words: Iterable[str], lexicon: Mapping[str, Sequence[str]]) -> str:
    """A Chinese question's content words put into English: each word's English words, and a
    word typed in Latin letters or digits (an English term, a number) as it is."""
    out: dict[str, None] = {}
    for w in words:
        if w.isascii():
            if w.isalnum():
                out[w] = None
            continue
        for en in lexicon.get(w, ()):
            out[en] = None
    return " ".join(out)


def fuse(own: Sequence[str], other: Sequence[str]) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion of two rankings of rule numbers (the question's own language
    first, the bridge's second), best first, with the fused scores."""
    score: dict[str, float] = {}
    for i, n in enumerate(own[:DEPTH]):
        score[n] = score.get(n, 0.0) + 1.0 / (K + i + 1)
    for i, n in enumerate(other[:DEPTH]):
        score[n] = score.get(n, 0.0) + WEIGHT / (K + i + 1)
    return sorted(score.items(), key=lambda kv: -kv[1])
