"""phpBB pages → referee value types. Pure functions: HTML text in, dataclasses out.

This package is the parser's public face; the work is in :mod:`.page` (decoding, error
panels, users and dates), :mod:`.topic` (with :mod:`.subsilver`, :mod:`.pages`,
:mod:`.postparts`, :mod:`.body`, :mod:`.titles`), :mod:`.pms`, :mod:`.forms` and :mod:`.kinds`.

Supported markup: prosilver 3.0–3.3 and the styles built on it, subsilver2 and its ports,
in the Russian and English language packs, with the common extensions; every variation, its
source and the test that holds it are listed in ``adapters/phpbb/README.md``.

Each page is parsed once with selectolax/lexbor; everything else is CSS queries scoped to
one post and string work on short texts. Page kinds are recognised by their DOM, never by
HTTP status (gotcha 10: a login-required page is HTTP 200 with the login form).
"""


from __future__ import annotations

from adapters.phpbb.export import (
    ExportedPm,
    ExportForm,
    parse_pm_export,
    pm_from_export,
    same_message,
)
from adapters.phpbb.forms import (
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
from adapters.phpbb.kinds import page_kind
from adapters.phpbb.page import PageKind, decode_page, decode_stored_page, reads_as_phpbb
from adapters.phpbb.pms import parse_pm, parse_pm_folder, read_pm_folder
from adapters.phpbb.topic import parse_topic_page

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

