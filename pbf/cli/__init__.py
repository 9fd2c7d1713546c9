"""The ``pbf`` command line: one module per group of commands — playing a turn (:mod:`.play`),
the campaign's thread by its address (:mod:`.thread`), the archive (:mod:`.archive`), the catalogue
and settings (:mod:`.catalogue`) — what they share (:mod:`.common`), the parser built from them
(:mod:`.parser`), and the program (:mod:`.program`: ``main``, ``run``, exit codes).

Exit status: 0 success, 1 a rule/order/data problem reported to the user, 2 a usage error.
"""

from .program import main, run

__all__ = ["main", "run"]
