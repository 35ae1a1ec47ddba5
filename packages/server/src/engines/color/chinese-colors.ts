/**
 * Chinese traditional colour names (中国传统色) with their sRGB values: lookup by name and nearest name to a colour.
 * The table ships as `data/chinese-colors.json` (see `data/README.md`). Pure module: no HTTP framework here.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { converter, convertRgbToXyz65, convertXyz65ToLab65, type Color } from 'culori';
import { readDataJson } from '../../data-files.js';
import { ciede2000, lightnessBound, type Lab } from './ciede2000.js';

export interface ChineseColor {
  name: string;
  pinyin: string;
  /** `#RRGGBB`, upper case. */
  hex: string;
  /** Other names for the same colour (e.g. 葱倩 for 葱青). */
  aliases?: string[];
}

export interface ChineseColorMatch extends ChineseColor {
  /** CIEDE2000 colour difference between the colour asked about and this one (0 = identical). */
  deltaE: number;
}

/**
 * A name is given only when the colour is within this CIEDE2000 difference of a table colour. ΔE00 ≈ 1 is the
 * smallest difference most people can see side by side; up to ~5 two swatches still read as "the same colour, a
 * slightly different shade". Beyond that a name would mislead, so none is given.
 */
export const NAME_THRESHOLD = 5;

// CIELAB under D65, sRGB's own white point (what culori's differenceCiede2000 measures in).
const toLab = converter('lab65');
const toRgb = converter('rgb');

function load(): ChineseColor[] {
  const url = new URL('../../../../../data/chinese-colors.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as ChineseColor[];
}

export const CHINESE_COLORS: readonly ChineseColor[] = load();

const LABS = CHINESE_COLORS.map((c) => toLab(c.hex)!);
/** Every table index, in order: the candidates of a colour off the 8-bit grid. */
const ALL = Uint8Array.from(CHINESE_COLORS, (_, i) => i);

const BY_NAME = new Map<string, ChineseColor>();
for (const c of CHINESE_COLORS) {
  BY_NAME.set(c.name, c);
  for (const a of c.aliases ?? []) BY_NAME.set(a, c);
}

/** The colour called `name`; `樱桃` finds `樱桃色`, and `赭色` and `赭` stay two different colours. */
export function chineseColorByName(name: string): ChineseColor | undefined {
  const n = name.trim();
  return BY_NAME.get(n) ?? BY_NAME.get(`${n}色`) ?? (n.endsWith('色') ? BY_NAME.get(n.slice(0, -1)) : undefined);
}

/**
 * The sRGB cube in blocks of 8×8×8 colours, 32 along each channel. `data/chinese-color-blocks.json` lists for each
 * block every table colour that is the answer for at least one of its 512 colours (built by
 * `scripts/build-chinese-color-blocks.ts` with nearestMatch over all of them).
 */
const BLOCK_BITS = 3;
export const BLOCK_SIZE = 1 << BLOCK_BITS;
export const BLOCKS_PER_SIDE = 256 / BLOCK_SIZE;

/** The block of an 8-bit colour: red major, then green, then blue (the block file's order). */
export const blockOf = (r: number, g: number, b: number): number =>
  ((r >> BLOCK_BITS) * BLOCKS_PER_SIDE + (g >> BLOCK_BITS)) * BLOCKS_PER_SIDE + (b >> BLOCK_BITS);

/** What the block file must have been built from: the threshold and the table's colours, in order. */
export function blocksFingerprint(): string {
  const source = `${NAME_THRESHOLD}\n${CHINESE_COLORS.map((c) => c.hex).join('\n')}`;
  return createHash('sha256').update(source).digest('hex').slice(0, 32);
}

export interface ColorBlocksFile {
  fingerprint: string;
  blockSize: number;
  /** One row per (r, g) block pair, r major: the 32 blocks along blue, each the list of its answers' indices. */
  blocks: number[][][];
}

/** The blocks as two flat arrays (block i's answers are list[start[i]] … list[start[i + 1] − 1]). */
interface Blocks {
  start: Uint32Array;
  list: Uint8Array;
}

function loadBlocks(): Blocks | undefined {
  const file = readDataJson<ColorBlocksFile>('chinese-color-blocks.json');
  // No file, or a table edited without rebuilding it: every colour is searched in full (slower, still right).
  if (!file || file.fingerprint !== blocksFingerprint() || file.blockSize !== BLOCK_SIZE) return undefined;
  const lists = file.blocks.flat();
  if (lists.length !== BLOCKS_PER_SIDE ** 3) return undefined;
  const start = new Uint32Array(lists.length + 1);
  lists.forEach((l, i) => {
    start[i + 1] = start[i] + l.length;
  });
  return { start, list: Uint8Array.from(lists.flat()) };
}

/** Loaded at the first name asked for (null: no usable file), not at start. */
let blocks: Blocks | null | undefined;
const blocksOf = () => (blocks === undefined ? (blocks = loadBlocks() ?? null) : blocks);

/** true when the shipped block file matches the table and is in use (checked by the tests). */
export const blocksInUse = () => blocksOf() !== null;

/**
 * The table colour nearest to `lab` by CIEDE2000 among `candidates` (ascending indices) and its difference, or
 * undefined when none is within `threshold`. Ties go to the lower index. A lower bound of ΔE00 costs a few operations
 * (lightnessBound): a candidate that cannot be within the threshold, or cannot beat the best so far, is not measured.
 */
export function nearestMatch(
  lab: Lab,
  threshold: number,
  candidates: ArrayLike<number> = ALL,
): { index: number; deltaE: number } | undefined {
  let best = -1;
  let bestDelta = Infinity;
  for (let k = 0; k < candidates.length; k++) {
    const i = candidates[k];
    const bound = lightnessBound(lab.l, LABS[i].l);
    if (bound > threshold || bound >= bestDelta) continue;
    const d = ciede2000(lab, LABS[i]);
    if (d < bestDelta) {
      bestDelta = d;
      best = i;
    }
  }
  return bestDelta <= threshold ? { index: best, deltaE: bestDelta } : undefined;
}

/** The 0–255 value of an sRGB channel that lies on the 8-bit grid (as every `#rrggbb` colour does), else -1. */
function byteOf(channel: number): number {
  const v = channel * 255;
  const n = Math.round(v);
  return n >= 0 && n <= 255 && Math.abs(v - n) < 1e-9 ? n : -1;
}

/**
 * The XYZ (D65) share of each 8-bit value of each sRGB channel, as culori computes it: culori's XYZ is
 * `m0·r + m1·g + m2·b` (r, g, b linearised), summed left to right, and each term is the XYZ of that channel alone, so
 * adding the three shares in the same order gives culori's very numbers, without its three `Math.pow` calls.
 * Laid out as [channel][component][byte].
 */
const XYZ_SHARES = (['r', 'g', 'b'] as const).map((channel) => {
  const x = new Float64Array(256);
  const y = new Float64Array(256);
  const z = new Float64Array(256);
  for (let i = 0; i < 256; i++) {
    const share = convertRgbToXyz65({ r: 0, g: 0, b: 0, [channel]: i / 255 });
    x[i] = share.x;
    y[i] = share.y;
    z[i] = share.z;
  }
  return { x, y, z };
});

/** culori's `lab65` of the sRGB colour with these 8-bit channels (the same numbers; checked by the tests). */
export function labOfBytes(r: number, g: number, b: number): Lab {
  // culori zeroes a and b of a grey after converting (float error would give it a slight chroma): its own path.
  if (r === g && g === b) return toLab({ mode: 'rgb', r: r / 255, g: g / 255, b: b / 255 });
  const [R, G, B] = XYZ_SHARES;
  return convertXyz65ToLab65({
    x: R.x[r] + G.x[g] + B.x[b],
    y: R.y[r] + G.y[g] + B.y[b],
    z: R.z[r] + G.z[g] + B.z[b],
  });
}

/**
 * The nearest named colour by CIEDE2000, or null when none is within `threshold` (at most NAME_THRESHOLD).
 *
 * The answer is always that of measuring every table colour. A colour of the 8-bit grid (every hex colour, every
 * random-color) is measured only against its block's answers, so about half of them need no measurement at all
 * and the rest one or two; any other colour (e.g. `lab(…)` given to color-convert) is measured against all.
 */
export function nearestChineseColor(color: Color | string, threshold = NAME_THRESHOLD): ChineseColorMatch | null {
  if (!(threshold <= NAME_THRESHOLD)) throw new RangeError(`threshold must be at most ${NAME_THRESHOLD}`);
  const rgb = toRgb(color);
  if (!rgb) return null;
  const r = byteOf(rgb.r);
  const g = byteOf(rgb.g);
  const b = byteOf(rgb.b);
  if (r >= 0 && g >= 0 && b >= 0) return nearestChineseColorOfBytes(r, g, b, threshold);
  return matchOf(nearestMatch(toLab(rgb), threshold));
}

/** nearestChineseColor of the sRGB colour with these 8-bit channels (what random-color draws). */
export function nearestChineseColorOfBytes(
  r: number,
  g: number,
  b: number,
  threshold = NAME_THRESHOLD,
): ChineseColorMatch | null {
  const grid = blocksOf();
  let candidates: ArrayLike<number> = ALL;
  if (grid) {
    const block = blockOf(r, g, b);
    const from = grid.start[block];
    const to = grid.start[block + 1];
    if (from === to) return null;
    candidates = grid.list.subarray(from, to);
  }
  return matchOf(nearestMatch(labOfBytes(r, g, b), threshold, candidates));
}

function matchOf(best: { index: number; deltaE: number } | undefined): ChineseColorMatch | null {
  if (!best) return null;
  const { name, pinyin, hex, aliases } = CHINESE_COLORS[best.index];
  const deltaE = Math.round(best.deltaE * 100) / 100;
  // Literals, not a spread of the table entry: V8 gives spread copies no stable shape, and the answer's serializer
  // then reads every field through a megamorphic lookup (10 names: 9.4 → 3.3 µs in fast-json-stringify).
  return aliases ? { name, pinyin, hex, aliases, deltaE } : { name, pinyin, hex, deltaE };
}

/** Exhaustive CIEDE2000 search; the reference the fast search is tested against. */
export function nearestChineseColorExhaustive(color: Color | string): { index: number; deltaE: number } {
  const lab = toLab(color)!;
  let index = -1;
  let deltaE = Infinity;
  LABS.forEach((l, i) => {
    const d = ciede2000(lab, l);
    if (d < deltaE) [index, deltaE] = [i, d];
  });
  return { index, deltaE };
}
