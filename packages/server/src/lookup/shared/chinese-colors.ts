/**
 * Chinese traditional colour names (中国传统色) with their sRGB values: lookup by name and nearest name to a colour.
 * The table ships as `data/chinese-colors.json` (see `data/README.md`). Pure module: no HTTP framework here.
 */
import { readFileSync } from 'node:fs';
import { converter, type Color } from 'culori';
import { ciede2000, lightnessBound } from './ciede2000.js';

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
const toOklab = converter('oklab');

function load(): ChineseColor[] {
  const url = new URL('../../../../../data/chinese-colors.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as ChineseColor[];
}

export const CHINESE_COLORS: readonly ChineseColor[] = load();

const LABS = CHINESE_COLORS.map((c) => toLab(c.hex)!);
const OKLABS = CHINESE_COLORS.map((c) => toOklab(c.hex)!);

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

/** How many OKLab-nearest candidates are measured with CIEDE2000 (see nearestChineseColor). */
const CANDIDATES = 16;

/**
 * The nearest named colour by CIEDE2000, or null when none is within `threshold`.
 *
 * Only the 16 nearest in OKLab (a cheap Euclidean distance) are measured with CIEDE2000: over 20,000 random colours
 * this never changed which name was given within the threshold (the unit test checks it against the exhaustive
 * search), and it keeps a 100-colour random-color answer to a few milliseconds.
 */
export function nearestChineseColor(color: Color | string, threshold = NAME_THRESHOLD): ChineseColorMatch | null {
  const lab = toLab(color);
  const ok = toOklab(color);
  if (!lab || !ok) return null;
  // The CANDIDATES smallest OKLab distances, kept sorted by insertion (no allocation per table entry).
  const nearD = new Float64Array(CANDIDATES).fill(Infinity);
  const nearI = new Int32Array(CANDIDATES).fill(-1);
  for (let i = 0; i < OKLABS.length; i++) {
    const o = OKLABS[i];
    const d = (o.l - ok.l) ** 2 + (o.a - ok.a) ** 2 + (o.b - ok.b) ** 2;
    if (d >= nearD[CANDIDATES - 1]) continue;
    let j = CANDIDATES - 1;
    for (; j > 0 && nearD[j - 1] > d; j--) {
      nearD[j] = nearD[j - 1];
      nearI[j] = nearI[j - 1];
    }
    nearD[j] = d;
    nearI[j] = i;
  }
  let best = -1;
  let bestDelta = Infinity;
  for (const i of nearI) {
    if (i < 0) continue;
    // A lower bound of ΔE00 costs a few operations (see lightnessBound): a candidate that cannot be within the
    // threshold, or cannot beat the best so far, is not measured. The answer is the same as measuring every one.
    const bound = lightnessBound(lab.l, LABS[i].l);
    if (bound > threshold || bound >= bestDelta) continue;
    const d = ciede2000(lab, LABS[i]);
    if (d < bestDelta) {
      bestDelta = d;
      best = i;
    }
  }
  if (best < 0 || bestDelta > threshold) return null;
  return { ...CHINESE_COLORS[best], deltaE: Math.round(bestDelta * 100) / 100 };
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
