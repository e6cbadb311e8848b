"""phpBB pages → referee value types. Pure functions: HTML text in, dataclasses out.

This package is the parser's public face; the work is in :mod:`.page` (decoding, error
panels, users and dates), :mod:`.topic`, :mod:`.pm`, :mod:`.forms` and :mod:`.kinds`.

Supported markup (research/phpbb.md §1, §3): prosilver 3.3/3.2 (``<time datetime>`` from
3.2.9), prosilver 3.0/3.1 (date as text after «»», ``postprofile`` before or after
``postbody``), and subsilver2 (table layout, ``<a name="p123">``, ``b.postauthor``,
«Добавлено:»/«Posted:»), in the Russian and English language packs.

Each page is parsed once with selectolax/lexbor; everything else is CSS queries scoped to
one post and string work on short texts. Page kinds are recognised by their DOM, never by
HTTP status (gotcha 10: a login-required page is HTTP 200 with the login form).
"""


from __future__ import annotations

from adapters.phpbb.parse.export import (
    ExportedPm,
    ExportForm,
    parse_pm_export,
    pm_from_export,
    same_message,
)
from adapters.phpbb.parse.forms import (
    LoginErrorKind,
    LoginForm,
    PostingForm,
    is_logged_in,
    login_error,
    parse_login_form,
    parse_posting_form,
    posting_error,
    posting_success,
)
from adapters.phpbb.parse.kinds import page_kind
from adapters.phpbb.parse.page import PageKind, decode_page, decode_stored_page, reads_as_phpbb
from adapters.phpbb.parse.pm import parse_pm, parse_pm_folder, read_pm_folder
from adapters.phpbb.parse.topic import parse_topic_page

__all__ = [
    "ExportForm",
    "ExportedPm",
    "LoginErrorKind",
    "LoginForm",
    "PageKind",
    "PostingForm",
    "decode_page",
    "decode_stored_page",
    "is_logged_in",
    "login_error",
    "page_kind",
    "parse_login_form",
    "parse_pm",
    "parse_pm_export",
    "parse_pm_folder",
    "parse_posting_form",
    "parse_topic_page",
    "pm_from_export",
    "posting_error",
    "posting_success",
    "read_pm_folder",
    "reads_as_phpbb",
    "same_message",
]

