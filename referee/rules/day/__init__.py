"""The day's rules (docs/rules.md V1–V6, A1–A3): pure functions over plain values.

Where each rule lives:

- ``reading`` — one post read as a vote: «мой голос», the red nick, its roster match and
  the reason (V1–V3), on the post's own text from ``own_text`` (quotes and code left out,
  red marked by ``colour``, the V1 red test).
- ``count`` — counting the day (V4–V6): :data:`~referee.rules.day.count.CHECKS`, the checks
  every vote-like post meets in order, and :func:`~referee.rules.day.count.tally`; the host's
  ``accept``/``reject``/``set`` are in ``overrides``, what a count gives
  (:class:`~referee.rules.day.result.Tally`) in ``result``; replacements are
  :mod:`referee.rules.slots`, shared with the night and the game.
- ``verdict`` — who is hanged (V6): most votes, the tie rules, early majority.
- ``activity`` — who leaves for silence or missed votes (A1–A3).

No I/O, no clock: the same posts and settings always give the same count.
"""
