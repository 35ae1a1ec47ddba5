/**
 * Avatars drawn by DiceBear (`@dicebear/core` + `@dicebear/collection` 9.x, MIT code): the same style and seed give
 * the same picture. Only styles whose artwork licence allows free reuse are offered — CC0 1.0, or CC BY 4.0 with the
 * attribution returned alongside every avatar; the "free for personal and commercial use" styles (avataaars, bottts)
 * are left out because their terms are not a standard licence. Pure: no HTTP framework.
 */
import { createAvatar, type Style } from '@dicebear/core';
import * as collection from '@dicebear/collection';
import type { Rng } from '../../../shared/rng.js';

/** Style key (DiceBear's own kebab-case name) → style. The order is the order documented in OpenAPI and data/README.md. */
export const AVATAR_STYLES = {
  lorelei: collection.lorelei,
  'lorelei-neutral': collection.loreleiNeutral,
  notionists: collection.notionists,
  'notionists-neutral': collection.notionistsNeutral,
  'open-peeps': collection.openPeeps,
  'pixel-art': collection.pixelArt,
  'pixel-art-neutral': collection.pixelArtNeutral,
  thumbs: collection.thumbs,
  identicon: collection.identicon,
  shapes: collection.shapes,
  rings: collection.rings,
  glass: collection.glass,
  adventurer: collection.adventurer,
  'adventurer-neutral': collection.adventurerNeutral,
  'big-ears': collection.bigEars,
  'big-ears-neutral': collection.bigEarsNeutral,
  'big-smile': collection.bigSmile,
  croodles: collection.croodles,
  'croodles-neutral': collection.croodlesNeutral,
  dylan: collection.dylan,
  'fun-emoji': collection.funEmoji,
  micah: collection.micah,
  miniavs: collection.miniavs,
  personas: collection.personas,
  'toon-head': collection.toonHead,
} satisfies Record<string, Style<object>>;

export type AvatarStyle = keyof typeof AVATAR_STYLES;
export const AVATAR_STYLE_KEYS = Object.keys(AVATAR_STYLES) as AvatarStyle[];
/** CC0, so an avatar used without reading the licence fields (e.g. /api/random-user's) needs no attribution. */
export const DEFAULT_AVATAR_STYLE: AvatarStyle = 'lorelei';
export const AVATAR_SIZE = { min: 16, max: 1024, default: 256 } as const;

export interface AvatarLicence {
  /** The artwork's title, e.g. `Adventurer`. */
  title: string;
  creator: string;
  source: string;
  license: { name: string; url: string };
  /** The credit CC BY asks for; null for CC0 and MIT artwork. */
  attribution: string | null;
}

interface StyleMeta {
  title?: string;
  creator?: string;
  source?: string;
  homepage?: string;
  license?: { name: string; url: string };
}

/** Licence facts as DiceBear ships them with each style (so they cannot drift from the installed artwork). */
export function avatarLicence(style: AvatarStyle): AvatarLicence {
  const meta = ((AVATAR_STYLES[style] as { meta?: StyleMeta }).meta ?? {}) as StyleMeta;
  const title = meta.title ?? style;
  const creator = meta.creator ?? 'DiceBear';
  const license = meta.license ?? { name: 'CC0 1.0', url: 'https://creativecommons.org/publicdomain/zero/1.0/' };
  const source = meta.source ?? meta.homepage ?? 'https://www.dicebear.com';
  const attribution = /^CC BY/u.test(license.name)
    ? `“${title}” by ${creator} (${source}), licensed under ${license.name} (${license.url}); remixed by DiceBear`
    : null;
  return { title, creator, source, license, attribution };
}

/** The SVG document, `size` pixels square; it carries the licence in its `<metadata>`. */
export function renderAvatarSvg(style: AvatarStyle, seed: string, size: number = AVATAR_SIZE.default): string {
  return createAvatar(AVATAR_STYLES[style] as Style<object>, { seed, size }).toString();
}

/** A seed for an unseeded request: 12 lower-case letters and digits from the request's rng. */
export function randomSeedText(rng: Rng, length = 12): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[rng.int(alphabet.length)];
  return s;
}
