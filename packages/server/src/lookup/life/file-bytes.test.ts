import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
    const rest = f.slice(4094) as FileBytes;
    expect(rest.length).toBe(10_000 - 4094);
    expect(rest.readUInt32BE(0)).toBe(bytes.readUInt32BE(4094));
    expect(rest.slice(2, 4)).toEqual(bytes.subarray(4096, 4098));
    expect(() => f.readUInt32BE(9997)).toThrow(RangeError);
    f.close();
  });
});
