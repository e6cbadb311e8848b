"""The benchmark's game: a planned 30-player game rendered as phpBB 3.3 pages.

The forum is bench_sync's :class:`SyntheticTopic` (real phpBB 3.3.10 prosilver markup,
pagination as phpBB renders it) with its posts written by a planned game: thirty players
dealt the docs/rules.md setup, every living player voting each day in real phpBB markup («Мой
голос – <span style="color:red">Ник</span>», dark red in bold, the whole line red, a typo),
votes quoted, repeated, late and without a reason, some posts edited, the host opening and
closing each day. The host's inbox holds every night's requests in natural Russian (clan
orders with an executor, heals, checks and one change of a check, beatings, the priest's
guest, the maniac's ambush, the necromancer's day PM) among citizens' chat — served as
phpBB's PM folder pages (with the folder's XML export, as ``ucp_pm_viewfolder.php`` writes
it, unless the board is told it has none) and opened PM pages, cut from the fixture pages.

Who dies follows a plan the night engine agrees with (the benchmark checks it): one hanging a
day and one mafia kill a night while more than 16 live, then tied days (``tie = "nobody"``)
and quiet nights, so a long game still has players.

:class:`GameSite` is the whole board as a :class:`board.Site` (every page rendered before
the first request, in the board's own process).
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_sync import MOSCOW, RU_MONTHS, TOPIC, SyntheticTopic
from board import HTML
from phpbb_export import HEADERS, ExportRow, export_xml

from referee.config.game import Player
from referee.rules.deal import deal

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "phpbb33-ru"
HOST = "Ведущий"
HOST_UID = 58
STRANGER = "Пуаро"
"""A forum user who is not in the game and writes to the host anyway."""
PER_PAGE = 25
PAGES_PER_DAY = 40
PMS_PER_PAGE = 25
QUIET_BELOW = 17
"""While fewer players than this live, days end in a tie and nights are quiet."""

NICKS = (
    "Шерлок", "Мисс Марпл", "Kotik", "Тень_Ночи", "Лиса", "Ёжик", "Полковник", "Nika-77",
    "Гроза", "Мотылёк", "Снежок", "Доктор Ватсон", "Mr. Smith", "Ира-Ира", "Барон",
    "Ласточка", "Dark Knight", "Фея", "Вольный стрелок", "Кот Бегемот", "Alice", "Старый Лис",
    "Пчёлка", "Zorro", "Маргарита", "Тайга", "Сова", "Боцман", "Капитан Немо", "Рыжик",
)
CHAT = (
    "Доброе утро всем.", "Перечитал вчерашнее, много интересного.",
    "Кто-то слишком тихо сидит, это подозрительно.", "Не понимаю, почему все молчат.",
    "Мне кажется, мафия уже выдала себя вчера.", "Давайте без паники, у нас ещё есть время.",
    "Я бы посмотрел на тех, кто голосует последним.", "Ночь была тяжёлая, жаль игрока.",
    "Согласен с предыдущим оратором.", "Это слишком удобная позиция, чтобы быть случайной.",
    "Пока не уверен, подожду аргументов.", "Смотрите на голоса вчерашнего дня, там всё видно.",
    "Мирным надо держаться вместе.", "У меня есть подозрения, но скажу позже.",
    "Вечером буду поздно, голос оставлю заранее.", "Очень странная логика у некоторых.",
)
REASONS = (
    "Весь день уводит обсуждение в сторону и ни разу не объяснил своих голосов.",
    "Слишком старательно защищает одного и того же игрока, это похоже на связку.",
    "Вчера голосовал за мирного и сегодня молчит, мне это не нравится.",
    "Его логика меняется каждые два часа, так ведут себя те, кому есть что скрывать.",
    "Первым набросился на погибшего ночью, а теперь делает вид, что ни при чём.",
)
PM_CHAT = (
    "Привет! Я мирный, если что. Подозреваю {nick}.", "Можно вопрос по правилам голосования?",
    "Спасибо за игру, очень интересно.", "Завтра буду поздно, учтите, пожалуйста.",
    "Мне кажется, {nick} — мафия, присмотритесь.", "Я сегодня ночью сплю, хода у меня нет.",
)


def _local(when: datetime) -> str:
    """A date as phpBB's Russian pack prints it with the board default ``d M Y, H:i``."""
    local = when.astimezone(MOSCOW)
    return f"{local.day:02d} {RU_MONTHS[local.month - 1]} {local.year}, {local:%H:%M}"


def _red(nick: str, colour: str = "red") -> str:
    return f'<span style="color:{colour}">{html.escape(nick)}</span>'


# ============================================================================ the game plan

@dataclass(frozen=True, slots=True)
class Day:
    number: int
    start: datetime
    deadline: datetime
    night_deadline: datetime


@dataclass(frozen=True, slots=True)
class Pm:
    pm_id: int
    sender: str
    sent_at: datetime
    subject: str
    text: str


@dataclass
class Plan:
    """The whole game, decided in advance: days, posts (as kinds, rendered on request),
    PMs, and who dies when — what the referee is expected to find."""

    days: list[Day]
    players: list[Player]
    posts_per_day: int
    seed: int
    alive_on: dict[int, list[str]] = field(default_factory=dict)
    hanged: dict[int, str | None] = field(default_factory=dict)
    killed: dict[int, str | None] = field(default_factory=dict)
    votes: dict[int, tuple[str, str]] = field(default_factory=dict)
    """Post number → (voter, target) of each living player's one counted vote of the day."""
    pms: list[Pm] = field(default_factory=list)
    extra_posts: int = 0

    @property
    def n_posts(self) -> int:
        return len(self.days) * self.posts_per_day + self.extra_posts

    def uid(self, nick: str) -> int:
        if nick == HOST:
            return HOST_UID
        return 100 + NICKS.index(nick) if nick in NICKS else 99

    def day_of(self, k: int) -> tuple[Day, int]:
        d = min(k // self.posts_per_day, len(self.days) - 1)
        return self.days[d], k - d * self.posts_per_day

    def time_of(self, k: int) -> datetime:
        """Posts run evenly through each day (95%) and its night (5%), in id order."""
        if k >= len(self.days) * self.posts_per_day:  # posts added after the game's last night
            return self.days[-1].night_deadline + timedelta(seconds=k)
        day, i = self.day_of(k)
        by_day = int(self.posts_per_day * 0.95)
        if i < by_day:
            return day.start + (day.deadline - day.start) * (i + 0.5) / by_day
        rest = self.posts_per_day - by_day
        return day.deadline + (day.night_deadline - day.deadline) * (i - by_day + 0.5) / rest


def _roles(players: list[Player]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p in players:
        out.setdefault(p.role, []).append(p.nick)
        if p.clan:
            out.setdefault(f"clan:{p.clan}", []).append(p.nick)
    return out


def make_plan(days: int, seed: int = 7) -> Plan:
    """Deal the roles and decide every day, vote and night of the game."""
    rng = random.Random(seed)
    players = deal(NICKS, None, seed)
    role = {p.nick: p.role for p in players}
    clan = {p.nick: p.clan for p in players}
    by_role = _roles(players)
    clans = sorted({p.clan for p in players if p.clan})
    shooter = {c: next(n for n in by_role[f"clan:{c}"] if role[n] == "mafia") for c in clans}
    citizens = list(by_role.get("citizen", []))
    safe = citizens[:2]  # X and Y: shot by the second clan, healed by the doctor, never die
    keep = set(safe) | set(shooter.values()) | {
        n for r in ("commissar", "sergeant", "doctor", "priest", "maniac", "ninja",
                    "necromancer", "thug") for n in by_role.get(r, [])}
    start0 = datetime(2026, 11, 1, 7, 0, tzinfo=UTC)  # 10:00 Moscow
    schedule = [
        Day(d, start0 + timedelta(days=d - 1), start0 + timedelta(days=d - 1, hours=12),
            start0 + timedelta(days=d - 1, hours=23, minutes=55))
        for d in range(1, days + 1)
    ]
    plan = Plan(schedule, players, PAGES_PER_DAY * PER_PAGE, seed)
    alive = [p.nick for p in players]
    pm_id = 1000
    last_target: dict[str, str] = {}
    for day in schedule:
        d = day.number
        plan.alive_on[d] = list(alive)
        active = len(alive) >= QUIET_BELOW
        k0 = (d - 1) * plan.posts_per_day
        slots = rng.sample(range(k0 + 2, k0 + int(plan.posts_per_day * 0.7)), len(alive))
        # Clan members first to the gallows, then citizens; the plan's key players never.
        pool = sorted((n for n in alive if n not in keep),
                      key=lambda n: (clan[n] is None, rng.random()))
        if active and pool:
            target = pool[0]
            others = [n for n in alive if n != target]
            for voter, k in zip(alive, slots, strict=True):
                # A clear majority for the target; the rest scatter, one vote each at most.
                to = target if voter != target and (rng.random() < 0.7) else None
                plan.votes[k] = (voter, to or rng.choice([n for n in others if n != voter]))
            plan.hanged[d] = target
        else:
            # Two leaders with equal votes: tie = "nobody" hangs no one (V6). The leaders
            # vote for each other; the rest alternate; an odd one out gives no reason.
            t1, t2 = (pool + [n for n in alive if n not in pool])[:2]
            rest = [n for n in alive if n not in (t1, t2)]
            picks = {t1: t2, t2: t1}
            for i, voter in enumerate(rest):
                picks[voter] = "" if len(rest) % 2 and i == len(rest) - 1 else (t1, t2)[i % 2]
            for voter, k in zip(alive, slots, strict=True):
                plan.votes[k] = (voter, picks[voter])
            plan.hanged[d] = None
        if plan.hanged[d]:
            alive.remove(plan.hanged[d])
        # Night d: requests in natural Russian (docs/rules.md N1–N12), then chat.
        night: list[tuple[str, str, str]] = []
        victims = [n for n in alive if role[n] == "citizen" and n not in safe]
        guarded = safe[d % 2]
        victim = rng.choice(victims) if active and victims else None
        for c in clans:
            s = shooter[c]
            if s not in alive:
                continue
            if c == clans[0] and victim:
                night.append((s, "Ход мафии", f"Стреляем в {victim}, исполнитель {s}"))
            elif c != clans[0]:
                night.append((s, "Ход", f"Стреляем в {guarded}. Исполнитель {s}."))
            else:
                night.append((s, "Ход мафии", "Сегодня пропускаем, без хода."))
        for doc in by_role.get("doctor", []):
            night.append((doc, "Реаниматор", f"Лечу {guarded}"))
        spare = [n for n in alive if role[n] == "citizen" and n != victim]
        used: set[str] = set()
        for actor, verb in [*((t, "Бью") for t in by_role.get("thug", [])),
                            *((p, "Забираю к себе") for p in by_role.get("priest", []))]:
            if actor not in alive:
                continue
            choice = [n for n in spare if n not in used and n != last_target.get(actor)]
            if choice:
                who = rng.choice(choice)
                used.add(who)
                last_target[actor] = who
                night.append((actor, "Ночной ход", f"{verb} {who}"))
        for com in by_role.get("commissar", []):
            first = rng.choice([n for n in alive if n != com])
            night.append((com, "Проверка", f"Проверяю {first}"))
            if d == 3:
                second = rng.choice([n for n in alive if n not in (com, first)])
                night.append((com, "Исправление", f"Меняю проверку на {second}"))
        for man in by_role.get("maniac", []):
            night.append((man, "Маньяк", "Засада." if d % 2 else "Сегодня пропускаю."))
        for nin in by_role.get("ninja", []):
            night.append((nin, "Ниндзя", "Никого не трогаю этой ночью."))
        chatty = [n for n in alive if role[n] in ("citizen", "boss_son")]
        for _ in range(20):
            who = rng.choice(chatty)
            night.append((who, "Привет", rng.choice(PM_CHAT).format(nick=rng.choice(alive))))
        night.append((STRANGER, "Вопрос", "Можно мне в следующую игру?"))
        times = sorted(day.deadline + (day.night_deadline - day.deadline) * rng.uniform(.02, .98)
                       for _ in night)
        rng.shuffle(night)
        # The commissar's change comes after his first request (N1).
        night.sort(key=lambda item: item[1] == "Исправление")
        for (sender, subject, text), when in zip(night, times, strict=True):
            pm_id += 1
            plan.pms.append(Pm(pm_id, sender, when, subject, text))
        if d == 1:
            for nec in by_role.get("necromancer", []):
                pm_id += 1
                plan.pms.append(Pm(pm_id, nec, day.start + timedelta(hours=2), "Некромант",
                                   f"Защищаю {safe[0]} и {safe[1]}"))
        plan.killed[d] = victim
        if victim:
            alive.remove(victim)
    plan.pms.sort(key=lambda p: (p.sent_at, p.pm_id))
    return plan


# ============================================================================ rendering posts

class GamePosts:
    """Stands in for :attr:`SyntheticTopic.blocks`: item ``k`` renders post ``k`` of the
    plan. SyntheticTopic spaces its posts 7 minutes apart; a game day needs its own clock,
    so each post renders its own time and ignores the one offered."""

    def __init__(self, plan: Plan, template: str) -> None:
        self.plan = plan
        self.template = template

    def __len__(self) -> int:
        return self.plan.n_posts

    def __getitem__(self, k: int) -> _Post:
        return _Post(self, k)


class _Post:
    __slots__ = ("k", "posts")

    def __init__(self, posts: GamePosts, k: int) -> None:
        self.posts, self.k = posts, k

    def format(self, *, pid: int, iso: str, shown: str) -> str:  # noqa: ARG002
        plan, k = self.posts.plan, self.k
        when = plan.time_of(k)
        author, content = _content(plan, k)
        notice = ""
        rng = random.Random(plan.seed * 1_000_003 + k)
        if rng.random() < 0.02:
            edited = when + timedelta(minutes=rng.randint(1, 30))
            notice = (f'<div class="notice">Последний раз редактировалось <a href="./memberlist'
                      f'.php?mode=viewprofile&amp;u={plan.uid(author)}" class="username">'
                      f"{html.escape(author)}</a> {_local(edited)}, всего редактировалось 1 "
                      "раз.</div>")
        return self.posts.template.format(
            pid=pid, iso=when.isoformat(), shown=_local(when), author=html.escape(author),
            uid=plan.uid(author), content=content, notice=notice)


def _content(plan: Plan, k: int) -> tuple[str, str]:
    """(author, post HTML) of post ``k``: chat, the day's vote of a player, or vote noise."""
    rng = random.Random(plan.seed * 1_000_003 + k)
    if k >= len(plan.days) * plan.posts_per_day:
        return rng.choice(plan.alive_on[plan.days[-1].number]), rng.choice(CHAT)
    day, i = plan.day_of(k)
    alive = plan.alive_on[day.number]
    by_day = int(plan.posts_per_day * 0.95)
    if i == 0:
        return HOST, (f'<strong class="text-strong">День {day.number}</strong><br>Голос '
                      f'оформляем так: Мой голос – {_red("Ник")} и аргумент.<br>Дедлайн: '
                      f"{_local(day.deadline)} МСК.")
    if i == by_day:
        hanged = plan.hanged.get(day.number)
        return HOST, (f"День {day.number} окончен. "
                      + (f"Казнён <strong class=\"text-strong\">{html.escape(hanged)}</strong>."
                         if hanged else "Ничья — никто не казнён.") + " Наступает ночь.")
    if k in plan.votes:
        voter, target = plan.votes[k]
        reason = rng.choice(REASONS)
        if not target:
            return voter, f"Мой голос – {_red(rng.choice(alive))}"
        typed = target
        if rng.random() < 0.05 and len(target) >= 6 and plan.hanged.get(day.number):
            cut = rng.randrange(1, len(target) - 1)
            typed = target[:cut] + target[cut + 1:]  # a typo: a near match, flagged (V2)
        style = rng.randrange(4)
        if style == 0:
            return voter, f"Мой голос – {_red(typed)}<br>{reason}"
        if style == 1:
            return voter, f"{reason}<br>Мой голос — {_red(typed, '#FF0000')}"
        if style == 2:
            line = f"Мой голос – {html.escape(typed)}"
            return voter, f'<span style="color:red">{line}</span><br>{reason}'
        return voter, (f'мой голос: <strong class="text-strong">{_red(typed, "darkred")}</strong>'
                       f" {reason}")
    author = rng.choice(alive)
    roll = rng.random()
    if roll < 0.04 and k > 1:
        quoted = max(k - rng.randint(1, 40), 0)
        who, _ = _content(plan, quoted) if quoted not in plan.votes else plan.votes[quoted]
        return author, (f'<blockquote><div><cite><a href="./memberlist.php?mode=viewprofile'
                        f'&amp;u={plan.uid(who)}">{html.escape(who)}</a> писал(а): '
                        f'<a href="./viewtopic.php?p={1000 + quoted}#p{1000 + quoted}" '
                        f'data-post-id="{1000 + quoted}">↑</a></cite>Мой голос – '
                        f"{_red(rng.choice(alive))}</div></blockquote>{rng.choice(CHAT)}")
    if roll < 0.06:
        return author, "Мой голос пока при мне, подожду до вечера и послушаю всех."
    if roll < 0.08 and i > int(plan.posts_per_day * 0.72):
        # A second vote after the day's vote: ignored, votes cannot be changed (V4).
        return author, f"Передумал! Мой голос – {_red(rng.choice(alive))}. {rng.choice(REASONS)}"
    if roll < 0.09:
        return author, f"Мой голос – {_red(rng.choice(alive))}"  # no reason: not counted (V3)
    text = " ".join(rng.choice(CHAT) for _ in range(rng.randint(1, 4)))
    if roll < 0.3:
        text = f"{html.escape(rng.choice(alive))}, {text}"
    return author, text


class GameTopic(SyntheticTopic):
    """bench_sync's synthetic topic with the posts of a planned game."""

    def __init__(self, plan: Plan) -> None:
        super().__init__(pages=1, per_page=PER_PAGE)
        generic = self.blocks[0]  # Снежок's post p96 of the fixture, as a template
        generic = generic.replace("Снежок", "{author}").replace("u=71", "u={uid}")
        generic = generic.replace("author_id=71", "author_id={uid}")
        generic = re.sub(r'<div class="content">.*?</div>', '<div class="content">{content}'
                         "</div>{notice}", generic, count=1, flags=re.S)
        self.plan = plan
        self.blocks = GamePosts(plan, generic)  # type: ignore[assignment]
        self.n_posts = plan.n_posts

    def add_page(self) -> None:
        """One more page of posts (chat after the last night): what a later sync finds."""
        self.plan.extra_posts += self.per_page
        self.n_posts = self.plan.n_posts


# ============================================================================ the PM folder

class Mailbox:
    """The host's inbox as phpBB 3.3 renders it: folder pages (newest first) and PM pages,
    cut from the fixture pages ``pm_inbox.html`` and ``pm_8.html``."""

    _ROW = re.compile(r'[ \t]*<li class="row bg\d">.*?</li>\n', re.S)

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        inbox = (FIXTURES / "pm_inbox.html").read_text(encoding="utf-8")
        rows = list(self._ROW.finditer(inbox))
        self.inbox_head = inbox[: rows[0].start()]
        self.inbox_tail = inbox[rows[-1].end():]
        self.row = rows[0].group(0)
        self.pm = (FIXTURES / "pm_8.html").read_text(encoding="utf-8")
        self.by_id = {p.pm_id: p for p in plan.pms}

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.plan.pms) // PMS_PER_PAGE))

    def page_pms(self, page: int) -> list[Pm]:
        """The PMs folder page ``page`` lists, newest first (``sk=t&sd=d``)."""
        page = min(max(1, page), self.pages)
        newest = sorted(self.plan.pms, key=lambda p: (p.sent_at, p.pm_id), reverse=True)
        return newest[(page - 1) * PMS_PER_PAGE: page * PMS_PER_PAGE]

    def export_page(self, page: int) -> bytes:
        """The folder page's XML export, as phpBB writes it (:mod:`phpbb_export`)."""
        return export_xml([ExportRow(pm.subject, pm.sender, pm.sent_at, pm.text)
                           for pm in self.page_pms(page)])

    def folder_page(self, page: int, *, export: bool = True) -> bytes:
        """A folder page; without ``export`` its «Экспорт в XML» option is gone (a board
        whose style or version has none)."""
        page = min(max(1, page), self.pages)
        rows = []
        for pm in self.page_pms(page):
            row = re.sub(r"p=7\"", f'p={pm.pm_id}"', self.row)
            row = row.replace('value="7"', f'value="{pm.pm_id}"')
            row = row.replace(">Ночь 2</a>", f">{html.escape(pm.subject)}</a>")
            row = row.replace("u=63", f"u={self.plan.uid(pm.sender)}")
            row = row.replace(">Лиса</a> &raquo; 29 ноя 2026, 02:10",
                              f">{html.escape(pm.sender)}</a> &raquo; {_local(pm.sent_at)}")
            rows.append(row)
        head = self.inbox_head.replace("17 сообщений", f"{len(self.plan.pms)} сообщений")
        head = head.replace("Страница <strong>1</strong> из <strong>1</strong>",
                            f"Страница <strong>{page}</strong> из <strong>{self.pages}</strong>")
        tail = self.inbox_tail if export else self.inbox_tail.replace(
            '<option value="XML">Экспорт в XML</option>', "")
        return (head + "".join(rows) + tail).encode("utf-8")

    def pm_page(self, pm_id: int) -> bytes:
        pm = self.by_id[pm_id]
        text = self.pm.replace('id="post-8"', f'id="post-{pm_id}"')
        text = text.replace('<h3 class="first">Некромант</h3>',
                            f'<h3 class="first">{html.escape(pm.subject)}</h3>')
        text = text.replace("<strong>Отправлено:</strong> 21 ноя 2026, 15:05",
                            f"<strong>Отправлено:</strong> {_local(pm.sent_at)}")
        text = text.replace('u=66" class="username">Ёжик</a>',
                            f'u={self.plan.uid(pm.sender)}" class="username">'
                            f"{html.escape(pm.sender)}</a>")
        text = re.sub(r'<div class="content">Привет! Ход некроманта.*?</div>',
                      f'<div class="content">{html.escape(pm.text)}</div>', text, count=1,
                      flags=re.S)
        return text.encode("utf-8")


class GameSite:
    """The game's board as a :class:`board.Site`: topic pages, folder pages, their XML
    exports (``export``) and PM pages, all rendered up front."""

    def __init__(self, topic: GameTopic, mailbox: Mailbox, *, export: bool = True) -> None:
        self.topic, self.mailbox, self.export = topic, mailbox, export

    def key(self, method: str, path: str, query: Mapping[str, str],
            form: Mapping[str, str]) -> str | None:
        if path == "/viewtopic.php" and query.get("t") == str(TOPIC):
            page = int(query.get("start", "0")) // self.topic.per_page + 1
            return f"topic:{min(max(1, page), self.topic.pages)}"
        if path != "/ucp.php" or query.get("i") != "pm":
            return None
        if "p" in query:
            return f"pm:{query['p']}"
        start = int(form.get("start") or query.get("start") or "0")
        page = min(start // PMS_PER_PAGE + 1, self.mailbox.pages)
        if method == "POST":
            export = "submit_export" in form and form.get("export_option") == "XML" \
                and bool(form.get("form_token"))
            return f"export:inbox:{page}" if export and self.export else None
        return f"folder:inbox:{page}"

    def render(self) -> dict[str, tuple[dict[str, str], bytes]]:
        out = {f"topic:{n}": (HTML, self.topic.page(n)) for n in range(1, self.topic.pages + 1)}
        for n in range(1, self.mailbox.pages + 1):
            out[f"folder:inbox:{n}"] = (HTML, self.mailbox.folder_page(n, export=self.export))
            if self.export:
                out[f"export:inbox:{n}"] = (dict(HEADERS), self.mailbox.export_page(n))
        out.update({f"pm:{pm.pm_id}": (HTML, self.mailbox.pm_page(pm.pm_id))
                    for pm in self.mailbox.plan.pms})
        return out

    def control(self, name: str) -> None:
        if name != "add_page":
            raise ValueError(name)
        self.topic.add_page()


def write_config(plan: Plan, base: str, folder: Path) -> Path:
    def when(t: datetime) -> str:
        return t.astimezone(MOSCOW).strftime("%Y-%m-%d %H:%M")

    lines = [
        "[game]", f'host = "{HOST}"', f'start = "{when(plan.days[0].start - timedelta(hours=1))}"',
        "", "[forum]", f'url = "{base}viewtopic.php?t={TOPIC}"', f'username = "{HOST}"',
        'timezone = "Europe/Moscow"', "rate_limit = 100000.0", "retries = 0", "",
    ]
    for day in plan.days:
        lines += ["[[schedule.days]]", f"day = {day.number}", f'start = "{when(day.start)}"',
                  f'deadline = "{when(day.deadline)}"',
                  f'night_deadline = "{when(day.night_deadline)}"', ""]
    lines.append("[players]")
    for p in plan.players:
        clan = f', clan = "{p.clan}"' if p.clan else ""
        lines.append(f'"{p.nick}" = {{ role = "{p.role}"{clan} }}')
    lines += ["", "[rules]", 'tie = "nobody"', ""]
    path = folder / "referee.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
