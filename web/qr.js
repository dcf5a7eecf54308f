// A QR code encoder (ISO/IEC 18004) for the invite link: byte mode,
// error correction level M, the smallest version 1..40 the text fits, the
// mask with the lowest penalty, format and version information.
//
// qrMatrix(text) gives the modules as an array of rows of booleans (true =
// dark), without the quiet zone; qrSvg(text, label) an <svg> of it with the
// quiet zone, role="img" and the accessible name `label`.
//
// Text that is not plain ASCII is sent as UTF-8 behind an ECI header
// (designator 26), so that readers need not guess the character set.

// Level M, for versions 1..40: error correction codewords per block and the
// number of blocks (the standard's table 9).
const ECC_PER_BLOCK = [
  10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
  26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
];
const BLOCKS = [
  1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
  17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
];
const LEVEL_M = 0; // the two bits of level M in the format information
const FORMAT_MASK = 0x5412;
const FORMAT_POLY = 0x537; // BCH(15,5) generator
const VERSION_POLY = 0x1f25; // BCH(18,6) generator
const MODE_BYTE = 0b0100;
const MODE_ECI = 0b0111;
const ECI_UTF8 = 26;

// ------------------------------------------------------------ GF(256), polynomial 0x11D

const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
(function tables() {
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
})();

function mul(a, b) {
  return a && b ? EXP[LOG[a] + LOG[b]] : 0;
}

function generator(degree) {
  // the Reed-Solomon generator (x - a^0)(x - a^1)...(x - a^(degree-1)),
  // highest coefficient first, the leading 1 left out
  let poly = [1];
  for (let i = 0; i < degree; i++) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j++) {
      next[j] ^= poly[j];
      next[j + 1] ^= mul(poly[j], EXP[i]);
    }
    poly = next;
  }
  return poly.slice(1);
}

function remainder(data, gen) {
  // the error correction codewords: data * x^n mod gen
  const rest = new Array(gen.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ rest.shift();
    rest.push(0);
    for (let i = 0; i < gen.length; i++) rest[i] ^= mul(gen[i], factor);
  }
  return rest;
}

// ------------------------------------------------------------ sizes

function rawModules(version) {
  // the modules left for data and error correction in a symbol of `version`
  let n = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    n -= (25 * align - 10) * align - 55;
    if (version >= 7) n -= 36;
  }
  return n;
}

function dataCodewords(version) {
  const v = version - 1;
  return Math.floor(rawModules(version) / 8) - ECC_PER_BLOCK[v] * BLOCKS[v];
}

function alignmentCentres(version) {
  // the rows (and columns) of the alignment patterns' centres
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = version === 32 ? 26 : Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
  const out = [6];
  for (let pos = size - 7; out.length < count; pos -= step) out.splice(1, 0, pos);
  return out;
}

// ------------------------------------------------------------ the bit stream

class Bits {
  constructor() {
    this.bits = [];
  }
  put(value, length) {
    for (let i = length - 1; i >= 0; i--) this.bits.push((value >>> i) & 1);
  }
}

function codewords(bytes, eci) {
  // the data codewords: header, bytes, terminator and padding, in the
  // smallest version they fit; {version, data}
  for (let version = 1; version <= 40; version++) {
    const capacity = dataCodewords(version) * 8;
    const countBits = version < 10 ? 8 : 16;
    const need = (eci ? 12 : 0) + 4 + countBits + 8 * bytes.length;
    if (need > capacity) continue;
    const out = new Bits();
    if (eci) {
      out.put(MODE_ECI, 4);
      out.put(ECI_UTF8, 8);
    }
    out.put(MODE_BYTE, 4);
    out.put(bytes.length, countBits);
    for (const b of bytes) out.put(b, 8);
    out.put(0, Math.min(4, capacity - out.bits.length));
    out.put(0, (8 - (out.bits.length % 8)) % 8);
    for (let pad = 0xec; out.bits.length < capacity; pad ^= 0xec ^ 0x11) out.put(pad, 8);
    const data = [];
    for (let i = 0; i < out.bits.length; i += 8) {
      let byte = 0;
      for (let j = 0; j < 8; j++) byte = (byte << 1) | out.bits[i + j];
      data.push(byte);
    }
    return { version, data };
  }
  throw new RangeError("too long for a QR code: " + bytes.length + " bytes");
}

function interleave(version, data) {
  // split into blocks, add each block's error correction, interleave
  const v = version - 1;
  const blocks = BLOCKS[v];
  const ecc = ECC_PER_BLOCK[v];
  const total = Math.floor(rawModules(version) / 8);
  const shortLen = Math.floor(total / blocks) - ecc; // data codewords of a short block
  const shortCount = blocks - (total % blocks);
  const gen = generator(ecc);
  const parts = [];
  let at = 0;
  for (let i = 0; i < blocks; i++) {
    const len = shortLen + (i < shortCount ? 0 : 1);
    const block = data.slice(at, at + len);
    at += len;
    parts.push({ block, ecc: remainder(block, gen) });
  }
  const out = [];
  for (let i = 0; i <= shortLen; i++) {
    for (const p of parts) if (i < p.block.length) out.push(p.block[i]);
  }
  for (let i = 0; i < ecc; i++) for (const p of parts) out.push(p.ecc[i]);
  return out;
}

// ------------------------------------------------------------ the symbol

class QrSymbol {
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  set(x, y, dark) {
    // a function module (not data, never masked)
    this.dark[y][x] = dark;
    this.fixed[y][x] = true;
  }

  patterns() {
    const n = this.size;
    for (let i = 0; i < n; i++) {
      this.set(6, i, i % 2 === 0); // timing patterns
      this.set(i, 6, i % 2 === 0);
    }
    for (const [cx, cy] of [[3, 3], [n - 4, 3], [3, n - 4]]) {
      // finder patterns with their light separators
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx, y = cy + dy;
          if (x < 0 || y < 0 || x >= n || y >= n) continue;
          const ring = Math.max(Math.abs(dx), Math.abs(dy));
          this.set(x, y, ring !== 2 && ring !== 4);
        }
      }
    }
    const centres = alignmentCentres(this.version);
    const last = centres.length - 1;
    for (let i = 0; i <= last; i++) {
      for (let j = 0; j <= last; j++) {
        // not where a finder pattern is
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue;
        for (let dy = -2; dy <= 2; dy++) {
          for (let dx = -2; dx <= 2; dx++) {
            this.set(centres[i] + dx, centres[j] + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
          }
        }
      }
    }
    this.format(0); // reserves the format areas (written again with the mask)
    this.versionInfo();
  }

  format(mask) {
    const data = (LEVEL_M << 3) | mask;
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * FORMAT_POLY);
    const bits = ((data << 10) | rem) ^ FORMAT_MASK;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    const n = this.size;
    // around the top left finder
    for (let i = 0; i <= 5; i++) this.set(8, i, bit(i));
    this.set(8, 7, bit(6));
    this.set(8, 8, bit(7));
    this.set(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.set(14 - i, 8, bit(i));
    // the copy split between the other two finders
    for (let i = 0; i < 8; i++) this.set(n - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.set(8, n - 15 + i, bit(i));
    this.set(8, n - 8, true); // the dark module
  }

  versionInfo() {
    if (this.version < 7) return;
    let rem = this.version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * VERSION_POLY);
    const bits = (this.version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = this.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      this.set(a, b, dark);
      this.set(b, a, dark);
    }
  }

  place(stream) {
    // the codewords' bits in the zigzag of column pairs, from the bottom right
    const n = this.size;
    let i = 0;
    for (let right = n - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5; // the vertical timing pattern's column is skipped
      const upward = ((right + 1) & 2) === 0;
      for (let k = 0; k < n; k++) {
        const y = upward ? n - 1 - k : k;
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          if (this.fixed[y][x]) continue;
          if (i < stream.length * 8) this.dark[y][x] = ((stream[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          i++; // the remainder bits stay light
        }
      }
    }
  }

  flip(mask) {
    // apply the data mask `mask` (a second call undoes it)
    const n = this.size;
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        if (!this.fixed[y][x] && MASKS[mask](x, y)) this.dark[y][x] = !this.dark[y][x];
      }
    }
  }
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

// ------------------------------------------------------------ the mask's penalty

const FINDER_LIKE = [
  [true, false, true, true, true, false, true, false, false, false, false],
  [false, false, false, false, true, false, true, true, true, false, true],
];

function linePenalty(line) {
  // rule 1 (runs of five or more) and rule 3 (finder-like patterns) on one
  // row or column; beyond the edge counts as light (the quiet zone)
  let score = 0;
  let run = 1;
  for (let i = 1; i <= line.length; i++) {
    if (i < line.length && line[i] === line[i - 1]) run++;
    else {
      if (run >= 5) score += 3 + (run - 5);
      run = 1;
    }
  }
  const at = (i) => i >= 0 && i < line.length && line[i];
  for (let start = -4; start < line.length; start++) {
    for (const pattern of FINDER_LIKE) {
      if (pattern.every((dark, k) => at(start + k) === dark)) score += 40;
    }
  }
  return score;
}

function penalty(dark) {
  const n = dark.length;
  let score = 0;
  for (let y = 0; y < n; y++) score += linePenalty(dark[y]);
  for (let x = 0; x < n; x++) score += linePenalty(dark.map((row) => row[x]));
  let count = 0;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      if (dark[y][x]) count++;
      if (x + 1 < n && y + 1 < n) {
        const c = dark[y][x];
        if (dark[y][x + 1] === c && dark[y + 1][x] === c && dark[y + 1][x + 1] === c) score += 3; // rule 2
      }
    }
  }
  // rule 4: 10 for every 5 % the dark share is away from half
  score += 10 * Math.floor(Math.abs(count * 20 - n * n * 10) / (n * n));
  return score;
}

// ------------------------------------------------------------ the public names

/**
 * The QR code of `text` (level M, byte mode): rows of booleans, dark = true.
 * `mask` (0..7) forces that data mask; without it the lowest penalty wins.
 */
export function qrMatrix(text, mask) {
  const bytes = new TextEncoder().encode(text);
  const eci = bytes.some((b) => b >= 0x80);
  const { version, data } = codewords(bytes, eci);
  const symbol = new QrSymbol(version);
  symbol.patterns();
  symbol.place(interleave(version, data));
  let best = mask;
  if (best === undefined) {
    let lowest = Infinity;
    for (let m = 0; m < 8; m++) {
      symbol.flip(m);
      symbol.format(m);
      const score = penalty(symbol.dark);
      if (score < lowest) {
        lowest = score;
        best = m;
      }
      symbol.flip(m);
    }
  }
  symbol.flip(best);
  symbol.format(best);
  return symbol.dark;
}

const QUIET = 4; // modules of light border the standard asks for

/** An <svg> of the QR code of `text` with the accessible name `label`. */
export function qrSvg(text, label) {
  const rows = qrMatrix(text);
  const side = rows.length + 2 * QUIET;
  let path = "";
  rows.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x + QUIET} ${y + QUIET}h1v1h-1z`;
    });
  });
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  const title = document.createElementNS(ns, "title");
  title.textContent = label;
  const back = document.createElementNS(ns, "rect");
  back.setAttribute("width", String(side));
  back.setAttribute("height", String(side));
  back.setAttribute("fill", "#fff");
  const modules = document.createElementNS(ns, "path");
  modules.setAttribute("d", path);
  modules.setAttribute("fill", "#000");
  svg.append(title, back, modules);
  return svg;
}
