"""What the tests share (issue 28, item 6): one fake board per forum engine (``support.phpbb``,
``support.mybbru``, ``support.smf``, ``support.vbulletin``, ``support.xenforo``), the fake
clocks (:mod:`support.clock`) and the Moscow-time helpers (:mod:`support.moscow`).

``tests/`` is on ``sys.path`` (pytest puts the folder of ``tests/conftest.py`` there), so a
test imports ``from support.vbulletin.board import VbBoard`` from any folder.
"""
