// Online play in the page (docs/protocol.md, web/online.py).
//
// This module owns the room server's WebSocket and HTTP requests. The game
// on the canvas (web/online.py in the app) asks for things through
// host.online_take() (create, enter, act, start, rematch, leave, close) and
// hears every server message through host.online_event(json).
//
// Outside the game screen it shows, in #online: the connection (connecting,
// connected, reconnecting), the invite link with copy and share buttons, the
// seats with who is away since when and who a computer plays for, the join
// form when the page was opened by a link (a real text field), the notice
// for a seat played in another tab with "play here", and after a game the
// check of the dice against the revealed secret.
//
// Seat tokens stay in localStorage per room ("zt-room:CODE"): a reload, a
// closed and reopened tab, a phone that slept takes the seat again and
// catches up (`since` within a tab, a snapshot for a fresh page).
//
// The connection's health: a heartbeat every 3 s unless the page sent
// something else lately, a beat while the server's messages came within
// the last 3 s, else a ping (answered by pong);
// a connection that has said nothing for 8 s (a socket that never opens
// included) is dead, which the page notices within the 9 s. When
// the page becomes visible again it pings and waits 2 s for an answer;
// when the network returns it reconnects at once; else with backoff up to
// 5 s. zt.online.connects logs why each connection was opened (the tests
// print and check it). The server counts a seat silent for 7 s as gone.
//
// Whoever is away is shown with the server's time it went (the same on
// every page: the server's clock, from `now` in welcome and pong) and, on
// its turn, the seconds until the stand-in takes over; the person coming
// back is told what the stand-in played for them.
//
// The dice check does not trust the record alone: the page keeps, per room
// and game (localStorage "zt-dice:CODE:G", the last few), the commitment
// it was shown when the game began and every roll it showed, and compares
// the record with both, with the final state's roll count and scores.

import { qrSvg } from "./qr.js";

const PING_MS = 3000;
const DEAD_MS = 8000;
const WAKE_MS = 2000; // visible again: an answer within this, or a new connection
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 5000];
const ROOM_KEY = "zt-room:";
const DICE_KEY = "zt-dice:";
const DICE_KEPT = 8; // games whose commitment and rolls a browser keeps
const MAX_NAME = 12; // engine.game.MAX_NAME: the longest name a room takes

const SAY = {
  de: {
    connecting: "Verbinde mit dem Raum…", connected: "Verbunden mit dem Raum", reconnecting: "Verbindung verloren: neuer Versuch…",
    invite: "Einladung zum Raum", link: "Einladungslink", copy: "Link kopieren", copied: "Kopiert", share: "Teilen", shareCopied: "Kopiert: in eine Nachricht einfügen",
    join: "Mitspielen", name: "Dein Name", watch: "Zuschauen", seats: "Plätze", free: "frei", you: "du",
    away: "Verbindung weg seit %d s (%s)", wait: "%s: Verbindung weg seit %d s, Computer übernimmt in %d s",
    waitNow: "%s: Verbindung weg seit %d s, Computer übernimmt jetzt",
    played: "Willkommen zurück: der Computer hat für dich gespielt (Züge: %d, Aktionen: %d, Punkte: %s, jetzt %d).",
    playedNone: "Willkommen zurück: in der Zwischenzeit hat niemand für dich gespielt.",
    ckCommit: "der Bericht nennt die Zusage %s…, zu Beginn gezeigt wurde %s…", ckSecret: "das Geheimnis passt nicht zur Zusage",
    ckNumber: "Wurf %d trägt die Nummer %s (umgestellt oder gekürzt?)", ckRoll: "Wurf %d zeigte %s, das Geheimnis ergibt %s",
    ckSeen: "Wurf %d wurde als %s gezeigt, der Bericht sagt %s", ckMissing: "Wurf %d wurde gezeigt, fehlt aber im Bericht (gekürzt?)",
    ckCount: "das Spiel hatte %d Würfe, der Bericht %d", ckScores: "der Bericht nennt die Endstände %s, das Spiel endete mit %s",
    ckShape: "kein Würfelbericht",
    standin: "der Computer spielt für %s", computer: "Computer", joinTitle: "Mitspielen im Raum %s",
    started: "In diesem Raum läuft ein Spiel: du kannst zuschauen.",
    ended: "Das Spiel in diesem Raum ist zu Ende: du kannst das Ergebnis ansehen.", result: "Ergebnis ansehen",
    noRoom: "Diesen Raum gibt es nicht (mehr). Einen neuen eröffnest du unter „Online spielen“.",
    looking: "Sehe nach, was dieser Link ist…", roomTitle: "Raum %s", again: "Noch einmal versuchen",
    waitingFor: "Der Raum wartet auf Mitspieler: %d von %d Plätzen frei.", yourSeat: "Dein Platz in diesem Raum: %s (Platz %d).",
    offline: "Keine Verbindung zum Netz.", unreachable: "Der Server antwortet nicht.", other: "Dieser Platz wird in einem anderen Tab oder auf einem anderen Gerät gespielt.",
    here: "Hier spielen", checked: "Würfel geprüft: alle %d Würfe passen zum enthüllten Geheimnis und zur Zusage vom Spielbeginn (%s…), die %d hier gezeigten zum Bericht, der Endstand zum Spiel.",
    bad: "Würfelprüfung FEHLGESCHLAGEN: %s", howto: "Selbst prüfen, ohne dieses Projekt: den Würfelbericht und die Prüfung check_dice.py laden, dann python3 check_dice.py bericht.json --commit %s", checker: "Die Würfelprüfung zum Selbst-Ausführen (check_dice.py, nur Pythons Standardbibliothek)",
    yourTurn: "Du bist dran!", record: "Würfelbericht von Spiel %d (JSON)", records: "Würfelberichte",
    rematchYes: "Revanche: ja von %s.", rematchNone: "Revanche: noch hat niemand ja gesagt.", rematchWait: "Es fehlt: %s.",
    rematchHow: "A sagt ja.", turn: "Am Zug: %s", spectator: "Du schaust zu.", score: "%d Punkte",
    openRoom: "Raum eröffnen", nameHow: "Dein Name im Raum; die Pfeiltasten und A bedienen das Formular im Bildschirm.",
    qr: "QR-Code des Einladungslinks", tips: "Mit Tipps (nur auf diesem Gerät)",
    waitChoice: "Ist jemand weg, spielt der Computer seinen Zug nach", seconds: "%s s", waitDefault: "%s s (Standard)",
    standinNow: "Der Computer spielt für %s.",
    nameLong: "Zu lang: %d Zeichen, ein Name hat höchstens %d; so wird er nicht genommen.",
    nameCut: "Zu lang: %d Zeichen, ein Name hat höchstens %d; der Raum nimmt „%s“.",
  },
  en: {
    connecting: "Connecting to the room…", connected: "Connected to the room", reconnecting: "Connection lost: trying again…",
    invite: "Invitation to the room", link: "Invite link", copy: "Copy link", copied: "Copied", share: "Share", shareCopied: "Copied: paste it into a message",
    join: "Join", name: "Your name", watch: "Watch", seats: "Seats", free: "free", you: "you",
    away: "connection lost %d s ago (%s)", wait: "%s: connection lost %d s ago, the computer takes over in %d s",
    waitNow: "%s: connection lost %d s ago, the computer takes over now",
    played: "Welcome back: the computer played for you (turns: %d, actions: %d, points: %s, now %d).",
    playedNone: "Welcome back: nobody played for you meanwhile.",
    ckCommit: "the record names the commitment %s…, the start showed %s…", ckSecret: "the secret does not match the commitment",
    ckNumber: "roll %d is numbered %s (reordered or cut?)", ckRoll: "roll %d showed %s, the secret gives %s",
    ckSeen: "roll %d was shown as %s, the record says %s", ckMissing: "roll %d was shown but the record lacks it (cut?)",
    ckCount: "the game had %d rolls, the record %d", ckScores: "the record names the final scores %s, the game ended with %s",
    ckShape: "not a dice record",
    standin: "the computer plays for %s", computer: "computer", joinTitle: "Join room %s",
    started: "A game is running in this room: you can watch.",
    ended: "The game in this room is over: you can see the result.", result: "See the result",
    noRoom: "This room does not exist (any more). Open a new one under “Play online”.",
    looking: "Looking up what this link is…", roomTitle: "Room %s", again: "Try again",
    waitingFor: "The room is waiting for players: %d of %d seats free.", yourSeat: "Your seat in this room: %s (seat %d).",
    offline: "No network connection.", unreachable: "The server does not answer.", other: "This seat is played in another tab or on another device.",
    here: "Play here", checked: "Dice checked: all %d rolls match the revealed secret and the commitment shown at the start (%s…), the %d shown here match the record, the final scores the game.",
    bad: "Dice check FAILED: %s", howto: "Check it yourself, without this project: load the dice record and the check check_dice.py, then python3 check_dice.py record.json --commit %s", checker: "The dice check to run yourself (check_dice.py, Python's standard library only)",
    yourTurn: "Your turn!", record: "Dice record of game %d (JSON)", records: "Dice records",
    rematchYes: "Rematch: yes from %s.", rematchNone: "Rematch: nobody has said yes yet.", rematchWait: "Waiting for: %s.",
    rematchHow: "A says yes.", turn: "To move: %s", spectator: "You are watching.", score: "%d points",
    openRoom: "Open a room", nameHow: "Your name in the room; the arrow keys and A work the form on the screen.",
    qr: "QR code of the invite link", tips: "With tips (on this device only)",
    waitChoice: "When somebody is away, the computer plays their turn after", seconds: "%s s", waitDefault: "%s s (default)",
    standinNow: "The computer plays for %s.",
    nameLong: "Too long: %d characters, a name has at most %d; it is not taken like this.",
    nameCut: "Too long: %d characters, a name has at most %d; the room takes “%s”.",
  },
};

function fmt(text, ...values) {
  let i = 0;
  return text.replace(/%[sd]/g, () => String(values[i++]));
}

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

function unhex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.substr(2 * i, 2), 16);
  return out;
}

// The dice of roll number k from the secret, as server/fairdice.py and
// tools/check_dice.py derive them: HMAC-SHA256(secret, "zt-roll:k:b"),
// bytes 252..255 skipped, face = byte % 6 + 1.
export async function facesOf(secretHex, k, n) {
  const key = await crypto.subtle.importKey("raw", unhex(secretHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const faces = [];
  for (let b = 0; faces.length < n; b++) {
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`zt-roll:${k}:${b}`)));
    for (const byte of mac) {
      if (byte >= 252) continue;
      faces.push((byte % 6) + 1);
      if (faces.length === n) break;
    }
  }
  return faces;
}

// Check a dice record against what this page saw: `kept` the commitment
// shown at the start and the rolls shown ({commit, rolls: [[k, dice], ...]},
// either may be missing), `st` the final state shown. Null when all holds,
// else [text key, ...values] of the first problem (SAY.ck*).
export async function checkRecord(rec, kept, st) {
  if (!rec || typeof rec.secret !== "string" || !/^[0-9a-f]{64}$/.test(rec.secret) || !Array.isArray(rec.rolls)) return ["ckShape"];
  if (kept && kept.commit && rec.commit !== kept.commit) return ["ckCommit", String(rec.commit).slice(0, 12), kept.commit.slice(0, 12)];
  // the key and the commitment's input are the secret's 32 raw bytes
  const digest = hex(await crypto.subtle.digest("SHA-256", unhex(rec.secret)));
  if (digest !== rec.commit) return ["ckSecret"];
  const byNumber = new Map();
  let expect = 1;
  for (const item of rec.rolls) {
    const [k, dice] = Array.isArray(item) ? item : [];
    if (k !== expect || !Array.isArray(dice)) return ["ckNumber", expect, JSON.stringify(k)];
    const faces = await facesOf(rec.secret, k, dice.length);
    if (faces.join() !== dice.join()) return ["ckRoll", k, dice.join(" "), faces.join(" ")];
    byNumber.set(k, dice);
    expect++;
  }
  for (const [k, dice] of (kept && kept.rolls) || []) {
    if (!byNumber.has(k)) return ["ckMissing", k];
    if (byNumber.get(k).join() !== dice.join()) return ["ckSeen", k, dice.join(" "), byNumber.get(k).join(" ")];
  }
  if (st) {
    if (st.rolls !== rec.rolls.length) return ["ckCount", st.rolls, rec.rolls.length];
    const shown = st.seats.map((seat) => (seat ? seat.score : null));
    const said = (rec.scores || []).map((v, i) => (st.seats[i] ? v : null));
    if (shown.join() !== said.join() || (rec.winner !== undefined && rec.winner !== st.winner)) {
      return ["ckScores", said.filter((v) => v !== null).join(" "), shown.filter((v) => v !== null).join(" ")];
    }
  }
  return null;
}

export class Online {
  // host: the Python Host (online_take, online_event), or null before the
  // game runs (a room's link: the panel comes first; attach gives it);
  // lang(): the page's language now; redraw(): a step and a canvas copy
  // after an event
  constructor({ host, storage, lang, redraw, retext }) {
    this.host = host;
    this.unheard = []; // what the game is told once attached (host null until then)
    this.retext = retext || (() => {});
    this.storage = storage;
    this.lang = lang;
    this.redraw = redraw;
    this.ws = null;
    this.code = null;
    this.state = null;
    this.conn = "connecting";
    this.tries = 0;
    this.timer = null;
    this.pinger = null;
    this.heardAt = 0; // Date.now() of the server's last message (heartbeat)
    this.sentAt = 0; // Date.now() of this page's last message (heartbeat)
    this.skew = 0; // the server's clock minus this page's, in ms (welcome and pong say `now`)
    this.dice = {}; // "CODE:G" -> {commit, rolls}: what this page was shown (see keepDice)
    this.backNote = null; // what a stand-in played for this seat, said once back
    this.ticker = setInterval(() => this.tick(), 1000);
    this.reasons = null;
    this.checked = {}; // game number -> the check's text
    this.storeNote = false; // the refusal shown is the store's (close 1013)
    this.panel = document.getElementById("online");
    // figures for the tests: times in ms (Date.now() where pages compare)
    this.zt = {
      events: 0, seatedMs: null, caughtUpMs: null, reconnects: 0, eventTimes: [], sent: [], seat: -1,
      connects: [], deadAt: null,
    };
    window.zt.online = this.zt;
    fetch("/api/reasons").then((r) => r.json()).then((t) => { this.reasons = t; }).catch(() => {});
    // the stand-in's waits a room may choose: this server's own first (online.json)
    this.waits = { wait: 30, waits: [15, 30, 60] };
    fetch("online.json").then((r) => r.json()).then((j) => {
      if (typeof j.wait === "number" && Array.isArray(j.waits)) this.waits = j;
      if (this.naming) this.render();
    }).catch(() => {});
    this.wait = null; // the wait the room form chose (null: the server's)
    this.watchdog = null;
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.wake("visible");
    });
    addEventListener("online", () => {
      this.tell({ t: "net", up: true });
      this.wake("online");
    });
    // offline, the title offers no online play (a room on screen reconnects when the network is back)
    addEventListener("offline", () => this.tell({ t: "net", up: false }));
    if (navigator.onLine === false) this.tell({ t: "net", up: false });
    this.tell({ t: "rooms", rooms: this.rooms() });
    const code = new URLSearchParams(location.search).get("room");
    if (code) {
      if (this.seatOf(code)) this.enter(code);
      else this.joinForm(code);
    } else this.lookBack();
  }

  async lookBack() {
    // this browser's room with a game running, which the title offers
    // first: the most recently taken seats, a few (each look is a request;
    // a room the server no longer has is forgotten)
    const mine = this.rooms().map(([code]) => [code, (this.seatOf(code) || {}).at || 0])
      .sort((a, b) => b[1] - a[1]).slice(0, 3);
    let live = null;
    for (const [code] of mine) {
      try {
        const r = await fetch("/api/rooms/" + encodeURIComponent(code));
        if (r.status === 404) {
          this.forget(code);
          continue;
        }
        const st = await r.json();
        if (r.ok && st.status === "playing") {
          live = code;
          break;
        }
      } catch (e) {
        break; // no answer (offline): nothing to offer
      }
    }
    if (this.code) return; // in a room meanwhile
    this.zt.back = live;
    this.tell({ t: "rooms", rooms: this.rooms(), live });
  }

  say(key) {
    return (SAY[this.lang()] || SAY.de)[key];
  }

  // ------------------------------------------------------------ storage

  seatOf(code) {
    try {
      return JSON.parse(this.storage.getItem(ROOM_KEY + code) || "null");
    } catch (e) {
      return null;
    }
  }

  keep(code, seat, quiet) {
    try {
      this.storage.setItem(ROOM_KEY + code, JSON.stringify({ ...seat, at: Date.now() })); // (at: lookBack's order)
    } catch (e) {
      // no storage: the seat lasts as long as this tab
    }
    if (!quiet) this.tell({ t: "rooms", rooms: this.rooms() });
  }

  forget(code) {
    try {
      this.storage.removeItem(ROOM_KEY + code);
    } catch (e) {
      // nothing kept
    }
    this.tell({ t: "rooms", rooms: this.rooms() });
  }

  rooms() {
    // this browser's rooms: [code, own name]
    const out = [];
    for (let i = 0; i < this.storage.length; i++) {
      const key = this.storage.key(i);
      if (key && key.startsWith(ROOM_KEY)) {
        const seat = this.seatOf(key.slice(ROOM_KEY.length));
        if (seat) out.push([key.slice(ROOM_KEY.length), seat.name || ""]);
      }
    }
    return out.sort();
  }

  // ------------------------------------------------------------ the app's requests

  tell(msg) {
    if (!this.host) {
      this.unheard.push(msg);
      return;
    }
    this.host.online_event(JSON.stringify(msg));
    this.redraw();
  }

  attach(host) {
    // the game runs: it hears what it was told meanwhile, in order
    this.host = host;
    for (const msg of this.unheard.splice(0)) this.tell(msg);
  }

  pump() {
    // what the app asked for since the last frame
    const text = this.host.online_take();
    if (!text) return;
    for (const line of text.split("\n")) this.handle(JSON.parse(line));
  }

  handle(msg) {
    if (msg.do === "create") this.create(msg);
    else if (msg.do === "enter") this.enter(msg.code);
    else if (msg.do === "act") {
      this.zt.sent.push(Date.now());
      if (this.zt.sent.length > 500) this.zt.sent.shift();
      this.send({ t: "act", a: msg.a, id: this.zt.sent.length });
    }
    else if (msg.do === "name_field") {
      // the room form is open (or closed): its creator's name as a text field
      this.naming = msg.on ? { name: msg.name } : null;
      this.render();
    } else if (msg.do === "start" || msg.do === "rematch") this.send({ t: msg.do });
    else if (msg.do === "leave") {
      this.send({ t: "leave" });
      this.forget(this.code);
    } else if (msg.do === "close") {
      this.close();
      this.lookBack(); // (the room just left is offered first on the title while it runs)
    }
  }

  async post(path, body) {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const answer = await r.json();
    if (!r.ok) throw answer;
    return answer;
  }

  reasonText(why, values) {
    const texts = this.reasons && (this.reasons[this.lang()] || this.reasons.de);
    const text = texts && texts[why];
    return text ? fmt(text, ...(values || [])) : why;
  }

  async create(msg) {
    try {
      const body = { name: msg.name, people: msg.people, computers: msg.computers, rules: msg.rules };
      if (this.wait !== null) body.wait = this.wait;
      const answer = await this.post("/api/rooms", body);
      this.keep(answer.code, { token: answer.token, seat: answer.seat, name: msg.name, tips: !!msg.tips });
      this.enter(answer.code);
    } catch (e) {
      this.tell({ t: "gone", text: this.reasonText(e.why || "server", e.values) });
    }
  }

  // ------------------------------------------------------------ the connection

  enter(code) {
    this.close();
    this.code = code;
    this.spectator = !this.seatOf(code);
    const url = new URL(location.href);
    url.searchParams.set("room", code);
    history.replaceState(null, "", url);
    this.tries = 0;
    this.connect();
    this.render();
  }

  connect(why) {
    clearTimeout(this.timer);
    if (!this.code) return;
    this.setConn(this.zt.events ? "reconnecting" : "connecting");
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + this.code);
    this.ws = ws;
    this.openedAt = performance.now();
    this.zt.connects.push([why || "first", Date.now()]);
    if (this.zt.connects.length > 100) this.zt.connects.shift();
    this.alive(DEAD_MS); // a socket that never opens is dead too
    ws.onopen = () => {
      const seat = this.seatOf(this.code);
      // `since` only when this tab has the room's state: the missed events
      // then suffice; a fresh page asks for the whole state (a snapshot)
      const since = this.state && this.seen ? this.seen : undefined;
      if (seat && !this.spectator) ws.send(JSON.stringify({ t: "hello", token: seat.token, since }));
      else ws.send(JSON.stringify({ t: "watch", since }));
      this.alive(DEAD_MS);
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.heartbeat(), PING_MS);
    };
    ws.onmessage = (e) => this.message(JSON.parse(e.data));
    ws.onclose = (e) => this.closed(ws, e.code, e.reason);
  }

  heartbeat() {
    // nothing when this page spoke lately (an action shows it is there;
    // the margin keeps a late timer from skipping two beats in a row), a
    // beat (no answer wanted) while the server's messages keep coming,
    // else a ping, which the server answers with a pong
    const now = Date.now();
    if (now - this.sentAt < PING_MS - 500) return;
    this.send({ t: now - this.heardAt < PING_MS ? "beat" : "ping" });
  }

  alive(ms) {
    // heard from the server (or just connected): dead unless it speaks within `ms`
    clearTimeout(this.watchdog);
    const ws = this.ws;
    this.watchdog = setTimeout(() => this.dead(ws), ms);
  }

  dead(ws) {
    // the server stopped answering: drop the socket, reconnect with backoff
    if (ws !== this.ws) return;
    this.zt.deadAt = Date.now();
    ws.onclose = null;
    ws.onmessage = null;
    ws.close();
    this.closed(ws, 1006);
  }

  wake(why) {
    // visible again, or the network is back
    if (!this.code || this.conn === "other") return;
    if (this.ws && this.ws.readyState === 1 && why === "visible") {
      // the socket may have died while the page slept: it must answer soon
      this.send({ t: "ping" });
      this.alive(WAKE_MS);
      return;
    }
    if (this.ws) {
      // a new network: the old socket (open or opening) is of no use
      const ws = this.ws;
      ws.onclose = null;
      ws.onmessage = null;
      ws.close();
      this.ws = null;
    }
    this.tries = 0;
    this.connect(why);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === 1) {
      this.ws.send(JSON.stringify(msg));
      this.sentAt = Date.now();
    }
  }

  close() {
    clearTimeout(this.timer);
    clearTimeout(this.watchdog);
    clearInterval(this.pinger);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close(1000);
    }
    this.ws = null;
    this.code = null;
    this.state = null;
    this.seen = 0;
    const url = new URL(location.href);
    if (url.searchParams.has("room")) {
      url.searchParams.delete("room");
      history.replaceState(null, "", url);
    }
    this.render();
  }

  closed(ws, code, reason) {
    if (ws !== this.ws) return;
    clearInterval(this.pinger);
    clearTimeout(this.watchdog);
    this.ws = null;
    if (code === 4002) {
      // another tab or device took the seat
      this.setConn("other");
      return;
    }
    if (code === 4000 || code === 4001 || code === 4003) {
      // 4003 "lost": the server's store came back without the room
      const why = code === 4003 ? (reason === "lost" ? "lost" : "no_room") : code === 4001 ? "token" : null;
      if (code !== 4000) this.forget(this.code);
      this.close();
      this.tell({ t: "gone", text: why ? this.reasonText(why) : "" });
      return;
    }
    // 1013 "store": the server cannot reach its storage for a while; the
    // seat is kept and the page tries again (the next welcome clears the note)
    if (code === 1013) {
      this.refusal = this.reasonText(reason || "server");
      this.storeNote = true;
    }
    this.setConn("reconnecting");
    const wait = BACKOFF_MS[Math.min(this.tries, BACKOFF_MS.length - 1)];
    this.tries++;
    this.zt.reconnects++;
    this.timer = setTimeout(() => this.connect("backoff"), wait);
  }

  setConn(state) {
    this.conn = state;
    this.tell({ t: "conn", s: state }); // ("other": the game screen stops offering this seat's moves)
    this.render();
  }

  message(msg) {
    this.alive(DEAD_MS);
    this.heardAt = Date.now();
    if (typeof msg.now === "number") this.skew = msg.now * 1000 - Date.now();
    if (msg.t === "pong") return;
    if (msg.t === "welcome") {
      this.tries = 0;
      if (this.storeNote) {
        this.refusal = null; // the server reaches its storage again
        this.storeNote = false;
      }
      this.me = msg.seat;
      this.zt.seat = msg.seat;
      this.lastN = msg.n;
      this.setConn("connected");
      // the seat's tips are this browser's business: kept with its token, told to the app
      const seat = this.seatOf(this.code);
      this.tell({ ...msg, tips: !!(seat && !this.spectator && seat.tips) });
      if (this.state && msg.n === this.seen) this.zt.caughtUpMs = performance.now() - this.openedAt;
      return;
    }
    if (msg.t === "ev" || msg.t === "snap") {
      if (!msg.s && (!this.state || msg.n !== this.seen + 1)) {
        // only what changed, and not on the state of the event before (never
        // sent so: each event once, in order, `since` only with a state):
        // start again from a snapshot
        this.state = null;
        this.seen = 0;
        this.dead(this.ws);
        return;
      }
      this.refusal = null; // the game moved on
      // an event carries the whole state (`s`) or the entries that changed (`d`)
      this.state = msg.s || { ...this.state, ...msg.d };
      msg = { ...msg, s: this.state }; // the app and the dice check read the whole state
      this.seen = msg.n;
      if (this.zt.seatedMs === null && this.me >= 0) this.zt.seatedMs = performance.now();
      if (msg.n >= this.lastN && this.zt.caughtUpAt !== this.openedAt) {
        this.zt.caughtUpAt = this.openedAt;
        this.zt.caughtUpMs = performance.now() - this.openedAt;
      }
      this.zt.events = msg.n;
      this.keepDice(msg);
      this.tell({ ...msg, now: this.serverNow() / 1000 }); // the app's step draws the canvas before this returns
      const e = msg.e || {};
      if (e.k === "back" && e.seat === this.me) this.backNote = this.playedText(e.played);
      if (e.k === "start") this.backNote = null;
      this.zt.eventTimes.push([msg.n, Date.now(), e.k || "snap", e.seat, e.by]);
      if (this.zt.eventTimes.length > 500) this.zt.eventTimes.shift();
      this.render();
      if (msg.s.status === "over") this.check(msg.s);
      return;
    }
    if (msg.t === "no") {
      // said on the screen (the app) and here in full, as an alert
      this.refusal = this.reasonText(msg.why, msg.values);
      this.tell({ t: "no", text: this.refusal });
      this.render();
    }
  }

  // ------------------------------------------------------------ the page around the game

  joinForm(code) {
    // opened by a link without a seat here: what the link is (the room's
    // preview), then a name field and a join button while it waits for people
    this.joining = code;
    this.preview = null;
    this.render();
    this.look(code);
  }

  async look(code) {
    // the preview: {kind: "lobby" | "playing" | "over", st} from the room's
    // public state, {kind: "none"} for the server's 404 (no such room, or
    // no more), {kind: "error", text} for anything else (the reason's text)
    let preview;
    try {
      const r = await fetch("/api/rooms/" + encodeURIComponent(code));
      const body = await r.json().catch(() => ({}));
      if (r.ok && body && typeof body.status === "string") preview = { kind: body.status, st: body };
      else if (r.status === 404) preview = { kind: "none" };
      else preview = { kind: "error", text: this.reasonText(body.why || "server", body.values) };
    } catch (e) {
      preview = { kind: "error", text: this.say(navigator.onLine === false ? "offline" : "unreachable") };
    }
    if (this.joining !== code) return;
    this.preview = preview;
    this.zt.link = preview.kind;
    this.render();
  }

  async join(name, tips) {
    const code = this.joining;
    try {
      const answer = await this.post("/api/rooms/" + encodeURIComponent(code) + "/join", { name });
      this.keep(code, { token: answer.token, seat: answer.seat, name, tips: !!tips });
      this.joining = null;
      this.enter(code);
      this.retext();
    } catch (e) {
      this.joinError = this.reasonText(e.why || "server", e.values);
      this.render();
    }
  }

  watch() {
    const code = this.joining;
    this.joining = null;
    this.enter(code);
    this.retext();
  }

  link() {
    const url = new URL(location.origin + location.pathname);
    url.searchParams.set("room", this.code);
    return url.toString();
  }

  // ------------------------------------------------------------ the dice seen

  keptDice(g) {
    const key = `${this.code}:${g}`;
    if (!this.dice[key]) {
      let kept = null;
      try {
        kept = JSON.parse(this.storage.getItem(`${DICE_KEY}${this.code}:${g}`) || "null");
      } catch (e) {
        kept = null;
      }
      this.dice[key] = kept && typeof kept === "object" && Array.isArray(kept.rolls) ? kept : { commit: null, rolls: [] };
    }
    return this.dice[key];
  }

  keepDice(msg) {
    // the commitment of a game as first shown (its start, or the first
    // state this page got of it) and every roll shown, numbered by the
    // state's roll count after the event
    const st = msg.s;
    if (!st || !st.g || !st.commit) return;
    const kept = this.keptDice(st.g);
    let changed = false;
    if (!kept.commit) {
      kept.commit = st.commit;
      changed = true;
    }
    const e = msg.e || {};
    if (e.k === "act") {
      const rolls = (e.ev || []).filter((x) => x[0] === "roll").map((x) => x[2]);
      rolls.forEach((dice, j) => kept.rolls.push([st.rolls - (rolls.length - 1 - j), dice]));
      changed = changed || rolls.length > 0;
    }
    if (changed) this.storeDice(st.g, kept);
  }

  storeDice(g, kept) {
    kept.at = Date.now();
    try {
      this.storage.setItem(`${DICE_KEY}${this.code}:${g}`, JSON.stringify(kept));
      const keys = [];
      for (let i = 0; i < this.storage.length; i++) {
        const key = this.storage.key(i);
        if (key && key.startsWith(DICE_KEY)) keys.push(key);
      }
      // the oldest games go first (keys are not ordered: the kept time is)
      if (keys.length > DICE_KEPT) {
        const aged = keys.map((k) => [JSON.parse(this.storage.getItem(k) || "{}").at || 0, k]).sort((a, b) => a[0] - b[0]);
        for (const [, k] of aged.slice(0, keys.length - DICE_KEPT)) this.storage.removeItem(k);
      }
    } catch (e) {
      // no storage: kept for this tab only
    }
  }

  playedText(played) {
    if (!played || !played.actions) return this.say("playedNone");
    const sign = played.points > 0 ? "+" + played.points : String(played.points);
    return fmt(this.say("played"), played.turns, played.actions, sign, played.score);
  }

  serverNow() {
    return Date.now() + this.skew;
  }

  tick() {
    // while somebody is away in a game, the seconds go on (here and on the
    // game screen, which counts down to the stand-in by the server's clock)
    const st = this.state;
    if (this.code && st && st.status === "playing" && st.seats.some((s) => s && s.away)) {
      this.tell({ t: "clock", now: this.serverNow() / 1000 });
      this.render();
    }
  }

  async check(st) {
    if (this.checked[st.g] !== undefined) return;
    this.checked[st.g] = "";
    try {
      const r = await fetch(`/api/rooms/${this.code}/games/${st.g}`);
      const rec = await r.json();
      const wrong = await checkRecord(rec, this.keptDice(st.g), st);
      this.checked[st.g] = wrong === null ? fmt(this.say("checked"), rec.rolls.length, rec.commit.slice(0, 12), this.keptDice(st.g).rolls.length) : fmt(this.say("bad"), fmt(this.say(wrong[0]), ...wrong.slice(1)));
      this.zt.diceCheck = wrong === null ? "ok" : wrong[0];
    } catch (e) {
      this.checked[st.g] = fmt(this.say("bad"), String(e));
    }
    this.render();
  }

  render() {
    // the panel outside the game screen, in the page's language
    const parts = [];
    if (this.joining) {
      const preview = this.preview;
      const st = preview && preview.st;
      const kind = preview ? preview.kind : "looking";
      parts.push(el("h2", fmt(this.say(kind === "lobby" ? "joinTitle" : "roomTitle"), this.joining)));
      if (kind === "looking") parts.push(el("p", this.say("looking"), { role: "status" }));
      if (kind === "none") parts.push(el("p", this.say("noRoom"), { role: "alert" }));
      else if (kind === "error") {
        parts.push(el("p", preview.text, { role: "alert" }));
        const again = el("button", this.say("again"), { type: "button" });
        again.addEventListener("click", () => this.joinForm(this.joining));
        parts.push(again);
      } else if (kind === "playing") parts.push(el("p", this.say("started")));
      else if (kind === "over") parts.push(el("p", this.say("ended")));
      else {
        // a room waiting for people, or (until the preview answers) most
        // likely one: the name can be typed at once
        if (st) {
          const free = st.seats.filter((seat) => seat === null).length;
          parts.push(el("p", fmt(this.say("waitingFor"), free, st.seats.length)));
        }
        const form = el("form", null, { "aria-label": this.say("join") });
        const label = el("label", this.say("name") + " ");
        // (no maxlength: a longer name is not cut without a word, the note
        // says it is too long and the server's refusal what a name may be)
        const input = el("input", null, { name: "name", autocomplete: "nickname", required: "", "aria-describedby": "name-note" });
        const note = el("span", null, { id: "name-note", "aria-live": "polite" });
        // the panel is drawn anew when the room's preview arrives: what was
        // typed before it must survive (a lost name left an empty, required
        // field, and "join" did nothing)
        input.value = this.draftName || "";
        const said = () => { note.textContent = this.lengthNote(input.value, "nameLong"); };
        input.addEventListener("input", () => { this.draftName = input.value; said(); });
        said();
        label.append(input);
        // tips for this seat, on this device only (as the new-game form's tips row)
        const tips = el("input", null, { type: "checkbox", name: "tips" });
        tips.checked = !!this.draftTips;
        tips.addEventListener("change", () => { this.draftTips = tips.checked; });
        const tipsLabel = el("label");
        tipsLabel.append(tips, " " + this.say("tips"));
        form.append(label, " ", note, " ", tipsLabel, " ", el("button", this.say("join"), { type: "submit" }));
        form.addEventListener("submit", (e) => {
          e.preventDefault();
          this.join(input.value.trim(), tips.checked);
        });
        parts.push(form);
        if (this.joinError) parts.push(el("p", this.joinError, { role: "alert" }));
      }
      if (st) {
        const watch = el("button", this.say(kind === "over" ? "result" : "watch"), { type: "button" });
        watch.addEventListener("click", () => this.watch());
        parts.push(watch);
        if (st.seats) parts.push(this.seatList(st));
      }
    } else if (this.naming && !this.code) {
      // the room form on the screen: the creator's name, typed (keyboard,
      // a phone's keyboard, an agent's fill); every change goes to the form
      const form = el("form", null, { "aria-label": this.say("openRoom") });
      const label = el("label", this.say("name") + " ");
      const input = el("input", null, { name: "name", autocomplete: "nickname", "aria-describedby": "name-note" });
      const note = el("span", null, { id: "name-note", "aria-live": "polite" });
      input.value = this.naming.name;
      const said = () => { note.textContent = this.lengthNote(input.value, "nameCut"); };
      input.addEventListener("input", () => {
        this.naming.name = input.value;
        this.tell({ t: "name", name: input.value });
        said();
      });
      said();
      label.append(input);
      // how long an away person's turn waits before a computer plays it
      const waitLabel = el("label", this.say("waitChoice") + " ");
      const select = el("select", null, { name: "wait" });
      const waits = [...new Set([this.waits.wait, ...this.waits.waits])].sort((a, b) => a - b);
      const chosen = this.wait ?? this.waits.wait;
      for (const w of waits) {
        const option = el("option", fmt(this.say(w === this.waits.wait ? "waitDefault" : "seconds"), w), { value: String(w) });
        if (w === chosen) option.selected = true;
        select.append(option);
      }
      select.addEventListener("change", () => {
        const w = Number(select.value);
        this.wait = w === this.waits.wait ? null : w;
      });
      waitLabel.append(select);
      form.append(label, " ", note, " ", waitLabel, el("p", this.say("nameHow")));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        input.blur(); // back to the game's keys
      });
      parts.push(form);
    } else if (this.code) {
      parts.push(el("p", this.conn === "other" ? this.say("other") : this.say(this.conn), { "data-conn": this.conn }));
      if (this.conn === "other") {
        const here = el("button", this.say("here"), { type: "button" });
        here.addEventListener("click", () => {
          this.tries = 0;
          this.connect("here");
        });
        parts.push(here);
      }
      // the invite: the QR code beside the link and its buttons (on a
      // phone all of it in view when the room opens, index.html's CSS)
      const invite = el("div", null, { role: "group", "aria-label": this.say("invite"), class: "invite" });
      const link = this.link();
      const words = el("div", null, { class: "invite-text" });
      // (its name holds what it shows: a name without the address is one a
      // voice user cannot say)
      words.append(el("a", link, { href: link, "aria-label": this.say("link") + ": " + link }), " ");
      const copy = el("button", this.say("copy"), { type: "button" });
      copy.addEventListener("click", () => {
        navigator.clipboard?.writeText(link).then(() => { copy.textContent = this.say("copied"); }).catch(() => {});
      });
      words.append(copy, " ");
      // the phone's share sheet; where the browser has none, the link is
      // copied for pasting into a message
      const share = el("button", this.say("share"), { type: "button" });
      share.addEventListener("click", () => {
        if (navigator.share) navigator.share({ title: "Zehntausend", url: link }).catch(() => {});
        else navigator.clipboard?.writeText(link).then(() => { share.textContent = this.say("shareCopied"); }).catch(() => {});
      });
      words.append(share);
      invite.append(this.qrOf(link), words);
      parts.push(invite);
      if (this.spectator) parts.push(el("p", this.say("spectator")));
      else if (this.seatOf(this.code)) {
        // the link is this browser's own seat: say whose
        const mine = this.seatOf(this.code);
        parts.push(el("p", fmt(this.say("yourSeat"), mine.name || "", (this.me ?? mine.seat) + 1)));
      }
      if (this.refusal) parts.push(el("p", this.refusal, { role: "alert" }));
      const st = this.state;
      if (st) {
        if (st.status === "playing" && st.seats[st.cur]) {
          const mine = this.mine(st);
          // two sentences: "Am Zug: Bea. Du bist dran!", not "Am Zug: Bea Du bist dran!"
          parts.push(el("p", fmt(this.say("turn"), st.seats[st.cur].name) + (mine ? ". " + this.say("yourTurn") : ""),
            mine ? { "data-mine": "" } : {}));
        }
        const waiting = this.waitText(st);
        if (waiting) parts.push(el("p", waiting, { role: "status", "data-wait": "" }));
        if (this.backNote) parts.push(el("p", this.backNote, { role: "status", "data-back": "" }));
        parts.push(this.seatList(st));
        if (st.status === "over") parts.push(this.rematchText(st));
        if (st.status === "over" && this.checked[st.g]) {
          parts.push(el("p", this.checked[st.g], { "data-check": this.zt.diceCheck || "" }));
          parts.push(el("p", fmt(this.say("howto"), this.keptDice(st.g).commit || st.commit)));
          parts.push(el("a", this.say("checker"), { href: "/check_dice.py", download: "check_dice.py" }));
        }
        if ((st.records || []).length) {
          // every game's dice record the room keeps, the earlier ones too
          const ul = el("ul", null, { "aria-label": this.say("records") });
          for (const g of st.records) {
            const li = el("li");
            li.append(el("a", fmt(this.say("record"), g), { href: `/api/rooms/${this.code}/games/${g}` }));
            ul.append(li);
          }
          parts.push(ul);
        }
      }
    }
    // the field being typed in, if any: the new one takes its focus and caret
    const active = document.activeElement;
    const typing = this.panel.contains(active) && active.tagName === "INPUT" && active.type === "text" ? active : null;
    document.body.classList.toggle("in-room", !!this.code); // (index.html: a phone's layout for a room)
    this.panel.hidden = parts.length === 0;
    this.panel.replaceChildren(...parts);
    const input = this.panel.querySelector("input[type=text], input:not([type])");
    if (input && (typing || (this.joining && document.activeElement === document.body))) {
      input.focus();
      if (typing) input.setSelectionRange(typing.selectionStart, typing.selectionEnd);
    }
  }

  lengthNote(value, key) {
    // a name longer than a room takes (engine.game.MAX_NAME), said: the
    // join form's is refused (nameLong), the room form's cut (nameCut)
    const chars = [...value.trim()];
    if (chars.length <= MAX_NAME) return "";
    return fmt(this.say(key), chars.length, MAX_NAME, chars.slice(0, MAX_NAME).join("").trim());
  }

  rematchText(st) {
    // who has said yes to the next game, and who it waits for
    const yes = st.rematch || [];
    const names = (list) => list.map((i) => (i === this.me ? this.say("you") : st.seats[i].name)).join(", ");
    const missing = [];
    st.seats.forEach((seat, i) => {
      if (seat && !seat.kind && seat.active !== false && !yes.includes(i)) missing.push(i);
    });
    let text = yes.length ? fmt(this.say("rematchYes"), names(yes)) : this.say("rematchNone");
    if (missing.length) text += " " + fmt(this.say("rematchWait"), names(missing));
    if (this.me >= 0 && !yes.includes(this.me)) text += " " + this.say("rematchHow");
    return el("p", text, { role: "status", "data-rematch": yes.join(" ") });
  }

  qrOf(link) {
    // the link's QR code, made again only when the link or the language changes
    const key = link + "\n" + this.lang();
    if (!this.qr || this.qr.key !== key) this.qr = { key, svg: qrSvg(link, this.say("qr")) };
    return this.qr.svg;
  }

  mine(st) {
    // this tab's seat is to move (a tab whose seat plays elsewhere has none)
    return st.cur === this.me && this.me >= 0 && this.conn !== "other";
  }

  awayNote(st) {
    // the game screen's away line as a sentence: who, since when, when the
    // computer takes over, or that it plays for them now
    const seat = st.status === "playing" ? st.seats[st.cur] : null;
    if (seat && !seat.kind && seat.standin) return fmt(this.say("standinNow"), seat.name);
    return this.waitText(st);
  }

  waitText(st) {
    // why the table waits: the seat to move lost its line, and when the
    // computer takes over (the server's times)
    const seat = st.status === "playing" ? st.seats[st.cur] : null;
    if (!seat || !seat.away || seat.standin || !seat.gone) return null;
    const now = this.serverNow() / 1000;
    const since = Math.max(0, Math.round(now - seat.gone));
    if (!st.standin_at) return null;
    const left = Math.ceil(st.standin_at - now);
    return left > 0 ? fmt(this.say("wait"), seat.name, since, left) : fmt(this.say("waitNow"), seat.name, since);
  }

  seatList(st) {
    const ul = el("ul", null, { "aria-label": this.say("seats") });
    const now = this.serverNow() / 1000;
    st.seats.forEach((seat, i) => {
      let text = `${i + 1}. `;
      if (!seat) text += this.say("free");
      else {
        text += seat.name;
        if (seat.kind) text += ` (${this.say("computer")})`;
        if (i === this.me) text += ` (${this.say("you")})`;
        if (seat.score !== undefined) text += ": " + fmt(this.say("score"), seat.score);
        if (seat.standin) text += "; " + fmt(this.say("standin"), seat.name);
        else if (seat.away && seat.gone) {
          const since = Math.max(0, Math.round(now - seat.gone));
          text += "; " + fmt(this.say("away"), since, new Date(seat.gone * 1000).toLocaleTimeString(this.lang()));
        }
      }
      ul.append(el("li", text));
    });
    return ul;
  }
}
