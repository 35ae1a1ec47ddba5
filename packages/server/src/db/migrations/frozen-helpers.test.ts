import { describe, expect, it } from 'vitest';
import { roleNameKey as liveRoleNameKey } from '../../admin/roles/name-key.js';
import { usernameKey as liveUsernameKey } from '../../admin/shared/username-key.js';
import { libraryByName } from '../../catalogue/content-libraries.js';
import { searchTextOf } from '../../content/repository.js';
import { readDataJson as liveReadDataJson } from '../../data-files.js';
import { readDataJson, roleNameKey, SEARCH_FIELDS, searchText, usernameKey } from './frozen-helpers.js';

/**
 * The frozen copies against the live helpers, where the two must still agree: what the migrations stored (a username
 * key, a search text) is what the server computes and looks up today, and role names 0012 made unique are unique as
 * the server compares them. A failure here means the live helper changed: that change needs a migration of its own
 * (re-keying users, recomputing search_text, renaming roles), not an edit of the frozen copy.
 *
 * 0014's normaliseText is not compared: the live one has since also folded variant characters (隣 → 邻), and 0014
 * keeps the comparison it shipped with.
 */

/** Every code point of the Basic Multilingual Plane but the surrogates, alone, and names that fold in known ways. */
const NAMES = [
  ...Array.from({ length: 0x10000 }, (_, c) => c)
    .filter((c) => c < 0xd800 || c > 0xdfff)
    .map((c) => String.fromCharCode(c)),
  ...[
    'Admin',
    'ＡＤＭＩＮ',
    'ǅemal',
    'İstanbul',
    'STRASSE',
    'ẞ',
    'ΣΊΣΥΦΟΣ',
    'ﬀ',
    '㍿',
    'zhang.san',
    'ｚｈａｎｇ＿ｓａｎ',
  ],
  ...['超级管理员', '超级管理员 ', '超级 管理员', '超级管理员\u200b', '\u00a0运营\u3000', 'A\u0301dmin', 'e\u0301'],
];

describe('usernameKey (0005) and roleNameKey (0012)', () => {
  it('give the key sign-in looks accounts up by today', () => {
    expect(NAMES.filter((n) => usernameKey(n) !== liveUsernameKey(n))).toEqual([]);
  });

  it('compare role names as the roles service does today', () => {
    expect(NAMES.filter((n) => roleNameKey(n) !== liveRoleNameKey(n))).toEqual([]);
  });
});

describe('searchText (0013, 0014, 0020, 0021)', () => {
  it('reads the same data folder as the server', () => {
    expect(readDataJson('holidays.json')).toEqual(liveReadDataJson('holidays.json'));
    expect(readDataJson('content/no-such-file.json')).toBeUndefined();
  });

  for (const name of Object.keys(SEARCH_FIELDS) as Array<keyof typeof SEARCH_FIELDS>) {
    it(`gives the ${name} rows the search text the server writes today`, () => {
      const lib = libraryByName.get(name)!;
      expect(SEARCH_FIELDS[name]).toEqual(lib.searchFields);
      const raw = liveReadDataJson(lib.seedFile);
      const items = (lib.fromSeedFile ? lib.fromSeedFile(raw) : raw) as Array<Record<string, unknown>>;
      if (name === 'poems') {
        // The corrected poems 0013 writes, too.
        const { changes } = readDataJson<{ changes: Record<string, unknown> }>('content/poems-0013-changes.json')!;
        for (const c of Object.values(changes)) if (Array.isArray(c)) items.push(c[1] as Record<string, unknown>);
      }
      expect(items.length).toBeGreaterThan(0);
      const differ = items.filter(
        ({ id: _, ...data }) => searchText(SEARCH_FIELDS[name], data) !== searchTextOf(lib, data),
      );
      expect(differ).toEqual([]);
    });
  }
});
