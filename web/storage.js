// Where the page keeps the game: the browser's localStorage behind a guard.
//
// webhost.KeyFS calls getItem, setItem, removeItem, key(i) and length on
// the object made here. A JavaScript exception must never cross into the
// port (it would stop the whole step), so every call is caught here and a
// failed write comes back as a number: ENOSPC (28) when the browser's quota
// is used up, which firmware.store turns into its "could not save" path
// (the last good save stays), EACCES (13) when this tab may no longer write.
//
// One tab owns the game. The owner holds the Web Lock "zt-game" and writes
// its random id under OWNER; before each write the guard checks that the
// id is still its own, so a tab whose game was taken over elsewhere never
// overwrites the newer save, even before it hears that it lost the lock.
//
// Blocked storage (site data off: even reading localStorage throws a
// SecurityError) gives a MemoryStorage: the game plays, nothing is kept.

export const ENOSPC = 28;
export const EACCES = 13;
export const OWNER = "zt-owner";
export const LOCK = "zt-game";

export class MemoryStorage {
  // localStorage's interface over a Map, for a page that may keep nothing
  constructor() {
    this.map = new Map();
  }
  getItem(key) {
    return this.map.has(key) ? this.map.get(key) : null;
  }
  setItem(key, value) {
    this.map.set(key, String(value));
  }
  removeItem(key) {
    this.map.delete(key);
  }
  key(i) {
    return [...this.map.keys()][i] ?? null;
  }
  get length() {
    return this.map.size;
  }
}

export function openBacking() {
  // {backing, blocked}: localStorage when the browser lets the page use it
  try {
    const backing = window.localStorage;
    backing.getItem(OWNER);
    return { backing, blocked: false };
  } catch (e) {
    return { backing: new MemoryStorage(), blocked: true };
  }
}

function isQuota(e) {
  return e && (e.name === "QuotaExceededError" || e.code === 22 || e.code === 1014);
}

export class GuardedStorage {
  // what KeyFS gets; `events.full()` and `events.stale()` tell the page
  constructor(backing, events) {
    this.backing = backing;
    this.events = events;
    this.id = crypto.getRandomValues(new Uint32Array(2)).join("-");
    this.owning = false; // this tab owns the game (claim)
    this.stale = false; // the game went to another tab: no write from here
    this.tokenless = false; // the id could not be written (full): the lock alone guards
  }

  claim() {
    // this tab owns the game from now on
    this.owning = true;
    this.stale = false;
    try {
      this.backing.setItem(OWNER, this.id);
      this.tokenless = false;
    } catch (e) {
      this.tokenless = true;
    }
  }

  mine() {
    // true while this tab may write
    if (this.stale || !this.owning) return false;
    if (this.tokenless) return true;
    let owner = null;
    try {
      owner = this.backing.getItem(OWNER);
    } catch (e) {
      return true; // cannot tell: the lock still guards
    }
    if (owner === null || owner === this.id) return true; // (null: storage was cleared)
    this.lose();
    return false;
  }

  lose() {
    // another tab took the game: from now on nothing is written here
    if (this.stale) return;
    this.stale = true;
    this.events.stale();
  }

  getItem(key) {
    try {
      return this.backing.getItem(key);
    } catch (e) {
      return null;
    }
  }

  setItem(key, value) {
    if (!this.mine()) return EACCES;
    try {
      this.backing.setItem(key, value);
      return 0;
    } catch (e) {
      if (isQuota(e)) {
        this.events.full();
        return ENOSPC;
      }
      return EACCES;
    }
  }

  removeItem(key) {
    if (!this.mine()) return EACCES;
    try {
      this.backing.removeItem(key);
    } catch (e) {
      return EACCES;
    }
    return 0;
  }

  key(i) {
    try {
      return this.backing.key(i);
    } catch (e) {
      return null;
    }
  }

  get length() {
    try {
      return this.backing.length;
    } catch (e) {
      return 0;
    }
  }
}

export function ownGame(storage, onOwned, onBusy, onLost) {
  // Take the game's lock when it is free: onOwned(); else onBusy(). Without
  // Web Locks the tab owns it at once (the id check still keeps a stale tab
  // from writing).
  if (!navigator.locks) {
    storage.claim();
    onOwned();
    return;
  }
  navigator.locks
    .request(LOCK, { ifAvailable: true }, (lock) => {
      if (!lock) {
        onBusy();
        return null;
      }
      storage.claim();
      onOwned();
      return new Promise(() => {}); // held while the page lives
    })
    .catch(() => onLost()); // stolen by a tab that took the game over
}

export function takeGame(storage, onOwned, onLost) {
  // Take the game from the tab that has it (its lock is stolen)
  const owned = () => {
    storage.claim();
    onOwned();
  };
  if (!navigator.locks) {
    owned();
    return;
  }
  navigator.locks
    .request(LOCK, { steal: true }, () => {
      owned();
      return new Promise(() => {});
    })
    .catch(() => onLost());
}
