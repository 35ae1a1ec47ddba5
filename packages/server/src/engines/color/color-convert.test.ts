import { describe, expect, it } from 'vitest';
import { convertColor } from './color-convert.js';
import { cmykOf } from './color-space.js';
import { seededRng } from '../../shared/rng.js';

describe('colour conversion', () => {
  it('converts Tailwind blue-500 #3b82f6 into every notation', () => {
    const c = convertColor('#3b82f6');
    expect(c.hex).toBe('#3b82f6');
    expect(c.hex8).toBeNull();
    expect(c.rgb).toEqual({ r: 59, g: 130, b: 246, css: 'rgb(59, 130, 246)' });
    expect(c.hsl).toMatchObject({ h: 217.2, s: 91.2, l: 59.8 });
    expect(c.hsv).toEqual({ h: 217.2, s: 76, v: 96.5 });
    expect(c.cmyk).toMatchObject({ c: 76, m: 47.2, y: 0, k: 3.5, css: 'device-cmyk(76% 47.2% 0% 3.5%)' });
    expect(c.oklch.l).toBeCloseTo(0.623, 3);
    expect(c.oklch.h).toBeCloseTo(259.8, 0);
    expect(c.lab.l).toBeCloseTo(54.6, 1); // CIELAB D50, as CSS lab()
    expect(c.inGamut).toBe(true);
  });

  it('reads every CSS notation to the same colour', () => {
    for (const input of [
      '3b82f6',
      '#3B82F6',
      'rgb(59 130 246)',
      'rgb(59, 130, 246)',
      'hsl(217.22 91.22% 59.8%)',
      'hwb(217.22 23.14% 3.53%)',
      'oklch(62.31% 0.188 259.81)',
    ]) {
      expect(convertColor(input).hex, input).toBe('#3b82f6');
    }
    expect(convertColor('rebeccapurple')).toMatchObject({ hex: '#663399', cssName: 'rebeccapurple' });
    expect(convertColor('#663399').cssName).toBe('rebeccapurple');
  });

  it('reads Chinese traditional colour names and names nearby colours', () => {
    const c = convertColor('胭脂');
    expect(c.hex).toBe('#9d2933');
    expect(c.chineseName).toMatchObject({ name: '胭脂', deltaE: 0 });
  });

  it('gives WCAG contrast against white and black with the AA/AAA verdicts', () => {
    const blue = convertColor('#3b82f6').contrast;
    expect(blue.white.ratio).toBe(3.67); // 3.678, floored so a ratio just under a threshold never displays as passing
    expect(blue.black.ratio).toBe(5.7);
    expect(blue.better).toBe('black');
    expect(blue.white).toMatchObject({ aa: false, aaLarge: true, aaa: false });
    expect(blue.black).toMatchObject({ aa: true, aaa: false, aaaLarge: true });
    expect(convertColor('black').contrast.white.ratio).toBe(21);
    // #767676 is the classic lightest grey that passes AA on white (4.54:1); #777777 fails (4.48:1).
    expect(convertColor('#767676').contrast.white.aa).toBe(true);
    expect(convertColor('#777777').contrast.white.aa).toBe(false);
  });

  it('keeps alpha and judges contrast of a translucent colour as composited', () => {
    const c = convertColor('rgb(0 0 0 / 50%)');
    expect(c.alpha).toBe(0.5);
    expect(c.hex8).toBe('#00000080');
    expect(c.rgb.css).toBe('rgba(0, 0, 0, 0.5)');
    expect(c.contrast.black.ratio).toBe(1); // black over black
    expect(c.contrast.white.ratio).toBeLessThan(5); // mid grey over white
  });

  it('maps colours outside sRGB into it and says so', () => {
    const c = convertColor('color(display-p3 1 0 0)');
    expect(c.inGamut).toBe(false);
    expect(c.rgb.r).toBe(255);
    expect(convertColor('oklch(70% 0.4 30)').inGamut).toBe(false);
  });

  it('naive CMYK: pure colours and black', () => {
    expect(cmykOf({ mode: 'rgb', r: 1, g: 0, b: 0 })).toEqual({ c: 0, m: 100, y: 100, k: 0 });
    expect(cmykOf({ mode: 'rgb', r: 0, g: 0, b: 0 })).toEqual({ c: 0, m: 0, y: 0, k: 100 });
  });

  it('reads device-cmyk(): percentages or 0–1 numbers, commas, alpha; out-of-range components clamp', () => {
    expect(convertColor('device-cmyk(0% 100% 100% 0%)').hex).toBe('#ff0000');
    expect(convertColor('DEVICE-CMYK(0, 1, 1, 0)').hex).toBe('#ff0000');
    expect(convertColor('device-cmyk(0 0 0 1)').hex).toBe('#000000');
    expect(convertColor('device-cmyk(0% 0% 0% 0% / 50%)')).toMatchObject({ hex: '#ffffff', alpha: 0.5 });
    expect(convertColor('device-cmyk(150% -5% 0% 0%)').hex).toBe('#00ffff');
    for (const bad of ['device-cmyk(1 2 3)', 'device-cmyk(a b c d)', 'device-cmyk(0 0 0 0 0)'])
      expect(() => convertColor(bad), bad).toThrow(/参数 color 无效/);
  });

  it('reads back every notation it prints as the same colour, in gamut, for 1,000 random colours', () => {
    const rng = seededRng('issue-50 colours'); // the same 1,000 colours on every run
    const notations = ['rgb', 'hsl', 'hwb', 'cmyk', 'lab', 'lch', 'oklab', 'oklch'] as const;
    const differ: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const hex = `#${rng.int(0x1000000).toString(16).padStart(6, '0')}`;
      const c = convertColor(hex);
      for (const n of notations) {
        let back: string;
        try {
          const again = convertColor(c[n].css);
          back = again.inGamut ? again.hex : `${again.hex} (out of gamut)`;
        } catch {
          back = 'refused';
        }
        if (back !== hex) differ.push(`${hex} → ${c[n].css} → ${back}`);
      }
    }
    expect(differ.slice(0, 10), `${differ.length} of ${1000 * notations.length} differ`).toEqual([]);
  });

  it('an unknown colour is an error that lists the accepted formats', () => {
    expect(() => convertColor('bluish')).toThrow(
      /参数 color 无效：无法识别的颜色，支持 十六进制.*oklch\(\).*device-cmyk\(\).*中国传统色名.*收到 "bluish"/,
    );
  });
});
