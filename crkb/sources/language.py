"""Naming a text's language, so copies in languages crkb does not store can be reported by name."""

from __future__ import annotations

import re
from collections import Counter

from crkb.sources.script import HAN

# Scripts that name a language on their own (share of letters that must be in the script).
_SCRIPTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Japanese", re.compile(r"[\u3040-\u30ff]")),  # kana: Chinese has none
    ("Korean", re.compile(r"[\uac00-\ud7af\u1100-\u11ff]")),
    ("Russian", re.compile(r"[\u0400-\u04ff]")),
    ("Chinese", re.compile(r"[\u4e00-\u9fff]")),
)
_LATIN_WORD = re.compile(r"[a-zà-ÿ]+")

# Frequent short words that are (nearly) unique to one language among these.
_STOP_WORDS: dict[str, frozenset[str]] = {
    name: frozenset(words.split())
    for name, words in {
        "English": "the and of to is that it with as for was on are be this by from or have an "
        "they which you their has its at player rule card",
        "Malay": "dan yang di untuk dengan ini itu kepada boleh adalah tidak mereka sebagai akan "
        "kad peraturan daripada sahaja atau pemain juga setiap dalam telah oleh",
        "Indonesian": "dan yang di untuk dengan ini itu kepada bisa adalah tidak mereka sebagai "
        "akan kartu aturan dari saja atau pemain juga setiap dalam telah oleh dapat",
        "Spanish": "el la los las de que y en un una por con para es del se su al como más "
        "jugador carta regla",
        "French": "le la les de des et en un une est que qui pour dans du au sur par pas ne "
        "joueur carte règle",
        "German": "der die das und ist nicht ein eine zu den von mit sich des auf für im dem "
        "spieler karte regel",
        "Italian": "il lo la gli le di che e un una per con non del della sono si al "
        "giocatore carta regola",
        "Portuguese": "o a os as de que e em um uma para com não do da dos das se ao "
        "jogador carta regra",
    }.items()
}


_ASCII_LETTER = re.compile(r"[A-Za-z]")


def cjk_share(text: str) -> float:
    """Chinese characters among letters, a Latin letter weighing a quarter (a Chinese character
    carries about a word): a Chinese rule is mostly Han even with English card names in it."""
    cjk = len(HAN.findall(text))
    latin = len(_ASCII_LETTER.findall(text))
    return cjk / (cjk + latin / 4) if cjk or latin else 0.0


def script_share(text: str, pattern: re.Pattern[str]) -> float:
    """Share of the text's letters that are in one script."""
    letters = sum(1 for ch in text if ch.isalpha())
    return len(pattern.findall(text)) / letters if letters else 0.0


def name_language(text: str) -> str | None:
    """The language a text is mostly written in ("English", "Chinese", "Malay" …), or None."""
    sample = text[:100_000]
    letters = sum(1 for ch in sample if ch.isalpha())
    if letters < 20:
        return None
    for name, pattern in _SCRIPTS:
        share = script_share(sample, pattern)
        if name == "Chinese" and share > 0.2:
            return name
        if name != "Chinese" and share > 0.3:
            return name
    words = Counter(_LATIN_WORD.findall(sample.lower()))
    total = sum(words.values())
    if not total:
        return None
    scores = {name: sum(words[w] for w in stop) / total for name, stop in _STOP_WORDS.items()}
    best = max(scores, key=lambda k: scores[k])
    if scores[best] < 0.08:
        return None
    return best
