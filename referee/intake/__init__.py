"""The intake: night requests read from the host's PMs and from the host's requests file.

    intake = read_night(pms, config, night, (start, deadline))   # every request of a night
    result = read_requests(pm, "commissar", roster, order=1)     # one PM, one sender
    edits = load_requests_file("requests.toml", roster)          # the host's own word

- :mod:`~referee.intake.vocabulary`: the request vocabulary (``vocabulary.toml``, one table
  per role's action and the other words, matched by lemma; docs/rules.md «Словарь заявок»);
- :mod:`~referee.intake.words`: the small words around a request (fillers, self, joins);
- :mod:`~referee.intake.lines`, :mod:`~referee.intake.targets`: a PM's own lines and the
  players named in them;
- :mod:`~referee.intake.reader`: the PM reader (one PM → requests, take-backs, flags, what
  was not read), with :mod:`~referee.intake.shots` (the clan's executor),
  :mod:`~referee.intake.changes` (changes and take-backs), :mod:`~referee.intake.followups`
  (a PM with no action word, corrections), :mod:`~referee.intake.doubts` (what is asked);
- :mod:`~referee.intake.nights`: which PMs belong to which night, late PMs, take-backs
  applied (N1, N9, T2);
- :mod:`~referee.intake.requests_file`: the host's TOML requests file and his edits.

Nothing is guessed silently: every part that cannot be read is listed with its reason (N14).
"""

from referee.intake.nights import NightIntake, night_roster, night_span, read_night
from referee.intake.reader import read_requests, sender_nick
from referee.intake.requests_file import (
    HostEdit,
    apply_host_edits,
    file_requests,
    load_requests_file,
    parse_requests_file,
)
from referee.intake.results import IntakeFlag, IntakeResult, Unreadable

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
