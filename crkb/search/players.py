"""Players' words for the rules' words: what people type at a table that the rules never say.

A player asks about "ETB triggers", "CMC", "2HG" or "抽牌"; the rules say "enters the
battlefield", "mana value", "Two-Headed Giant" and "抓牌". Neither the glossary nor the spelling
corrector knows these (it once read "kill" as "will"), so the query is rewritten in the rules'
words before it is read. A word the rules use themselves ("deck") is kept, and also meets the
rules' word players mean by it (library), counted less.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from crkb.search import analysis, numerals

ALSO = 0.6  # how much the rules' word for a players' word the rules also use counts against it

# Abbreviations and slang → the rules' words (whole words, lowercase; longest phrase first).
EN_REWRITE: dict[tuple[str, ...], tuple[str, ...]] = {
    # contractions typed without the apostrophe, and "won't" (not the "won" of winning)
    ("won", "t"): ("will", "not"),
    ("wont",): ("will", "not"),
    ("cant",): ("can", "not"),
    ("dont",): ("do", "not"),
    ("doesnt",): ("does", "not"),
    ("didnt",): ("did", "not"),
    ("isnt",): ("is", "not"),
    ("arent",): ("are", "not"),
    ("wasnt",): ("was", "not"),
    ("shouldnt",): ("should", "not"),
    ("couldnt",): ("could", "not"),
    ("hes",): ("he", "is"),
    ("shes",): ("she", "is"),
    ("theres",): ("there", "is"),
    ("whos",): ("who", "is"),
    ("wheres",): ("where", "is"),
    ("hows",): ("how", "is"),
    ("thats",): ("that", "is"),
    ("im",): ("i", "am"),
    ("ive",): ("i", "have"),
    ("youre",): ("you", "are"),
    ("theyre",): ("they", "are"),
    ("float",): ("mana", "pool"),  # mana left in the pool
    ("floating",): ("mana", "pool"),
    ("floated",): ("mana", "pool"),
    ("hit",): ("deal", "damage"),  # "hit the player": deal it combat damage
    ("hits",): ("deals", "damage"),
    ("guy",): ("creature",),
    ("guys",): ("creatures",),
    ("etb",): ("enters", "the", "battlefield"),
    ("etbs",): ("enters", "the", "battlefield"),
    ("ltb",): ("leaves", "the", "battlefield"),
    ("cmc",): ("mana", "value"),
    ("mv",): ("mana", "value"),
    ("converted", "mana", "cost"): ("mana", "value"),
    ("2hg",): ("two", "headed", "giant"),
    ("sba",): ("state", "based", "actions"),
    ("sbas",): ("state", "based", "actions"),
    ("eot",): ("end", "step"),
    ("gy",): ("graveyard",),
    ("yard",): ("graveyard",),
    ("bf",): ("battlefield",),
    ("pw",): ("planeswalker",),
    ("pws",): ("planeswalkers",),
    ("cmdr",): ("commander",),
    ("dmg",): ("damage",),
    ("opp",): ("opponent",),
    ("opps",): ("opponents",),
    ("trig",): ("trigger",),
    ("trigs",): ("triggers",),
    ("sac",): ("sacrifice",),
    ("sacs",): ("sacrifices",),
    ("sacced",): ("sacrificed",),
    ("saccing",): ("sacrificing",),
    ("mull",): ("mulligan",),
    ("mulls",): ("mulligans",),
    ("dfc",): ("double", "faced", "card"),
    ("mdfc",): ("modal", "double", "faced", "card"),
    ("tdfc",): ("transforming", "double", "faced", "card"),
    ("kill",): ("destroy",),
    ("kills",): ("destroys",),
    ("killed",): ("destroyed",),
    ("bounce",): ("return", "to", "hand"),
    ("bounced",): ("returned", "to", "hand"),
    ("blink",): ("exile", "return"),
    ("blinked",): ("exiled", "returned"),
    ("flicker",): ("exile", "return"),
    ("flickered",): ("exiled", "returned"),
    ("tutor",): ("search", "library"),
    ("tutored",): ("searched", "library"),
    ("steal",): ("gain", "control"),
    ("stole",): ("gained", "control"),
    ("stolen",): ("gained", "control"),
    ("lifegain",): ("gain", "life"),
    ("counterspell",): ("counter", "spell"),
    ("p", "t"): ("power", "toughness"),  # "p/t"
    ("1st",): ("first",),
    ("2nd",): ("second",),
    ("3rd",): ("third",),
    ("diff",): ("different",),
    ("bo3",): ("match",),
    ("flyer",): ("flying",),  # a creature with flying
    ("flyers",): ("flying",),
    ("flier",): ("flying",),
    ("fliers",): ("flying",),
    ("first", "striker"): ("first", "strike"),
    ("double", "striker"): ("double", "strike"),
    ("trampler",): ("trample",),
    # who goes first: the starting player, or who acts first (not "which trigger goes first")
    ("who", "goes", "first"): ("who", "goes", "first", "starting", "player"),
    ("who", "go", "first"): ("who", "go", "first", "starting", "player"),
    ("on", "the", "play"): ("starting", "player"),
    ("deck", "out"): ("draw", "from", "empty", "library"),
    ("decking",): ("draw", "from", "empty", "library"),
    ("ffa",): ("free", "for", "all"),
    ("edh",): ("commander",),
    ("1v1",): ("two", "player"),
    ("swing",): ("attack",),  # "swing with everything": attack
    ("swings",): ("attacks",),
    ("swinging",): ("attacking",),
    ("swung",): ("attacked",),
    ("proc",): ("trigger",),
    ("procs",): ("triggers",),
    ("fizzle",): ("illegal", "targets", "resolve"),  # every target illegal: it doesn't resolve
    ("fizzles",): ("illegal", "targets", "resolve"),
    ("fizzled",): ("illegal", "targets", "resolve"),
    ("sorcery", "speed"): ("as", "a", "sorcery"),
    ("instant", "speed"): ("as", "an", "instant"),
    ("board", "wipe"): ("destroy", "all", "creatures"),
    ("boardwipe",): ("destroy", "all", "creatures"),
    ("sweeper",): ("destroy", "all", "creatures"),
    ("wrath",): ("destroy", "all", "creatures"),
    ("cantrip",): ("draw", "a", "card"),
    ("loot",): ("draw", "discard"),
    ("manland",): ("land", "becomes", "creature"),
    ("chump", "block"): ("block",),
    ("chump", "blocked"): ("blocked",),
    ("land", "drop"): ("play", "land"),
    ("land", "drops"): ("play", "lands"),
    ("summoning", "sick"): ("summoning", "sickness"),
    ("scoop",): ("concede",),
    ("scooped",): ("conceded",),
    ("stats",): ("power", "toughness"),  # a creature's stats
    ("regen",): ("regenerate",),
    ("pip",): ("mana", "symbol"),  # a colored pip in a cost
    ("pips",): ("mana", "symbols"),
    ("cheaper",): ("cost", "less"),
    ("recast",): ("cast", "again"),
    ("topdeck",): ("top", "of", "library"),
    ("cda",): ("characteristic", "defining", "ability"),
    ("cdas",): ("characteristic", "defining", "abilities"),
    ("lki",): ("last", "known", "information"),
    ("proxy",): ("substitute", "card"),  # a stand-in card (the rules' substitute cards)
    ("proxies",): ("substitute", "cards"),
    ("uncounterable",): ("can", "t", "be", "countered"),
    ("edict",): ("sacrifice",),  # "an edict effect": each player sacrifices a creature
    ("edicts",): ("sacrifice",),
    # reanimating a creature: putting it onto the battlefield from a graveyard
    **dict.fromkeys(
        [("reanimate",), ("reanimates",), ("reanimated",), ("reanimating",)],
        ("put", "onto", "battlefield", "from", "graveyard"),
    ),
    ("artwork",): ("illustration",),
    ("rearrange",): ("change", "order"),
    ("rearranged",): ("changed", "order"),
    # "one effect says i can, another says i can't: which one wins": it takes precedence
    ("which", "one", "wins"): ("which", "takes", "precedence"),
    ("which", "wins"): ("which", "takes", "precedence"),
    ("colored", "dot"): ("color", "indicator"),
    ("color", "dot"): ("color", "indicator"),
    ("colour", "dot"): ("color", "indicator"),
    ("vanilla",): ("no", "abilities"),  # a vanilla creature: one with no abilities
    ("mana", "dork"): ("creature", "add", "mana"),
    ("mana", "dorks"): ("creatures", "add", "mana"),
    ("mana", "rock"): ("artifact", "add", "mana"),
    ("mana", "rocks"): ("artifacts", "add", "mana"),
    ("sack",): ("sacrifice",),
    ("sacked",): ("sacrificed",),
    ("go", "face"): ("attack", "player"),  # attacking the player, not a planeswalker
    ("discard", "pile"): ("graveyard",),
    # "a pro-red creature": protection from red
    **{("pro", c): ("protection", "from", c) for c in ("white", "blue", "black", "red", "green")},
}
_LONGEST = max(len(k) for k in EN_REWRITE)

# Words the rules use too, and the rules' word players often mean by them.
EN_ALSO: dict[str, tuple[str, ...]] = {
    "deck": ("library",),
    "decked": ("library",),
    "show": ("reveal",),  # "do i have to show it": reveal it
    "stay": ("remain", "retain"),  # "do the counters stay": are they retained
    "stays": ("remains", "retains"),
    "shown": ("revealed",),
    "art": ("illustration",),  # "the art shows wings": the illustration
    "walker": ("planeswalker",),  # a Walker is a token too (111.10d)
    "walkers": ("planeswalkers",),
    "clone": ("copy",),  # "clone my creature": copy it (Clone is a card the rules cite)
    "clones": ("copies",),
    "cloned": ("copied",),
    "reorder": ("order",),  # the rules say "reordered" once (701.20d), "order" often
    "reordered": ("order",),
    "keep": ("retain",),  # "does it keep its counters": are they retained
    "keeps": ("retains",),
    "kept": ("retained",),
    "pick": ("choose",),
    "picks": ("chooses",),
    "picked": ("chose", "chosen"),
    "twice": ("instances",),  # "it has flying twice": multiple instances of flying
    "dice": ("die",),  # "roll two dice": the rules roll "a die"
    "app": ("digital",),  # "a dice app": a digital substitute
    "apps": ("digital",),
    "swap": ("exchange",),  # "a swap-control spell": an exchange (Aura swap is a keyword)
    "swaps": ("exchanges",),
    "swapped": ("exchanged",),
    "swapping": ("exchanging",),
    "sideboard": ("outside",),  # "from my sideboard": cards outside the game (400.11a)
    "sideboards": ("outside",),
    "mechanic": ("keyword",),  # "which mechanic merges cards": a keyword (the rules say it twice)
    "mechanics": ("keywords",),
}

# Chinese players' words → the rules' (Simplified, after Traditional input is converted), in
# order: a longer word before a word inside it (吸血 before 血). A pattern keeps clear of the
# rules' own words that hold it: 轮抽 (a draft), 坟场风暴 (Gravestorm),
# 混血 (hybrid), 嗜血 (bloodthirst), 血滴 (a Blood token), 吸血鬼 (Vampire), 血激 (bloodrush).
ZH_REWRITE: tuple[tuple[str, str], ...] = (
    # an A-not-A question is a yes-no question: 能不能 → 能吗, 算不算 → 算吗, 抓不抓 → 抓吗
    # (jieba cuts 能不能 as 能 / 不能, and 不能 would be asked for as a word)
    ("可不可以", "可以吗"),
    ("(?<=([\\u4e00-\\u9fff]))[不没]\\1", "吗"),
    # English abbreviations in a Chinese question, in either case
    ("(?<![a-z])mdfcs?(?![a-z])", "模式双面牌"),
    ("(?<![a-z])t?dfcs?(?![a-z])", "双面牌"),
    ("(?<![a-z])etb(?![a-z])", "进入战场"),
    ("(?<![a-z])ltb(?![a-z])", "离开战场"),
    ("(?<![a-z])(?:cmc|mv)(?![a-z])", "法术力值"),
    ("(?<![a-z])edh(?![a-z])", "指挥官"),
    ("2hg", "双头巨人"),
    ("(?<![a-z])sbas?(?![a-z])", "状态动作"),
    ("(?<![a-z])pw(?![a-z])", "鹏洛客"),
    # a game of more players than two: 多人局, 四人局, 4人局 (the rules say 多人游戏)
    ("(?:多|[三四五六七八3-8])人(?:局|对局|游戏|场|乱斗)", "多人游戏"),
    # Free-for-All (自由竞赛玩法) as players call it; Planechase with its words turned round
    ("(?<![a-z])ffa(?![a-z])|自由(?:混战|乱斗|对战)", "自由竞赛"),
    ("时空竞逐", "竞逐时空"),
    ("(?:双|两|二|2)人(?:局|对局|场)", "双人游戏"),
    ("(?<![a-z])tokens?(?![a-z])", "衍生物"),
    ("(?<![a-z])fizzle[sd]?(?![a-z])", "目标均非法不会结算"),
    ("弹回(?=手)", "移回"),  # bounced to a hand (弹回 alone is the keyword Rebound)
    ("抽(?:牌|卡)", "抓牌"),
    ("(?<!轮)抽(?!选)", "抓"),
    ("(?<!融合)(?:卡组|牌组|套组)", "套牌"),  # not a 融合牌组 (a meld pair)
    ("牌堆", "牌库"),
    ("坟场(?!风暴)", "坟墓场"),
    ("墓地(?!鼠)", "坟墓场"),  # not 墓地鼠群, a card
    ("吸血(?!鬼)", "系命"),  # lifelink (before 血 alone; 吸血鬼 is Vampire)
    ("死亡之触", "死触"),  # deathtouch, its words spelt out (before 死亡 alone: dies)
    ("速攻", "敏捷"),  # haste, as other games' players call it
    ("(?:回|加)血", "获得生命"),  # gaining life
    ("(?:掉|扣)血", "失去生命"),  # losing life
    ("解场", "消灭所有生物"),  # a board wipe
    ("(?:换手|重抽)", "再调度"),  # a mulligan
    ("血量", "生命"),
    ("(?<![混嗜吸野])血(?![滴鬼蛭激族])", "生命"),
    ("法力", "法术力"),
    ("(?:进场|入场)", "进入战场"),
    ("离场", "离开战场"),
    ("状态(?:检查|检定)", "状态动作"),
    # sacrificing one (献祭 alone is the keyword Offering, 702.48)
    ("献祭(?=[一两二三几掉了个这那它其我你他所])", "牺牲"),
    ("反制", "反击"),  # countering a spell
    ("旅法师", "鹏洛客"),  # a planeswalker's name in older translations
    ("双击", "连击"),  # double strike
    ("(?<!阻)格?挡", "阻挡"),  # block (格挡 too)
    ("投降", "认输"),  # concede
    ("(?:摧毁|破坏)", "消灭"),  # destroy
    ("(?:死掉|阵亡)", "死去"),  # dies
    ("(?<![巨嗜])杀(?![手])", "消灭"),  # 被杀了: destroyed (not 巨人杀手, a card)
    ("对面", "对手"),  # the opponent
    ("池子", "法术力池"),  # the mana pool
    ("(?<!移)回手", "移回手"),  # bounced to a hand (after 弹回手: 移回手)
    ("下场(?!比赛)", "进入战场"),  # put onto the battlefield
    ("死(?=了)", "死去"),  # 生物死了: 死去 (not 死触, deathtouch)
    ("打出(?=[一两几\\d]*[块张个]?地)", "使用"),  # playing a land
    # casting a spell (the rules never say 打出), not dealing damage (打出3点伤害)
    ("打出(?:来)?(?![\\d一二三四五六七八九十两几多少]*点)", "施放"),
    # 打瞬间, 丢一个法术: casting it (not 打生物 nor 打鹏洛客: hitting or attacking one)
    ("(?:打|丢)(?=(?:一个|一张|个|张)?(?:瞬间|法术|咒语))", "施放"),
    ("召唤病", "召唤失调"),  # summoning sickness
    ("克隆", "复制"),  # cloning: copying
    ("攻防", "力量和防御力"),  # "交换攻防": power and toughness
    ("攻击力", "力量"),  # power (the rules say 攻击力 only in two leveler rules)
    ("玩家", "牌手"),  # a player (玩家 is also the creature type Gamer, which nobody asks about)
    ("能力", "异能"),  # an ability
    ("卡图", "图片"),  # the illustration
    ("指挥区", "统帅区"),  # the command zone (指挥官's zone)
    ("主阶段", "行动阶段"),  # a main phase
    ("吃了?(?=[\\d一二三四五六七八九十两几多少]*点)", "受到"),  # "吃了3点伤害": dealt damage
    ("复活", "从坟墓场放进战场"),  # reanimating
    ("检索", "搜寻"),  # a tutor: searching a library
    ("摸(?=[一两几\\d]*张?牌)", "抓"),  # "摸一张牌": drawing one
    ("丢(?=[一两几\\d]*张?牌)", "弃"),  # "丢两张牌": discarding them
    ("横(?=掉|了|着)", "横置"),  # "横着的生物": a tapped creature
    ("(?:发动|启动)", "起动"),  # activating an ability
    ("(生物|副)类型", "\\1类别"),  # a creature type, a subtype
    ("关键词", "关键字"),  # a keyword
    ("无限(?:连|循环)", "循环"),  # an infinite loop
    ("平局", "平手"),  # a draw
    ("清理(?=步骤)", "清除"),  # the cleanup step
    ("(?:手机)?(?<![a-z])apps?(?![a-z])", "电子"),  # a dice app: a digital substitute
    ("构筑", "构组"),  # constructed play (构筑赛)
    ("白天", "白昼"),  # day (day and night)
    ("闪烁", "放逐后移回战场"),  # blinking a creature: exiling it and returning it
    ("重开", "重新开始"),  # restarting the game
    ("重掷", "重新掷"),  # rerolling a die (no slip for 重置, untap)
    ("图层", "层"),  # a layer of continuous effects (layer 6: 层6)
    ("(?<!场)上场", "进入战场"),  # "生物上场时": entering it (not 战场上场地)
    ("偷看", "检视"),  # peeking at a face-down card: looking at it (not stealing it)
    ("(?<!神)偷(?:走|来)?", "获得操控权"),  # stealing: gaining control (as "steal"; 神偷 is a card)
    ("退出(?:游戏)?", "离开游戏"),  # leaving the game
    ("解掉", "消灭"),  # removed: destroyed
    ("清掉", "移除"),  # damage cleared away: removed (清除 alone is the cleanup step)
    ("拆(?=掉|了)", "消灭"),  # "神器被拆了": destroyed
    ("替代(?:卡|牌)", "辅助牌"),  # a substitute card (not 替代性效应, a replacement effect)
    ("跳过", "略过"),  # skip
    ("技能", "异能"),  # an ability
    ("亮出|翻开(?=给|让)", "展示"),  # reveal (翻开 alone may be turning face up)
    ("死亡", "死去"),  # dies
    ("抵销", "反击"),  # countering a spell
    ("竖(?!向)(?:起来)?", "重置"),  # untap (not 竖向, upright)
    ("回应", "响应"),  # responding
    ("堆?栈", "堆叠"),  # the stack (堆栈, 栈)
    ("计数器", "指示物"),  # counters
    ("(?:冲脸|打脸)", "攻击牌手"),  # attacking the player
    ("装备", "武具"),  # an Equipment
    ("控制", "操控"),  # control (the rules never say 控制)
    ("最多", "至多"),  # at most
    ("最少", "至少"),  # at least
    ("(?<!支)付", "支付"),  # pay ("多付多少": pay how much more)
    ("以后", "之后"),  # after
    ("(?<![哪这那])里", "中"),  # in (坟墓场里: 坟墓场中), not 哪里 (where)
    ("身上", "上"),  # on it (它身上的指示物: the counters on it)
    ("(?<!贴纸)贴(?![附纸]|.?贴纸)", "贴附"),  # attached (not a sticker's: 贴纸, 贴上贴纸)
    ("横(?=[一两几\\d]*[块张个]?地)", "横置"),  # "横地": tapping a land
    ("搜(?![寻证救括])", "搜寻"),  # "搜牌库": searching a library (not 搜证, collect evidence)
    # "下一块地", "拍地": playing a land (not the 下地 of 牌面朝下地, face down)
    ("(?<![朝面])(?:下|拍)(?=[几一两二三\\d]*[块张个]?地)", "使用"),
    ("(?<!再)调度", "再调度"),  # a mulligan (the rules say 再调度 alone)
    ("转面", "转化"),  # transforming a double-faced card (翻面 is also turning one face up)
    ("(?<![中下剧])毒(?:指示物)?(?![性药])", "中毒指示物"),  # "10个毒": poison counters
    ("开局", "游戏开始"),  # the start of the game
    ("出局", "离开游戏"),  # a player out of a multiplayer game
    ("施法", "施放咒语"),  # casting spells
    ("日夜|昼夜|白天黑夜", "白昼黑夜"),  # day and night
    ("(?:牌库)?抓空", "从空的牌库中抓牌"),  # drawing from an empty library
)
_ZH = tuple((re.compile(p, re.I), r) for p, r in ZH_REWRITE)  # MDFC or mdfc


def rules_words_en(words: Sequence[str]) -> list[str]:
    """Lowercase query words with players' words and phrases put in the rules' words; a word
    the query holds already is not added twice ("bounced to my hand": "returned to my hand")."""

    def put(i: int, n: int) -> list[str] | None:
        if n == 2 and _many_players(words[i : i + 2]) and "multiplayer" not in words:
            return [*words[i : i + 2], "multiplayer"]  # "a four player game": multiplayer
        got = EN_REWRITE.get(tuple(words[i : i + n]))
        if got is None:
            return None
        held = set(words[:i]) | set(words[i + n :])
        return [w for w in got if w == got[0] or w not in held]

    return rewritten(words, range(_LONGEST, 0, -1), put)


# Words of the rules before the Magic 2010 update (2009-07-11), which veterans and older cards
# still use: "comes into play" (enters the battlefield), "removed from the game" (exiled). Read
# in today's words only in a release that uses them (403.5 and 406.7 say what they meant).
RENAMED_EN = "2009-07-11"
EN_BEFORE_M10: dict[tuple[str, ...], tuple[str, ...]] = {
    ("comes", "into", "play"): ("enters", "the", "battlefield"),
    ("come", "into", "play"): ("enter", "the", "battlefield"),
    ("came", "into", "play"): ("entered", "the", "battlefield"),
    ("coming", "into", "play"): ("entering", "the", "battlefield"),
    ("leaves", "play"): ("leaves", "the", "battlefield"),
    ("leave", "play"): ("leave", "the", "battlefield"),
    ("left", "play"): ("left", "the", "battlefield"),
    ("into", "play"): ("onto", "the", "battlefield"),  # "put into play"
    ("in", "play"): ("on", "the", "battlefield"),
    ("from", "play"): ("from", "the", "battlefield"),
    ("removed", "from", "the", "game"): ("exiled",),
    ("removed", "from", "game"): ("exiled",),
    ("remove", "from", "the", "game"): ("exile",),
    ("remove", "from", "game"): ("exile",),
    ("rfg",): ("exile",),
}
_LONGEST_M10 = max(len(k) for k in EN_BEFORE_M10)


def todays_words_en(words: Sequence[str]) -> list[str]:
    """Lowercase query words with the rules' words of before 2009-07-11 in today's."""
    return rewritten(words, range(_LONGEST_M10, 0, -1), lambda i, n: _got(words[i : i + n]))


def _got(run: Sequence[str]) -> list[str] | None:
    got = EN_BEFORE_M10.get(tuple(run))
    return None if got is None else list(got)


def _many_players(pair: Sequence[str]) -> bool:
    """True for "4 player", "four players", "5 person": a game of more than two players."""
    count, who = pair
    value = int(count) if count.isdigit() else numerals.EN_WORDS.get(count, 0)
    return value >= 3 and who in ("player", "players", "person", "people")


def rewritten(
    words: Sequence[str], sizes: Iterable[int], put: Callable[[int, int], list[str] | None]
) -> list[str]:
    """Words with runs of them rewritten left to right, the longest first: `put(i, n)` is
    what words[i : i + n] become, or None to leave them (then the next size is tried)."""
    sizes = tuple(sizes)
    out: list[str] = []
    i = 0
    while i < len(words):
        for n in sizes:
            got = put(i, n) if i + n <= len(words) else None
            if got is not None:
                out.extend(got)
                i += n
                break
        else:
            out.append(words[i])
            i += 1
    return out


def named_symbols(query: str, lang: str) -> str:
    """A symbol the words of a query can't hold, by its name: {T} is the tap symbol (T alone is
    the remains of "can't", and no Chinese word)."""
    return _TAP.sub(" tap symbol " if lang == "en" else "横置符号", query)


_TAP = re.compile(r"\{t\}", re.I)


def slashed(query: str) -> str:
    """A power and toughness typed without its slash ("+1+1 counters", "-1-1指示物") with it:
    the rules write "+1/+1", and the two halves alone are two numbers."""
    return _UNSLASHED.sub(r"\1/\2", query)


_UNSLASHED = re.compile(r"(?<![A-Za-z0-9/])([+-]\d+)\s?([+-]\d+)(?![A-Za-z0-9/])")


def typed_words_en(query: str) -> list[str]:
    """An English query's words as typed, a symbol by its name and a power and toughness with
    its slash: what `rules_words_en` reads."""
    return analysis.english_words(named_symbols(slashed(query), "en"))


def players_words_zh(query: str) -> str:
    """A Chinese query with a symbol by its name, its slashes put back and players' words in
    the rules' words: what is cut into words."""
    return rules_words_zh(named_symbols(slashed(query), "zh"))


def rules_words_zh(query: str) -> str:
    """A Chinese query with players' words put in the rules' words."""
    for pattern, rules in _ZH:
        query = pattern.sub(rules, query)
    return query
