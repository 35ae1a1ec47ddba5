/**
 * data/ip-gazetteer.json (scripts/build-ip-gazetteer.ts) replaces importing `country-state-city` at run time. These
 * tests hold it to the package: every lookup ip-region makes gives what the package itself gives, computed here the
 * way engines/ip/ip-gazetteer.ts computed it from the package before the file existed.
 */
import tzAt from '@photostructure/tz-lookup';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type * as Package from 'country-state-city';
import { chinaCity, countryCentre, placeKey, subdivision } from '../src/engines/ip/ip-gazetteer.js';

const require = createRequire(import.meta.url);
const { City, Country, State } = require('country-state-city') as typeof Package;
const TAIL = /(province|prefecture|state|region|county|governorate|oblast|autonomousregion)$/u;

describe('ip-gazetteer: the shipped file answers as country-state-city does', () => {
  it('was built from the installed version of the package', async () => {
    const { readFile } = await import('node:fs/promises');
    const file = JSON.parse(await readFile(new URL('../../../data/ip-gazetteer.json', import.meta.url), 'utf8'));
    const { version } = require('country-state-city/package.json') as { version: string };
    // After an upgrade of the package: npx tsx scripts/build-ip-gazetteer.ts
    expect(file.source).toBe(`country-state-city ${version}`);
  });

  it('gives every country’s centre and a time zone: its only one, else the one at the centre', () => {
    const countries = Country.getAllCountries();
    expect(countries.length).toBeGreaterThan(240);
    let atCentre = 0;
    for (const c of countries) {
      const zones = (c.timezones ?? []).map((z) => z.zoneName);
      const [lat, lon] = [Number(c.latitude), Number(c.longitude)];
      const centre = countryCentre(c.isoCode)!;
      expect({ lat: centre.lat, lon: centre.lon }, c.isoCode).toEqual({ lat, lon });
      expect(() => new Intl.DateTimeFormat('en', { timeZone: centre.timezone }), c.isoCode).not.toThrow();
      if (c.isoCode === 'CN') expect(centre.timezone).toBe('Asia/Shanghai');
      else if (zones.length === 1) expect(centre.timezone, c.isoCode).toBe(zones[0]);
      else {
        const here = tzAt(lat, lon);
        expect(centre.timezone, c.isoCode).toBe(here.startsWith('Etc/') && zones.length ? zones[0] : here);
        atCentre++;
      }
    }
    expect(countryCentre('US')?.timezone).toBe('America/Chicago');
    expect(countryCentre('RU')?.timezone).toMatch(/^Asia\//);
    expect(atCentre).toBeGreaterThan(10);
  });

  it('finds every first-level subdivision by its name, with and without a descriptive tail, as the package’s first match', () => {
    let checked = 0;
    for (const c of Country.getAllCountries()) {
      // The package's states in its order; a name key belongs to the first state that has it.
      const first = new Map<string, Package.IState>();
      for (const s of State.getStatesOfCountry(c.isoCode))
        for (const key of [placeKey(s.name), placeKey(s.name).replace(TAIL, '')])
          if (key && !first.has(key)) first.set(key, s);
      for (const s of State.getStatesOfCountry(c.isoCode)) {
        const want = first.get(placeKey(s.name)) ?? first.get(placeKey(s.name).replace(TAIL, ''));
        expect(subdivision(c.isoCode, s.name), `${c.isoCode} ${s.name}`).toEqual({
          code: want!.isoCode,
          name: want!.name,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(4000);
    expect(subdivision('CN', 'Guangdong Province')?.code).toBe('GD');
    expect(subdivision('US', 'Atlantis')).toBeUndefined();
  });

  it('finds every mainland Chinese city by province code and pinyin name, as the package’s first match', () => {
    const first = new Map<string, Package.ICity>();
    for (const c of City.getCitiesOfCountry('CN') ?? []) {
      const key = `${c.stateCode}|${placeKey(c.name)}`;
      if (!first.has(key)) first.set(key, c);
    }
    expect(first.size).toBeGreaterThan(1000);
    for (const [key, c] of first) {
      const [province, name] = key.split('|');
      expect(chinaCity(province, name), key).toEqual({ lat: Number(c.latitude), lon: Number(c.longitude) });
    }
    expect(chinaCity('GD', 'Shen Zhen')).toEqual(chinaCity('GD', 'Shenzhen'));
  });
});
