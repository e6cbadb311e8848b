"""A live SMF 2.1 board on 127.0.0.1 that holds its posts and PMs and renders them in the
real markup: the post block, page index and header of ``topic_p2_{guest,host}.html``, the
rows and messages of ``pm_inbox_p1_host.html``, the forms and error pages of the real
board — each with the ids, authors, times and texts of this board's truth.

It takes replies and PMs through ``action=post2`` / ``action=pm;sa=send2`` the way SMF
does: the session token and ``seqnum`` checked (a refusal is the real «сессия истекла»
page), ``last_msg`` older than the newest post answers the real «появился новый ответ»
page, a second send within ``spam_wait`` seconds answers a fatal error naming the seconds.
"""

from __future__ import annotations

import html
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from support.smf.site import HOST_ID, HOST_NAME, SAVED_BOARD, Reply, Request, Session, SmfSite

MOSCOW = ZoneInfo("Europe/Moscow")
RU_MONTHS = ("января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
             "сентября", "октября", "ноября", "декабря")
PLAYERS = {"Шерлок": 3, "Kotik": 4, "Лиса": 5, "Пуаро": 6, "Мисс Марпл": 7, "Nika-77": 8,
           "Ёжик": 9, "Полковник": 10, "Гроза": 11, "Мотылёк": 12, "Barmaley": 13,
           "Тень_Ночи": 14, HOST_NAME: HOST_ID}
_BLOCK = re.compile(r'[ \t]*<div class="windowbg" id="msg\d+">.*?<hr class="post_separator">\n',
                    re.S)
_PM_ROW = re.compile(r"[ \t]*<tr class=\"windowbg[^\"]*\">.*?</tr>\n", re.S)
_PM_MSG = re.compile(r"[ \t]*<div class=\"windowbg\" id=\"msg\d+\">.*?<!-- \.windowbg -->\n", re.S)
_PAGES = re.compile(r'<span class="pages">Страницы</span>.*?(?=\n\s*</div>)', re.S)


@dataclass(frozen=True)
class LivePost:
    post_id: int
    author: str
    posted_at: datetime
    body: str
    edited: tuple[datetime, str] | None = None


@dataclass
class LivePm:
    pm_id: int
    sender: str
    to: tuple[str, ...]
    sent_at: datetime
    subject: str
    body: str
    read: bool = False
    """SMF's read mark for the host (``pm_recipients.is_read``)."""


def shown(when: datetime, now: datetime | None = None) -> str:
    """A time as SMF prints it for a Moscow reader (``%d %B %Y, %H:%M``, «Сегодня в»)."""
    local = when.astimezone(MOSCOW)
    if now is not None and local.date() == now.astimezone(MOSCOW).date():
        return f"<strong>Сегодня</strong> в {local:%H:%M}"
    return f"{local.day:02d} {RU_MONTHS[local.month - 1]} {local.year}, {local:%H:%M}"


_ID_AT = (r"msg_?", "modified_", "subject_", r"msg=", r"quote=", r"quote\(", "quoteSelected_",
          'data-msgid="', "deletelisting", "deletedisplay", r"currentLabels\[", 'value="',
          "pmsg=", "pm_actions%5b", "pmid=")


def _mark(block: str, pid: str, author: str, uid: str, when: str) -> str:
    block = block.replace(when, "@@SHOWN@@").replace(f">{author}<", ">@@AUTHOR@@<")
    block = block.replace(f"Просмотр профиля {author}", "Просмотр профиля @@AUTHOR@@")
    block = re.sub(rf"\bu={uid}\b", "u=@@UID@@", block)
    return re.sub(rf"({'|'.join(_ID_AT)}){pid}(?!\d)", r"\1@@PID@@", block)


class _Templates:
    def __init__(self, site: SmfSite) -> None:
        self.topic = {}
        for who in ("guest", "host"):
            page = site.real(f"topic_p2_{who}.html")
            blocks = list(_BLOCK.finditer(page))
            block = _mark(blocks[0].group(0), "27", "Шерлок", "3", "27 ноября 2026, 19:40")
            block = re.sub(r'(<div class="inner" data-msgid="@@PID@@" id="msg_@@PID@@">).*?'
                           r"(\n\s*</div>)", r"\1@@BODY@@\2", block, count=1, flags=re.S)
            block = re.sub(r'(<span class="smalltext modified floatright)" '
                           r'(id="modified_@@PID@@">)\s*(</span>)',
                           r'\1@@MVISIBLE@@" \2@@MODIFIED@@\3', block)
            block = block.replace("#25", "#@@NUMBER@@").replace("Ответ #25", "Ответ #@@NUMBER@@")
            self.topic[who] = (page[: blocks[0].start()], block, page[blocks[-1].end():])
        inbox = site.real("pm_inbox_p1_host.html")
        rows, msgs = list(_PM_ROW.finditer(inbox)), list(_PM_MSG.finditer(inbox))
        self.pm_head = inbox[: rows[0].start()]
        self.pm_between = inbox[rows[-1].end(): msgs[0].start()]
        self.pm_tail = inbox[msgs[-1].end():]
        self.pm_row = _mark(rows[0].group(0), "1", "Шерлок", "3", "25 ноября 2026, 12:00")
        self.pm_row = self.pm_row.replace("Запись на игру", "@@SUBJECT@@")
        msg = _mark(msgs[0].group(0), "1", "Шерлок", "3", "25 ноября 2026, 12:00")
        msg = msg.replace("<h5>Запись на игру</h5>", "<h5>@@SUBJECT@@</h5>")
        msg = re.sub(r'(<div class="inner" id="msg_@@PID@@">).*?(\n\s*</div>)',
                     r"\1@@BODY@@\2", msg, count=1, flags=re.S)
        self.pm_msg = msg.replace('<a href="http://127.0.0.1:8080/index.php?action=profile;'
                                  'u=2">Ведущий</a>', "@@TO@@")


class LiveBoard(SmfSite):
    """A board that holds its truth; tests change it between syncs."""

    guest_var = "c0ffee42"
    host_var = "b4dc0de9"
    random_tokens = True

    def __init__(self, clock: Callable[[], float], wall: Callable[[], datetime],
                 posts: list[LivePost] | None = None, per_page: int = 25) -> None:
        super().__init__(clock)
        self.wall = wall
        self.posts = list(posts or [])
        self.per_page = per_page
        self.inbox: list[LivePm] = []
        self.sent: list[LivePm] = []
        self.pm_mode = 0
        self.pm_newest_first = False
        """The host's «новые сверху»: ``action=pm`` without ``start`` opens page 1."""
        self.spam_wait = 5.0
        self.last_send: float | None = None
        self.seqnums: set[str] = set()
        self.issued: dict[str, str] = {}
        self.hooks: dict[str, Callable[[Request, Session], None]] = {}
        """Run once before the named request is answered (``post2``, ``send2``)."""
        self.form_topic = 2
        self.t = _Templates(self)

    # -- the truth

    def add_post(self, author: str, body: str, at: datetime | None = None) -> LivePost:
        pid = max([p.post_id for p in self.posts], default=1) + 1
        post = LivePost(pid, author, at or self.wall(), body)
        self.posts.append(post)
        return post

    def edit(self, post_id: int, body: str, at: datetime) -> None:
        self.posts = [replace(p, body=body, edited=(at, p.author)) if p.post_id == post_id
                      else p for p in self.posts]

    def delete(self, post_id: int) -> None:
        self.posts = [p for p in self.posts if p.post_id != post_id]

    def add_pm(self, sender: str, subject: str, body: str, at: datetime) -> LivePm:
        pid = max([p.pm_id for p in self.inbox + self.sent], default=0) + 1
        pm = LivePm(pid, sender, (HOST_NAME,), at, subject, body)
        self.inbox.append(pm)
        return pm

    # -- pages

    def out(self, page: str, session: Session, status: int = 200) -> Reply:
        now = self.wall().astimezone(UTC)
        page = re.sub(r'<time datetime="[^"]+">[^<]*</time>',
                      f'<time datetime="{now:%Y-%m-%dT%H:%M:%SZ}">{shown(now)}</time>', page)
        return super().out(page, session, status)

    def page(self, req: Request, s: Session) -> Reply:
        hook = self.hooks.pop(str(req.action) + str(req.query.get("sa", "")), None)
        if hook is not None:
            hook(req, s)
        if "topic" in req.query and req.action is None:
            return self.topic_page(req.query["topic"], s)
        if not s.member and req.action in ("pm", "post", "post2"):
            return self.out(self.real("pm_inbox_guest.html"), s)
        if req.action == "post" and req.method == "GET":
            return self.form("reply_form_host.html", s)
        if req.action == "post2":
            return self.post2(req, s)
        if req.action == "pm" and req.query.get("sa") == "send":
            return self.form("pm_compose_host.html", s)
        if req.action == "pm" and req.query.get("sa") == "send2":
            return self.send2(req, s)
        if req.action == "pm":
            return self.folder(req, s)
        if not req.query:
            return self.out(self.real("login_success.html" if s.member
                                      else "forum_index_guest.html"), s)
        return Reply(404, b"not here", [("Content-Type", "text/plain")])

    def topic_page(self, value: str, s: Session, new: int | None = None) -> Reply:
        _, _, start_text = value.partition(".")
        total = max(1, -(-len(self.posts) // self.per_page))
        if start_text == "new":
            number = total
            new = self.posts[-1].post_id if self.posts else None
        else:
            start = int(start_text) if start_text.isdigit() else 0
            number = min(start // self.per_page + 1, total)
        first = (number - 1) * self.per_page
        head, block, tail = self.t.topic["host" if s.member else "guest"]
        body = "".join(self._post(block, p, first + i, p.post_id == new)
                       for i, p in enumerate(self.posts[first:first + self.per_page]))
        index = self._index(number, total, lambda k: f"{SAVED_BOARD}/index.php?topic=2."
                            f"{(k - 1) * self.per_page}")
        head = re.sub(r'(rel="canonical" href="[^"]*topic=2\.|og:url" content="[^"]*topic=2\.)25',
                      rf"\g<1>{first}", head)
        head = head.replace("- Страница 2</title>", f"- Страница {number}</title>")
        page = _PAGES.sub(lambda m: index, head + body + tail)
        return self.out(page, s)

    def _post(self, block: str, p: LivePost, number: int, new: bool) -> str:
        modified = ""
        if p.edited:
            modified = (f'<span class="lastedit">Последнее редактирование</span>: '
                        f"{shown(p.edited[0], self.wall())} от {html.escape(p.edited[1])}")
        out = (block.replace("@@PID@@", str(p.post_id)).replace("@@AUTHOR@@", p.author)
               .replace("@@UID@@", str(PLAYERS.get(p.author, 99)))
               .replace("@@SHOWN@@", shown(p.posted_at, self.wall()))
               .replace("@@NUMBER@@", str(number)).replace("@@MODIFIED@@", modified)
               .replace("@@MVISIBLE@@", " mvisible" if p.edited else "")
               .replace("@@BODY@@", p.body))
        if number == 0:
            out = re.sub(r'\s*<span class="page_number floatright">#0</span>', "", out)
        if new:
            out = out.replace(f'id="msg{p.post_id}">', f'id="msg{p.post_id}">\n<a id="new"></a>', 1)
        return out

    @staticmethod
    def _index(number: int, total: int, link: Callable[[int], str]) -> str:
        parts = ['<span class="pages">Страницы</span>']
        if number > 1:
            parts.append(f'<a class="nav_page" href="{link(number - 1)}"><span class="main_icons '
                         'previous_page"></span></a> ')
        for k in range(1, total + 1):
            parts.append(f'<span class="current_page">{k}</span> ' if k == number else
                         f'<a class="nav_page" href="{link(k)}">{k}</a> ')
        if number < total:
            parts.append(f'<a class="nav_page" href="{link(number + 1)}"><span class="main_icons '
                         'next_page"></span></a> ')
        return "".join(parts)

    # -- private messages

    def folder(self, req: Request, s: Session) -> Reply:
        sent = req.query.get("f") == "sent"
        pms = self.sent if sent else self.inbox
        total = max(1, -(-len(pms) // self.per_page))
        start = req.query.get("start")
        pmid = int(req.query.get("pmid") or 0)
        if pmid and not start:
            index = next((i for i, p in enumerate(pms) if p.pm_id == pmid), 0)
            number = index // self.per_page + 1
        elif start is None or not start.isdigit():
            number = 1 if self.pm_newest_first else total
        else:
            number = min(int(start) // self.per_page + 1, total)
        shown_pms = pms[(number - 1) * self.per_page: number * self.per_page]
        current = pmid or (shown_pms[-1].pm_id if shown_pms else 0)
        f = "sent" if sent else "inbox"
        rows = "".join(self._row(p, sent, f, number) for p in shown_pms)
        full = shown_pms if self.pm_mode == 0 else [p for p in shown_pms if p.pm_id == current]
        msgs = "".join(self._pm(p) for p in full)
        between = self.t.pm_between
        if self.pm_mode == 2:
            msgs = ('<a href="index.php?action=pm;sa=pmactions;pm_actions[1]=delete;'
                    'conversation;f=inbox">Удалить диалог</a>') + msgs
        index = self._index(number, total, lambda k: f"{SAVED_BOARD}/index.php?action=pm;f={f};"
                            f"sort=date;start={(k - 1) * self.per_page}")
        head = self.t.pm_head
        unread = sum(1 for p in self.inbox if not p.read)
        if unread:  # the menu's count, as SMF prints it before it marks anything
            head = head.replace('<span class="main_icons inbox"></span>Входящие</a>',
                                '<span class="main_icons inbox"></span>Входящие <span '
                                f'class="amt">{unread}</span></a>')
        page = _PAGES.sub(lambda m: index, head + rows + between + msgs + self.t.pm_tail)
        page = page.replace("f=inbox;start=0\"", f"f={f};start={(number - 1) * self.per_page}\"")
        if not sent and unread:
            # SMF 2.1 MessageFolder: mode 0 marks every unread PM of the inbox, other modes
            # the message shown — after the page is built.
            for p in self.inbox:
                if self.pm_mode == 0 or p.pm_id == current:
                    p.read = True
        return self.out(page, s)

    def _row(self, p: LivePm, sent: bool, f: str, number: int) -> str:
        who = p.to[0] if sent else p.sender
        row = self.t.pm_row
        if not sent and not p.read:
            row = row.replace('<tr class="windowbg">', '<tr class="windowbg unread_pm">', 1)
        row = (row.replace("@@PID@@", str(p.pm_id)).replace("@@AUTHOR@@", who)
               .replace("@@UID@@", str(PLAYERS.get(who, 99))).replace("@@SUBJECT@@", p.subject)
               .replace("@@SHOWN@@", shown(p.sent_at, self.wall())))
        if self.pm_mode:
            link = (f"{SAVED_BOARD}/index.php?action=pm;pmid={p.pm_id};kstart;f={f};"
                    f"start={(number - 1) * self.per_page};sort=date;#msg{p.pm_id}")
            row = row.replace(f'href="#msg{p.pm_id}"', f'href="{link}"')
        return row

    def _pm(self, p: LivePm) -> str:
        to = ", ".join(f'<a href="{SAVED_BOARD}/index.php?action=profile;u={PLAYERS.get(n, 99)}">'
                       f"{n}</a>" for n in p.to)
        return (self.t.pm_msg.replace("@@PID@@", str(p.pm_id)).replace("@@AUTHOR@@", p.sender)
                .replace("@@UID@@", str(PLAYERS.get(p.sender, 99)))
                .replace("@@SUBJECT@@", p.subject).replace("@@TO@@", to)
                .replace("@@SHOWN@@", shown(p.sent_at, self.wall())).replace("@@BODY@@", p.body))

    # -- forms and what they post to

    def form(self, name: str, s: Session, *, message: str = "") -> Reply:
        page = self.real(name)
        seq = str(secrets.randbelow(10**7))
        self.issued[seq] = s.sid
        newest = str(self.posts[-1].post_id if self.posts else 0)
        page = re.sub(r'name="seqnum" value="\d+"', f'name="seqnum" value="{seq}"', page)
        page = re.sub(r'name="last_msg" value="\d+"', f'name="last_msg" value="{newest}"', page)
        page = page.replace('name="topic" value="2"', f'name="topic" value="{self.form_topic}"')
        if message:
            page = re.sub(r"(<textarea[^>]*>)[^<]*(</textarea>)",
                          lambda m: m.group(1) + html.escape(message) + m.group(2), page)
        return self.out(page, s)

    def _refused(self, req: Request, s: Session, error_page: str) -> Reply | None:
        """SMF's order: the session token and the form's ``seqnum`` first."""
        seq = req.form.get("seqnum", "")
        if req.form.get(s.var) != s.token or self.issued.get(seq) != s.sid:
            return self.form(error_page, s, message=req.form.get("message", ""))
        if seq in self.seqnums:
            return self.fatal(s, "Эта форма уже была отправлена.")
        self.seqnums.add(seq)
        return None

    def _flood(self, s: Session) -> Reply | None:
        now = self.clock()
        if self.last_send is not None and now - self.last_send < self.spam_wait:
            return self.fatal(s, f"Последнее сообщение с вашего IP было отправлено менее "
                                 f"{int(self.spam_wait)} секунд назад. Пожалуйста, "
                                 "попробуйте позже.")
        self.last_send = now
        return None

    def fatal(self, s: Session, text: str) -> Reply:
        page = self.real("login_success.html")
        page = re.sub(r'<div id="main_content_section">.*?<!-- #main_content_section -->',
                      '<div id="main_content_section"><div id="fatal_error"><div class="cat_bar">'
                      '<h3 class="catbg">Произошла ошибка!</h3></div><div class="windowbg">'
                      f'<div class="padding">{text}</div></div></div></div><!-- #main_content_'
                      "section -->", page, flags=re.S)
        return self.out(page, s)

    def post2(self, req: Request, s: Session) -> Reply:
        refused = self._refused(req, s, "reply_bad_token_host.html")
        if refused is not None:
            return refused
        last = req.form.get("last_msg", "")
        if self.posts and last.isdigit() and int(last) < self.posts[-1].post_id:
            return self.form("new_replies_warning_host.html", s,
                             message=req.form.get("message", ""))
        flood = self._flood(s)
        if flood is not None:
            return flood
        self.add_post(HOST_NAME, html.escape(req.form.get("message", "")))
        return Reply(302, headers=[("Location", f"{self.base}index.php?topic=2.new#new")])

    def send2(self, req: Request, s: Session) -> Reply:
        refused = self._refused(req, s, "pm_bad_token_host.html") or self._flood(s)
        if refused is not None:
            return refused
        names = re.findall(r'"([^"]+)"', req.form.get("to", ""))
        unknown = [n for n in names if n not in PLAYERS]
        if unknown or not names:
            page = self.form("pm_bad_token_host.html", s).body.decode("utf-8")
            page = page.replace("Ваша сессия истекла во время написания сообщения. Пожалуйста, "
                                "попробуйте заново.", f"Получатель «{', '.join(unknown)}» не "
                                "найден.")
            return Reply(200, page.encode("utf-8"), [("Content-Type", "text/html; charset=UTF-8")])
        pid = max([p.pm_id for p in self.inbox + self.sent], default=0) + 1
        self.sent.append(LivePm(pid, HOST_NAME, tuple(names), self.wall(),
                                req.form.get("subject", ""), html.escape(req.form.get("message",
                                                                                       ""))))
        return Reply(302, headers=[("Location",
                                    f"{self.base}index.php?action=pm;f=inbox;l=-1;done=sent")])


def day_posts(n: int, start: datetime, first_id: int = 2) -> list[LivePost]:
    """``n`` posts, one every 10 minutes from ``start``, each a vote with a reason."""
    names = [p for p in PLAYERS if p != HOST_NAME]
    return [LivePost(first_id + k, names[k % len(names)], start + timedelta(minutes=10 * k),
                     f"Пост {k}. Мой голос – <span style=\"color: red;\" class=\"bbc_color\">"
                     f"{names[(k * 5 + 1) % len(names)]}</span> потому что молчит весь день.")
            for k in range(n)]
