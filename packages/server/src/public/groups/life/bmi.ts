/**
 * Body-mass index with the Chinese adult standard (WS/T 428-2013: < 18.5 underweight, 18.5–23.9 normal,
 * 24–27.9 overweight, ≥ 28 obese) or the WHO classification (< 18.5, 18.5–24.9, 25–29.9, ≥ 30 with three grades).
 */
export type BmiStandard = 'china' | 'who';

interface Band {
  upTo: number; // exclusive upper bound of BMI
  category: string;
  categoryEn: string;
}

const BANDS: Record<BmiStandard, Band[]> = {
  china: [
    { upTo: 18.5, category: '偏瘦', categoryEn: 'underweight' },
    { upTo: 24, category: '正常', categoryEn: 'normal' },
    { upTo: 28, category: '超重', categoryEn: 'overweight' },
    { upTo: Infinity, category: '肥胖', categoryEn: 'obese' },
  ],
  who: [
    { upTo: 16, category: '重度消瘦', categoryEn: 'severe thinness' },
    { upTo: 17, category: '中度消瘦', categoryEn: 'moderate thinness' },
    { upTo: 18.5, category: '轻度消瘦', categoryEn: 'mild thinness' },
    { upTo: 25, category: '正常', categoryEn: 'normal' },
    { upTo: 30, category: '超重', categoryEn: 'pre-obese' },
    { upTo: 35, category: 'I 度肥胖', categoryEn: 'obese class I' },
    { upTo: 40, category: 'II 度肥胖', categoryEn: 'obese class II' },
    { upTo: Infinity, category: 'III 度肥胖', categoryEn: 'obese class III' },
  ],
};

/** The healthy BMI range of each standard: [lower inclusive, upper exclusive). */
const HEALTHY: Record<BmiStandard, [number, number]> = { china: [18.5, 24], who: [18.5, 25] };

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export interface BmiResult {
  /** weight / height², rounded half up to two decimals. */
  bmi: number;
  category: string;
  categoryEn: string;
  standard: BmiStandard;
  height: number;
  weight: number;
  healthyBmi: { min: number; max: number };
  healthyWeight: { min: number; max: number };
  /** kg to gain (negative: to lose) to reach the nearest edge of the healthy range; 0 when inside it. */
  toHealthy: number;
}

/**
 * Two decimals, rounded half up (22.857… shows 22.86). Hundredths are first rounded to 6 decimals so float noise
 * (70.1 / 2² × 100 = 1752.4999…) does not move an exact half down. The category is still decided on the exact
 * BMI, so 23.996 shows 24 and stays 正常: the shown figure is a rounding, the band edge is `< 24`.
 */
const round2 = (n: number) => Math.round(round(n * 100, 6)) / 100;

/** `heightCm` in centimetres, `weightKg` in kilograms. The category is decided on the exact BMI, not on a rounded one. */
export function computeBmi(heightCm: number, weightKg: number, standard: BmiStandard = 'china'): BmiResult {
  const m = heightCm / 100;
  const exact = weightKg / (m * m);
  const bmi = round2(exact);
  const band = BANDS[standard].find((b) => exact < b.upTo)!;
  const [lo, hi] = HEALTHY[standard];
  // Weights to 0.1 kg: the lightest with BMI ≥ lo, and the heaviest with BMI < hi (exactly hi is already outside).
  const minW = round(Math.ceil(round(lo * m * m * 10, 6)) / 10, 1);
  const maxW = round(Math.ceil(round(hi * m * m * 10, 6)) / 10 - 0.1, 1);
  const toHealthy = weightKg < minW ? round(minW - weightKg, 1) : weightKg > maxW ? round(maxW - weightKg, 1) : 0;
  return {
    bmi,
    category: band.category,
    categoryEn: band.categoryEn,
    standard,
    height: heightCm,
    weight: weightKg,
    healthyBmi: { min: lo, max: round(hi - 0.1, 1) },
    healthyWeight: { min: minW, max: maxW },
    toHealthy,
  };
}
