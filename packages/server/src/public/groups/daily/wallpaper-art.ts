import { seededRng, type Rng } from '../../../shared/rng.js';

/**
 * Generated landscape artwork (layered ink-wash ridges under a sky with a sun or moon), fully determined by a seed:
 * the same seed always draws the same picture, at any size. Pure SVG; PNG is rendered from it elsewhere.
 */
interface Palette {
  name: string;
  sky: [string, string];
  sun: string;
  ridges: [string, string]; // far → near
}

/** Colour schemes named after traditional Chinese colours. */
export const PALETTES: Palette[] = [
  { name: '黛青', sky: ['#e8f0f2', '#b9d3dc'], sun: '#f6e7c1', ridges: ['#9fb8c4', '#2b4150'] },
  { name: '胭脂', sky: ['#fbe4d8', '#f2b8a0'], sun: '#fff3e0', ridges: ['#d9a08f', '#5b2a2e'] },
  { name: '月白', sky: ['#1c2541', '#3a506b'], sun: '#f0f4f8', ridges: ['#5b6c8f', '#0b132b'] },
  { name: '竹青', sky: ['#eef5e9', '#c8dfc0'], sun: '#fdf6d8', ridges: ['#93b89a', '#214d38'] },
  { name: '秋香', sky: ['#fdf0d5', '#f4c98b'], sun: '#fffaf0', ridges: ['#d19a5b', '#5e3a1a'] },
  { name: '藕荷', sky: ['#f3e6f0', '#d9bcd4'], sun: '#fff8fb', ridges: ['#b495b3', '#4a3350'] },
  { name: '靛蓝', sky: ['#dfe9f5', '#9db9dd'], sun: '#fefbe9', ridges: ['#6f8fbf', '#1a2b50'] },
  { name: '落霞', sky: ['#ffd6a5', '#ff8c69'], sun: '#fff1c1', ridges: ['#c46a5a', '#3d1f2b'] },
  { name: '雪青', sky: ['#f4f6fb', '#d5dcec'], sun: '#ffffff', ridges: ['#aab4cc', '#3c4660'] },
  { name: '苍翠', sky: ['#e3f2ef', '#a8d5c9'], sun: '#f9f7e8', ridges: ['#6fa597', '#143d36'] },
];

const hex = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
function mix(a: string, b: string, t: number): string {
  const [x, y] = [hex(a), hex(b)];
  return `#${x
    .map((v, i) =>
      Math.round(v + (y[i] - v) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** A ridge line: a sum of sines with random phases, sampled across the width. */
function ridgePath(rng: Rng, width: number, height: number, base: number, amplitude: number): string {
  const waves = Array.from({ length: 4 }, (_, k) => ({
    f: (k + 1) * (0.6 + rng.next() * 1.2),
    p: rng.next() * Math.PI * 2,
    a: amplitude / (k + 1.3),
  }));
  const steps = 64;
  const pts: string[] = [];
  for (let i = 0; i <= steps; i++) {
    const x = (i / steps) * width;
    const y = base - waves.reduce((s, w) => s + w.a * Math.sin((x / width) * Math.PI * 2 * w.f + w.p), 0);
    pts.push(`${x.toFixed(1)},${Math.max(0, Math.min(height, y)).toFixed(1)}`);
  }
  return `M0,${height} L${pts.join(' L')} L${width},${height} Z`;
}

export interface Artwork {
  svg: string;
  palette: string;
}

export function renderWallpaperSvg(seed: string, width: number, height: number): Artwork {
  const rng = seededRng(`wallpaper:${seed}`);
  const palette = PALETTES[rng.int(PALETTES.length)];
  const layers = 4 + rng.int(3);
  const sunX = width * (0.15 + rng.next() * 0.7);
  const sunY = height * (0.18 + rng.next() * 0.2);
  const sunR = Math.min(width, height) * (0.05 + rng.next() * 0.05);
  const ridges: string[] = [];
  for (let i = 0; i < layers; i++) {
    const t = i / (layers - 1);
    const base = height * (0.45 + t * 0.42);
    const path = ridgePath(rng, width, height, base, height * (0.12 - t * 0.05));
    ridges.push(
      `<path d="${path}" fill="${mix(palette.ridges[0], palette.ridges[1], t)}" opacity="${(0.75 + t * 0.25).toFixed(2)}"/>`,
    );
    if (i < layers - 1)
      ridges.push(
        `<rect x="0" y="${(base - height * 0.06).toFixed(1)}" width="${width}" height="${(height * 0.12).toFixed(1)}" fill="url(#mist)"/>`,
      );
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${palette.sky[1]}"/><stop offset="1" stop-color="${palette.sky[0]}"/></linearGradient>` +
    `<linearGradient id="mist" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff" stop-opacity="0"/><stop offset="0.5" stop-color="#ffffff" stop-opacity="0.35"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></linearGradient>` +
    `<radialGradient id="glow"><stop offset="0" stop-color="${palette.sun}" stop-opacity="0.9"/><stop offset="1" stop-color="${palette.sun}" stop-opacity="0"/></radialGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#sky)"/>` +
    `<circle cx="${sunX.toFixed(1)}" cy="${sunY.toFixed(1)}" r="${(sunR * 2.6).toFixed(1)}" fill="url(#glow)"/>` +
    `<circle cx="${sunX.toFixed(1)}" cy="${sunY.toFixed(1)}" r="${sunR.toFixed(1)}" fill="${palette.sun}"/>` +
    ridges.join('') +
    `</svg>`;
  return { svg, palette: palette.name };
}
