"""Chinese words by their sound: the rules' word a slip of pinyin input was meant for."""

from __future__ import annotations

from pathlib import Path

from crkb.search.sounds import Sounds, readings_table, sound_table, tables, write

# 辟 is usually read bì, and also pì; 劈 pī; 避 bì; 邪 xié
READINGS = {"bi": "辟*避*", "pi": "辟劈*", "xie": "邪*斜*"}


def test_a_word_typed_with_a_character_of_the_same_sound_is_the_rules_word() -> None:
    sounds = Sounds(READINGS, {"bi xie": [["辟邪", 14]], "pi xie": [["劈斜", 30]]})
    assert sounds.like("避邪") == "辟邪"
    assert sounds.like("避斜") == "辟邪"
    # the usual reading of a character first, though a word read otherwise is used more
    assert sounds.like("辟斜") == "辟邪"
    # of two words with the same sound, the one most rules use
    two = Sounds(READINGS, {"bi xie": [["辟邪", 14], ["避邪", 20]]})
    assert (
        two.like("避斜") == "避邪"
        and two.like("避斜", lambda w: 50 if w == "辟邪" else 0) == "辟邪"
    )


def test_a_wrong_character_matches_by_its_usual_reading_a_right_one_by_any() -> None:
    # 辟 is read pì only in a few words: typed for 劈 it is no slip of an input method;
    # kept in a word read pì, it is that word's own character
    sounds = Sounds(READINGS, {"pi xie": [["劈斜", 30]]})
    assert sounds.like("辟斜") is None
    assert Sounds(READINGS, {"pi xie": [["辟斜", 3]]}).like("辟邪") == "辟斜"


def test_a_word_with_no_sound_alike_or_not_chinese_is_left_alone() -> None:
    sounds = Sounds(READINGS, {"bi xie": [["辟邪", 14]]})
    assert sounds.like("辟邪") is None  # the word itself
    assert sounds.like("邪") is None and sounds.like("x邪") is None and sounds.like("") is None


def test_the_tables_are_made_from_pinyin_and_read_back(tmp_path: Path) -> None:
    table = readings_table()
    assert "鹏*" in table["peng"] and "朋*" in table["peng"] and "辟" in table["pi"]
    assert sound_table({"重生": 3, "鹏洛客": 9}) == {
        "chong sheng": [("重生", 3)],
        "peng luo ke": [("鹏洛客", 9)],
    }
    # 其实 ("in fact") is an everyday word that sounds like the game's 起事; 其他 sounds like none
    write(tmp_path / "sounds.json", {"鹏洛客": 9, "起事": 4}, ["其实", "其他"])
    sounds = Sounds.read(tmp_path / "sounds.json")
    assert sounds is not None and sounds.like("朋洛客") == "鹏洛客"
    assert sounds.like("起是") == "起事" and sounds.like("其实") is None
    assert tables({"起事": 4}, ["其实", "其他"])["everyday"] == ["其实"]
    assert Sounds.read(tmp_path / "missing.json") is None
