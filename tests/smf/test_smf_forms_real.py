"""The real SMF 2.1.4 login, reply and PM forms, and the pages SMF answers them with."""

from __future__ import annotations

from smf_pages import html, manifest, page_url

from adapters.smf import forms
from adapters.smf.posting import _NEW


def _sent(name: str) -> set[str]:
    row = next(p for p in manifest()["pages"] if p["file"] == name)
    return set(row["form_fields_sent"])


def test_the_login_form_names_its_two_random_tokens() -> None:
    form = forms.parse_login_form(html("login_page.html"), url=page_url("login_page.html"))
    assert form.action == "http://127.0.0.1:8080/index.php?action=login2"
    assert (form.first("text"), form.first("password")) == ("user", "passwrd")
    assert form.hidden == {"dd4892be132": "0" * 32, "a2c0de2": "37a342409632f30b93a1a03d6023f6fe"}
    assert form.sends("select") == {"cookielength": "3153600"}
    # What the browser sent when the real login failed: the same names.
    assert set(form.hidden) | {"user", "passwrd", "cookielength"} == _sent("login_failed.html")


def test_a_fresh_session_form_posts_without_the_session_id_in_the_address() -> None:
    form = forms.parse_login_form(html("login_page_fresh.html"),
                                  url=page_url("login_page_fresh.html"))
    assert form.action == "http://127.0.0.1:8080/index.php?action=login2"


def test_the_inline_login_form_of_a_members_only_page_is_a_login_form_too() -> None:
    form = forms.parse_login_form(html("closed_topic_guest.html"),
                                  url=page_url("closed_topic_guest.html"))
    assert set(form.hidden) == {"dd4892be132", "aadb5accd5"}


def test_a_wrong_password_is_told_in_smfs_words() -> None:
    assert forms.login_error(html("login_failed.html")) == ("wrong_password", "Неверный пароль")


def test_the_reply_form_holds_what_the_browser_sent() -> None:
    form = forms.parse_posting_form(html("reply_form_host.html"),
                                    url=page_url("reply_form_host.html"))
    assert form.action == "http://127.0.0.1:8080/index.php?action=post2;start=0;board=4"
    assert (form.fields["topic"], form.fields["last_msg"], form.fields["goback"],
            form.fields["d1fabad3"], form.fields["notify"], form.fields["icon"]) == (
        "2", "71", "1", "0" * 32, "0", "xx")
    assert _sent("reply_bad_token_host.html") - {"post"} <= set(form.fields) | {"message"}


def test_the_pm_form_holds_what_the_browser_sent() -> None:
    form = forms.parse_posting_form(html("pm_compose_host.html"),
                                    url=page_url("pm_compose_host.html"))
    assert form.action == "http://127.0.0.1:8080/index.php?action=pm;sa=send2"
    assert _sent("pm_send_result_host.html") - {"post"} <= set(form.fields) | {"message"}
    reply = forms.parse_posting_form(html("pm_reply_form_host.html"),
                                     url=page_url("pm_reply_form_host.html"))
    assert (reply.fields["to"], reply.fields["replied_to"], reply.fields["subject"]) == (
        '"Мотылёк"', "42", "Re: Спасибо")


def test_answers_with_http_200_are_told_apart() -> None:
    def kind(name: str) -> forms.Answer:
        return forms.classify_answer(html(name), url=page_url(name))

    bad = kind("reply_bad_token_host.html")
    assert bad.kind == "token" and bad.text.startswith("Ваша сессия истекла")
    assert kind("pm_bad_token_host.html").kind == "token"
    late = kind("new_replies_warning_host.html")
    assert late.kind == "new_posts" and late.form is not None
    assert late.form.fields["last_msg"] == "74"  # the form comes back up to date
    assert kind("reply_form_host.html").kind == "unknown"  # a form with no error shown
    assert kind("reply_form_guest.html").kind == "login"


def test_the_new_post_is_found_by_smfs_new_anchor() -> None:
    found = _NEW.search(html("reply_result_host.html"))
    assert found is not None and found.group(1) == "75"
    assert "Ваше сообщение успешно отправлено." in html("pm_send_result_host.html")
