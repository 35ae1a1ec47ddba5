/**
 * CIEDE2000 colour difference (Sharma, Wu & Dalal 2005, with kL = kC = kH = 1) on CIELAB values. For sRGB colours
 * pass CIELAB under D65 (culori's `lab65`), the white point sRGB is defined with, as culori itself does.
 *
 * culori has the same formula (`differenceCiede2000`), but it converts both arguments to Lab on every call, which
 * makes it ~5 µs a pair; the nearest-name search runs it many times per request on colours already in Lab.
 * ciede2000.test.ts checks this against culori.
 */
export interface Lab {
  l: number;
  a: number;
  b: number;
}

const DEG = Math.PI / 180;
const POW25_7 = 25 ** 7;

export function ciede2000(x: Lab, y: Lab): number {
  const c1 = Math.hypot(x.a, x.b);
  const c2 = Math.hypot(y.a, y.b);
  const cMean7 = ((c1 + c2) / 2) ** 7;
  const g = 0.5 * (1 - Math.sqrt(cMean7 / (cMean7 + POW25_7)));
  const a1 = x.a * (1 + g);
  const a2 = y.a * (1 + g);
  const cp1 = Math.hypot(a1, x.b);
  const cp2 = Math.hypot(a2, y.b);
  const hp1 = cp1 === 0 ? 0 : (Math.atan2(x.b, a1) / DEG + 360) % 360;
  const hp2 = cp2 === 0 ? 0 : (Math.atan2(y.b, a2) / DEG + 360) % 360;

  const dL = y.l - x.l;
  const dC = cp2 - cp1;
  let dh = 0;
  if (cp1 * cp2 !== 0) {
    dh = hp2 - hp1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(cp1 * cp2) * Math.sin((dh / 2) * DEG);

  const lMean = (x.l + y.l) / 2;
  const cpMean = (cp1 + cp2) / 2;
  let hMean = hp1 + hp2;
  if (cp1 * cp2 !== 0) {
    if (Math.abs(hp1 - hp2) <= 180) hMean /= 2;
    else hMean = hMean < 360 ? (hMean + 360) / 2 : (hMean - 360) / 2;
  }
  const t =
    1 -
    0.17 * Math.cos((hMean - 30) * DEG) +
    0.24 * Math.cos(2 * hMean * DEG) +
    0.32 * Math.cos((3 * hMean + 6) * DEG) -
    0.2 * Math.cos((4 * hMean - 63) * DEG);
  const sl = 1 + (0.015 * (lMean - 50) ** 2) / Math.sqrt(20 + (lMean - 50) ** 2);
  const sc = 1 + 0.045 * cpMean;
  const sh = 1 + 0.015 * cpMean * t;
  const cpMean7 = cpMean ** 7;
  const rt =
    -2 * Math.sqrt(cpMean7 / (cpMean7 + POW25_7)) * Math.sin(60 * Math.exp(-(((hMean - 275) / 25) ** 2)) * DEG);
  const l = dL / sl;
  const c = dC / sc;
  const h = dH / sh;
  return Math.sqrt(l * l + c * c + h * h + rt * c * h);
}

/**
 * A lower bound of CIEDE2000 from the lightnesses alone: ΔE00² = (ΔL/S_L)² + x² + y² + R_T·x·y (x, y the chroma
 * and hue terms), and |R_T| < 2 (R_C < 2, |sin| ≤ 1), so the last three terms are ≥ (|x| − |y|)² ≥ 0 and
 * ΔE00 ≥ |ΔL| / S_L, with S_L computed exactly as CIEDE2000 does from the two lightnesses.
 */
export function lightnessBound(l1: number, l2: number): number {
  const m = (l1 + l2) / 2 - 50;
  return Math.abs(l2 - l1) / (1 + (0.015 * m * m) / Math.sqrt(20 + m * m));
}
