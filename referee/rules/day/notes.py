"""A reason or remark on a vote, with its rule (docs/rules.md V1–V6), shared by the readers."""

from __future__ import annotations

from dataclasses import dataclass

CHECK = "ведущему проверить"
"""Opens the text of a problem the host decides: the post is not counted and not read as
anything else («проверить» in docs/rules.md V1)."""


@dataclass(frozen=True, slots=True)
class Note:
    """One reason or remark, with the rule it comes from (``V3``, ``V4``, ``ведущий``…)."""

    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.text}"
