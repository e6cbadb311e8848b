"""The intake: night requests read from the host's PMs and from the host's requests file.

    intake = read_night(pms, config, night, (start, deadline))   # every request of a night
    result = read_requests(pm, "commissar", roster, order=1)     # one PM, one sender
    edits = load_requests_file("requests.toml", roster)          # the host's own word

- :mod:`~referee.rules.intake.vocabulary`: the request vocabulary (``vocabulary.toml``, one table
  per role's action and the other words, matched by lemma; docs/rules.md «Словарь заявок»);
- :mod:`~referee.rules.intake.words`: the small words around a request (fillers, self, joins);
- :mod:`~referee.rules.intake.lines`, :mod:`~referee.rules.intake.targets`: a PM's own lines and the
  players named in them;
- :mod:`~referee.rules.intake.reader`: the PM reader (one PM → requests, take-backs, flags, what
  was not read), with :mod:`~referee.rules.intake.shots` (the clan's executor),
  :mod:`~referee.rules.intake.changes` (changes and take-backs),
  :mod:`~referee.rules.intake.followups` (a PM with no action word, corrections),
  :mod:`~referee.rules.intake.doubts` (what is asked);
- :mod:`~referee.rules.intake.nights`: which PMs belong to which night, late PMs, take-backs
  applied (N1, N9, T2);
- :mod:`~referee.rules.intake.requests_file`: the host's TOML requests file and his edits.

Nothing is guessed silently: every part that cannot be read is listed with its reason (N14).
"""

from referee.rules.intake.nights import NightIntake, night_roster, night_span, read_night
from referee.rules.intake.reader import read_requests, sender_nick
from referee.rules.intake.requests_file import (
    HostEdit,
    apply_host_edits,
    file_requests,
    load_requests_file,
    parse_requests_file,
)
from referee.rules.intake.results import IntakeFlag, IntakeResult, Unreadable

__all__ = [
    "HostEdit",
    "IntakeFlag",
    "IntakeResult",
    "NightIntake",
    "Unreadable",
    "apply_host_edits",
    "file_requests",
    "load_requests_file",
    "night_roster",
    "night_span",
    "parse_requests_file",
    "read_night",
    "read_requests",
    "sender_nick",
]
