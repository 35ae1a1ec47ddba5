import { describe, expect, it } from 'vitest';
import { computeBmi } from './bmi.js';

describe('BMI', () => {
  it('computes weight / height² to one decimal', () => {
    expect(computeBmi(175, 70).bmi).toBe(22.9);
    expect(computeBmi(160, 50).bmi).toBe(19.5);
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
    expect(r.healthyWeight).toEqual({ min: 53.5, max: 69.2 });
    expect(r.toHealthy).toBe(-10.8);
    expect(computeBmi(170, 60).toHealthy).toBe(0);
  });
});
