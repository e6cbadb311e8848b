"""The two parts of every output the host reads: the public part, meant for the game topic
as it is, and the host-only part below one divider — the same line in every command, so the
host learns one mark and ``--post`` cuts every text at the same place."""

from __future__ import annotations

HOST_ONLY = "━" * 12 + " ТОЛЬКО ДЛЯ ВЕДУЩЕГО — не публиковать " + "━" * 12
"""The line between the public part and the host-only part (48+ columns, under 100)."""


def split(rendered: str) -> tuple[str, str]:
    """(public part, host-only part from the divider on); the host-only part is empty when
    the text has no divider."""
    head, found, tail = rendered.partition(HOST_ONLY)
    return head.rstrip() + "\n", (found + tail) if found else ""
