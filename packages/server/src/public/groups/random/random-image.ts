/**
 * Generated placeholder images: a colour gradient or a geometric pattern, drawn as SVG from a seed (the same seed,
 * size and type always give the same picture). Pure: no HTTP framework; PNG is the caller's business (resvg).
 */
import { formatHex } from 'culori';
import { seededRng, pickOne, type Rng } from '../../../shared/rng.js';

export const IMAGE_TYPES = ['gradient', 'pattern'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
export const IMAGE_SIZE = { min: 16, max: 2048, defaultWidth: 800, defaultHeight: 600 } as const;

export const GRADIENT_STYLES = ['linear', 'radial', 'aurora'] as const;
export const PATTERN_STYLES = ['dots', 'triangles', 'truchet', 'stripes', 'mosaic'] as const;

export interface GeneratedImage {
  svg: string;
  type: ImageType;
  /** Which gradient or pattern was drawn, e.g. `truchet`. */
  style: string;
  /** The palette, `#rrggbb`. */
  colors: string[];
}

/** Most shapes a pattern may have: keeps the largest images quick to rasterise. */
const MAX_CELLS = 2500;

const round = (n: number) => Math.round(n * 10) / 10;
const hex = (h: number, s: number, l: number) => formatHex({ mode: 'hsl', h: ((h % 360) + 360) % 360, s, l });

/**
 * Three to five colours in a harmony (analogous, complementary or triadic) around a random hue, after a background:
 * the base hue, desaturated and very dark or very light, so that the shapes of a pattern stand out against it.
 */
function palette(rng: Rng): string[] {
  const h = rng.next() * 360;
  const background = hex(h, 0.3, rng.int(2) === 0 ? 0.14 : 0.95);
  const offsets = pickOne(rng, [
    [0, 25, 50, 75],
    [0, 30, 180, 210],
    [0, 120, 240],
    [0, 15, 180],
    [0, 40, 80, 160, 200],
  ]);
  return [
    background,
    ...offsets.map((o) => hex(h + o + (rng.next() - 0.5) * 10, 0.55 + rng.next() * 0.3, 0.45 + rng.next() * 0.2)),
  ];
}

/** The type a seed picks when the caller gave none: deterministic, so an image URL without `type` is stable too. */
export function typeForSeed(seed: string): ImageType {
  return seededRng(`type\u0000${seed}`).int(2) === 0 ? 'gradient' : 'pattern';
}

export function renderRandomImage(
  seed: string,
  width: number,
  height: number,
  type: ImageType = typeForSeed(seed),
): GeneratedImage {
  const rng = seededRng(`${type}\u0000${seed}`);
  const colors = palette(rng);
  const {
    style,
    body,
    defs,
    used = colors,
  } = type === 'gradient' ? gradient(rng, colors, width, height) : pattern(rng, colors, width, height);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs>${defs}</defs>${body}</svg>`;
  return { svg, type, style, colors: used };
}

interface Drawing {
  style: string;
  defs: string;
  body: string;
  /** The colours drawn, when not the whole palette. */
  used?: string[];
}

const stops = (colors: string[], opacity = 1) =>
  colors
    .map(
      (c, i) =>
        `<stop offset="${round((i / Math.max(1, colors.length - 1)) * 100)}%" stop-color="${c}" stop-opacity="${opacity}"/>`,
    )
    .join('');

function gradient(rng: Rng, colors: string[], w: number, h: number): Drawing {
  const style = pickOne(rng, GRADIENT_STYLES);
  // A linear or radial gradient runs through the harmony only; aurora also uses the background.
  const harmony = colors.slice(1);
  if (style === 'linear') {
    const a = rng.next() * Math.PI * 2;
    const [x1, y1, x2, y2] = [
      0.5 - Math.cos(a) / 2,
      0.5 - Math.sin(a) / 2,
      0.5 + Math.cos(a) / 2,
      0.5 + Math.sin(a) / 2,
    ].map(round2);
    return {
      style,
      defs: `<linearGradient id="g" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stops(harmony)}</linearGradient>`,
      body: rect('url(#g)'),
      used: harmony,
    };
  }
  if (style === 'radial') {
    const [cx, cy] = [0.2 + rng.next() * 0.6, 0.2 + rng.next() * 0.6].map(round2);
    return {
      style,
      defs: `<radialGradient id="g" cx="${cx}" cy="${cy}" r="0.9">${stops(harmony)}</radialGradient>`,
      body: rect('url(#g)'),
      used: harmony,
    };
  }
  // aurora: soft colour clouds (radial gradients fading to transparent) over the background
  const defs: string[] = [];
  const body = [rect(colors[0])];
  const clouds = 4 + rng.int(3);
  for (let i = 0; i < clouds; i++) {
    const c = colors[1 + (i % (colors.length - 1))];
    defs.push(
      `<radialGradient id="c${i}"><stop offset="0%" stop-color="${c}" stop-opacity="0.85"/><stop offset="100%" stop-color="${c}" stop-opacity="0"/></radialGradient>`,
    );
    const r = round((0.35 + rng.next() * 0.45) * Math.max(w, h));
    body.push(`<circle cx="${round(rng.next() * w)}" cy="${round(rng.next() * h)}" r="${r}" fill="url(#c${i})"/>`);
  }
  return { style, defs: defs.join(''), body: body.join('') };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const rect = (fill: string) => `<rect width="100%" height="100%" fill="${fill}"/>`;

/** Square cells of at least 8 px, about 6–24 across the shorter side, never more than MAX_CELLS. */
function cellSize(rng: Rng, w: number, h: number): number {
  let cell = Math.max(8, Math.min(w, h) / (6 + rng.int(19)));
  while (Math.ceil(w / cell) * Math.ceil(h / cell) > MAX_CELLS) cell *= 1.25;
  return round(cell);
}

function pattern(rng: Rng, colors: string[], w: number, h: number): Drawing {
  const style = pickOne(rng, PATTERN_STYLES);
  const cell = cellSize(rng, w, h);
  const cols = Math.ceil(w / cell);
  const rows = Math.ceil(h / cell);
  const [bg, ...fg] = colors;
  const parts = [rect(bg)];
  const each = (fn: (x: number, y: number) => string) => {
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) parts.push(fn(round(c * cell), round(r * cell)));
  };
  switch (style) {
    case 'dots':
      each(
        (x, y) =>
          `<circle cx="${round(x + cell / 2)}" cy="${round(y + cell / 2)}" r="${round(cell * (0.15 + rng.next() * 0.3))}" fill="${pickOne(rng, fg)}"/>`,
      );
      break;
    case 'triangles':
      each((x, y) => {
        const [x2, y2] = [round(x + cell), round(y + cell)];
        const flip = rng.int(2) === 0;
        const a = flip ? `${x},${y} ${x2},${y} ${x},${y2}` : `${x},${y} ${x2},${y} ${x2},${y2}`;
        const b = flip ? `${x2},${y} ${x2},${y2} ${x},${y2}` : `${x},${y} ${x2},${y2} ${x},${y2}`;
        return `<polygon points="${a}" fill="${pickOne(rng, colors)}"/><polygon points="${b}" fill="${pickOne(rng, colors)}"/>`;
      });
      break;
    case 'truchet': {
      // quarter-circle arcs joining edge midpoints: random rotations link up into meandering lines
      const half = round(cell / 2);
      const stroke = `stroke="${fg[0]}" stroke-width="${round(Math.max(1, cell / 8))}" fill="none" stroke-linecap="round"`;
      each((x, y) => {
        const [x2, y2, mx, my] = [round(x + cell), round(y + cell), round(x + half), round(y + half)];
        // arcs centred on the top-right and bottom-left corners, or on the top-left and bottom-right ones
        return rng.int(2) === 0
          ? `<path d="M${mx},${y} A${half},${half} 0 0 0 ${x2},${my} M${x},${my} A${half},${half} 0 0 1 ${mx},${y2}" ${stroke}/>`
          : `<path d="M${mx},${y} A${half},${half} 0 0 1 ${x},${my} M${x2},${my} A${half},${half} 0 0 0 ${mx},${y2}" ${stroke}/>`;
      });
      break;
    }
    case 'stripes': {
      const angle = pickOne(rng, [0, 45, 90, 135]);
      const span = Math.ceil(Math.hypot(w, h));
      let x = -span;
      const stripes: string[] = [];
      while (x < span && stripes.length < MAX_CELLS) {
        const width = round(cell * (0.3 + rng.next() * 1.2));
        stripes.push(
          `<rect x="${round(x)}" y="${-span}" width="${width}" height="${span * 2}" fill="${pickOne(rng, fg)}"/>`,
        );
        x += width + cell * (0.2 + rng.next());
      }
      parts.push(`<g transform="translate(${w / 2} ${h / 2}) rotate(${angle})">${stripes.join('')}</g>`);
      break;
    }
    default: // mosaic: filled squares with a gap, some nested
      each((x, y) => {
        const gap = round(cell * 0.08);
        const inner =
          rng.int(3) === 0
            ? `<rect x="${round(x + cell * 0.3)}" y="${round(y + cell * 0.3)}" width="${round(cell * 0.4)}" height="${round(cell * 0.4)}" fill="${bg}"/>`
            : '';
        return `<rect x="${round(x + gap)}" y="${round(y + gap)}" width="${round(cell - 2 * gap)}" height="${round(cell - 2 * gap)}" fill="${pickOne(rng, fg)}"/>${inner}`;
      });
  }
  return { style, defs: '', body: parts.join('') };
}
