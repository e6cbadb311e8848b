"""One HTML form as a browser would send it (issue 28): the reader every engine's login,
reply and PM forms share. Pure: a lexbor node in, a frozen value out.

All five engines are PHP boards, so the value reads a form as PHP reads its POST: of a
repeated name the last wins (phpBB's 3.3 login page has two ``redirect`` fields; SMF and
vBulletin put a hidden «0» before a checkbox of the same name, and the box, when ticked,
wins). An engine keeps its own rules as arguments (what a ticked box without a value sends,
its CAPTCHA marks, its message box, the names the poster fills itself) and chooses at
sending time which kinds of field it sends (:meth:`HtmlForm.sends`) and which button it
presses (:meth:`HtmlForm.press`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from urllib.parse import parse_qs, urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

_UNSENT = ("submit", "button", "image", "reset", "file", "textarea")
"""Kinds of control a reader never sends: buttons go only when pressed, files are never
attached, a text area is the message the poster writes."""


@dataclass(frozen=True, slots=True)
class HtmlForm:
    """A form as served: where it goes and what a browser would send for it."""

    action: str
    """Where the form is posted, resolved as the browser resolves it."""
    sent: tuple[tuple[str, str, str], ...] = ()
    """``(kind, name, value)`` of each control a browser sends for the form as served, in
    page order: hidden and text inputs, ticked boxes, the selected options (the kind is an
    input's ``type``, or ``select``)."""
    named: dict[str, str] = field(default_factory=dict)
    """Every named control and its kind (``textarea`` and the buttons too): what the form
    asks for (a subject, a recipient, a guest's name)."""
    buttons: dict[str, str] = field(default_factory=dict)
    """The named submit buttons and their labels, in page order."""
    textarea: str = "message"
    """The name of the text area the message goes in."""
    has_captcha: bool = False

    @property
    def fields(self) -> dict[str, str]:
        """Everything a browser sends but the button and the message, as PHP reads it."""
        return {name: value for _, name, value in self.sent}

    @property
    def hidden(self) -> dict[str, str]:
        """The hidden fields (form keys, session ids, the redirect), as PHP reads them."""
        return self.sends("hidden")

    def sends(self, *kinds: str) -> dict[str, str]:
        """The fields of these kinds (``hidden``, ``checkbox``, ``select``…), as PHP reads
        them: what an engine that sends only some kinds posts."""
        return {name: value for kind, name, value in self.sent if kind in kinds}

    def first(self, *kinds: str) -> str | None:
        """The name of the form's first control of one of these kinds (the login name's
        ``text`` box, the ``password`` box), or None."""
        return next((name for name, kind in self.named.items() if kind in kinds), None)

    def press(self, name: str, label: str) -> tuple[str, str]:
        """The button a browser sends when the host presses ``name``: that one, else the
        form's first (Enter in a text box), else ``name`` itself; ``label`` stands in for
        an empty value."""
        pressed = name if name in self.buttons else next(iter(self.buttons), name)
        return pressed, self.buttons.get(pressed) or label

    def target(self, key: str) -> str:
        """A query value of the action (``t`` of ``posting.php?mode=reply&t=N``), or ''."""
        return parse_qs(urlsplit(self.action).query).get(key, [""])[0]

    def adding(self, name: str, value: str) -> HtmlForm:
        """The form with one more hidden field (a token the page holds outside it)."""
        return replace(self, sent=(*self.sent, ("hidden", name, value)))


def find_form(tree: LexborHTMLParser, selector: str = "form", *, action_has: str = "",
              holding: str = "") -> Node | None:
    """The first ``selector`` form whose action contains ``action_has`` and which holds an
    element ``holding`` (a password box, a text area), or None."""
    for form in tree.css(selector):
        if action_has in (form.attributes.get("action") or "") and (
                not holding or form.css_first(holding) is not None):
            return form
    return None


def read_form(node: Node, url: str, *, base: str | None = None, action: str = "",
              box: str = "on", captcha: str = "", message: str = "message",
              not_message: Collection[str] = (), leave: Collection[str] = ()) -> HtmlForm:
    """The form ``node`` of the page at ``url``.

    ``base``: the page's ``<base href>``, when it has one; ``action``: the form's address
    when it names none (else the page's); ``box``: what a ticked box without a value sends
    (browsers send ``on``); ``captcha``: the CSS selector of the board's CAPTCHA; the
    message box is the text area ``message``, else the first not in ``not_message``;
    ``leave``: names the poster fills itself, never sent as served."""
    sent: list[tuple[str, str, str]] = []
    named: dict[str, str] = {}
    buttons: dict[str, str] = {}
    areas: list[str] = []
    for control in node.css("input, select, textarea, button"):
        name = control.attributes.get("name")
        if not name:
            continue
        kind = _kind(control)
        named.setdefault(name, kind)
        if kind == "textarea":
            areas.append(name)
        elif kind == "submit":
            buttons.setdefault(name, control.attributes.get("value") or "")
        value = _value(control, kind, box)
        if value is not None and name not in leave:
            sent.append((kind, name, value))
    address = node.attributes.get("action") or action
    return HtmlForm(
        action=urljoin(base or url, address) if address else url,
        sent=tuple(sent), named=named, buttons=buttons,
        textarea=message if message in areas else next(
            (name for name in areas if name not in not_message), message),
        has_captcha=bool(captcha) and node.css_first(captcha) is not None,
    )


def _kind(control: Node) -> str:
    if control.tag == "input":
        return (control.attributes.get("type") or "text").lower()
    if control.tag == "button":
        # Only an explicit type=submit counts: what the engines' pages press.
        return "submit" if control.attributes.get("type") == "submit" else "button"
    return control.tag or ""


def _value(control: Node, kind: str, box: str) -> str | None:
    """What a browser sends for the control as served, or None when it sends nothing."""
    if kind in _UNSENT:
        return None
    if kind in ("checkbox", "radio"):
        return (control.attributes.get("value") or box) if "checked" in control.attributes \
            else None
    if kind == "select":
        option = control.css_first("option[selected]") or control.css_first("option")
        return (option.attributes.get("value") or "") if option is not None else None
    return control.attributes.get("value") or ""


__all__ = ["HtmlForm", "find_form", "read_form"]
