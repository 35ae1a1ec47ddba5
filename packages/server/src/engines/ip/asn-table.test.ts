import { describe, expect, it } from 'vitest';
import { AsnTable } from './asn-table.js';

const V4 = [
  '16777216,16777471,13335,"Cloudflare, Inc."',
  '16778240,16779263,38803,Gtelecom Pty Ltd',
  '35309568,35313663,201907,"LLC ""SPUTNIK"""',
  '134744064,134744319,15169,Google LLC',
  '',
].join('\n');
// 2001:200::/39 and 2001:4860::/32, as the package writes them (decimal 128-bit numbers), with CRLF line ends.
const V6 = [
  '42540528726795050063891204319802818560,42540528727329395276160870415022948351,2500,WIDE Project',
  '42541956101370907050197289607612071936,42541956180599069564461627201156022271,15169,Google LLC',
].join('\r\n');

const table = AsnTable.fromCsv(Buffer.from(V4), Buffer.from(V6));

describe('AsnTable', () => {
  it('reads every row, skipping blank lines', () => {
    expect(table.size).toBe(6);
  });

  it('finds the AS of an IPv4 address, range ends included', () => {
    expect(table.lookup('1.0.0.0', 4)).toEqual({ number: 13335, organization: 'Cloudflare, Inc.' });
    expect(table.lookup('1.0.0.255', 4)).toEqual({ number: 13335, organization: 'Cloudflare, Inc.' });
    expect(table.lookup('8.8.8.8', 4)).toEqual({ number: 15169, organization: 'Google LLC' });
  });

  it('unquotes organisation names, including doubled quotes', () => {
    expect(table.lookup('2.26.200.1', 4)?.organization).toBe('LLC "SPUTNIK"');
  });

  it('answers nothing for addresses between or outside the ranges', () => {
    expect(table.lookup('1.0.1.0', 4)).toBeUndefined(); // after the first range, before the second
    expect(table.lookup('0.255.255.255', 4)).toBeUndefined(); // before every range
    expect(table.lookup('200.1.1.1', 4)).toBeUndefined(); // after every range
  });

  it('finds the AS of an IPv6 address by its full 128 bits', () => {
    expect(table.lookup('2001:200::1', 6)).toEqual({ number: 2500, organization: 'WIDE Project' });
    expect(table.lookup('2001:4860:4860::8888', 6)).toEqual({ number: 15169, organization: 'Google LLC' });
    expect(table.lookup('2001:4861::1', 6)).toBeUndefined();
    expect(table.lookup('2001:1ff::1', 6)).toBeUndefined();
  });
});
