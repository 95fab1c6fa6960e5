"""Players' words: a query in the words people type at a table finds the rules' words."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from crkb.search.engine import Searcher
from crkb.search.index import build_index
from crkb.search.players import (
    named_symbols,
    rules_words_en,
    rules_words_zh,
    slashed,
    todays_words_en,
)
from tests.documents import document, numbers, toy_searcher

EN = [
    ("100", "section", "Widgets", "Widgets"),
    ("100.1", "rule", "When a widget enters the battlefield, its controller scores a point.", None),
    ("100.2", "rule", "A widget's mana value is its cost.", None),
    ("100.3", "rule", "A player who can't draw from their library with no cards loses.", None),
    ("100.4", "rule", "A deck holds sixty widgets.", None),
    ("100.5", "rule", "Destroy a widget only at night; a will decides it.", None),
    ("100.6", "rule", "A sprocket is retained when its widget moves.", None),
    ("100.7", "rule", "A sprocket turns twice a day, in the order of its teeth.", None),
    ("100.8", "rule", "If an exchange of widgets can't be completed, none of it happens.", None),
    ("100.9", "rule", "Sprocketing is a keyword ability of some widgets.", None),
    ("100.10", "rule", "Multiple instances of sprocketing on the same widget are redundant.", None),
    ("100.11", "rule", "Players may roll a die with a digital substitute.", None),
    ("100.12", "rule", "Cards outside the game can't be affected by widgets.", None),
    ("100.13", "rule", "A sideboard holds fifteen cards.", None),
]
ZH = [
    ("100", "section", "小玩意", "小玩意"),
    ("100.1", "rule", "每位牌手在其抓牌步骤中抓一张牌。", None),
    ("100.2", "rule", "小玩意被置入坟墓场时，其操控者失去1点生命。", None),
    ("100.3", "rule", "坟场风暴是一种触发式异能。", None),
    ("100.4", "rule", "在轮抽过程中，牌手抽选卡牌。", None),
]


@pytest.fixture(scope="module")
def s(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    d = tmp_path_factory.mktemp("players") / "index"
    build_index(d, [document("en", EN, []), document("zh", ZH, [])], {})
    return toy_searcher(d)


def test_players_words_are_put_in_the_rules_words() -> None:
    assert rules_words_en(["etb", "trigger"]) == ["enters", "the", "battlefield", "trigger"]
    assert rules_words_en(["converted", "mana", "cost", "of", "x"]) == ["mana", "value", "of", "x"]
    assert rules_words_en(["mana", "cost"]) == ["mana", "cost"]  # the rules' own words stay
    assert rules_words_en(["does", "he", "hit", "the", "player"])[2:4] == ["deal", "damage"]
    assert rules_words_en(["my", "spell", "fizzled"])[2:] == ["illegal", "targets", "resolve"]
    assert rules_words_en(["swing", "with", "everything"])[0] == "attack"
    assert rules_words_en(["at", "sorcery", "speed"]) == ["at", "as", "a", "sorcery"]
    assert rules_words_en(["two", "land", "drops"]) == ["two", "play", "lands"]
    assert rules_words_en(["its", "p", "t", "in", "2nd", "main"])[1:4] == [
        "power",
        "toughness",
        "in",
    ]
    assert rules_words_en(["2nd", "main"]) == ["second", "main"]
    assert rules_words_en(["can", "my", "flyer", "block"]) == ["can", "my", "flying", "block"]
    assert rules_words_en(["which", "trigger", "goes", "first"])[2:] == ["goes", "first"]
    assert rules_words_en(["clone", "it"]) == ["clone", "it"]  # Clone is a card the rules cite
    assert rules_words_zh("克隆一个生物") == "复制一个生物"
    bounced = rules_words_en(["bounced", "to", "my", "hand"])
    assert bounced == ["returned", "to", "my", "hand"]  # no second "to hand"
    assert rules_words_en(["bounce", "it"]) == ["return", "to", "hand", "it"]
    assert rules_words_zh("从空牌库抽牌会怎样") == "从空牌库抓牌会怎样"
    assert rules_words_zh("每回合抽几张，卡组最少几张") == "每回合抓几张，套牌至少几张"
    # the rules' own words that hold a players' word are left as they are
    assert rules_words_zh("坟场风暴在轮抽中抽选") == "坟场风暴在轮抽中抽选"
    assert rules_words_zh("混血法术力和血量") == "混血法术力和生命"
    assert rules_words_zh("吸血的生物") == "系命的生物"  # not 吸 + 生命
    assert rules_words_zh("每回合可以下几块地") == "每回合可以使用几块地"
    assert rules_words_zh("牌面朝下地放逐") == "牌面朝下地放逐"  # face down, no land played
    assert rules_words_zh("MDFC背面是地") == rules_words_zh("mdfc背面是地") == "模式双面牌背面是地"
    assert rules_words_zh("衍生物被弹回手上") == "衍生物被移回手上"
    assert rules_words_zh("对手横地产生法术力") == "对手横置地产生法术力"
    assert rules_words_zh("搜牌库，不是搜证") == "搜寻牌库，不是搜证"
    assert rules_words_zh("弹回异能") == "弹回异能"  # the keyword Rebound
    assert rules_words_zh("我控制的装备") == "我操控的武具"
    assert rules_words_zh("要多付多少") == "要多支付多少"
    assert rules_words_zh("支付生命") == "支付生命"  # not 支支付
    assert rules_words_zh("坟墓场里的牌，牌在哪里") == "坟墓场中的牌，牌在哪里"
    assert rules_words_zh("它身上贴的灵气，以后") == "它上贴附的灵气，之后"
    assert rules_words_zh("四人局和4人局，多人局") == "多人游戏和多人游戏，多人游戏"
    assert rules_words_zh("两人对局") == "双人游戏"
    assert rules_words_zh("生物死了，对手回应") == "生物死去了，对手响应"
    assert rules_words_zh("打出一张地，打出来的咒语") == "使用一张地，施放的咒语"
    assert rules_words_zh("打出3点伤害") == "打出3点伤害"  # dealing damage, not casting
    assert rules_words_zh("打瞬间，丢一个法术，打生物") == "施放瞬间，施放一个法术，打生物"
    assert rules_words_zh("要翻开给大家看吗，跳过抓牌") == "要展示给大家看吗，略过抓牌"
    assert rules_words_zh("翻开变身生物") == "翻开变身生物"  # turning it face up, no reveal
    assert rules_words_zh("放上栈和堆栈") == "放上堆叠和堆叠"
    assert rules_words_zh("死触和召唤病") == "死触和召唤失调"
    assert rules_words_zh("死亡之触和速攻，生物死亡") == "死触和敏捷，生物死去"
    assert rules_words_zh("生物被杀了，对面池子里") == "生物被消灭了，对手法术力池中"
    assert rules_words_zh("弹回手再下场，回手") == "移回手再进入战场，移回手"
    assert rules_words_zh("巨人杀手") == "巨人杀手"  # a card's name
    # the rules' own words that hold a players' word: Offering, Vampire, a meld pair, upright
    assert rules_words_zh("献祭异能，献祭一个生物") == "献祭异能，牺牲一个生物"
    assert rules_words_zh("吸血鬼，吸血") == "吸血鬼，系命"
    assert rules_words_zh("融合牌组，卡组") == "融合牌组，套牌"
    assert rules_words_zh("竖向，竖起来") == "竖向，重置"
    assert rules_words_zh("贴纸能贴到对手的生物上吗") == "贴纸能贴附到对手的生物上吗"  # a sticker
    assert rules_words_zh("交换攻防") == "交换力量和防御力"
    assert rules_words_zh("用替代卡代表双面牌，替代性效应") == "用辅助牌代表双面牌，替代性效应"
    assert rules_words_zh("回血，扣血，解场，换手") == "获得生命，失去生命，消灭所有生物，再调度"
    assert rules_words_zh("多人乱斗") == "多人游戏"
    assert rules_words_zh("玩家的能力，攻击力，格挡，卡图") == "牌手的异能，力量，阻挡，图片"
    assert rules_words_en(["a", "pro", "red", "walker"]) == [
        "a",
        "protection",
        "from",
        "red",
        "walker",  # a Walker token too: the word stays, and also meets "planeswalker"
    ]
    assert rules_words_en(["go", "face"]) == ["attack", "player"]
    assert rules_words_zh("指挥区的牌被偷走，神偷") == "统帅区的牌被获得操控权，神偷"
    assert rules_words_zh("有人退出，神器被拆了，被解掉") == "有人离开游戏，神器被消灭了，被消灭"
    # peeking at a face-down card is looking at it, not stealing it; damage cleared is removed
    assert rules_words_zh("能偷看吗，偷走了") == "能检视吗，获得操控权了"
    assert rules_words_zh("伤害啥时候清掉，清除步骤") == "伤害啥时候移除，清除步骤"
    # Free-for-All and Planechase as players call them (the rules: 自由竞赛, 竞逐时空)
    assert rules_words_zh("打FFA，自由混战，时空竞逐") == "打自由竞赛，自由竞赛，竞逐时空"
    assert rules_words_zh("主阶段吃了3点伤害，吃饭") == "行动阶段受到3点伤害，吃饭"
    assert rules_words_zh("复活，检索") == "从坟墓场放进战场，搜寻"
    assert rules_words_zh("摸一张牌，丢两张牌，丢一个瞬间") == "抓一张牌，弃两张牌，施放一个瞬间"
    assert rules_words_zh("横着的生物，发动异能，关键词") == "横置着的生物，起动异能，关键字"
    assert rules_words_zh("生物类型，副类型，无限循环，平局") == "生物类别，副类别，循环，平手"
    assert rules_words_en(["reanimate", "it"])[:3] == ["put", "onto", "battlefield"]
    assert rules_words_en(["an", "edict", "effect"]) == ["an", "sacrifice", "effect"]
    assert rules_words_en(["which", "one", "wins"]) == ["which", "takes", "precedence"]
    assert rules_words_en(["a", "colored", "dot"]) == ["a", "color", "indicator"]
    assert rules_words_en(["rearrange", "my", "graveyard"]) == [
        "change",
        "order",
        "my",
        "graveyard",
    ]
    assert rules_words_en(["a", "mana", "rock"]) == ["a", "artifact", "add", "mana"]
    assert rules_words_en(["cda", "lki", "proxies"]) == [
        *["characteristic", "defining", "ability"],
        *["last", "known", "information", "substitute", "cards"],
    ]
    assert rules_words_en(["uncounterable"]) == ["can", "t", "be", "countered"]
    assert rules_words_zh("构筑套牌，白天，重开，清理步骤") == "构组套牌，白昼，重新开始，清除步骤"
    assert rules_words_zh("起手调度，再调度，调动") == "起手再调度，再调度，调动"
    assert rules_words_zh("转面之后，10个毒，中毒，下毒，剧毒") == (
        "转化之后，10个中毒指示物，中毒，下毒，剧毒"
    )
    started = rules_words_zh("开局谁先，有人出局，能施法吗")
    assert started == "游戏开始谁先，有人离开游戏，能施放咒语吗"
    assert rules_words_zh("日夜怎么转换，牌库抓空") == "白昼黑夜怎么转换，从空的牌库中抓牌"
    assert rules_words_en(["its", "stats", "regen", "pips"]) == [
        *["its", "power", "toughness", "regenerate", "mana", "symbols"]
    ]
    cheaper = rules_words_en(["cast", "it", "cheaper", "then", "recast"])
    assert cheaper == ["cast", "it", "cost", "less", "then", "cast", "again"]
    assert rules_words_zh("挑一些重掷") == "挑一些重新掷"  # a reroll, no slip for 重置 (untap)
    assert rules_words_zh("图层") == "层"  # a layer of continuous effects
    assert rules_words_zh("闪烁") == "放逐后移回战场"  # blinking a creature
    assert rules_words_zh("生物上场，战场上场地") == "生物进入战场，战场上场地"
    assert rules_words_zh("掷骰可以用手机app代替吗，happy") == "掷骰可以用电子代替吗，happy"
    # who goes first: the starting player, or whoever acts first when both do something
    assert rules_words_en(["who", "goes", "first"]) == [
        "who",
        "goes",
        "first",
        "starting",
        "player",
    ]


def test_a_power_and_toughness_typed_without_its_slash_gets_it() -> None:
    assert slashed("之前的+1+1指示物还在吗") == "之前的+1/+1指示物还在吗"
    assert slashed("two -1-1 counters, gets +2 +2") == "two -1/-1 counters, gets +2/+2"
    assert slashed("+1/+1 and 3+1+1 and x+1+1") == "+1/+1 and 3+1+1 and x+1+1"


def test_the_tap_symbol_is_searched_by_its_name(tmp_path: Path) -> None:
    # T alone is the remains of "can't": {T} is asked for as the rules name it
    assert named_symbols("what does {T} mean", "en") == "what does  tap symbol  mean"
    assert named_symbols("{t}是什么，{Q}", "zh") == "横置符号是什么，{Q}"
    rows = [
        ("107", "rule", "Numbers and Symbols", "Numbers and Symbols"),
        ("107.5", "rule", "The tap symbol is {T}. It means tap this permanent.", None),
        ("107.6", "rule", "The untap symbol is {Q}.", None),
    ]
    zh = [
        ("107", "rule", "数字与符号", "数字与符号"),
        ("107.5", "rule", "横置符号为{T}。", None),
        ("107.6", "rule", "重置符号为{Q}。", None),
    ]
    build_index(tmp_path / "index", [document("en", rows, []), document("zh", zh, [])], {})
    s = toy_searcher(tmp_path / "index")
    assert numbers(s.search("what does {T} mean", lang="en"))[0] == "107.5"
    assert numbers(s.search("{T}是什么意思", lang="zh"))[0] == "107.5"


def test_the_rules_words_of_before_2009_are_read_in_todays_where_today_is_searched(
    tmp_path: Path,
) -> None:
    assert todays_words_en(["it", "comes", "into", "play", "tapped"]) == [
        *["it", "enters", "the", "battlefield", "tapped"],
    ]
    assert todays_words_en(["removed", "from", "the", "game"]) == ["exiled"]
    now = [
        ("100", "section", "Permanents", "Permanents"),
        ("100.1", "rule", "A permanent that enters the battlefield tapped stays tapped.", None),
        ("100.2", "rule", "A player may play a tapped card that comes with a token.", None),
    ]
    then = [
        ("100", "section", "Permanents", "Permanents"),
        ("100.1", "rule", "A permanent that comes into play stays tapped.", None),
        ("100.2", "rule", "A player may put a tapped card that enters with a token.", None),
    ]
    old = dataclasses.replace(document("en", then, []), version="2005-01-01", source="en/old")
    build_index(tmp_path / "index", [old, document("en", now, [])], {})
    s = toy_searcher(tmp_path / "index")
    got = s.search("comes into play tapped", lang="en")
    assert numbers(got)[0] == "100.1" and "<mark>battlefield</mark>" in got["hits"][0]["highlight"]
    then_got = s.search("comes into play tapped", lang="en", version="2005-01-01")
    assert "<mark>play</mark>" in then_got["hits"][0]["highlight"]
    assert not any("<mark>enters</mark>" in h["highlight"] for h in then_got["hits"])


def test_an_a_not_a_question_is_a_yes_no_question() -> None:
    # jieba cuts 能不能 as 能 / 不能, which would ask for "can't"
    assert rules_words_zh("武具能不能在对手回合佩带") == "武具能吗在对手回合佩带"
    assert rules_words_zh("算不算基本地") == "算吗基本地"
    assert rules_words_zh("有没有") == "有吗"
    assert rules_words_zh("可不可以查看") == "可以吗查看"
    assert rules_words_zh("不能施放") == "不能施放"  # no A-not-A


def test_a_query_in_players_words_finds_the_rule_in_the_rules_words(s: Searcher) -> None:
    assert numbers(s.search("etb", lang="en"))[0] == "100.1"
    assert numbers(s.search("widget cmc", lang="en"))[0] == "100.2"
    # "kill" is no misspelling of "will": it is what the rules call destroying
    got = s.search("kill a widget", lang="en")
    assert numbers(got)[0] == "100.5" and got["did_you_mean"] is None
    assert numbers(s.search("抽牌", lang="zh"))[0] == "100.1"
    assert numbers(s.search("坟场", lang="zh"))[0] == "100.2"
    assert numbers(s.search("坟场风暴", lang="zh"))[0] == "100.3"
    # the rules say 操控, never 控制
    assert numbers(s.search("控制者失去生命", lang="zh"))[0] == "100.2"


def test_a_word_the_rules_use_too_also_meets_what_players_mean_by_it(s: Searcher) -> None:
    # "deck" is a rules word (100.4) and players' word for the library (100.3)
    hits = numbers(s.search("deck", lang="en"))
    assert hits[0] == "100.4" and "100.3" in hits
    assert numbers(s.search("draw from an empty deck", lang="en"))[0] == "100.3"
    # "stay" is the rules' "remain" / "retain", and so is "keep"
    assert numbers(s.search("does a sprocket stay", lang="en"))[0] == "100.6"
    assert numbers(s.search("does the widget keep its sprocket", lang="en"))[0] == "100.6"
    # a word the rules use rarely ("reordered", once) also meets their usual word ("order")
    assert numbers(s.search("reordered sprocket", lang="en"))[0] == "100.7"
    # "swap" is a rules word (Aura swap) and players' word for an exchange
    assert numbers(s.search("swap a widget", lang="en"))[0] == "100.8"
    # "it has sprocketing twice": multiple instances of it
    assert numbers(s.search("my widget has sprocketing twice", lang="en"))[0] == "100.10"
    # "dice" and "app": the rules roll "a die", with "a digital substitute"
    assert numbers(s.search("can we use a dice app", lang="en"))[0] == "100.11"
    # a sideboard's cards are outside the game (400.11a)
    assert numbers(s.search("are cards in my sideboard affected", lang="en"))[0] == "100.12"


def test_two_effects_that_disagree_ask_which_takes_precedence(tmp_path: Path) -> None:
    rows = [
        ("101", "section", "The Magic Golden Rules", "The Magic Golden Rules"),
        (
            "101.2",
            "rule",
            "When a rule or effect allows or directs something to happen, and another effect "
            "states that it can't happen, the \u201ccan't\u201d effect takes precedence.",
            None,
        ),
        ("101.3", "rule", "Any part of an effect that can't happen is ignored.", None),
        ("601", "section", "Casting Spells", "Casting Spells"),
        ("601.1", "rule", "A player who can cast a spell wins priority back.", None),
    ]
    build_index(tmp_path / "index", [document("en", rows, [])], {})
    s = toy_searcher(tmp_path / "index")
    asked = "one effect says i can cast it and another says i can't, which one wins"
    assert numbers(s.search(asked, lang="en"))[0] == "101.2"


def test_a_game_of_more_than_two_players_is_a_multiplayer_game() -> None:
    assert rules_words_en(["a", "4", "player", "game"]) == [
        "a",
        "4",
        "player",
        "multiplayer",
        "game",
    ]
    assert rules_words_en(["five", "players"]) == ["five", "players", "multiplayer"]
    assert rules_words_en(["a", "2", "player", "game"]) == ["a", "2", "player", "game"]
    assert rules_words_en(["ffa"]) == ["free", "for", "all"]


def test_a_multiplayer_question_meets_the_multiplayer_chapter_s_general_rules(
    tmp_path: Path,
) -> None:
    """The rules of a chapter's "General" section are under a title no question names: a
    question naming the chapter (a four player game: Multiplayer Rules) reaches them."""
    rows = [
        ("1", "chapter", "Game Concepts", "Game Concepts"),
        ("104", "section", "Ending the Game", "Ending the Game"),
        (
            "104.3",
            "rule",
            "A player who concedes leaves the game; the creatures they own leave it too.",
            None,
        ),
        ("8", "chapter", "Multiplayer Rules", "Multiplayer Rules"),
        ("800", "section", "General", "General"),
        (
            "800.4",
            "rule",
            "When a player concedes, the creatures that player owns leave the game, and "
            "control of the creatures that player controls ends.",
            None,
        ),
    ]
    zh = [
        ("1", "chapter", "游戏概念", "游戏概念"),
        ("104", "section", "结束游戏", "结束游戏"),
        ("104.3", "rule", "认输的牌手离开游戏；其拥有的生物也离开游戏。", None),
        ("8", "chapter", "多人游戏规则", "多人游戏规则"),
        ("800", "section", "总则", "总则"),
        ("800.4", "rule", "当一位牌手认输时，其拥有的生物离开游戏。", None),
    ]
    docs = [document("en", rows, []), document("zh", zh, [])]
    build_index(tmp_path / "index", docs, {"Multiplayer Game": "多人游戏"})
    s = toy_searcher(tmp_path / "index")
    assert numbers(s.search("四人局有人认输了，他的生物会离开游戏吗", lang="zh"))[0] == "800.4"
    assert numbers(s.search("双人局有人认输了，他的生物会离开游戏吗", lang="zh"))[0] == "104.3"
    asked = "in a 4 player game someone concedes, what happens to the creatures they own"
    assert numbers(s.search(asked, lang="en"))[0] == "800.4"
    two = "in a 2 player game someone concedes, what happens to the creatures they own"
    assert numbers(s.search(two, lang="en"))[0] == "104.3"
