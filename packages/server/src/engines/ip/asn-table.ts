/**
 * IP → autonomous system table, read from the `@ip-location-db/asn` numeric CSVs
 * (`start,end,asn,organisation`, inclusive ranges, sorted, not overlapping).
 *
 * Kept in typed arrays and searched by bisection: ~400k IPv4 and ~100k IPv6 ranges cost a few tens of MB,
 * where one object per row would cost several times that.
 */
import { readFileSync } from 'node:fs';
import { ipv4ToNumber, ipv6ToHalves } from './ip-address.js';

export interface AsnRecord {
  /** Autonomous system number, e.g. 15169. */
  number: number;
  /** Organisation registered for it, e.g. `Google LLC`. */
  organization: string;
}

export class AsnTable {
  private constructor(
    /** Organisation per AS number: in this data set every AS has exactly one name, so rows keep only the number. */
    private readonly orgs: Map<number, string>,
    private readonly v4: { start: Uint32Array; end: Uint32Array; asn: Uint32Array },
    private readonly v6: {
      startHi: BigUint64Array;
      startLo: BigUint64Array;
      endHi: BigUint64Array;
      endLo: BigUint64Array;
      asn: Uint32Array;
    },
  ) {}

  get size(): number {
    return this.v4.start.length + this.v6.startHi.length;
  }

  /** Builds the table from the contents of the IPv4 and IPv6 numeric CSV files. */
  static fromCsv(ipv4Csv: Buffer, ipv6Csv: Buffer): AsnTable {
    const orgs = new Map<number, string>();

    const n4 = countLines(ipv4Csv);
    const v4 = { start: new Uint32Array(n4), end: new Uint32Array(n4), asn: new Uint32Array(n4) };
    const used4 = forEachRow(ipv4Csv, (i, f) => {
      v4.start[i] = digits(ipv4Csv, f.lineStart, f.c1);
      v4.end[i] = digits(ipv4Csv, f.c1 + 1, f.c2);
      const asn = (v4.asn[i] = digits(ipv4Csv, f.c2 + 1, f.c3));
      if (!orgs.has(asn)) orgs.set(asn, nameAt(ipv4Csv, f.c3 + 1, f.lineEnd));
    });

    const n6 = countLines(ipv6Csv);
    const v6 = {
      startHi: new BigUint64Array(n6),
      startLo: new BigUint64Array(n6),
      endHi: new BigUint64Array(n6),
      endLo: new BigUint64Array(n6),
      asn: new Uint32Array(n6),
    };
    const MASK = (1n << 64n) - 1n;
    const used6 = forEachRow(ipv6Csv, (i, f) => {
      // 128-bit values: too wide for digits(), so through BigInt (one small string per number).
      const s = BigInt(ipv6Csv.toString('latin1', f.lineStart, f.c1));
      const e = BigInt(ipv6Csv.toString('latin1', f.c1 + 1, f.c2));
      v6.startHi[i] = s >> 64n;
      v6.startLo[i] = s & MASK;
      v6.endHi[i] = e >> 64n;
      v6.endLo[i] = e & MASK;
      const asn = (v6.asn[i] = digits(ipv6Csv, f.c2 + 1, f.c3));
      if (!orgs.has(asn)) orgs.set(asn, nameAt(ipv6Csv, f.c3 + 1, f.lineEnd));
    });
    // Blank or malformed lines were skipped: keep only the rows actually read.
    const cut = <T extends Record<string, Uint32Array | BigUint64Array>>(o: T, n: number): T =>
      Object.fromEntries(Object.entries(o).map(([k, a]) => [k, a.subarray(0, n)])) as T;
    return new AsnTable(orgs, cut(v4, used4), cut(v6, used6));
  }

  /** Reads the two CSV files (the package's `asn-ipv4-num.csv` and `asn-ipv6-num.csv`). */
  static fromFiles(ipv4File: string, ipv6File: string): AsnTable {
    return AsnTable.fromCsv(readFileSync(ipv4File), readFileSync(ipv6File));
  }

  /** The AS announcing `address` (a public address already validated), or undefined when no range holds it. */
  lookup(address: string, version: 4 | 6): AsnRecord | undefined {
    if (version === 4) {
      const n = ipv4ToNumber(address);
      const { start, end } = this.v4;
      const i = lastAtOrBelow(start.length, (k) => start[k] <= n);
      return i >= 0 && n <= end[i] ? this.record(this.v4.asn[i]) : undefined;
    }
    const [hi, lo] = ipv6ToHalves(address);
    const { startHi, startLo, endHi, endLo } = this.v6;
    const i = lastAtOrBelow(startHi.length, (k) => startHi[k] < hi || (startHi[k] === hi && startLo[k] <= lo));
    if (i < 0) return undefined;
    const inside = endHi[i] > hi || (endHi[i] === hi && endLo[i] >= lo);
    return inside ? this.record(this.v6.asn[i]) : undefined;
  }

  private record(asn: number): AsnRecord {
    return { number: asn, organization: this.orgs.get(asn) ?? '' };
  }
}

/** Index of the last row for which `atOrBelow` holds (rows sorted by start), or -1. */
function lastAtOrBelow(length: number, atOrBelow: (k: number) => boolean): number {
  let lo = 0;
  let hi = length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (atOrBelow(mid)) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The decimal number written in bytes [from, to) (at most 2^53). */
function digits(buf: Buffer, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 10 + (buf[i] - 48);
  return v;
}

/** The organisation field in bytes [from, to): UTF-8, possibly quoted with doubled inner quotes (`"LLC ""SPUTNIK"""`). */
function nameAt(buf: Buffer, from: number, to: number): string {
  const quoted = to - from >= 2 && buf[from] === 34 && buf[to - 1] === 34;
  return quoted ? buf.toString('utf8', from + 1, to - 1).replace(/""/g, '"') : buf.toString('utf8', from, to);
}

/** Where one line's fields are: start = [lineStart, c1), end = [c1+1, c2), asn = [c2+1, c3), name = [c3+1, lineEnd). */
interface RowFields {
  lineStart: number;
  c1: number;
  c2: number;
  c3: number;
  lineEnd: number;
}

/**
 * Calls `row` for each `start,end,asn,organisation` line and returns how many it read; lines with fewer than
 * four fields are skipped. Only the last field can contain commas (quoted), so the first three commas delimit
 * the numbers. Works on the bytes, with one reused field record: a decoded copy of the text or per-row objects
 * would cost more memory than the table itself, and V8 keeps such peaks as resident memory.
 */
function forEachRow(csv: Buffer, row: (i: number, f: RowFields) => void): number {
  const f: RowFields = { lineStart: 0, c1: 0, c2: 0, c3: 0, lineEnd: 0 };
  let n = 0;
  let pos = 0;
  while (pos < csv.length) {
    let nl = csv.indexOf(10, pos);
    if (nl === -1) nl = csv.length;
    f.lineStart = pos;
    f.lineEnd = nl > pos && csv[nl - 1] === 13 ? nl - 1 : nl;
    let found = 0;
    for (let i = pos; i < f.lineEnd && found < 3; i++) {
      if (csv[i] !== 44) continue;
      if (found === 0) f.c1 = i;
      else if (found === 1) f.c2 = i;
      else f.c3 = i;
      found++;
    }
    if (found === 3) row(n++, f);
    pos = nl + 1;
  }
  return n;
}

/** Upper bound on the number of rows: one per newline, plus a last line without one. */
function countLines(csv: Buffer): number {
  let n = 1;
  for (let i = csv.indexOf(10); i !== -1; i = csv.indexOf(10, i + 1)) n++;
  return n;
}
