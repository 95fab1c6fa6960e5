"""The English bridge: a Chinese question also asked of the English text of the same release.

The translation says a rule in its own words (506.4: 移出战斗, where a player asks about 离开战斗;
the English says "removed from combat"), so the English text, searched with the question's words
put into English, finds answers the Chinese wording hides. The words are put into English by a word
table learned from the two texts themselves (IBM Model 1 over the rules the releases share, at
build time): no hand-made list, and it follows the translation's own choices.
"""

from __future__ import annotations

from collections import Counter
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
    from (Chinese words, English words) of rules that say the same thing. A word said twice in
    a rule is one link counted twice, which is the same model in half the memory."""
    zh_ids: dict[str, int] = {NULL: 0}
    en_ids: dict[str, int] = {}
    sides: list[tuple[dict[int, int], dict[int, int]]] = []
    for zh, en in pairs:
        zs = Counter(zh_ids.setdefault(w, len(zh_ids)) for w in zh)
        es = Counter(en_ids.setdefault(w, len(en_ids)) for w in en)
        if zs and es:
            sides.append(({0: 1, **zs}, es))
    if not sides:
        return {}
    nz = len(zh_ids)
    kind = np.int32 if nz * len(en_ids) < 2**31 else np.int64
    # every (English word of a rule, Chinese word of the same rule) link as the key e * nz + z,
    # with how often the Chinese word is said there; and each English word of a rule (a group
    # of links) with how often it is said: flat arrays, a few million links for the archive
    keys = np.concatenate(
        [
            (np.array(list(es), kind)[:, None] * nz + np.array(list(zs), kind)).ravel()
            for zs, es in sides
        ]
    )
    said_z = np.concatenate(
        [np.tile(np.array(list(zs.values()), np.float32), len(es)) for zs, es in sides]
    )
    sizes = np.array([len(zs) for zs, es in sides for _e in es], dtype=np.int32)
    said_e = np.array([n for _zs, es in sides for n in es.values()], dtype=np.float64)
    del sides
    group = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)
    keys, inverse = np.unique(keys, return_inverse=True)
    link_param = inverse.astype(np.int32)
    del inverse
    z_of_param = keys % nz
    t = np.ones(len(keys))
    for _ in range(rounds):
        tl = t[link_param] * said_z
        tl *= (said_e / np.bincount(group, weights=tl, minlength=len(sizes)))[group]
        count = np.bincount(link_param, weights=tl, minlength=len(keys))
        del tl
        total = np.bincount(z_of_param, weights=count, minlength=nz)[z_of_param]
        t = count / np.where(total > 0, total, 1.0)
    zh_of = {i: w for w, i in zh_ids.items()}
    en_of = {i: w for w, i in en_ids.items()}
    out: dict[str, dict[str, float]] = {}
    for i in np.flatnonzero((t >= MIN_SHARE) & (z_of_param > 0)).tolist():
        z, e = int(keys[i] % nz), int(keys[i] // nz)
        out.setdefault(zh_of[z], {})[en_of[e]] = float(t[i])
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
