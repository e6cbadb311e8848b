"""Which phpBB page a page is, judged by its DOM (gotcha 10), never by the HTTP status."""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from adapters.phpbb.forms import _posting_form_node
from adapters.phpbb.page import PageKind, _login_form_node, _message_panel
from adapters.phpbb.subsilver import pm_header_rows, subsilver_anchors
from adapters.phpbb.topic import _id_posts, _prosilver_posts

# ---------------------------------------------------------------------------------------
# Page kind
# ---------------------------------------------------------------------------------------


def page_kind(html: str) -> PageKind:
    """What phpBB page this is, judged by its DOM (gotcha 10), not by the HTTP status."""
    return _kind(LexborHTMLParser(html))


def _kind(tree: LexborHTMLParser) -> PageKind:
    if _prosilver_posts(tree) or subsilver_anchors(tree):
        return "topic"
    if tree.css_first("div.post.pm") is not None:
        return "pm"
    if _posting_form_node(tree) is not None:
        return "posting_form"
    if (tree.css_first("form#viewfolder") is not None or tree.css_first("ul.pmlist") is not None
            or tree.css_first('form[name="viewfolder"]') is not None):
        return "pm_folder"
    if pm_header_rows(tree) and tree.css_first("div.postbody") is not None:
        return "pm"  # subsilver2's message table
    if _id_posts(tree):
        return "topic"
    if _login_form_node(tree) is not None:
        return "login"
    if _message_panel(tree) is not None:
        return "message"
    return "unknown"
