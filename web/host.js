// The page's host: what simulator/host.py does on the PC, in the browser.
//
// It loads the MicroPython WebAssembly port, writes game.bin (the modules
// the title needs, made by tools/web.py) into the port's memory file
// system, takes the game's lock (storage.js: one tab owns the game),
// starts webhost.py and draws the title; then it fetches more.bin (the
// other modules and the tables but the Master's) and, served by the room
// server, online.js: the first bytes on a slow line are the title's. Once
// they are in, the page takes keys (zt.ready; presses made meanwhile are
// played then, in order) and calls webhost's step(now, held)
// on every animation frame and at once on every key change. When a step says
// the frame changed, the 1-bit frame buffer (MONO_VLSB, read straight from
// the wasm memory) is drawn into the <canvas> at the integer scale
// index.html chose, and a moment later the text layer (the readable copy
// of the screen, from webhost's text_json) is made again. After that:
// master.bin (the Master's tables) and the service worker (sw.js).
//
// Keys: arrows, X or Enter = A, Z or Backspace = B; the on-screen buttons
// take mouse, touch, and click, Enter or Space when focused. ?board=thumby
// picks the 72x40 layout (the select does it too), ?seed=N seeded dice
// (used by the browser tests).

import { loadMicroPython } from "./micropython.mjs";
import { GuardedStorage, OWNER, openBacking, ownGame, takeGame } from "./storage.js";

const BITS = { UP: 1, DOWN: 2, LEFT: 4, RIGHT: 8, A: 16, B: 32 };
const KEYS = {
  ArrowUp: "UP", ArrowDown: "DOWN", ArrowLeft: "LEFT", ArrowRight: "RIGHT",
  x: "A", X: "A", Enter: "A", z: "B", Z: "B", Backspace: "B",
};
const ON = [200, 230, 255]; // the simulator's colours (simulator/window.py)
const OFF = [8, 10, 20];
const BOARDS = ["pico_ssd1306_i2c", "thumby"];
const TICKS_MASK = 0x3fffffff; // time.ticks_ms() wraps at 2**30 on MicroPython

const params = new URLSearchParams(location.search);
const seed = params.has("seed") ? parseInt(params.get("seed"), 10) : null;
const { backing, blocked } = openBacking();
let board = params.get("board") || safeGet("zt-board") || BOARDS[0];
if (!BOARDS.includes(board)) board = BOARDS[0];

// What the browser tests read (window.zt): timings and the frame as rows.
// titleMs: the title drawn; ready (readyMs): more.bin in, keys taken.
const zt = { ready: false, board, titleMs: null, readyMs: null, presses: [], errors: [] };
window.zt = zt;

const canvas = document.getElementById("screen");
const status = document.getElementById("status");
let mp, host, step, module, addr, width, height, ctx, small, smallCtx, image, pixels, scale;
let held = 0; // bits of the buttons held now
let seen = 0; // bits a step has seen held (a release waits for that)
let pendingUp = 0; // released before a step saw them: let go after the next step
let pressAt = null; // event time of the last press, for the press-to-canvas figure
let online = null; // web/online.js when the room server serves the page
let ticking = false;
// Served by the room server: online play. Its online.json says so; a
// static host serves the build's, which says not (no failed request).
const served = location.protocol.startsWith("http")
  ? fetch("online.json").then((r) => (r.ok ? r.json() : {})).then((j) => j.rooms === true, () => false)
  : Promise.resolve(false);

function safeGet(key) {
  try {
    return backing.getItem(key);
  } catch (e) {
    return null;
  }
}

function safeSet(key, value) {
  try {
    backing.setItem(key, value);
  } catch (e) {
    // full or blocked: a preference of the page, not worth a message
  }
}

// ------------------------------------------------------------ notices
// What the page says about itself (storage, another tab), in the game's
// language: before the game has said which, the one chosen last or the
// browser's.

const SAY = {
  de: {
    busy: "Dieses Spiel ist in einem anderen Tab offen.",
    take: "Hier spielen",
    guest: "Das Spiel dieses Browsers ist in einem anderen Tab offen: Hier läuft nur der Online-Raum, nichts wird hier gespeichert.",
    takeGame: "Das Spiel hierher holen",
    lost: "Das Spiel wurde in einem anderen Tab übernommen; hier wird nichts mehr gespeichert.",
    retake: "Hier weiterspielen",
    blocked: "Der Browser erlaubt dieser Seite keinen Speicher: Das Spiel läuft, aber nichts wird behalten.",
    full: "Der Speicher des Browsers ist voll: Neue Stände werden nicht gespeichert, der letzte gespeicherte bleibt.",
    fleeting: "Der Browser darf diese Spielstände löschen (etwa in einem privaten Fenster oder bei Platzmangel).",
    stopped: "Das Spiel ist stehen geblieben. Bitte die Seite neu laden.",
    loading: "Lade…",
  },
  en: {
    busy: "This game is open in another tab.",
    take: "Play here",
    guest: "This browser's game is open in another tab: only the online room runs here, nothing is saved here.",
    takeGame: "Take the game here",
    lost: "The game was taken over in another tab; nothing is saved here any more.",
    retake: "Play on here",
    blocked: "The browser gives this page no storage: the game plays, but nothing is kept.",
    full: "The browser's storage is full: new states are not saved, the last saved one stays.",
    fleeting: "The browser may delete these saves (in a private window, say, or when space runs low).",
    stopped: "The game stopped. Please reload the page.",
    loading: "Loading…",
  },
};
const page = window.ztPage; // index.html's inline script: the layout and the page's texts
let lang = page.lang;

function say(key) {
  return (SAY[lang] || SAY.de)[key];
}

const notices = document.getElementById("notices");
const shown = new Map(); // notice key -> its element

function notice(key, action, onAction) {
  // show the notice `key` (once), with a button `action` when given
  if (shown.has(key)) return;
  const box = make("p", null, { "data-notice": key });
  box.append(make("span", say(key)));
  if (action) {
    const button = make("button", say(action), { type: "button", "data-say": action });
    button.addEventListener("click", () => onAction(button));
    box.append(" ", button);
  }
  shown.set(key, box);
  notices.append(box);
}

function unnotice(key) {
  shown.get(key)?.remove();
  shown.delete(key);
}

function relabel() {
  // the notices again in the language now chosen
  for (const [key, box] of shown) {
    box.firstChild.textContent = say(key);
    const button = box.querySelector("button");
    if (button) button.textContent = say(button.dataset.say);
  }
}

function ticks() {
  return Math.floor(performance.now()) & TICKS_MASK;
}

function random(n) {
  // n random bytes as hex for engine.dice.ByteDice (webhost.start unhexlifies)
  const bytes = new Uint8Array(n);
  crypto.getRandomValues(bytes);
  let out = "";
  for (const b of bytes) out += (b < 16 ? "0" : "") + b.toString(16);
  return out;
}

function unpack(buffer, FS) {
  // game.bin: "ZTWB", then per file a u16 name length, the name, a u32 size and the bytes
  const view = new DataView(buffer);
  const bytes = new Uint8Array(buffer);
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (magic !== "ZTWB") throw new Error("game.bin is not a game bundle");
  const decoder = new TextDecoder();
  const made = new Set();
  let at = 4;
  while (at < bytes.length) {
    const nameLen = view.getUint16(at, true);
    const name = decoder.decode(bytes.subarray(at + 2, at + 2 + nameLen));
    at += 2 + nameLen;
    const size = view.getUint32(at, true);
    at += 4;
    const dir = "/" + name.slice(0, name.lastIndexOf("/"));
    if (!made.has(dir)) {
      FS.mkdirTree(dir);
      made.add(dir);
    }
    FS.writeFile("/" + name, bytes.subarray(at, at + size));
    at += size;
  }
}

function fitScale() {
  // the canvas as index.html sized it: whole device pixels per game pixel
  page.size();
  scale = canvas.width / width;
  ctx = canvas.getContext("2d");
  ctx.imageSmoothingEnabled = false;
}

function draw() {
  // MONO_VLSB: byte (y >> 3) * width + x, bit y & 7; read 4 bytes at a time
  const n = (width * height) >> 3;
  const aligned = (addr & 3) === 0;
  for (let i = 0; i < n; i += aligned ? 4 : 1) {
    let word = aligned ? module.getValue(addr + i, "i32") : module.getValue(addr + i, "i8") & 0xff;
    const count = aligned ? 4 : 1;
    for (let k = 0; k < count; k++) {
      const byte = word & 0xff;
      word >>>= 8;
      const j = i + k;
      const x = j % width;
      const y0 = (j - x) / width * 8;
      for (let bit = 0; bit < 8; bit++) {
        pixels[(y0 + bit) * width + x] = (byte >> bit) & 1 ? ON32 : OFF32;
      }
    }
  }
  smallCtx.putImageData(image, 0, 0);
  ctx.drawImage(small, 0, 0, width * scale, height * scale);
}

const ON32 = (255 << 24) | (ON[2] << 16) | (ON[1] << 8) | ON[0];
const OFF32 = (255 << 24) | (OFF[2] << 16) | (OFF[1] << 8) | OFF[0];

function tick() {
  // one app step with the buttons held now; a redraw when the frame changed
  if (ticking) return;
  lastTick = performance.now();
  let changed;
  ticking = true;
  try {
    changed = step(ticks(), held);
    if (online) online.pump(); // what the online screens asked for
  } catch (e) {
    fatal(e);
    return;
  } finally {
    ticking = false;
  }
  seen |= held;
  if (pendingUp) {
    held &= ~pendingUp;
    pendingUp = 0;
  }
  if (changed) {
    draw();
    textSoon();
  }
  if (pressAt !== null) {
    zt.presses.push(performance.now() - pressAt);
    if (zt.presses.length > 200) zt.presses.shift();
    pressAt = null;
  }
}

function loop() {
  tick();
  requestAnimationFrame(loop);
}

// Every press and every release lasts at least EDGE_MS for the app, and a
// step sees each state after it has lasted that long: firmware.buttons
// ignores a button's changes for 20 ms after each counted one (its
// debounce), so a quick release-and-press, or a step delayed by a busy
// page, would otherwise lose a press. `want` is what the person does;
// `apply` brings `held` to it, edge by edge, in time.
const EDGE_MS = 25;
const edgeAt = {}; // button -> performance.now() of its last press or release
const later = {}; // button -> a pending apply
let want = 0; // bits of the buttons the person holds now
const pressTime = {}; // button -> event time of its press (the press-to-canvas figure)
let lastTick = -Infinity; // performance.now() of the last step

function down(name, time) {
  if (online && online.joining) return; // the join form is the one interface (renderText)
  const bit = BITS[name];
  if (want & bit) return;
  want |= bit;
  pressTime[name] = time;
  apply(name);
}

function up(name) {
  const bit = BITS[name];
  if (!(want & bit)) return;
  want &= ~bit;
  apply(name);
}

function apply(name) {
  const bit = BITS[name];
  if (later[name] || (held & bit) === (want & bit)) return;
  const at = edgeAt[name] ?? -Infinity;
  const wait = at + EDGE_MS - performance.now();
  if (wait > 0) {
    later[name] = setTimeout(() => {
      later[name] = 0;
      apply(name);
    }, wait + 1);
    return;
  }
  if (lastTick < at + EDGE_MS) tick(); // a step sees the state before it ends
  edgeAt[name] = performance.now();
  if (want & bit) {
    held |= bit;
    seen &= ~bit;
    pendingUp &= ~bit;
    pressAt = pressTime[name];
    tick(); // answer the press now, not at the next frame
    document.querySelector(`[data-key="${name}"]`)?.classList.add("down");
  } else {
    if (seen & bit) held &= ~bit;
    else pendingUp |= bit; // a step has not seen it yet: it still counts
    tick();
    document.querySelector(`[data-key="${name}"]`)?.classList.remove("down");
  }
}

// ------------------------------------------------------------ text layer
// A readable copy of the screen (web/textlayer.py hears what the app
// draws): the title as a heading, the lines, a menu with its highlighted
// entry, the dice, and each button's name says what it does now. It is
// made again a moment after the frame last changed (not during the dice's
// tumble), in the game's language.

const WORDS = {
  de: {
    screen: "Bildschirm", lines: "Text", yourTurn: "Du bist dran!", dice: "Würfel",
    linkTitle: "Ein Raum-Link ist offen", linkOpen: "Was du mit dem Link tun kannst, steht im Bereich „Online“ darunter; das Spiel auf diesem Gerät wartet so lange.", aside: "Beiseitegelegt", menu: "Menü",
    picked: "gewählt", crossed: "zählt nicht", cursor: "Cursor", marked: "Tipp",
    table: "Tabelle", points: "%d Punkte", toMove: "am Zug", computer: "Computer", out: "ausgeschieden",
    current: "ausgewählt", keys: "Tasten", idle: "tut jetzt nichts", roomOpen: "Der Raum wird geöffnet",
    roomWait: "Das Spiel dieses Raums kommt gleich; das Spiel auf diesem Gerät wartet so lange.",
    UP: "hoch", DOWN: "runter", LEFT: "links", RIGHT: "rechts", A: "A", B: "B",
  },
  en: {
    screen: "Screen", lines: "Text", yourTurn: "Your turn!", dice: "Dice",
    linkTitle: "A room's link is open", linkOpen: "What you can do with the link is in the region “Online” below; the game on this device waits meanwhile.", aside: "Set aside", menu: "Menu",
    picked: "picked", crossed: "does not score", cursor: "cursor", marked: "tip",
    table: "Scores", points: "%d points", toMove: "to move", computer: "computer", out: "out",
    current: "selected", keys: "Keys", idle: "does nothing now", roomOpen: "Opening the room",
    roomWait: "The room's game comes in a moment; the game on this device waits meanwhile.",
    UP: "up", DOWN: "down", LEFT: "left", RIGHT: "right", A: "A", B: "B",
  },
};
const readout = document.getElementById("readout");
let textTimer = null;
let lastText = null;

function words(lang) {
  return WORDS[lang] || WORDS.de;
}

function make(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function textSoon() {
  clearTimeout(textTimer);
  textTimer = setTimeout(updateText, 90);
}

function updateText() {
  let json;
  try {
    json = host.text_json();
  } catch (e) {
    return; // the step's own failure path reports it
  }
  if (json === lastText) return;
  lastText = json;
  renderText(JSON.parse(json));
}

function idleButtons(w) {
  // every on-screen button says that it does nothing now
  for (const name of Object.keys(BITS)) {
    document.querySelector(`[data-key="${name}"]`)?.setAttribute("aria-label", w[name] + ": " + w.idle);
  }
}
idleButtons(words(lang)); // (until the game's first frame says what they do)

// A room's link (?room=) waits for online.js (linkWait) before anything
// of the local game is said: its join form, or the seat's room, comes first.
let linkWait = params.has("room");

function renderText(t) {
  if (t.lang !== lang) {
    lang = t.lang;
    safeSet("zt-lang", lang);
    page.apply(lang);
    relabel();
  }
  const w = words(t.lang);
  const parts = [];
  if ((online && online.joining) || (!online && linkWait)) {
    // one interface at a time: while a room's link is open, the join form
    // (region "Online") is what there is to do; the local game waits
    parts.push(make("h2", w.linkTitle));
    parts.push(make("p", w.linkOpen));
    readout.replaceChildren(...parts);
    idleButtons(w);
    return;
  }
  if (online && online.code && !online.state && t.menu && !t.dice.length) {
    // this browser's seat in the link's room: its game, not the local
    // title, is the first thing said (the room's state is on its way)
    parts.push(make("h2", w.roomOpen));
    parts.push(make("p", w.roomWait));
    readout.replaceChildren(...parts);
    idleButtons(w);
    return;
  }
  if (t.title) parts.push(make("h2", t.title));
  const st = online && online.code ? online.state : null;
  if (st && st.status === "playing" && online.mine(st) && t.dice !== undefined) {
    parts.push(make("p", w.yourTurn)); // a room's game: said, not only hinted by "A: los"
  }
  const away = st && t.dice !== undefined ? online.awayNote(st) : null;
  if (away) parts.push(make("p", away)); // the status line's "weg 12s, PC in 28s" in words
  for (const text of t.paragraphs || []) parts.push(make("p", text)); // a help page, whole
  if (t.lines.length) {
    const ul = make("ul", null, { "aria-label": w.lines });
    for (const line of t.lines) {
      ul.append(make("li", line.selected ? line.text + " (" + w.current + ")" : line.text));
    }
    parts.push(ul);
  }
  if (t.menu) {
    const ul = make("ul", null, { "aria-label": w.menu });
    t.menu.items.forEach((item, i) => {
      const li = make("li", i === t.menu.index ? item + " (" + w.current + ")" : item);
      if (i === t.menu.index) li.setAttribute("aria-current", "true");
      ul.append(li);
    });
    parts.push(ul);
  }
  if (t.table) {
    // the whole table (before the dice, which a reader takes last): every
    // seat's score, who is a computer, who is to move
    const ol = make("ol", null, { "aria-label": w.table });
    for (const seat of t.table) {
      const says = [seat.name + (seat.computer ? " (" + w.computer + ")" : "") + ": " + w.points.replace("%d", seat.score)];
      if (seat.current) says.push(w.toMove);
      if (!seat.active) says.push(w.out);
      ol.append(make("li", says.join(", ")));
    }
    parts.push(ol);
  }
  if (t.dice.length) {
    const ol = make("ol", null, { "aria-label": w.dice });
    for (const d of t.dice) {
      const says = [String(d.value)];
      if (d.picked) says.push(w.picked);
      if (d.crossed) says.push(w.crossed);
      if (d.marked) says.push(w.marked);
      if (d.cursor) says.push(w.cursor);
      ol.append(make("li", says.join(", ")));
    }
    parts.push(ol);
  }
  if (t.aside.length) {
    parts.push(make("p", w.aside + ": " + t.aside.join(" ")));
  }
  const said = [];
  for (const name of Object.keys(BITS)) {
    const action = t.keys[name];
    const label = w[name] + ": " + (action || w.idle); // (a button that does nothing says so)
    const button = document.querySelector(`[data-key="${name}"]`);
    if (button) button.setAttribute("aria-label", label);
    if (action) said.push(label);
  }
  if (said.length) parts.push(make("p", w.keys + ": " + said.join(", ")));
  readout.replaceChildren(...parts);
}

function fatal(e) {
  console.error(e);
  zt.errors.push(String(e));
  status.textContent = say("stopped") + " (" + e + ")";
  step = () => false;
}

// A first visit (nothing saved, no language chosen) plays in the browser's language.
const firstVisit = safeGet("zt-lang") === null && safeGet("zt/settings") === null;
for (const button of document.querySelectorAll("[data-lang]")) {
  button.addEventListener("click", () => {
    const chosen = button.dataset.lang;
    if (zt.ready && host.set_lang(chosen)) {
      tick();
      updateText();
    } else if (!zt.ready) {
      lang = chosen;
      safeSet("zt-lang", lang);
      page.apply(lang);
      relabel();
    }
  });
}

const storage = new GuardedStorage(backing, {
  full: () => notice("full"),
  stale: () => lost(),
});
let port = null; // the MicroPython port with the game unpacked (load)
let started = 0;

function fetchBundle(name) {
  return fetch(name).then((r) => {
    if (!r.ok) throw new Error(name + ": " + r.status);
    return r.arrayBuffer();
  });
}

async function load() {
  // the port and the title's modules, fetched at once
  started = performance.now();
  const bundle = fetchBundle("game.bin");
  mp = await loadMicroPython({
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
  });
  unpack(await bundle, mp.FS);
  zt.unpackedMs = performance.now() - started;
  // everything the title needs is in: the rest comes while it starts
  loadMore();
  loadOnline();
  mp.runPython("import sys\nsys.path.insert(0, '/app')");
  return mp;
}

let more = null; // more.bin unpacked (loadMore)

function loadMore() {
  // the other modules and the tables, fetched once the title's are in
  // (load), unpacked once the port is ready
  if (!more) {
    const fetched = fetchBundle("more.bin");
    more = port.then(() => fetched).then((buffer) => {
      unpack(buffer, mp.FS);
      zt.moreMs = performance.now() - started;
    });
  }
  return more;
}

let onlineModule = null; // online.js, served by the room server only (loadOnline)

function makeOnline(mod, pyHost) {
  // the room's side of the page; `pyHost` null: made before the game runs
  // (a room's link), it talks to the game once attached (run)
  const retext = () => { lastText = null; if (host) updateText(); }; // the join form came or went
  return new mod.Online({ host: pyHost, storage: backing, lang: () => lang, redraw: () => zt.ready && tick(), retext });
}

if (linkWait) {
  // a room's link: its panel (the join form) as soon as online.js is in,
  // before the port and the title; no online.js (a static host): the title
  loadOnline().then((mod) => {
    if (mod && !online) online = makeOnline(mod, null);
    if (!mod) linkWait = false;
    if (host) { lastText = null; updateText(); }
  }).catch(() => { linkWait = false; });
}

function loadOnline() {
  if (!onlineModule) onlineModule = served.then((net) => (net ? import("./online.js") : null));
  return onlineModule;
}

function start(net) {
  // the title, or a reload's turn (which needs more.bin first)
  const turn = takeTurn();
  return turn ? loadMore().then(() => run(net, turn)) : run(net, null);
}

function begin() {
  // this tab owns the game: start it (the port loaded meanwhile)
  unnotice("busy");
  Promise.all([port, served]).then(([, net]) => start(net)).catch(fatal);
}

const TURN_KEY = "zt-turn"; // a local turn's picked dice across a reload (this tab only)

function keepTurn() {
  // the page goes (a reload, a closed tab): the local turn's picks, for a reload
  if (!host || !zt.ready) return;
  try {
    const turn = host.turn_json();
    if (turn) sessionStorage.setItem(TURN_KEY, turn);
    else sessionStorage.removeItem(TURN_KEY);
  } catch (e) {
    // no session storage: a reload lands on the title, as on the device
  }
}

function takeTurn() {
  // a turn kept by keepTurn (once): the reload goes back into it
  try {
    const turn = sessionStorage.getItem(TURN_KEY);
    sessionStorage.removeItem(TURN_KEY);
    return params.has("room") ? null : turn;
  } catch (e) {
    return null;
  }
}

addEventListener("pagehide", keepTurn);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") keepTurn();
});

function run(net, turn) {
  const webhost = mp.pyimport("webhost");
  host = webhost.start(board, storage, random, seed, ticks(), net, turn);
  step = host.step;
  module = mp._module;
  addr = host.address();
  width = host.width;
  height = host.height;
  small = document.createElement("canvas");
  small.width = width;
  small.height = height;
  smallCtx = small.getContext("2d");
  image = smallCtx.createImageData(width, height);
  pixels = new Uint32Array(image.data.buffer);
  fitScale();
  draw();
  zt.titleMs = performance.now();
  zt.bootMs = { start: started, unpacked: zt.unpackedMs, title: zt.titleMs - started };
  status.textContent = "";
  if (firstVisit) host.set_lang(lang); // the browser's language, not the device's default
  if (net) {
    // served by the room server: the intro names online play too
    document.querySelector("[data-say=intro]")?.setAttribute("data-say", "introOnline");
    page.apply(lang);
  }
  updateText();
  keepStorage(); // (its notice comes after the screen's copy: it moves nothing)
  // The title is on the screen; no step runs until the rest of the game
  // is in (a step may import any module): keys pressed meanwhile wait (input).
  const ours = step;
  const titleLang = lang;
  return Promise.all([loadMore(), loadOnline()]).then(([, mod]) => {
    if (step !== ours) return; // the game went to another tab meanwhile (lost)
    if (mod && online) online.attach(host); // (made early for a room's link: see linkWait)
    else if (mod) online = makeOnline(mod, host);
    linkWait = false;
    if (lang !== titleLang) host.set_lang(lang); // chosen while the rest came
    if (mod || lang !== titleLang) {
      lastText = null; // the screen's copy as it is now (a room's link, the language)
      updateText();
    }
    zt.readyMs = performance.now();
    readyForKeys(true);
    requestAnimationFrame(loop);
    for (const fn of early.splice(0)) fn(); // the presses made meanwhile
    loadMasters().then(offline);
  });
}

// Ready for keys: <html data-keys="ready"> once the app has drawn its
// first frame and every key goes straight to it (zt.ready), "off" once it
// stops taking them (the game went to another tab). Tests and agents wait
// for the attribute before they press anything: a press made earlier is
// queued (input) or, before the title, dropped.
function readyForKeys(on) {
  zt.ready = on;
  document.documentElement.dataset.keys = on ? "ready" : "off";
}

function loadMasters() {
  // the Master's tables (master.bin), after the title: only a Master seat reads them
  return port
    .then(() => fetch("master.bin"))
    .then((r) => {
      if (!r.ok) throw new Error("master.bin: " + r.status);
      return r.arrayBuffer();
    })
    .then((buffer) => {
      unpack(buffer, mp.FS);
      zt.mastersMs = performance.now() - started;
    })
    .catch((e) => console.warn("the Master's tables did not load:", e))
    .finally(() => (zt.mastersDone = true));
}

function offline() {
  // the service worker (sw.js) keeps everything for a reload without network
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("sw.js").catch((e) => {
    // the network went away before sw.js came (it is asked for after the
    // game's second bundle and the Master's tables): again once it is back
    console.warn("no offline copy yet:", e);
    window.addEventListener("online", offline, { once: true });
  });
}

function busy() {
  // another tab has the game: say so, and offer to take it over. A room's
  // link (?room=) needs no local game: the room lives on the server and
  // its seat token in localStorage, outside the lock. Such a tab runs
  // without the lock (a guest: every save refused, as in a stale tab) and
  // plays the room; when another tab plays the same seat, the server
  // closes the older connection and that page offers "play here" (online.js).
  served.then((net) => {
    status.textContent = "";
    if (net && params.has("room")) {
      notice("guest", "takeGame", (button) => {
        button.disabled = true;
        takeGame(storage, () => location.reload(), lost);
      });
      port.then(() => start(net)).catch(fatal);
      return;
    }
    notice("busy", "take", (button) => {
      button.disabled = true;
      takeGame(storage, begin, lost);
    });
  });
}

function lost() {
  // the game went to another tab: stop here, write nothing, offer it back.
  // A tab playing a room plays on (the room lives on the server, its seat
  // token outside the lock) as a guest: nothing of the local game is
  // saved here any more, and the notice says just that.
  if (online && online.code && zt.ready) {
    storage.lose();
    notice("guest", "takeGame", (button) => {
      button.disabled = true;
      takeGame(storage, () => location.reload(), lost);
    });
    return;
  }
  storage.lose();
  step = () => false;
  readyForKeys(false);
  for (const name of Object.keys(BITS)) document.querySelector(`[data-key="${name}"]`)?.classList.remove("down");
  notice("lost", "retake", (button) => {
    button.disabled = true;
    takeGame(storage, () => location.reload(), lost);
  });
}

function keepStorage() {
  // ask the browser to keep the saves; say so when it may not
  if (blocked) {
    notice("blocked");
    return;
  }
  const s = navigator.storage;
  if (!s || !s.persist) return;
  s.persisted()
    .then((kept) => kept || s.persist())
    .then((kept) => kept || notice("fleeting"))
    .catch(() => notice("fleeting"));
}

// tests: the frame as text rows ('#' lit, '.' dark), read back from the canvas
zt.rows = () => {
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  const rows = [];
  for (let y = 0; y < height; y++) {
    let row = "";
    for (let x = 0; x < width; x++) {
      const i = (((y * scale + (scale >> 1)) * canvas.width) + x * scale + (scale >> 1)) * 4;
      const r = data[i], g = data[i + 1], b = data[i + 2];
      row += r === ON[0] && g === ON[1] && b === ON[2] ? "#" :
        r === OFF[0] && g === OFF[1] && b === OFF[2] ? "." : "?";
    }
    rows.push(row);
  }
  return rows;
};
zt.state = () => JSON.parse(host.state_json());
zt.host = () => host; // tests reach into the Python side (e.g. to break the app)
zt.draw = () => draw(); // and time the frame copy

function onButton(e) {
  // a key for the page, not the game: Enter or Space on a focused button or
  // link clicks it, and a select or a text field keeps all its keys
  const target = e.target.closest?.("button, a, select, input, textarea");
  if (!target) return false;
  if (target.matches("select, input, textarea")) return true;
  return e.key === "Enter" || e.key === " ";
}

// Presses between the title and the page taking keys (more.bin on its
// way): kept, and played in order once it does (run).
const early = [];

function input(fn) {
  if (zt.ready) fn();
  else if (zt.titleMs !== null) early.push(fn);
}

window.addEventListener("keydown", (e) => {
  if (onButton(e)) return;
  const name = KEYS[e.key];
  if (!name || zt.titleMs === null || e.ctrlKey || e.metaKey || e.altKey) return;
  e.preventDefault();
  if (!e.repeat) input(() => down(name, e.timeStamp));
});
window.addEventListener("keyup", (e) => {
  if (onButton(e)) return;
  const name = KEYS[e.key];
  if (!name || zt.titleMs === null) return;
  e.preventDefault();
  input(() => up(name));
});
window.addEventListener("blur", () => {
  for (const name of Object.keys(BITS)) up(name); // no key stays held behind our back
});
window.addEventListener("resize", () => {
  if (zt.ready) {
    fitScale();
    draw();
  }
});
for (const el of document.querySelectorAll("[data-key]")) {
  const name = el.dataset.key;
  el.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    el.setPointerCapture(e.pointerId);
    input(() => down(name, e.timeStamp));
  });
  for (const type of ["pointerup", "pointercancel"]) {
    el.addEventListener(type, (e) => {
      e.preventDefault();
      input(() => up(name));
    });
  }
  el.addEventListener("contextmenu", (e) => e.preventDefault());
  el.addEventListener("click", (e) => {
    // a click that no pointer press made (Enter, Space, a screen reader):
    // one press and release, queued behind the clicks before it
    if (e.detail !== 0) return;
    input(() => {
      clicks.push(name);
      if (clicks.length === 1) nextClick();
    });
  });
}

// Clicks are played one after the other, each held and then let go for
// longer than the buttons' debounce (firmware.buttons.DEBOUNCE_MS, 20 ms):
// fast clicks of one button would otherwise fall into its lockout.
const CLICK_MS = 40;
const clicks = [];

function nextClick() {
  const name = clicks[0];
  if (name === undefined) return;
  down(name, performance.now());
  setTimeout(() => {
    up(name);
    setTimeout(() => {
      clicks.shift();
      nextClick();
    }, CLICK_MS);
  }, CLICK_MS);
}
// Direct touch on the screen: a tap on a die picks it (the cursor goes
// there, then A), on a menu row chooses it (the highlight goes there, then
// A), on an action of the hint line does it ("↑ würfeln": UP). The page
// only maps the tap to presses of the pad, queued as clicks are; the app
// decides what they do. Where a tap lands comes with the text layer
// (web/textlayer.py: `taps`), in the game's pixels.
function tapPresses(gx, gy) {
  let t;
  try {
    t = JSON.parse(host.text_json());
  } catch (e) {
    return [];
  }
  const taps = t.taps || {};
  const line = taps.line || 8;
  if (gy >= height - line - 2) { // the hint line
    for (const [x0, x1, key] of taps.hint || []) {
      if (gx >= x0 - 2 && gx <= x1 + 2) return [key];
    }
    return [];
  }
  const cursor = t.dice.findIndex((d) => d.cursor);
  if (cursor >= 0) { // dice to pick: the way to the tapped one, then A
    const n = t.dice.length;
    const hit = (taps.dice || []).findIndex(([x, y, size]) => gx >= x - 1 && gx < x + size + 1 && gy >= y - 2 && gy < y + size + 4);
    if (hit < 0) return [];
    const right = (hit - cursor + n) % n;
    const moves = right <= n - right ? Array(right).fill("RIGHT") : Array(n - right).fill("LEFT");
    return [...moves, "A"];
  }
  const rows = taps.rows;
  if (t.menu && rows && rows.line) { // a menu row: the highlight there, then A
    const k = Math.floor((gy - (rows.y - 1)) / rows.line);
    if (k < 0 || k >= rows.shown) return [];
    const row = rows.first + k;
    const step = row - t.menu.index;
    return [...Array(Math.abs(step)).fill(step > 0 ? "DOWN" : "UP"), "A"];
  }
  return [];
}

canvas.addEventListener("click", (e) => {
  if (!zt.ready || !width) return;
  const rect = canvas.getBoundingClientRect();
  const gx = ((e.clientX - rect.left) / rect.width) * width;
  const gy = ((e.clientY - rect.top) / rect.height) * height;
  const presses = tapPresses(gx, gy);
  zt.taps = (zt.taps || 0) + 1;
  const idle = clicks.length === 0;
  clicks.push(...presses);
  if (idle && presses.length) nextClick();
});

const select = document.getElementById("layout");
select.value = board;
select.addEventListener("change", () => {
  safeSet("zt-board", select.value);
  params.set("board", select.value);
  location.search = params.toString(); // a new app of that size; the game resumes from its save
});

window.addEventListener("storage", (e) => {
  // another tab claimed the game (or cleared the storage): this one is stale
  if (e.key === OWNER && storage.owning && e.newValue !== storage.id) storage.lose();
});

status.textContent = say("loading");
port = load();
port.catch(fatal);
ownGame(storage, begin, busy, lost);
