/**
 * Parsing and classifying IP addresses for the ip-region lookup. Pure: no HTTP framework, no database.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** What an address is, as far as a location lookup cares. */
export type AddressClass =
  | { kind: 'public'; version: 4 | 6; address: string }
  | { kind: 'private' | 'reserved' }
  | { kind: 'invalid' };

/** Ranges worth looking up: ordinary unicast plus a few globally routed special-purpose blocks (AS112 anycast, AMT relays, 6to4, Teredo). */
const LOOKUP_V4 = new Set(['unicast', 'as112', 'amt']);
const LOOKUP_V6 = new Set(['unicast', 'as112v6', 'amt', '6to4', 'teredo']);

/**
 * An address as `node:net` `isIP` accepts it (no leading zeros in IPv4, zone ids allowed in IPv6), an IPv4-mapped
 * IPv6 address (`::ffff:8.8.8.8`) as the IPv4 address it carries; undefined when it is none.
 */
function parseAddress(input: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (isIP(input) === 0) return undefined;
  try {
    // Zone ids (fe80::1%eth0) only make sense on link-local addresses, which are reserved anyway.
    const addr = ipaddr.parse(input.split('%')[0]);
    return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
      ? (addr as ipaddr.IPv6).toIPv4Address()
      : addr;
  } catch {
    return undefined;
  }
}

/** Ranges that never leave a site: RFC 1918, unique-local, link-local, and carrier-grade NAT (100.64/10). */
const INTERNAL = new Set(['private', 'uniqueLocal', 'linkLocal', 'carrierGradeNat']);

/**
 * Where a sign-in came from when no database can place it: this machine (loopback, `127.0.0.1`, `::1`), an
 * internal network (`192.168.1.5`, `fd00::1`, `169.254.1.1`, `100.64.0.1`), or undefined for any other address.
 */
export function localScope(input: string): 'loopback' | 'internal' | undefined {
  const range = parseAddress(input)?.range();
  if (range === 'loopback') return 'loopback';
  return range && INTERNAL.has(range) ? 'internal' : undefined;
}

/**
 * Classifies an address the way ip-api.com reports it: RFC 1918 and IPv6 unique-local (fc00::/7) are
 * `private`; every other special-purpose block (loopback, link-local, CGNAT 100.64/10, 0/8, multicast,
 * documentation and benchmarking nets, 240/4, IPv6 outside 2000::/3, …) is `reserved`. An IPv4-mapped
 * IPv6 address (`::ffff:8.8.8.8`) is judged — and looked up — as the IPv4 address it carries.
 *
 * Syntax follows `node:net` `isIP` (no leading zeros in IPv4, zone ids allowed in IPv6).
 */
export function classifyAddress(input: string): AddressClass {
  const addr = parseAddress(input);
  if (!addr) return { kind: 'invalid' };
  const range = addr.range();
  if (addr.kind() === 'ipv4') {
    if (range === 'private') return { kind: 'private' };
    return LOOKUP_V4.has(range) ? { kind: 'public', version: 4, address: addr.toString() } : { kind: 'reserved' };
  }
  const v6 = addr as ipaddr.IPv6;
  if (range === 'uniqueLocal') return { kind: 'private' };
  // Only 2000::/3 is allocated as global unicast; ipaddr.js calls everything it has no name for "unicast".
  const globalUnicast = (v6.parts[0] & 0xe000) === 0x2000;
  return LOOKUP_V6.has(range) && globalUnicast
    ? { kind: 'public', version: 6, address: v6.toNormalizedString() }
    : { kind: 'reserved' };
}

type SpecialRanges = Record<string, [ipaddr.IPv4, number] | [ipaddr.IPv4, number][]>;

/**
 * The IPv4 space classifyAddress calls public, as [first, last] address numbers in ascending order: all of it but the
 * special-purpose blocks of ipaddr.js (its `SpecialRanges`, which `range()` matches) that LOOKUP_V4 does not look up.
 * For drawing public addresses (random users) without parsing and classifying every draw.
 */
export function publicIpv4Blocks(): [number, number][] {
  const ranges = (ipaddr.IPv4.prototype as unknown as { SpecialRanges: SpecialRanges }).SpecialRanges;
  const excluded: [number, number][] = [];
  for (const [name, value] of Object.entries(ranges)) {
    if (LOOKUP_V4.has(name)) continue;
    const list = Array.isArray(value[0]) ? (value as [ipaddr.IPv4, number][]) : [value as [ipaddr.IPv4, number]];
    for (const [net, bits] of list) {
      const first = ipv4ToNumber(net.toString());
      excluded.push([first, first + 2 ** (32 - bits) - 1]);
    }
  }
  excluded.sort((a, b) => a[0] - b[0]);
  const blocks: [number, number][] = [];
  let next = 0;
  for (const [first, last] of excluded) {
    if (first > next) blocks.push([next, first - 1]);
    next = Math.max(next, last + 1);
  }
  if (next <= 2 ** 32 - 1) blocks.push([next, 2 ** 32 - 1]);
  return blocks;
}

/** Dotted text of an IPv4 address number. */
export const ipv4Text = (n: number): string => `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;

/** An IPv4 address as an unsigned 32-bit number. */
export function ipv4ToNumber(address: string): number {
  const p = address.split('.');
  return ((Number(p[0]) << 24) | (Number(p[1]) << 16) | (Number(p[2]) << 8) | Number(p[3])) >>> 0;
}

/** An IPv6 address as its high and low 64 bits. */
export function ipv6ToHalves(address: string): [bigint, bigint] {
  const parts = ipaddr.IPv6.parse(address).parts;
  let hi = 0n;
  let lo = 0n;
  for (let i = 0; i < 4; i++) hi = (hi << 16n) | BigInt(parts[i]);
  for (let i = 4; i < 8; i++) lo = (lo << 16n) | BigInt(parts[i]);
  return [hi, lo];
}
