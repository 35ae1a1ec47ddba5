import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/zh.json'));
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

export interface DialingCode {
  /** ISO 3166-1 alpha-2 */
  iso2: string;
  iso3: string;
  name: string;
  nameEn: string;
  /** Country calling code without the plus, e.g. "86" */
  code: string;
  /** The same with the plus, e.g. "+86" */
  dial: string;
}

/** Every region libphonenumber knows, with Chinese and English names from i18n-iso-countries. */
export function buildDialingCodes(): DialingCode[] {
  return getCountries()
    .map((iso2) => {
      const code = getCountryCallingCode(iso2 as CountryCode);
      return {
        iso2,
        iso3: countries.alpha2ToAlpha3(iso2) ?? '',
        name: countries.getName(iso2, 'zh') ?? iso2,
        nameEn: countries.getName(iso2, 'en') ?? iso2,
        code,
        dial: `+${code}`,
      };
    })
    .sort((a, b) => Number(a.code) - Number(b.code) || a.iso2.localeCompare(b.iso2));
}

/**
 * Matching: `+86` / `86` / `0086` → by calling code (exact); two or three latin letters → ISO code first, then names;
 * otherwise a Chinese or English name fragment (case-insensitive). Empty keyword → all.
 */
export function searchDialingCodes(all: DialingCode[], keyword?: string): DialingCode[] {
  const k = (keyword ?? '').trim();
  if (!k) return all;
  const digits = /^(?:\+|00)?(\d{1,4})$/.exec(k);
  if (digits) return all.filter((c) => c.code === digits[1]);
  const lower = k.toLowerCase();
  if (/^[a-z]{2,3}$/i.test(k)) {
    const iso = all.filter((c) => c.iso2.toLowerCase() === lower || c.iso3.toLowerCase() === lower);
    if (iso.length) return iso;
  }
  return all.filter((c) => c.name.includes(k) || c.nameEn.toLowerCase().includes(lower));
}
