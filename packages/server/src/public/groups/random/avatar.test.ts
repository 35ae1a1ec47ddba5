import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { AVATAR_STYLE_KEYS, DEFAULT_AVATAR_STYLE, avatarLicence, randomSeedText, renderAvatarSvg } from './avatar.js';
import { seededRng } from '../../../shared/rng.js';

describe('avatars', () => {
  it('draw every offered style as a parseable SVG of the requested size, the same for the same seed', () => {
    for (const style of AVATAR_STYLE_KEYS) {
      const svg = renderAvatarSvg(style, 'tianji', 128);
      const r = new Resvg(svg, { font: { loadSystemFonts: false } });
      expect([r.width, r.height], style).toEqual([128, 128]);
      expect(renderAvatarSvg(style, 'tianji', 128)).toBe(svg);
    }
    expect(renderAvatarSvg('lorelei', 'a')).not.toBe(renderAvatarSvg('lorelei', 'b'));
  });

  it('offer only CC0, MIT or CC BY artwork, and give the attribution CC BY requires', () => {
    for (const style of AVATAR_STYLE_KEYS) {
      const l = avatarLicence(style);
      expect(l.license.name, style).toMatch(/^(CC0 1\.0|CC BY 4\.0|MIT)$/);
      if (l.license.name === 'CC BY 4.0') expect(l.attribution, style).toContain(l.creator);
      else expect(l.attribution, style).toBeNull();
    }
    expect(AVATAR_STYLE_KEYS).not.toContain('avataaars');
    expect(avatarLicence(DEFAULT_AVATAR_STYLE).license.name).toBe('CC0 1.0');
    expect(avatarLicence('adventurer')).toMatchObject({ creator: 'Lisa Wischofsky', license: { name: 'CC BY 4.0' } });
  });

  it('make random seeds of 12 letters and digits', () => {
    expect(randomSeedText(seededRng('x'))).toMatch(/^[a-z0-9]{12}$/);
  });
});
