"""The contract's game (contract_game.py) set on each engine's fake board of tests/support:
the same posts, edit, deletion and PMs, each in the markup that board already renders.

A :class:`Stage` serves its board on 127.0.0.1 (:meth:`Stage.running` yields the topic's
address) and changes the board's truth between reads as a player or moderator would; it
tells what the host's account posted (to count what reached the forum) and where a topic
that does not exist would be.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime

import pytest
from contract_game import EDITED_AT, HOST, PER_PAGE, PMS, POSTS, READ_AT, USER_IDS, Post
from support.clock import FakeClock
from support.mybbru.board import BoardPm as MybbPm
from support.mybbru.board import BoardPost as MybbPost
from support.mybbru.board import MybbBoard, serve
from support.phpbb.board import PASSWORD as PHPBB_PASSWORD
from support.phpbb.board import BoardPm as PhpbbPm
from support.phpbb.board import BoardPost as PhpbbPost
from support.phpbb.board import TopicPages
from support.phpbb.game_board import GameBoard
from support.smf.live import LiveBoard, LivePost
from support.smf.site import HOST_PASSWORD as SMF_PASSWORD
from support.smf.site import REAL_GUEST_VAR, Reply, Request, Session
from support.vbulletin import pages as vb_pages
from support.vbulletin.board import PASSWORD as VB_PASSWORD
from support.vbulletin.board import TOPIC as VB_TOPIC
from support.vbulletin.board import VbBoard
from support.xenforo.board import Member, XfBoard
from support.xenforo.conversations import XfConversation, XfMessage
from support.xenforo.pages import XfPost, XfThread, red

from adapters.phpbb import client as phpbb_client
from adapters.phpbb import pm_export as phpbb_pm_export
from adapters.phpbb import posting as phpbb_posting
from referee.core.kernel import Forum

SMF_MISSING = "Тема или раздел, которую вы ищете, отсутствует или недоступна для входа."
"""SMF's Russian pack on a topic that is not there (fixtures/smf21-ru/closed_topic_guest.html)."""


class Stage:
    """One engine's board holding the contract's game."""

    engine = ""
    password = ""

    def running(self) -> Iterator[str]:
        raise NotImplementedError

    def missing_topic(self, url: str) -> str:
        raise NotImplementedError

    def edit(self, post: Post) -> None:
        raise NotImplementedError

    def delete(self, post_id: int) -> None:
        raise NotImplementedError

    def host_posts(self) -> list[str]:
        """The texts of the posts the host's account has on the board."""
        raise NotImplementedError

    def topic_pages(self, url: str, forum: Forum) -> list[str]:
        """The addresses of the topic's pages as a browser shows them."""
        total = next(iter(forum.fetch_topic_pages())).total_pages
        return [forum.topic_page_url(n) for n in range(1, total + 1)]

    def pm_pages(self, url: str) -> list[str]:
        """The addresses of the pages that show the host's PMs, for a host saving them
        (none: the engine's saved-pages reader takes no PMs)."""
        return []


def _lines(post: Post, br: str, red_nick: str) -> str:
    """The post's HTML: the words, a line break, the vote in red."""
    words = html.escape(post.words, quote=False)
    return f"{words}{br}Мой голос – {red_nick}" if post.vote else words


# --------------------------------------------------------------------------- phpBB


class PhpbbStage(Stage):
    """phpBB 3.3 prosilver (support.phpbb.game_board: the fault tests' board + replies)."""

    engine, password = "phpbb", PHPBB_PASSWORD

    def __init__(self) -> None:
        self.board = GameBoard(clock=FakeClock(READ_AT), lines=[])
        self.board.per_page = PER_PAGE
        self.board.next_id = 6000
        self.board.posts.extend(self._post(p) for p in POSTS)
        self.board.topic = TopicPages(self.board.posts, PER_PAGE)
        self.board.pms.extend(PhpbbPm(m.pm_id, m.sender, USER_IDS[m.sender], m.at, m.subject,
                                      html.escape(m.text, quote=False), m.text) for m in PMS)

    @staticmethod
    def _post(p: Post) -> PhpbbPost:
        red_nick = f'<span style="color:red">{html.escape(p.vote or "")}</span>'
        return PhpbbPost(p.post_id, p.author, USER_IDS[p.author], p.at,
                         _lines(p, "<br>\n", red_nick), p.text)

    @contextmanager
    def running(self) -> Iterator[str]:
        # The waits phpBB's form checks ask for (a form a second old, the last-click
        # interval) are not asked by this board: no test waits for them (as in tests/watch).
        with pytest.MonkeyPatch.context() as patch, self.board.running():
            patch.setattr(phpbb_client, "LOGIN_WAIT", 0.0)
            patch.setattr(phpbb_pm_export, "FORM_KEY_WAIT", 0.0)
            patch.setattr(phpbb_posting, "POST_WAIT", 0.0)
            patch.setattr(phpbb_posting, "LASTCLICK_WAIT", 0.0)
            yield self.board.topic_url

    def missing_topic(self, url: str) -> str:
        return url.replace("t=3", "t=999")

    def edit(self, post: Post) -> None:
        at = next(i for i, p in enumerate(self.board.posts) if p.post_id == post.post_id)
        self.board.posts[at] = self._post(post)

    def delete(self, post_id: int) -> None:
        self.board.delete_post(post_id)

    def host_posts(self) -> list[str]:
        return [p.text for p in self.board.posts if p.author == HOST]

    def pm_pages(self, url: str) -> list[str]:
        return [f"{self.board.url}ucp.php?i=pm&folder=inbox",
                *(f"{self.board.url}ucp.php?i=pm&mode=view&f=0&p={m.pm_id}" for m in PMS)]


# --------------------------------------------------------------------------- MyBB.ru


class MybbStage(Stage):
    """MyBB.ru: the topic through its JSON API, pages in windows-1251 (support.mybbru)."""

    engine, password = "mybbru", "пароль-ведущего"

    def __init__(self) -> None:
        self.board = MybbBoard(topic_id=317, subject="Мафия: контракт движков",
                               host=(HOST, USER_IDS[HOST]), password=self.password,
                               per_page=PER_PAGE)
        self.board.posts.extend(self._post(p) for p in POSTS)
        self.board.pms.extend(MybbPm(m.pm_id, USER_IDS[m.sender], m.sender, False, m.subject,
                                     html.escape(m.text, quote=False), int(m.at.timestamp()))
                              for m in PMS)

    @staticmethod
    def _post(p: Post, edited: int = 0) -> MybbPost:
        red_nick = f'<span style="color: red">{html.escape(p.vote or "")}</span>'
        return MybbPost(p.post_id, USER_IDS[p.author], p.author, int(p.at.timestamp()),
                        f"<p>{_lines(p, '<br />', red_nick)}</p>", edited,
                        p.author if edited else "")

    @contextmanager
    def running(self) -> Iterator[str]:
        with serve(self.board) as root:
            yield f"{root}viewtopic.php?id=317"

    def missing_topic(self, url: str) -> str:
        return url.replace("id=317", "id=999")

    def topic_pages(self, url: str, forum: Forum) -> list[str]:
        # The client reads the API (one «page» of 100 posts); a browser shows the HTML pages.
        pages = -(-len(self.board.posts) // PER_PAGE)
        return [url + (f"&p={n}" if n > 1 else "") for n in range(1, pages + 1)]

    def edit(self, post: Post) -> None:
        at = next(i for i, p in enumerate(self.board.posts) if p.id == post.post_id)
        self.board.posts[at] = self._post(post, int(EDITED_AT.timestamp()))

    def delete(self, post_id: int) -> None:
        self.board.posts = [p for p in self.board.posts if p.id != post_id]

    def host_posts(self) -> list[str]:
        return [html.unescape(p.message.removeprefix("<p>").removesuffix("</p>"))
                for p in self.board.posts if p.username == HOST]


# --------------------------------------------------------------------------- SMF


class _SmfBoard(LiveBoard):
    """The live SMF board, which serves its one topic (2) at any topic number, answering
    another number as the real board does: the guest page of fixtures/smf21-ru for a
    guest, the same error in SMF's fatal-error box for a member."""

    def page(self, req: Request, s: Session) -> Reply:
        number = req.query.get("topic", "2").partition(".")[0]
        if "topic" in req.query and req.action is None and number != "2":
            if not s.member:
                return self.out(self.real("closed_topic_guest.html")
                                .replace(REAL_GUEST_VAR, s.var), s)
            return self.fatal(s, SMF_MISSING)
        return super().page(req, s)


class SmfStage(Stage):
    """SMF 2.1 (support.smf.live: the real markup of fixtures/smf21-ru, its own truth)."""

    engine, password = "smf", SMF_PASSWORD

    def __init__(self) -> None:
        # Ten seconds pass at every look of the board's clock: no two logins or sends are
        # «within 2 seconds» of each other, as a host's commands never are.
        ticks = itertools.count(1000.0, 10.0)
        self.board = _SmfBoard(lambda: next(ticks), lambda: READ_AT,
                               [self._post(p) for p in POSTS], per_page=PER_PAGE)
        for m in PMS:
            self.board.add_pm(m.sender, m.subject, html.escape(m.text, quote=False), m.at)

    @staticmethod
    def _post(p: Post) -> LivePost:
        red_nick = (f'<span style="color: red;" class="bbc_color">'
                    f'{html.escape(p.vote or "")}</span>')
        return LivePost(p.post_id, p.author, p.at, _lines(p, "<br>", red_nick))

    @contextmanager
    def running(self) -> Iterator[str]:
        with self.board.running():
            yield f"{self.board.base}index.php?topic=2.0"

    def missing_topic(self, url: str) -> str:
        return url.replace("topic=2.0", "topic=999.0")

    def edit(self, post: Post) -> None:
        self.board.edit(post.post_id, self._post(post).body, EDITED_AT)

    def delete(self, post_id: int) -> None:
        self.board.delete(post_id)

    def host_posts(self) -> list[str]:
        return [html.unescape(p.body) for p in self.board.posts if p.author == HOST]

    def pm_pages(self, url: str) -> list[str]:
        return [f"{self.board.base}index.php?action=pm"]  # every message on the folder's page


# --------------------------------------------------------------------------- vBulletin


class VbStage(Stage):
    """vBulletin 4 in windows-1251 (support.vbulletin)."""

    engine, password = "vbulletin", VB_PASSWORD

    def __init__(self) -> None:
        # The board's «now» is the real one: the reader tells «Вчера» by the real clock too.
        self.board = VbBoard(posts=[self._post(p) for p in POSTS], per_page=PER_PAGE)
        self.board.pms.extend(vb_pages.VbPm(m.pm_id, m.sender, USER_IDS[m.sender], m.at,
                                            m.subject, vb_pages.esc(m.text)) for m in PMS)

    @staticmethod
    def _post(p: Post, edited: datetime | None = None) -> vb_pages.VbPost:
        body = _lines(p, "<br />\n", vb_pages.red(p.vote or "", font=True))
        return vb_pages.VbPost(p.post_id, p.author, USER_IDS[p.author], p.at, body,
                               p.author if edited else None, edited)

    @contextmanager
    def running(self) -> Iterator[str]:
        with self.board.serve() as root:
            yield f"{root}showthread.php?t={VB_TOPIC}"

    def missing_topic(self, url: str) -> str:
        return url.replace(f"t={VB_TOPIC}", "t=999")

    def edit(self, post: Post) -> None:
        self.board.posts = [self._post(post, EDITED_AT) if p.post_id == post.post_id else p
                            for p in self.board.posts]

    def delete(self, post_id: int) -> None:
        self.board.posts = [p for p in self.board.posts if p.post_id != post_id]

    def host_posts(self) -> list[str]:
        return [html.unescape(p.body.replace("<br />\n", "\n"))
                for p in self.board.posts if p.author == HOST]

    def pm_pages(self, url: str) -> list[str]:
        root = url.partition("showthread.php")[0]
        return [f"{root}private.php?folderid=0",
                *(f"{root}private.php?do=showpm&pmid={m.pm_id}" for m in PMS)]


# --------------------------------------------------------------------------- XenForo


class XfStage(Stage):
    """XenForo 2.2 (support.xenforo): the thread, and each PM a conversation with the host."""

    engine, password = "xenforo", "пароль-ведущего"

    def __init__(self) -> None:
        members = {n: Member(n, uid) for n, uid in USER_IDS.items()}
        members[HOST] = Member(HOST, USER_IDS[HOST], self.password)
        self.thread = XfThread(69100, "mafija-kontrakt", "Мафия: контракт движков",
                               [self._post(p) for p in POSTS])
        self.board = XfBoard(members=members, threads={self.thread.thread_id: self.thread},
                             per_page=PER_PAGE)  # the real «now», as for vBulletin
        for m in PMS:
            c = XfConversation(m.pm_id, "hod", m.subject,
                               [(m.sender, USER_IDS[m.sender]), (HOST, USER_IDS[HOST])])
            c.messages.append(XfMessage(m.pm_id * 10, m.sender, USER_IDS[m.sender], m.at,
                                        html.escape(m.text, quote=False)))
            self.board.conversations[m.pm_id] = c

    @staticmethod
    def _post(p: Post) -> XfPost:
        return XfPost(p.post_id, p.author, USER_IDS[p.author], p.at,
                      _lines(p, "<br />\n", red(p.vote or "")))

    @contextmanager
    def running(self) -> Iterator[str]:
        with self.board.running():
            yield self.board.base + self.thread.route

    def missing_topic(self, url: str) -> str:
        return url.replace(self.thread.route, "threads/net-takoj.999/")

    def edit(self, post: Post) -> None:
        self.thread.posts = [replace(self._post(post), edited_at=EDITED_AT)
                             if p.post_id == post.post_id else p for p in self.thread.posts]

    def delete(self, post_id: int) -> None:
        self.thread.posts = [p for p in self.thread.posts if p.post_id != post_id]

    def host_posts(self) -> list[str]:
        return [html.unescape(p.html.replace("<br />\n", "\n"))
                for p in self.thread.posts if p.author == HOST]

    def pm_pages(self, url: str) -> list[str]:
        return [self.board.base + "conversations/",
                *(self.board.base + c.route for c in self.board.conversations.values())]


STAGES: dict[str, type[Stage]] = {s.engine: s for s in (PhpbbStage, MybbStage, SmfStage,
                                                        VbStage, XfStage)}
