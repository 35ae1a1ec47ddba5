import { describe, expect, it } from 'vitest';
import { classifyAddress, ipv4Text, ipv4ToNumber, ipv6ToHalves, localScope, publicIpv4Blocks } from './ip-address.js';

describe('classifyAddress', () => {
  it('passes public IPv4 and IPv6 addresses through for lookup', () => {
    expect(classifyAddress('8.8.8.8')).toEqual({ kind: 'public', version: 4, address: '8.8.8.8' });
    expect(classifyAddress('2001:4860:4860::8888')).toEqual({
      kind: 'public',
      version: 6,
      address: '2001:4860:4860:0:0:0:0:8888',
    });
  });

  it('looks up an IPv4-mapped IPv6 address as the IPv4 address it carries', () => {
    expect(classifyAddress('::ffff:8.8.8.8')).toEqual({ kind: 'public', version: 4, address: '8.8.8.8' });
    expect(classifyAddress('::ffff:192.168.0.1')).toEqual({ kind: 'private' });
  });

  it('calls RFC 1918 and unique-local addresses private', () => {
    for (const ip of ['10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', 'fc00::1', 'fdff::1'])
      expect(classifyAddress(ip), ip).toEqual({ kind: 'private' });
    expect(classifyAddress('172.32.0.1').kind).toBe('public');
  });

  it('calls every other special-purpose block reserved', () => {
    const reserved = [
      '0.0.0.0',
      '0.1.2.3',
      '127.0.0.1',
      '169.254.10.10',
      '100.64.0.1',
      '192.0.2.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.251',
      '239.1.1.1',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'ff02::1',
      '2001:db8::1',
      '4000::1',
      '100::1',
    ];
    for (const ip of reserved) expect(classifyAddress(ip), ip).toEqual({ kind: 'reserved' });
  });

  it('rejects what node:net does not accept as an address', () => {
    for (const bad of [
      '',
      'abc',
      '1.2.3',
      '1.2.3.256',
      '01.2.3.4',
      '1.2.3.4 ',
      ' 1.2.3.4',
      '1.2.3.4/8',
      'gggg::1',
      '1:2:3:4:5:6:7:8:9',
      '[::1]',
      '８.８.８.８',
    ])
      expect(classifyAddress(bad), bad).toEqual({ kind: 'invalid' });
  });

  it('accepts a zone id on a link-local address (and calls it reserved)', () => {
    expect(classifyAddress('fe80::1%eth0')).toEqual({ kind: 'reserved' });
  });
});

describe('localScope', () => {
  it('calls loopback this machine, in either version and IPv4-mapped', () => {
    for (const ip of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      expect(localScope(ip), ip).toBe('loopback');
  });

  it('calls private, unique-local, link-local and carrier-grade NAT addresses internal', () => {
    for (const ip of [
      '10.1.2.3',
      '172.16.0.9',
      '192.168.1.5',
      '::ffff:192.168.0.1',
      'fd00::1',
      '169.254.1.1',
      'fe80::1%eth0',
      '100.64.0.1',
    ])
      expect(localScope(ip), ip).toBe('internal');
  });

  it('has nothing to say about public, documentation or invalid addresses', () => {
    for (const ip of ['8.8.8.8', '2001:4860:4860::8888', '198.51.100.7', '224.0.0.251', '', 'abc'])
      expect(localScope(ip), ip).toBeUndefined();
  });
});

describe('address numbers', () => {
  it('turns IPv4 into an unsigned 32-bit number', () => {
    expect(ipv4ToNumber('0.0.0.0')).toBe(0);
    expect(ipv4ToNumber('1.0.0.0')).toBe(16777216);
    expect(ipv4ToNumber('255.255.255.255')).toBe(4294967295);
  });

  it('splits IPv6 into its high and low 64 bits', () => {
    expect(ipv6ToHalves('2001:200::')).toEqual([0x2001_0200_0000_0000n, 0n]);
    expect(ipv6ToHalves('::1')).toEqual([0n, 1n]);
    const [hi, lo] = ipv6ToHalves('2001:200:ffff:ffff:ffff:ffff:ffff:ffff');
    expect((hi << 64n) | lo).toBe(42540528806023212578155541913346768895n);
  });
});

describe('publicIpv4Blocks', () => {
  it('holds exactly the addresses classifyAddress calls public, edges included', () => {
    const blocks = publicIpv4Blocks();
    const kind = (n: number) => classifyAddress(ipv4Text(n)).kind;
    for (const [i, [first, last]] of blocks.entries()) {
      expect(first).toBeLessThanOrEqual(last);
      for (const n of [first, first + 1, (first + last) >>> 1, last - 1, last])
        expect(kind(n), ipv4Text(n)).toBe('public');
      if (first > 0) expect(kind(first - 1), ipv4Text(first - 1)).not.toBe('public');
      if (last < 2 ** 32 - 1) expect(kind(last + 1), ipv4Text(last + 1)).not.toBe('public');
      if (i > 0) expect(first).toBeGreaterThan(blocks[i - 1][1] + 1);
    }
    // 10/8, 127/8, 224/3 and the smaller special blocks: about 86 % of the space is public.
    const size = blocks.reduce((sum, [first, last]) => sum + last - first + 1, 0);
    expect(size / 2 ** 32).toBeGreaterThan(0.84);
    expect(size / 2 ** 32).toBeLessThan(0.88);
    expect(
      blocks.some(([first, last]) => first <= ipv4ToNumber('192.175.48.1') && ipv4ToNumber('192.175.48.1') <= last),
    ).toBe(true);
  });

  it('writes address numbers as dotted text', () => {
    expect(ipv4Text(0)).toBe('0.0.0.0');
    expect(ipv4Text(ipv4ToNumber('223.5.5.5'))).toBe('223.5.5.5');
    expect(ipv4Text(2 ** 32 - 1)).toBe('255.255.255.255');
  });
});
