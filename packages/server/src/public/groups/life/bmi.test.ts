import { describe, expect, it } from 'vitest';
import { computeBmi } from './bmi.js';

const round1 = (n: number) => Math.round(n * 10) / 10;

describe('BMI', () => {
  it('computes weight / height² rounded to two decimals', () => {
    // 70 / 1.75² = 22.857…: rounded, not cut to 22.85.
    expect(computeBmi(175, 70).bmi).toBe(22.86);
    expect(computeBmi(160, 50).bmi).toBe(19.53);
    // 22.845 exactly (100 cm): half up, despite float noise in the division.
    expect(computeBmi(100, 22.845).bmi).toBe(22.85);
    expect(computeBmi(200, 91.38).bmi).toBe(22.85);
  });

  it('shows the correctly rounded value for every height and weight on a grid', () => {
    for (let h = 140; h <= 210; h += 1)
      for (let w = 400; w <= 1200; w += 7) {
        const weight = w / 10;
        // Exact integer arithmetic on w tenths of a kilogram: BMI×100 = w×10⁵ / h².
        const num = BigInt(w) * 10n ** 5n;
        const den = BigInt(h * h);
        const expected = Number((num * 2n + den) / (den * 2n)) / 100;
        expect(computeBmi(h, weight).bmi, `${h} cm ${weight} kg`).toBe(expected);
      }
  });

  it('classifies the exact value: 23.96 is still normal in China, 27.99 still overweight', () => {
    expect(computeBmi(100, 23.96)).toMatchObject({ bmi: 23.96, category: '正常' });
    // Shown rounded (24), classified exact (23.999 < 24).
    expect(computeBmi(100, 23.999)).toMatchObject({ bmi: 24, category: '正常' });
    expect(computeBmi(100, 27.99).category).toBe('超重');
    expect(computeBmi(100, 18.49).category).toBe('偏瘦');
    expect(computeBmi(100, 24.96, 'who').category).toBe('正常');
    // 175 cm, 73.4 kg: BMI 23.967…, which one-decimal rounding used to call 超重.
    expect(computeBmi(175, 73.4).category).toBe('正常');
  });

  it('keeps the healthy weight range inside the healthy BMI range at both ends', () => {
    for (let h = 140; h <= 210; h += 0.5) {
      const r = computeBmi(h, 60);
      expect(computeBmi(h, r.healthyWeight.min).category, `${h} min`).toBe('正常');
      expect(computeBmi(h, r.healthyWeight.max).category, `${h} max`).toBe('正常');
      expect(computeBmi(h, round1(r.healthyWeight.min - 0.1)).category, `${h} below`).toBe('偏瘦');
      expect(computeBmi(h, round1(r.healthyWeight.max + 0.1)).category, `${h} above`).toBe('超重');
    }
  });

  it('applies the Chinese thresholds 18.5 / 24 / 28 at their edges', () => {
    // 1.00 m tall: BMI equals the weight.
    expect(computeBmi(100, 18.4).category).toBe('偏瘦');
    expect(computeBmi(100, 18.5).category).toBe('正常');
    expect(computeBmi(100, 23.9).category).toBe('正常');
    expect(computeBmi(100, 24).category).toBe('超重');
    expect(computeBmi(100, 27.9).category).toBe('超重');
    expect(computeBmi(100, 28).category).toBe('肥胖');
  });

  it('applies WHO thresholds on request: 25 is overweight there, normal nowhere in China', () => {
    expect(computeBmi(100, 24.5, 'who').category).toBe('正常');
    expect(computeBmi(100, 24.5, 'china').category).toBe('超重');
    expect(computeBmi(100, 30, 'who').categoryEn).toBe('obese class I');
    expect(computeBmi(100, 40, 'who').categoryEn).toBe('obese class III');
  });

  it('gives the healthy weight range for the height and how far away it is', () => {
    const r = computeBmi(170, 80);
    expect(r.healthyWeight).toEqual({ min: 53.5, max: 69.3 });
    expect(r.toHealthy).toBe(-10.7);
    expect(computeBmi(170, 60).toHealthy).toBe(0);
  });
});
