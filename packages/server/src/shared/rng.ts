import { createHash, randomFillSync, randomInt } from 'node:crypto';

/** A source of random integers: cryptographically secure, or reproducible from a seed. */
export interface Rng {
  /** Integer in [0, max). */
  int(max: number): number;
  /** Float in [0, 1). */
  next(): number;
  /** true when the output is reproducible (and therefore not secret). */
  readonly seeded: boolean;
}

/**
 * Words from Node's CSPRNG, filled 4 KB at a time: a draw reads one word from memory, where `crypto.randomInt`
 * checks its arguments and goes through its own byte cache on every call, which was a fifth of a generated person.
 */
const pool = new Uint32Array(1024);
let poolAt = pool.length;
function secureWord(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++];
}

/** Node's CSPRNG. Use it whenever the caller gave no seed. */
export const secureRng: Rng = {
  int: (max) => {
    // randomInt for what one word cannot cover, and for its argument errors (0, fractions).
    if (!(max >= 1 && max <= 2 ** 32 && Number.isInteger(max))) return randomInt(max);
    // Unbiased: words from the incomplete last block of `max` values are drawn again.
    const limit = 2 ** 32 - (2 ** 32 % max);
    let w = secureWord();
    while (w >= limit) w = secureWord();
    return w % max;
  },
  // 53 random bits: every double of [0, 1) on a 2^-53 grid
  next: () => (secureWord() * 2 ** 21 + (secureWord() >>> 11)) / 2 ** 53,
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

/**
 * A list drawn from with weights, prepared once: cumulative weights searched by bisection, for lists drawn from on
 * every request (pickWeighted adds the weights up and walks the list on every draw). Draws what pickWeighted draws
 * from the same rng.
 */
export class Weighted<T> {
  private readonly items: T[] = [];
  private readonly cumulative: number[] = [];
  private readonly total: number;
  constructor(entries: Iterable<readonly [T, number]>) {
    let sum = 0;
    for (const [item, w] of entries) {
      this.items.push(item);
      this.cumulative.push((sum += w));
    }
    this.total = sum;
  }

  pick(rng: Rng): T {
    const r = rng.next() * this.total;
    const c = this.cumulative;
    let lo = 0;
    let hi = c.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (c[mid] > r) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo];
  }
}

/** Draws one item with probability proportional to its weight (weights > 0). */
export function pickWeighted<T>(rng: Rng, items: readonly (readonly [T, number])[]): T {
  let total = 0;
  for (const [, w] of items) total += w;
  let r = rng.next() * total;
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1][0];
}
