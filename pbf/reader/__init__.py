"""Reading what players write, the way a GM reads a post (issue 19).

Shared by both games' order readers:

* :mod:`.text`: the text normalised (NFKC) with, for each normalised character, where it came
  from in what the player wrote — positions of problems and notes always point at the original;
* :mod:`.kana`: the keys words are compared by: folded (katakana, lower case) for an exact match,
  and the *reading* (kana; romaji and kanji converted) for a near miss;
* :mod:`.lexicon`: one lexicon per game, as data: every concept with its surface forms, verbs in
  any conjugation, and the near-miss search that corrects a word only when it can mean one thing.
"""
