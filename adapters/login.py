"""The login of a board that logs in by an HTML form (issue 28: every live engine but
MyBB.ru, whose JSON API logs in): the :class:`adapters.board.BoardClient` hooks such a
board shares, written once — the re-login through the form the page itself served, the
answer decoded as the board's pages are, one more go when the form's token was refused —
and the reasons a board gives for a refused login, in one set of words
(:meth:`FormLogin.refused`)."""

from __future__ import annotations

import httpx

from adapters.board import BoardClient
from referee.core.errors import LoginFailed

REASONS: dict[str, tuple[str, str]] = {
    "wrong_password": ("форум не принял пароль «{username}»",
                       "проверьте REFEREE_PASSWORD (или то, что ввели)"),
    "wrong_username": ("на форуме нет пользователя «{username}»",
                       "проверьте [forum] username: это имя для входа, точно как на форуме"),
    "captcha_required": ("форум требует капчу для входа под «{username}»",
                         "войдите один раз в браузере (решив капчу) и запустите referee "
                         "снова"),
    "banned": ("учётная запись «{username}» заблокирована на форуме",
               "обратитесь к администрации форума: заблокированным referee читать не может"),
    "inactive": ("учётная запись «{username}» не подтверждена",
                 "подтвердите её по письму с форума или попросите администратора"),
    "wait": ("форум просит подождать перед новым входом", "повторите команду через минуту"),
    "form_invalid": ("форум дважды отверг форму входа (не принят ключ безопасности формы)",
                     "запустите команду ещё раз; если повторится — проверьте часы "
                     "компьютера"),
}
"""A refused login's reasons the boards share: ``kind → (message, hint)``."""


class FormLogin(BoardClient):
    """A board client whose board logs in by an HTML form: the engine writes
    :meth:`login_form`, :meth:`post_login`, :meth:`login_succeeded` and
    :meth:`login_reason` (the shared hooks it overrides are in ``adapters/README.md``)."""

    refusals: dict[str, tuple[str, str]] = {}
    """The reasons only this board gives for a refused login (:meth:`FormLogin.refused`)."""
    refusal_hints: dict[str, str] = {}
    """This board's facts added to a shared reason's hint (:meth:`FormLogin.refused`)."""

    def relogin(self, r: httpx.Response, html: str) -> None:
        """The login form the page that asked for it served, at that page's address."""
        self.login(form_html=html, form_url=str(r.url))

    def login_reason(self, r: httpx.Response, html: str) -> str | None:
        """Hook: the kind of a refused login, as the board's answer tells it (a key of
        :data:`REASONS` or :attr:`refusals`), None when it tells none."""
        return None

    def login_again(self, r: httpx.Response, html: str) -> str | None:
        """A refused form token (not the password) is worth one more go, with a fresh
        form."""
        return "" if self.login_reason(r, html) == "form_invalid" else None

    def login_failure(self, r: httpx.Response, html: str, username: str) -> LoginFailed:
        return self.refused(self.login_reason(r, html), username)

    @classmethod
    def refused(cls, kind: str | None, username: str, said: str = "") -> LoginFailed:
        """The host-readable reason for a refused login (never the password): ``kind`` read
        from the board's answer (:attr:`refusals` first, then :data:`REASONS`, with this
        board's :attr:`refusal_hints`), ``said`` the board's own words on it."""
        words = f": «{said}»" if said else ""
        known = cls.refusals.get(kind or "") or REASONS.get(kind or "")
        if known is None:
            return LoginFailed(f"вход под «{username}» не удался{words}" if said else
                               f"вход под «{username}» не удался, и форум не назвал причину, "
                               "известную referee",
                               "попробуйте войти с тем же именем и паролем в браузере")
        message, hint = known
        extra = cls.refusal_hints.get(kind or "")
        return LoginFailed(message.format(username=username) + words,
                           f"{hint}; {extra}" if extra else hint)


__all__ = ["REASONS", "FormLogin"]
