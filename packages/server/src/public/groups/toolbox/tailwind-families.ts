/**
 * Lightness and chroma of Tailwind CSS v4's default colour families, step 50 … 950, in OKLCH
 * (from Tailwind CSS's `theme.css`, MIT licence, © Tailwind Labs). The palette generator borrows each family's
 * lightness curve and chroma profile so a generated palette steps the way Tailwind's own do; the hue is the
 * caller's. Yellow sits lighter at 500 than blue does, greys run darker at 950: the curves differ per family.
 */
export const STEPS = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950] as const;
export type Step = (typeof STEPS)[number];

export interface TailwindFamily {
  name: string;
  /** OKLCH lightness 0–1 per step. */
  l: readonly number[];
  /** OKLCH chroma per step. */
  c: readonly number[];
  /** Hue of step 500, in degrees. */
  h: number;
  /** Greys are picked for colours with little chroma, the others by hue. */
  grey: boolean;
}

const f = (name: string, h: number, l: number[], c: number[], grey = false): TailwindFamily => ({
  name,
  h,
  l: l.map((v) => v / 100),
  c,
  grey,
});

export const TAILWIND_FAMILIES: readonly TailwindFamily[] = [
  f(
    'red',
    25.331,
    [97.1, 93.6, 88.5, 80.8, 70.4, 63.7, 57.7, 50.5, 44.4, 39.6, 25.8],
    [0.013, 0.032, 0.062, 0.114, 0.191, 0.237, 0.245, 0.213, 0.177, 0.141, 0.092],
  ),
  f(
    'orange',
    47.604,
    [98, 95.4, 90.1, 83.7, 75, 70.5, 64.6, 55.3, 47, 40.8, 26.6],
    [0.016, 0.038, 0.076, 0.128, 0.183, 0.213, 0.222, 0.195, 0.157, 0.123, 0.079],
  ),
  f(
    'amber',
    70.08,
    [98.7, 96.2, 92.4, 87.9, 82.8, 76.9, 66.6, 55.5, 47.3, 41.4, 27.9],
    [0.022, 0.059, 0.12, 0.169, 0.189, 0.188, 0.179, 0.163, 0.137, 0.112, 0.077],
  ),
  f(
    'yellow',
    86.047,
    [98.7, 97.3, 94.5, 90.5, 85.2, 79.5, 68.1, 55.4, 47.6, 42.1, 28.6],
    [0.026, 0.071, 0.129, 0.182, 0.199, 0.184, 0.162, 0.135, 0.114, 0.095, 0.066],
  ),
  f(
    'lime',
    130.85,
    [98.6, 96.7, 93.8, 89.7, 84.1, 76.8, 64.8, 53.2, 45.3, 40.5, 27.4],
    [0.031, 0.067, 0.127, 0.196, 0.238, 0.233, 0.2, 0.157, 0.124, 0.101, 0.072],
  ),
  f(
    'green',
    149.579,
    [98.2, 96.2, 92.5, 87.1, 79.2, 72.3, 62.7, 52.7, 44.8, 39.3, 26.6],
    [0.018, 0.044, 0.084, 0.15, 0.209, 0.219, 0.194, 0.154, 0.119, 0.095, 0.065],
  ),
  f(
    'emerald',
    162.48,
    [97.9, 95, 90.5, 84.5, 76.5, 69.6, 59.6, 50.8, 43.2, 37.8, 26.2],
    [0.021, 0.052, 0.093, 0.143, 0.177, 0.17, 0.145, 0.118, 0.095, 0.077, 0.051],
  ),
  f(
    'teal',
    182.503,
    [98.4, 95.3, 91, 85.5, 77.7, 70.4, 60, 51.1, 43.7, 38.6, 27.7],
    [0.014, 0.051, 0.096, 0.138, 0.152, 0.14, 0.118, 0.096, 0.078, 0.063, 0.046],
  ),
  f(
    'cyan',
    215.221,
    [98.4, 95.6, 91.7, 86.5, 78.9, 71.5, 60.9, 52, 45, 39.8, 30.2],
    [0.019, 0.045, 0.08, 0.127, 0.154, 0.143, 0.126, 0.105, 0.085, 0.07, 0.056],
  ),
  f(
    'sky',
    237.323,
    [97.7, 95.1, 90.1, 82.8, 74.6, 68.5, 58.8, 50, 44.3, 39.1, 29.3],
    [0.013, 0.026, 0.058, 0.111, 0.16, 0.169, 0.158, 0.134, 0.11, 0.09, 0.066],
  ),
  f(
    'blue',
    259.815,
    [97, 93.2, 88.2, 80.9, 70.7, 62.3, 54.6, 48.8, 42.4, 37.9, 28.2],
    [0.014, 0.032, 0.059, 0.105, 0.165, 0.214, 0.245, 0.243, 0.199, 0.146, 0.091],
  ),
  f(
    'indigo',
    277.117,
    [96.2, 93, 87, 78.5, 67.3, 58.5, 51.1, 45.7, 39.8, 35.9, 25.7],
    [0.018, 0.034, 0.065, 0.115, 0.182, 0.233, 0.262, 0.24, 0.195, 0.144, 0.09],
  ),
  f(
    'violet',
    292.717,
    [96.9, 94.3, 89.4, 81.1, 70.2, 60.6, 54.1, 49.1, 43.2, 38, 28.3],
    [0.016, 0.029, 0.057, 0.111, 0.183, 0.25, 0.281, 0.27, 0.232, 0.189, 0.141],
  ),
  f(
    'purple',
    303.9,
    [97.7, 94.6, 90.2, 82.7, 71.4, 62.7, 55.8, 49.6, 43.8, 38.1, 29.1],
    [0.014, 0.033, 0.063, 0.119, 0.203, 0.265, 0.288, 0.265, 0.218, 0.176, 0.149],
  ),
  f(
    'fuchsia',
    322.15,
    [97.7, 95.2, 90.3, 83.3, 74, 66.7, 59.1, 51.8, 45.2, 40.1, 29.3],
    [0.017, 0.037, 0.076, 0.145, 0.238, 0.295, 0.293, 0.253, 0.211, 0.17, 0.136],
  ),
  f(
    'pink',
    354.308,
    [97.1, 94.8, 89.9, 82.3, 71.8, 65.6, 59.2, 52.5, 45.9, 40.8, 28.4],
    [0.014, 0.028, 0.061, 0.12, 0.202, 0.241, 0.249, 0.223, 0.187, 0.153, 0.109],
  ),
  f(
    'rose',
    16.439,
    [96.9, 94.1, 89.2, 81, 71.2, 64.5, 58.6, 51.4, 45.5, 41, 27.1],
    [0.015, 0.03, 0.058, 0.117, 0.194, 0.246, 0.253, 0.222, 0.188, 0.159, 0.105],
  ),
  f(
    'slate',
    257.417,
    [98.4, 96.8, 92.9, 86.9, 70.4, 55.4, 44.6, 37.2, 27.9, 20.8, 12.9],
    [0.003, 0.007, 0.013, 0.022, 0.04, 0.046, 0.043, 0.044, 0.041, 0.042, 0.042],
    true,
  ),
  f(
    'gray',
    264.364,
    [98.5, 96.7, 92.8, 87.2, 70.7, 55.1, 44.6, 37.3, 27.8, 21, 13],
    [0.002, 0.003, 0.006, 0.01, 0.022, 0.027, 0.03, 0.034, 0.033, 0.034, 0.028],
    true,
  ),
  f(
    'zinc',
    285.938,
    [98.5, 96.7, 92, 87.1, 70.5, 55.2, 44.2, 37, 27.4, 21, 14.1],
    [0, 0.001, 0.004, 0.006, 0.015, 0.016, 0.017, 0.013, 0.006, 0.006, 0.005],
    true,
  ),
  f(
    'neutral',
    0,
    [98.5, 97, 92.2, 87, 70.8, 55.6, 43.9, 37.1, 26.9, 20.5, 14.5],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    true,
  ),
  f(
    'stone',
    58.071,
    [98.5, 97, 92.3, 86.9, 70.9, 55.3, 44.4, 37.4, 26.8, 21.6, 14.7],
    [0.001, 0.001, 0.003, 0.005, 0.01, 0.013, 0.011, 0.01, 0.007, 0.006, 0.004],
    true,
  ),
];

/**
 * A colour whose chroma is below this fraction of its hue family's chroma at the same lightness reads as a tinted
 * grey (Tailwind's slate-500 has 21 % of blue-500's chroma, gray-900 23 % of blue-900's) and takes a grey's curve.
 */
export const GREY_RELATIVE_CHROMA = 0.3;

const hueDistance = (a: number, b: number) => {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
};

/** The chromatic family whose step-500 hue is nearest (blue for a colour without hue; its chroma is zero anyway). */
export function hueFamilyOf(h: number | undefined): TailwindFamily {
  const chromatic = TAILWIND_FAMILIES.filter((fam) => !fam.grey);
  if (h === undefined || Number.isNaN(h)) return chromatic.find((fam) => fam.name === 'blue')!;
  return chromatic.reduce((best, fam) => (hueDistance(fam.h, h) < hueDistance(best.h, h) ? fam : best));
}

/** The grey whose step-500 colour (chroma and hue together) is nearest; neutral for a pure grey. */
export function greyFamilyOf(c: number, h: number | undefined): TailwindFamily {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const a = c * Math.cos(rad(h ?? 0));
  const b = c * Math.sin(rad(h ?? 0));
  const dist = (fam: TailwindFamily) =>
    Math.hypot(fam.c[5] * Math.cos(rad(fam.h)) - a, fam.c[5] * Math.sin(rad(fam.h)) - b);
  return TAILWIND_FAMILIES.filter((fam) => fam.grey).reduce((best, fam) => (dist(fam) < dist(best) ? fam : best));
}

/** Index of the step whose lightness in `family` is nearest `l`. */
export const nearestStepIndex = (family: TailwindFamily, l: number) =>
  family.l.reduce((best, target, i) => (Math.abs(target - l) < Math.abs(family.l[best] - l) ? i : best), 0);
