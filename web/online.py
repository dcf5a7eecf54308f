"""Online play in the page (docs/protocol.md): the room screens, and the
play screen driven by the room server's events.

The page's JavaScript (web/online.js) owns the WebSocket and the HTTP
requests. It hands every server message to `Link.receive` as JSON text
and collects what the screens ask for with `Link.take` (one JSON object
a line: create a room, enter one, an action, start, rematch, close).
The server rolls the dice and checks every action; the page keeps a
mirror of the game, rebuilt from the engine state each event carries
(`Game.from_data(state["game"])`), so that the device's play screen
draws it unchanged. Only the seat to move that is this browser's sends
actions; every other turn is shown as its events arrive (the server plays
computers at the device's pace).

Web-only: the handheld has no network and never loads this module.
"""

import json

from engine.game import MAX_NAME, Game
from firmware import buttons
from firmware.screen import Menu
from firmware.screens.names import default_name
from firmware.screens.pager import Pager
from firmware.screens.play import ANIM_FRAME_MS, MESSAGE_EVENTS, ROLL_ANIM_MS, Play, _event_text
from firmware.screens.setup import Setup
from firmware.screens.standings import Winner
from firmware.screens.wrap import wrap
from firmware.tips import Tips

MENU_INSET = 4  # a menu row's text is this much narrower than the screen (firmware.ui)

# The online screens' own words (web-only: they cost the device nothing;
# tools/texts/places.py ONLINE_PLACES says where each is drawn, and the
# text-fit test measures them there).
SAY = {
    "de": {
        "online": "Online",
        "open_room": "Raum eröffnen",
        "back_room": "Zurück in den Raum",
        "room": "Raum %s",
        "free": "frei",
        "you": "du",
        "away": "weg",
        "computer_for": "PC",
        "start": "Starten",
        "leave": "Verlassen",
        "waiting": "Warte auf andere",
        "connecting": "Verbinde…",
        "connected": "Verbunden",
        "reconnecting": "Neuer Versuch…",
        "other": "Anderswo gespielt",
        "opening": "Eröffne den Raum…",
        "room_hint": "A wählen  B Menü",
        "gone": "Raum verlassen",
        "rematch_wait": "warte…  B Menü",
        "watch_hint": "B Menü",
        "others_hint": "B Tabelle",
        "need_people": "Ein Raum braucht mindestens 2 Menschen: stelle einen Platz auf Mensch.",
        # the play screen's status line while the seat to move (the header
        # names it) is away: since when, the seconds until the stand-in;
        # then that a computer plays it
        "away_wait": "weg %ds, PC in %ds",
        "away_now": "weg %ds, PC gleich",
        "standin_plays": "Computer spielt",
    },
    "en": {
        "online": "Online",
        "open_room": "Open a room",
        "back_room": "Back to the room",
        "room": "Room %s",
        "free": "free",
        "you": "you",
        "away": "away",
        "computer_for": "PC",
        "start": "Start",
        "leave": "Leave",
        "waiting": "Waiting for more",
        "connecting": "Connecting…",
        "connected": "Connected",
        "reconnecting": "Reconnecting…",
        "other": "Played elsewhere",
        "opening": "Opening the room…",
        "room_hint": "A select  B menu",
        "gone": "Left the room",
        "rematch_wait": "waiting…  B menu",
        "watch_hint": "B menu",
        "others_hint": "B standings",
        "need_people": "A room needs at least 2 people: set a seat to person.",
        "away_wait": "away %ds, PC in %ds",
        "away_now": "away %ds, PC next",
        "standin_plays": "Computer plays",
    },
}


def server_dice(n):
    """The mirror's dice source: only the server rolls (the engine asks
    for a source before it allows a roll; the mirror never applies one)."""
    raise RuntimeError("the server rolls the dice")


def say(app, key):
    """The online text `key` in the app's language."""
    return SAY.get(app.lang, SAY["de"])[key]


def seat_line(app, link, i, seat):
    """One seat of the waiting room as a line: number, name, and the one
    thing special about it (this browser's seat, else a computer playing
    for the person, else away); a long name gives way to the mark."""
    if seat is None:
        return "%d %s" % (i + 1, say(app, "free"))
    if i == link.me:
        mark = say(app, "you")
    elif seat.get("standin"):
        mark = say(app, "computer_for")
    elif seat.get("away"):
        mark = say(app, "away")
    else:
        mark = ""
    line = "%d %%s" % (i + 1) + (" (%s)" % mark if mark else "")
    return app.ui.fit_name(line, seat["name"], app.ui.w - MENU_INSET)


class Link:
    """The page's side of online play: the room this tab is in, its last
    public state, and the requests for web/online.js. The title's
    "Online" entry calls it (`app.online(app)`)."""

    def __init__(self):
        self.out = []  # JSON lines for online.js (take)
        self.rooms = []  # this browser's rooms: [code, own name] (from online.js)
        self.code = None  # the room on screen
        self.me = -1  # this browser's seat in it (-1: a spectator)
        self.state = None  # the room's public state after the last event
        self.conn = "connecting"  # connecting, connected, reconnecting, other (played elsewhere)
        self.fresh = False  # just (re)connected: show the room even from the title
        self.said = ""  # the server's last refusal, in the player's language
        self.tips = False  # this browser's seat asked for tips (online.js keeps it with the seat)
        self.naming = False  # the page shows the room form's name field (take)
        self.up = True  # the browser has a network (the title offers Online only then)
        self.now = 0.0  # the server's clock (epoch seconds) as online.js last said it
        self.back_room = None  # this browser's room with a game running (the title offers it first)

    def __call__(self, app):
        """The title's "Online": the online menu."""
        app.push(OnlineMenu(self))

    def back_label(self, app):
        """The title's first entry while this browser has a seat in a running room."""
        return say(app, "back_room")

    def go_back(self, app):
        """A on that entry: into the room (its state shows it)."""
        if self.back_room:
            self.send({"do": "enter", "code": self.back_room})

    def send(self, msg):
        """Ask online.js for something (a dict, see the module docstring)."""
        self.out.append(json.dumps(msg))

    def take(self, app=None):
        """What was asked since the last call, one JSON object a line.
        With the `app`: whether the room form is open (the page then shows
        a text field for its creator's name, see OnlineSetup.rename)."""
        form = None if app is None else app.find("online_setup")
        if app is not None and (form is not None) != self.naming:
            self.naming = form is not None
            self.send({"do": "name_field", "on": self.naming,
                       "name": form.seats[0][0] if form is not None else ""})
        out = "\n".join(self.out)
        self.out = []
        return out

    def receive(self, app, text):
        """One message from online.js: a server message, or the page's own
        (`conn`: the connection's state, `rooms`: this browser's rooms,
        `gone`: the room closed for good, with its reason text)."""
        msg = json.loads(text)
        t = msg.get("t")
        if t == "rooms":
            self.rooms = msg["rooms"]
            if "live" in msg and msg["live"] != self.back_room:
                self.back_room = msg["live"]
                app.version += 1  # (the title works its entries out again)
                app.redraw()
            top = app.top()
            if isinstance(top, OnlineMenu):
                top.relabel()
                app.redraw()
        elif t == "net":  # the browser went offline or came back online
            if self.up != bool(msg.get("up")):
                self.up = bool(msg.get("up"))
                app.version += 1  # (the title works its entries out again)
                app.redraw()
        elif t == "name":  # typed into the page's name field while the room form is open
            form = app.find("online_setup")
            if form is not None:
                form.rename(app, msg.get("name") or "")
        elif t == "welcome":
            self.code = msg["room"]
            self.me = msg["seat"]
            self.tips = bool(msg.get("tips"))  # added by online.js from the seat it keeps
            self.fresh = True  # the room's next state is shown, wherever the app is
        elif t in ("ev", "snap"):
            self.now = msg.get("now") or self.now
            self.state = msg["s"]
            self._show(app, msg.get("e"))
        elif t == "clock":  # each second while a seat is away: the countdown goes on
            self.now = msg["now"]
            play = app.top()
            if isinstance(play, OnlinePlay) and play.away_text(app) != play.away_shown:
                app.redraw()
        elif t == "conn":
            self.conn = msg["s"]
            top = app.top()
            if isinstance(top, Room):
                top.relabel()
            app.redraw()
        elif t == "no":
            self._refused(app, msg.get("text") or "")
        elif t == "gone":
            self.code = None
            self.state = None
            app.home(Pager(say(app, "gone"), wrap(app, msg.get("text") or ""), "message"))

    def close(self, app):
        """Leave the room's screens for the title (the seat stays this
        browser's: the title's Online lists the room)."""
        self.send({"do": "close"})
        self.code = None
        self.state = None
        app.home()

    def _refused(self, app, text):
        """A refusal of the server, in the player's language (online.js
        has the server's reason texts; the engine's are the device's).
        It is a page of its own over any screen, the waiting room's too
        (never a row of a menu: a reader would take it for a choice; the
        page's Online region says it as an alert); it scrolls where the
        small screen needs more than three lines."""
        self.said = text
        if text:
            app.push(Pager(say(app, "online"), wrap(app, text), "message"))
        app.redraw()

    def _show(self, app, event):
        """The screen that fits the room's state: the waiting room, the
        play screen (told of the event), or the end of the game."""
        st = self.state
        if self.code is None or st is None:
            return
        if app.top().name == "title" and not self.fresh:
            return  # the player went to the title: nothing pulls them back
        self.fresh = False
        status = st["status"]
        if status == "lobby":
            top = app.top()
            if isinstance(top, Room):
                top.relabel()
                app.redraw()
            else:
                app.home(Room(self))
            return
        game = Game.from_data(st["game"], server_dice)
        play = app.find("play")
        if status == "playing":
            if isinstance(play, OnlinePlay) and play.g == st["g"]:
                play.receive(app, game, event)
            else:
                app.home(OnlinePlay(app, game, self, st["g"]))
            return
        top = app.top()
        if isinstance(top, OnlineWinner) and top.g == st["g"]:
            top.game = game
            app.redraw()
        else:
            app.home(OnlineWinner(game, self, st["g"]))


class OnlineMenu(Menu):
    """Online: open a room, or go back into one of this browser's rooms."""

    name = "online"

    def __init__(self, link):
        Menu.__init__(self)
        self.link = link

    def title(self, app):
        """Online."""
        return say(app, "online")

    def labels(self, app):
        """Open a room, then this browser's rooms."""
        return [say(app, "open_room")] + ["%s %s" % (code, name) for code, name in self.link.rooms]

    def choose(self, app, index):
        """A: the form for a new room, or back into a room."""
        if index == 0:
            app.push(OnlineSetup(app, self.link))
            return
        code = self.link.rooms[index - 1][0]
        self.link.send({"do": "enter", "code": code})


class OnlineSetup(Setup):
    """The new-game form for a room: its people's seats are the room's
    places for people (the first is this browser's, named as in the form),
    its computers the room's computers; start opens the room."""

    name = "online_setup"

    def __init__(self, app, link):
        Setup.__init__(self, app)
        self.link = link
        # A room needs two people: the last table's first computer becomes
        # the second person's place (the form shows what the room will be;
        # it never adds a seat behind the player's back).
        people = [s for s in self.seats if not s[1]]
        if len(people) < 2:
            taken = [n for n, _ in self.seats]
            bots = [i for i, s in enumerate(self.seats) if s[1]]
            if bots:
                self.seats[bots[0]] = [default_name(app, bots[0] + 1, taken), ""]
            else:
                self.seats.append([default_name(app, len(self.seats) + 1, taken), ""])

    def rename(self, app, name):
        """The creator's name as typed into the page's text field (the
        first seat's; its tips follow it). Cut to the engine's length; an
        empty field, or another seat's name, leaves the form's own name."""
        name = " ".join(name.split())[:MAX_NAME].strip()
        old = self.seats[0][0]
        if not name:
            name = default_name(app, 1, [n for n, _ in self.seats[1:]])
        if name == old or name in [n for n, _ in self.seats[1:]]:
            return
        self.seats[0][0] = name
        if old in self.tips:
            self.tips[self.tips.index(old)] = name
        self.relabel()
        app.redraw()

    def _start(self, app):
        """Ask online.js to open the room; its first event shows it."""
        rules = self._rules(app)
        if rules.target != self.target:
            rules = rules.replace(target=self.target, entry=min(rules.entry, self.target))
        people = [name for name, kind in self.seats if not kind]
        computers = [kind for name, kind in self.seats if kind]
        if len(people) < 2:  # said here, in the player's language: nothing is sent
            app.push(Pager(say(app, "online"), wrap(app, say(app, "need_people")), "message"))
            return
        self.link.send({"do": "create", "name": people[0], "people": len(people),
                        "computers": computers, "rules": rules.encode(),
                        "tips": people[0] in self.tips})
        from firmware.screens.message import Message

        app.push(Message(say(app, "opening"), [say(app, self.link.conn)]))


class Room(Menu):
    """The waiting room: the seats (who is in, who is missing, who is
    away), the connection; the creator starts, anybody may leave."""

    name = "room"

    def __init__(self, link):
        Menu.__init__(self)
        self.link = link

    def _entries(self):
        st = self.link.state
        out = []
        me = self.link.me
        if st is not None and 0 <= me < len(st["seats"]):
            seat = st["seats"][me]
            if seat is not None and seat.get("creator"):
                out.append("start")
            out.append("leave")
        return out

    def title(self, app):
        """The room's code (the small screen: only the code)."""
        code = self.link.code or ""
        return say(app, "room") % code if app.big else code

    def labels(self, app):
        """The seats, the connection, then start and leave."""
        link = self.link
        st = link.state
        rows = [] if st is None else [seat_line(app, link, i, s) for i, s in enumerate(st["seats"])]
        rows.append(say(app, link.conn) if link.conn != "connected" else say(app, "waiting"))
        return rows + [say(app, key) for key in self._entries()]

    def choose(self, app, index):
        """A on start or leave; on a seat row nothing."""
        entries = self._entries()
        k = index - (len(self.labels(app)) - len(entries))
        if k < 0:
            return
        self.link.said = ""
        if entries[k] == "start":
            self.link.send({"do": "start"})
        else:
            self.link.send({"do": "leave"})

    def back(self, app):
        """B: to the title; the seat stays this browser's (the title's
        Online lists the room)."""
        self.link.close(app)

    def hint(self, app):
        """A select, B menu."""
        return say(app, "room_hint")


class OnlinePlay(Play):
    """The device's play screen on a room's game: this browser's turns go
    to the server, every turn comes back as the server's events."""

    def __init__(self, app, game, link, g):
        Play.__init__(self, app, game)
        self.link = link
        self.g = g  # the room's game number (a rematch is a new one)
        self.tips = OnlineTips(game, self.players, link.me if link.tips else -1)
        self.away_shown = ""  # the away line last drawn (a clock tick redraws when it changes)

    def person_to_move(self):
        """True when this browser's seat is to move (a computer's, another
        person's turn: shown as its events arrive) and this tab plays it
        (not when another tab or device took the seat over)."""
        return (self.game.current == self.link.me and self.game.phase != "over"
                and self.link.conn != "other")

    def _apply(self, app, actions):
        """Send this browser's actions to the server (which rolls and
        checks); the engine's own refusal is said at once, in the
        player's language, and nothing is sent."""
        if not self.person_to_move():
            return False
        game = self.game
        refusal = game.why_not(actions[0])
        if refusal:
            self.msg = app.tf("why_" + refusal[0], refusal[1])
            app.redraw()
            return False
        self.tips.judge(app, self, actions)  # (before the table changes: what it gives away)
        for action in actions:
            a = list(action)
            if a[0] == "keep":
                a[1] = list(a[1])
            self.link.send({"do": "act", "a": a})
        self._reset_selection()
        self.asking = None
        self.msg = ""
        self.tips.confirmed(app, self)  # the cost note, shown until the next press
        app.redraw()
        return True

    def receive(self, app, game, event):
        """The room's game after `event` (an act: its engine events roll
        the dice on screen and name what happened, as on the device; what
        an earlier act said goes: "Heiße Würfel!" belongs to the turn that
        has them, not to the next)."""
        self.game = game
        self.tips.follow(game)
        self.bot_keep = None
        self._reset_selection()
        if event is not None and event.get("k") == "act":
            self.msg = ""
            for ev in event.get("ev", ()):
                kind = ev[0]
                if kind == "roll":
                    self.anim.set(app.now, ROLL_ANIM_MS[app.session.settings["speed"]])
                    self.anim_frame.set(app.now, ANIM_FRAME_MS)
                    app.cue = "roll"
                elif kind in MESSAGE_EVENTS:
                    self.msg = _event_text(app, game, ev)
        app.redraw()

    def away_text(self, app):
        """The status line while the seat to move is away: since when and
        the seconds until the stand-in plays (the server's clock), or that
        a computer plays it now; "" otherwise. The header names the seat."""
        st = self.link.state
        if st is None or st.get("status") != "playing" or self.game.phase == "over":
            return ""
        seat = st["seats"][st["cur"]] if 0 <= st.get("cur", -1) < len(st["seats"]) else None
        if seat is None or seat.get("kind"):
            return ""
        if seat.get("standin"):
            return say(app, "standin_plays")
        gone, due, now = seat.get("gone"), st.get("standin_at"), self.link.now
        if not seat.get("away") or not gone or not due or not now:
            return ""
        since = max(0, int(now - gone + 0.5))
        left = int(due - now + 0.999)
        if left > 0:
            return say(app, "away_wait") % (since, left)
        return say(app, "away_now") % since

    def draw(self, app, canvas):
        """The device's play screen; while the seat to move is away, its
        status line says so and counts down to the stand-in."""
        away = self.away_shown = self.away_text(app)
        if not away:
            Play.draw(self, app, canvas)
            return
        msg = self.msg
        self.msg = away  # (the line the device gives a message: the table waits, that is the news)
        try:
            Play.draw(self, app, canvas)
        finally:
            self.msg = msg

    def _hint(self, app):
        """Another's turn: only B does something here (the server plays
        the computers at its own pace: nothing to hurry)."""
        if not self.person_to_move():
            return say(app, "others_hint")
        return Play._hint(self, app)

    def tick(self, app, now):
        """The dice's tumble and this seat's tips; nothing else moves here
        without the server (no computer plays in the page, no hand-over
        between people)."""
        if self.anim.armed:
            if self.anim.reached(now):
                self.anim.clear()
                return True
            if self.anim_frame.reached(now):
                self.anim_frame.set(now, ANIM_FRAME_MS)
                return True
            return False
        # this browser's turn: the coach answers a tip after the frame (firmware.coach_view)
        return self.person_to_move() and self.tips.tick(app, self, now)

    def table_action(self, app, action):
        """Joining or leaving from the standings is the room's business
        (the waiting room), not the game's: refused here."""
        return False


class OnlineTips(Tips):
    """Tips on a room's play screen: for this browser's seat only, when it
    asked for them (`seat`, -1: none), and on this device only. They live
    on this object: the tips file beside the local game's save is the
    local game's (firmware.tips_store), and a room's game is the server's."""

    offers_lesson = False  # the lesson is a game of its own against a computer, not a room's

    def __init__(self, game, players, seat):
        self.game = game
        self.players = players
        n = len(game.seats)
        self.flags = [1 if i == seat else 0 for i in range(n)]
        self.cost = [0] * n
        self.view = None
        self.lesson = -1
        self.steps = 0
        self._step = False

    def save(self, app):
        """Nothing to write: a room's tips last as long as its play screen."""
        self._fit()

    def follow(self, game):
        """The room's game after an event (a new mirror of it): the tips
        and their coach read this one from now on."""
        self.game = game
        if self.view is not None:
            self.view.game = game
            self.view.forget()  # (a mirror counts no events: its situation key cannot tell)

    def game_over(self, app):
        """The room's end is its own screen (OnlineWinner): no file to clear."""
        self.view = None


class OnlineWinner(Winner):
    """The end of a room's game: A says yes to a rematch (the room starts
    it when every person has said yes), B goes to the title. The result
    stays until the next game starts; once this seat said yes the hint
    says it waits for the others (the page's Online region says for whom)."""

    def __init__(self, game, link, g):
        Winner.__init__(self, game)
        self.link = link
        self.g = g

    def said_yes(self):
        """True when this browser's seat has said yes to a rematch."""
        st = self.link.state
        return st is not None and self.link.me in st.get("rematch", ())

    def on_key(self, app, key, kind):
        """A: yes to a rematch (once); B: the title."""
        if kind != "press":
            return
        if key == buttons.A and self.link.me >= 0 and not self.said_yes():
            self.link.send({"do": "rematch"})
        elif key == buttons.B:
            self.link.close(app)

    def draw(self, app, canvas):
        """The device's end screen; after this seat's yes, the waiting hint."""
        Winner.draw(self, app, canvas)
        if self.said_yes() or self.link.me < 0:  # (a spectator has no say)
            app.ui.hints(canvas, say(app, "rematch_wait" if self.link.me >= 0 else "watch_hint"))
