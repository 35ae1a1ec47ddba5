import { describe, expect, it } from 'vitest';
import { converter } from 'culori';
import { seededRng } from '../../shared/rng.js';
import { readFileSync } from 'node:fs';
import {
  BLOCK_SIZE,
  CHINESE_COLORS,
  type ColorBlocksFile,
  blocksFingerprint,
  blocksInUse,
  NAME_THRESHOLD,
  chineseColorByName,
  labOfBytes,
  nearestChineseColor,
  nearestChineseColorExhaustive,
} from './chinese-colors.js';

describe('Chinese traditional colour table', () => {
  it('has over 100 colours, unique names, upper-case #RRGGBB values and pinyin', () => {
    expect(CHINESE_COLORS.length).toBeGreaterThanOrEqual(100);
    const names = CHINESE_COLORS.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    for (const c of CHINESE_COLORS) {
      expect(c.hex).toMatch(/^#[0-9A-F]{6}$/);
      expect(c.pinyin).toMatch(/^[a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü ]+$/);
    }
  });

  it('holds the well-known values of the classic table', () => {
    const hex = (name: string) => chineseColorByName(name)?.hex;
    expect(hex('胭脂')).toBe('#9D2933');
    expect(hex('靛青')).toBe('#177CB0');
    expect(hex('朱砂')).toBe('#FF461F');
    expect(hex('月白')).toBe('#D6ECF0');
    expect(hex('黛')).toBe('#4A4266');
    expect(hex('藕荷色')).toBe('#E4C6D0');
    expect(hex('鹅黄')).toBe('#FFF143');
  });

  it('finds names with or without the trailing 色, and aliases', () => {
    expect(chineseColorByName('樱桃')?.name).toBe('樱桃色');
    expect(chineseColorByName('墨')?.name).toBe('墨色');
    expect(chineseColorByName('赭')?.hex).toBe('#9C5333'); // 赭 and 赭色 are two colours in the table
    expect(chineseColorByName('赭色')?.hex).toBe('#955539');
    expect(chineseColorByName('葱倩')?.name).toBe('葱青');
    expect(chineseColorByName('不是颜色')).toBeUndefined();
  });

  it('names a colour only within the threshold', () => {
    expect(nearestChineseColor('#9d2933')).toMatchObject({ name: '胭脂', deltaE: 0 });
    expect(nearestChineseColor('#9e2a34')?.name).toBe('胭脂');
    const far = nearestChineseColor('#ff00ff'); // magenta: nothing in the table is that colour
    if (far) expect(far.deltaE).toBeLessThanOrEqual(NAME_THRESHOLD);
    expect(nearestChineseColor('#9d2933', 0.5)?.name).toBe('胭脂');
  });

  it('the block search gives the exhaustive answer: one colour of every block, and 3,000 random colours', () => {
    // The shipped block file matches the table (a stale one would be ignored, silently slower).
    expect(blocksInUse()).toBe(true);
    const rng = seededRng('chinese-colors');
    const hexOf = (r: number, g: number, b: number) => `#${((r << 16) | (g << 8) | b).toString(16).padStart(6, '0')}`;
    const colours: string[] = [];
    for (let r = 0; r < 256; r += BLOCK_SIZE)
      for (let g = 0; g < 256; g += BLOCK_SIZE)
        for (let b = 0; b < 256; b += BLOCK_SIZE)
          colours.push(hexOf(r + rng.int(BLOCK_SIZE), g + rng.int(BLOCK_SIZE), b + rng.int(BLOCK_SIZE)));
    for (let i = 0; i < 3000; i++) colours.push(`#${rng.int(0x1000000).toString(16).padStart(6, '0')}`);
    let named = 0;
    for (const hex of colours) {
      const exact = nearestChineseColorExhaustive(hex);
      const fast = nearestChineseColor(hex);
      if (exact.deltaE <= NAME_THRESHOLD) {
        named++;
        expect(fast, hex).toEqual({ ...CHINESE_COLORS[exact.index], deltaE: Math.round(exact.deltaE * 100) / 100 });
      } else expect(fast, hex).toBeNull();
    }
    // About a third of the sRGB cube is within the threshold of a name (data/README.md).
    expect(named / colours.length).toBeGreaterThan(0.25);
    expect(named / colours.length).toBeLessThan(0.45);
    // ~6 s of CPU alone; beside other work on two cores it took 48 s, past the suite's 30 s default. No timing is
    // asserted: the limit only stops a hang.
  }, 180_000);

  it("Lab from 8-bit channels is culori's own lab65, to the last bit: a lattice of the cube, every grey, 20,000 random colours", () => {
    // (Checked once over all 16,777,216 colours when written: no difference.)
    const toLab = converter('lab65');
    const rng = seededRng('lab-of-bytes');
    const colours: Array<[number, number, number]> = [];
    for (let r = 0; r < 256; r += 15)
      for (let g = 0; g < 256; g += 15) for (let b = 0; b < 256; b += 15) colours.push([r, g, b]);
    for (let v = 0; v < 256; v++) colours.push([v, v, v]);
    for (let i = 0; i < 20_000; i++) colours.push([rng.int(256), rng.int(256), rng.int(256)]);
    for (const [r, g, b] of colours) {
      const culori = toLab({ mode: 'rgb', r: r / 255, g: g / 255, b: b / 255 });
      expect(labOfBytes(r, g, b), `${r},${g},${b}`).toEqual({ mode: 'lab65', l: culori.l, a: culori.a, b: culori.b });
    }
  });

  it('colours off the 8-bit grid (lab(), oklch() inputs) get the exhaustive answer too', () => {
    const rng = seededRng('chinese-colors-off-grid');
    for (let i = 0; i < 500; i++) {
      const rgb = { mode: 'rgb' as const, r: rng.int(1e6) / 1e6, g: rng.int(1e6) / 1e6, b: rng.int(1e6) / 1e6 };
      const exact = nearestChineseColorExhaustive(rgb);
      const expected = exact.deltaE <= NAME_THRESHOLD ? CHINESE_COLORS[exact.index].name : null;
      expect(nearestChineseColor(rgb)?.name ?? null).toBe(expected);
    }
  });

  it('every table colour names itself, and a threshold above the naming one is refused', () => {
    for (const c of CHINESE_COLORS) expect(nearestChineseColor(c.hex)).toMatchObject({ name: c.name, deltaE: 0 });
    expect(() => nearestChineseColor('#9d2933', NAME_THRESHOLD + 1)).toThrow(RangeError);
  });

  it('the block file was built from this table and threshold', () => {
    const file = JSON.parse(
      readFileSync(new URL('../../../../../data/chinese-color-blocks.json', import.meta.url), 'utf8'),
    ) as ColorBlocksFile;
    expect(file.fingerprint, 'rebuild it: npx tsx scripts/build-chinese-color-blocks.ts').toBe(blocksFingerprint());
    expect(file.blocks.flat()).toHaveLength((256 / BLOCK_SIZE) ** 3);
  });
});
