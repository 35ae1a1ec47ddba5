import { createHash, randomInt } from 'node:crypto';

/** A source of random integers: cryptographically secure, or reproducible from a seed. */
export interface Rng {
  /** Integer in [0, max). */
  int(max: number): number;
  /** Float in [0, 1). */
  next(): number;
  /** true when the output is reproducible (and therefore not secret). */
  readonly seeded: boolean;
}

/** Node's CSPRNG. Use it whenever the caller gave no seed. */
export const secureRng: Rng = {
  int: (max) => randomInt(max),
  // randomInt's bound is exclusive and must stay below 2^48
  next: () => randomInt(2 ** 48 - 1) / 2 ** 48,
  seeded: false,
};

/**
 * sfc32 seeded from SHA-256 of the seed text: the same seed gives the same sequence on every machine and version of Node.
 * Not for secrets: anyone who knows the seed knows the output.
 */
export function seededRng(seed: string): Rng {
  const h = createHash('sha256').update(seed).digest();
  let a = h.readUInt32LE(0);
  let b = h.readUInt32LE(4);
  let c = h.readUInt32LE(8);
  let d = h.readUInt32LE(12);
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return { next, int: (max) => Math.floor(next() * max), seeded: true };
}

/** The rng for a request: seeded when the caller passed `seed`, secure otherwise. */
export const rngFor = (seed?: string | number): Rng =>
  seed === undefined || seed === '' ? secureRng : seededRng(String(seed));

export function pickOne<T>(rng: Rng, items: readonly T[]): T {
  return items[rng.int(items.length)];
}

/** Draws one item with probability proportional to its weight (weights > 0). */
export function pickWeighted<T>(rng: Rng, items: readonly (readonly [T, number])[]): T {
  let total = 0;
  for (const [, w] of items) total += w;
  let r = rng.next() * total;
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1][0];
}
