/**
 * Faster versions of two @zxcvbn-ts/core v3 dictionary-matcher methods, with the same output, match for match
 * and in the same order (password-matchers.test.ts compares a corpus of over a thousand passwords against the
 * unpatched library; a @zxcvbn-ts/core upgrade that changes these internals fails it). A profile of v3 on
 * ordinary passwords showed almost all the time in two places:
 *
 * - `MatchL33t.match` checks each candidate against every match kept so far (`isAlreadyIncluded`, through
 *   `Object.entries` on each): quadratic in the matches, half the CPU on ordinary passwords and most of it on
 *   crafted 64-character l33t strings. It also builds the extras of every dictionary match of every substitution
 *   variant before dropping those without a substitution. Here: a set of kept keys, and the drop comes first.
 * - `MatchDictionary.defaultMatch` slices every substring once per dictionary (seven of them) and looks it up in
 *   each; the l33t matcher calls it again for every substitution variant (up to 100). Here: all dictionaries
 *   compiled into one trie (password-word-index.ts), walked from each position character by character, so no
 *   substring is sliced or hashed unless it is a word and the walk stops as soon as no word continues; for l33t
 *   variants only the words that contain a substitution are kept; matches are emitted dictionary by dictionary as
 *   before.
 * - The l33t variants (up to 100, built depth first) mostly share their beginning with an earlier one: a match that
 *   ends inside the shared part is the same match, so only matches that end past it are looked up. This cut the
 *   crafted 64-character inputs from about 120 ms to 14 ms and ordinary l33t-ish passwords by about 40 %. The trie
 *   walks over the shared part are kept too, and resumed where the variants part (Walks).
 * - The variants themselves are listed by cleanPasswords, v3's getCleanPasswords without its repeated trie walks
 *   and string joins; and the search for the least guessable split is password-scoring.ts's. With these three, an
 *   ordinary password of the bench's mix took about a third less CPU (0.86 → 0.54 ms on a slow 2-core machine), and
 *   3–4 % less again with the shorter dedupe key (keyOf).
 *
 * Where the fast path could differ from v3 it steps aside and calls the original: Levenshtein matching turned on,
 * or a substring that names an Object.prototype member (v3's `in` finds `constructor` and `__proto__` there).
 */
import { createRequire } from 'node:module';
import { installFastScoring, uninstallFastScoring } from './password-scoring.js';
import {
  buildWordIndex,
  childOf,
  hasWord,
  rankIn,
  type SharedWordIndex,
  shareWordIndex,
  type WordIndex,
} from './password-word-index.js';

interface DictionaryMatch {
  pattern: 'dictionary';
  i: number;
  j: number;
  token: string;
  matchedWord: string;
  rank: number;
  dictionaryName: string;
  reversed: boolean;
  l33t: boolean;
  subDisplay?: string;
}

interface ZxcvbnOptionsLike {
  l33tMaxSubstitutions: number;
  trieNodeRoot: unknown;
  rankedDictionaries: Record<string, Record<string, number>>;
  rankedDictionariesMaxWordSize: Record<string, number>;
  useLevenshteinDistance: boolean;
}

type DefaultMatch = (args: { password: string; useLevenshtein?: boolean }) => DictionaryMatch[];
type L33tMatchFn = (args: { password: string }) => DictionaryMatch[];

// The CommonJS build is the one Node loads for `import … from '@zxcvbn-ts/core'` (the package has no "exports"
// and its ESM build is only named in "module", which Node ignores): patch the very classes zxcvbn() uses.
const require = createRequire(import.meta.url);
const core = require('@zxcvbn-ts/core') as { zxcvbnOptions: ZxcvbnOptionsLike };
const MatchDictionary = require('@zxcvbn-ts/core/dist/matcher/dictionary/matching.js') as {
  prototype: { defaultMatch: DefaultMatch };
};
const MatchL33t = require('@zxcvbn-ts/core/dist/matcher/dictionary/variants/matching/l33t.js') as {
  prototype: { match: L33tMatchFn };
};
/** A node of v3's l33t substitution trie (unmunger/TrieNode.js): the characters typed so far, the letters they stand for. */
interface SubstitutionNode {
  parents: string[];
  subs?: string[];
  getChild(c: string): SubstitutionNode | undefined;
}

const original = {
  defaultMatch: MatchDictionary.prototype.defaultMatch,
  l33tMatch: MatchL33t.prototype.match,
};

let index: WordIndex | undefined;

function currentIndex(options: ZxcvbnOptionsLike): WordIndex {
  const names = Object.keys(options.rankedDictionaries);
  if (
    index &&
    names.length === index.names.length &&
    names.every((n, k) => n === index!.names[k] && options.rankedDictionaries[n] === index!.dictionaries[k])
  )
    return index;
  // New or changed dictionaries (setOptions, userInputs): rebuild.
  const dictionaries = names.map((n) => options.rankedDictionaries[n]);
  index = buildWordIndex(names, dictionaries, options.rankedDictionariesMaxWordSize);
  return index;
}

/** Object.prototype members a lowercase substring can spell; v3's `word in dictionary` finds them. */
const PROTOTYPE_WORDS = /constructor|__proto__/;

function defaultMatch(this: unknown, args: { password: string; useLevenshtein?: boolean }): DictionaryMatch[] {
  const { password, useLevenshtein = true } = args;
  const options = core.zxcvbnOptions;
  const lower = password.toLowerCase();
  if ((options.useLevenshteinDistance && useLevenshtein) || PROTOTYPE_WORDS.test(lower))
    return original.defaultMatch.call(this, args);
  return matchWords(password, lower, currentIndex(options), (i) => i);
}

/**
 * Trie walks of one password's l33t variants, kept from variant to variant: `nodes[i * stride + j]` is the trie node
 * the walk from i reached after the character at j, valid for j ≤ reach[i] (the walk from i ended past reach[i]:
 * no word continues, or the variant ended). Variants that agree up to an index (same characters up to there) share
 * every walk up to it, so the next variant resumes each walk there instead of starting it again.
 */
interface Walks {
  nodes: Int32Array;
  reach: Int32Array;
  stride: number;
  /** The last index up to which the variant being matched agrees with the one walked before it (−1: none). */
  agreed: number;
}

function newWalks(length: number): Walks {
  return { nodes: new Int32Array(length * length), reach: new Int32Array(length), stride: length, agreed: -1 };
}

/**
 * Every (dictionary word, position) match in `password` whose j is at least firstJ(i), in v3's order: dictionary
 * by dictionary, then i, then j. `lower` is the lower-cased password (v3 indexes it with the password's indexes).
 * With `walks`, only matches that end past `walks.agreed` are looked for (those ending earlier are the previous
 * variant's), and the walks are resumed from, and kept for, the neighbouring variants.
 */
function matchWords(
  password: string,
  lower: string,
  idx: WordIndex,
  firstJ: (i: number) => number,
  walks?: Walks,
): DictionaryMatch[] {
  const n = password.length;
  const { hitStart, hitDictionary, hitRank, names } = idx;
  const perDictionary: DictionaryMatch[][] = [];
  for (let i = 0; i < n; i += 1) {
    const from = firstJ(i);
    let node = 0;
    let j = i;
    if (walks && i <= walks.agreed) {
      // The walk from i ended at or before the agreed index in the variant before: it ends there in this one too.
      if (walks.reach[i] < walks.agreed) continue;
      node = walks.nodes[i * walks.stride + walks.agreed];
      j = walks.agreed + 1;
    }
    for (; j < n; j += 1) {
      node = childOf(idx, node, lower.charCodeAt(j));
      // No word continues with this character.
      if (node < 0) break;
      if (walks) walks.nodes[i * walks.stride + j] = node;
      if (j < from || hitStart[node] === hitStart[node + 1]) continue;
      const word = lower.slice(i, j + 1);
      const token = password.slice(i, j + 1);
      for (let h = hitStart[node]; h < hitStart[node + 1]; h++) {
        const d = hitDictionary[h];
        // Same object shape and key order as v3's, so later spreads and comparisons see the same thing.
        (perDictionary[d] ??= []).push({
          pattern: 'dictionary',
          i,
          j,
          token,
          matchedWord: word,
          rank: hitRank[h],
          dictionaryName: names[d],
          reversed: false,
          l33t: false,
        });
      }
    }
    if (walks) walks.reach[i] = j - 1;
  }
  return perDictionary.flatMap((m) => m ?? []);
}

export interface SubbedPassword {
  password: string;
  /** Substitutions undone, at their index in the subbed password. */
  changes: Array<{ i: number; letter: string; substitution: string }>;
}

/** A substitution that can be undone at a position: the typed characters up to `next`, the letters they stand for. */
interface Substitution {
  next: number;
  substitution: string;
  letters: string[];
}

/**
 * v3's getCleanPasswords (unmunger/getCleanPasswords.js): the same variants with the same changes, in the same
 * depth-first order and cut at the same `limit`. v3 walks the substitution trie again at every step of its
 * recursion and joins each node's characters into a string three times per letter; here the substitutions that can
 * be undone at each position are listed once (longest first, as v3 tries them), and each variant's text is built as
 * it goes instead of joined from a buffer at the end.
 */
export function cleanPasswords(password: string, limit: number, trieRoot: SubstitutionNode): SubbedPassword[] {
  const n = password.length;
  const at: Substitution[][] = [];
  for (let index = 0; index < n; index++) {
    const here: Substitution[] = [];
    let node: SubstitutionNode | undefined = trieRoot;
    for (let i = index; i < n; i++) {
      node = node.getChild(password.charAt(i));
      if (!node) break;
      if (node.subs) here.unshift({ next: i + 1, substitution: node.parents.join(''), letters: node.subs });
    }
    at.push(here);
  }
  const variants: SubbedPassword[] = [];
  const helper = (
    onlyFullSub: boolean,
    isFullSub: boolean,
    index: number,
    subIndex: number,
    text: string,
    changes: SubbedPassword['changes'],
    lastSubLetter: string | undefined,
    consecutiveSubCount: number,
  ): void => {
    if (variants.length >= limit) return;
    if (index === n) {
      if (onlyFullSub === isFullSub) variants.push({ password: text, changes });
      return;
    }
    let hasSubs = false;
    for (const { next, substitution, letters } of at[index]) {
      // v3: not a fourth substitution of the same characters in a row.
      if (lastSubLetter === substitution && consecutiveSubCount >= 3) continue;
      hasSubs = true;
      for (const letter of letters) {
        helper(
          onlyFullSub,
          isFullSub,
          next,
          subIndex + letter.length,
          text + letter,
          changes.concat({ i: subIndex, letter, substitution }),
          substitution,
          lastSubLetter === substitution ? consecutiveSubCount + 1 : 1,
        );
        if (variants.length >= limit) return;
      }
    }
    if (!onlyFullSub || !hasSubs) {
      helper(
        onlyFullSub,
        isFullSub && !hasSubs,
        index + 1,
        subIndex + 1,
        text + password.charAt(index),
        changes,
        lastSubLetter,
        consecutiveSubCount,
      );
    }
  };
  // Every substitution made first, then any (v3's getAll).
  helper(true, true, 0, 0, '', [], undefined, 0);
  helper(false, true, 0, 0, '', [], undefined, 0);
  return variants;
}

interface L33tMatch extends DictionaryMatch {
  subs: Array<{ letter: string; substitution: string }>;
  subDisplay: string;
}

/** v3's getExtras arithmetic: where the variant's [i, j] lies in the typed password. */
function unsubbed(subbed: SubbedPassword, i: number, j: number): [number, number] {
  let iUnsubbed = i;
  let jUnsubbed = j;
  for (const c of subbed.changes) {
    const shift = c.substitution.length - c.letter.length;
    if (c.i < i) iUnsubbed += shift;
    if (c.i < i || (c.i >= i && c.i <= j)) jUnsubbed += shift;
  }
  return [iUnsubbed, jUnsubbed];
}

/** v3's getExtras: the match's position in the typed password and the substitutions inside it. */
function getExtras(subbed: SubbedPassword, i: number, j: number) {
  const [iUnsubbed, jUnsubbed] = unsubbed(subbed, i, j);
  const usedChanges = subbed.changes.filter((c) => c.i >= i && c.i <= j);
  const subs: Array<{ letter: string; substitution: string }> = [];
  const subDisplay: string[] = [];
  for (const c of usedChanges) {
    if (subs.findIndex((t) => t.letter === c.letter && t.substitution === c.substitution) < 0) {
      subs.push({ letter: c.letter, substitution: c.substitution });
      subDisplay.push(`${c.substitution} -> ${c.letter}`);
    }
  }
  return { i: iUnsubbed, j: jUnsubbed, subs, subDisplay: subDisplay.join(', ') };
}

/**
 * What v3's isAlreadyIncluded compares (every field but `subs`), in fewer characters: the matches of one password's
 * variants share that password, so i and j give the token (its slice), and a dictionary and a rank give the word (a
 * ranked dictionary gives each word its own rank). Length-prefixed so no two matches share a key. The key is hashed
 * for every match of every variant, and a shorter one is cheaper to hash.
 */
const keyOf = (m: L33tMatch) => `${m.i},${m.j},${m.rank},${m.dictionaryName.length}:${m.dictionaryName}${m.subDisplay}`;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included, on purpose
const ASCII = /^[\x00-\x7f]*$/;

/**
 * defaultMatch's matches on a substitution variant that contain at least one substituted character and end past
 * `walks.agreed`, in defaultMatch's order (dictionary, then i, then j). ASCII only: the lower-cased variant has the
 * same indexes.
 */
function substitutedMatches(subbed: SubbedPassword, lower: string, idx: WordIndex, walks: Walks): DictionaryMatch[] {
  const n = subbed.password.length;
  // nextChanged[p]: the first substituted position at or after p (n if none).
  const nextChanged = new Int32Array(n + 1).fill(n);
  const changed = new Uint8Array(n);
  for (const c of subbed.changes) for (let q = c.i; q < c.i + c.letter.length && q < n; q++) changed[q] = 1;
  for (let p = n - 1; p >= 0; p--) nextChanged[p] = changed[p] ? p : nextChanged[p + 1];
  return matchWords(subbed.password, lower, idx, (i) => nextChanged[i], walks);
}

const sameChange = (a: SubbedPassword['changes'][number], b: SubbedPassword['changes'][number]) =>
  a.i === b.i && a.letter === b.letter && a.substitution === b.substitution;

/**
 * The last index up to which two variants of one password are the same: same substitutions made up to there, hence
 * the same characters. A match ending there or before is the same match, extras and all, in both, so the later
 * variant's is one v3 would find already included or drop again. cleanPasswords walks depth first, so neighbours
 * share the most; comparing with every earlier variant would skip a little more but cost more than it saves.
 * Skipping less than possible is always safe: the key set still drops duplicates.
 */
function agreedUpTo(a: SubbedPassword, b: SubbedPassword): number {
  const ca = a.changes;
  const cb = b.changes;
  let k = 0;
  while (k < ca.length && k < cb.length && sameChange(ca[k], cb[k])) k++;
  return (
    Math.min(ca[k]?.i ?? a.password.length, cb[k]?.i ?? b.password.length, a.password.length, b.password.length) - 1
  );
}

/**
 * v3's MatchL33t.match, with the same walk over the substitution variants and the same output, minus its waste:
 * a match with no substitution inside it is dropped before its extras are built (v3 builds them, then drops it
 * because its token equals the dictionary word; done for ASCII only, where lower-casing a slice is the same as
 * slicing the lower-cased text), and "already included" is a set lookup, not a scan of every match kept.
 */
function l33tMatch(this: { defaultMatch: DefaultMatch }, args: { password: string }): DictionaryMatch[] {
  const { password } = args;
  const options = core.zxcvbnOptions;
  if (options.useLevenshteinDistance) return original.l33tMatch.call(this, args);
  const ascii = ASCII.test(password);
  const matches: L33tMatch[] = [];
  const kept = new Set<string>();
  const subbedPasswords = cleanPasswords(
    password,
    options.l33tMaxSubstitutions,
    options.trieNodeRoot as SubstitutionNode,
  );
  let hasFullMatch = false;
  let isFullSubstitution = true;
  const idx = currentIndex(options);
  let walks = newWalks(password.length);
  /** The last variant whose walks `walks` holds (−1: none). */
  let walked = -1;
  for (let v = 0; v < subbedPasswords.length; v++) {
    const subbed = subbedPasswords[v];
    if (hasFullMatch) break;
    // Only the first variant has every substitution made (v3 passes that on for Levenshtein matching only).
    const useLevenshtein = isFullSubstitution;
    isFullSubstitution = false;
    const lowerSubbed = subbed.password.toLowerCase();
    let matchedDictionary: DictionaryMatch[];
    let fullMatch = false;
    if (ascii && !PROTOTYPE_WORDS.test(lowerSubbed)) {
      // v3 drops every match without a substitution inside: never look those up. Whether the variant matches as a
      // whole (which ends v3's walk over the variants) is one more lookup.
      // Variants are no longer than the password with zxcvbn's l33t table (each letter is one character, each
      // substitution one or more); a longer one, from a table of one's own, starts the walks afresh.
      if (subbed.password.length > walks.stride) [walks, walked] = [newWalks(subbed.password.length), -1];
      walks.agreed = walked < 0 ? -1 : agreedUpTo(subbedPasswords[walked], subbed);
      matchedDictionary = substitutedMatches(subbed, lowerSubbed, idx, walks);
      walked = v;
      fullMatch = password.length <= subbed.password.length && hasWord(idx, lowerSubbed.slice(0, password.length));
    } else {
      matchedDictionary = this.defaultMatch({ password: subbed.password, useLevenshtein });
    }
    for (const match of matchedDictionary) {
      if (!fullMatch) fullMatch = match.i === 0 && match.j === password.length - 1;
      const [iUnsubbed, jUnsubbed] = unsubbed(subbed, match.i, match.j);
      const token = password.slice(iUnsubbed, +jUnsubbed + 1 || 9e9);
      // v3 keeps these, then filters out single characters at the end and tokens that equal the word as it goes;
      // a dropped match can make no later one "already included" (that needs the same token).
      if (token.length <= 1 || token.toLowerCase() === match.matchedWord) continue;
      // v3's `{ ...match, l33t: true, token, ...extras }`, key order and all, written out: V8 builds fresh hidden
      // classes (in old space) for that spread on every call, which made each check leave ~30 KB for a full GC.
      const { i, j, subs, subDisplay } = getExtras(subbed, match.i, match.j);
      const newMatch: L33tMatch = {
        pattern: match.pattern,
        i,
        j,
        token,
        matchedWord: match.matchedWord,
        rank: match.rank,
        dictionaryName: match.dictionaryName,
        reversed: match.reversed,
        l33t: true,
        subs,
        subDisplay,
      };
      const key = keyOf(newMatch);
      if (kept.has(key)) continue;
      kept.add(key);
      matches.push(newMatch);
    }
    hasFullMatch = fullMatch;
  }
  // v3: single-character l33t matches are noise ('1' for 'i', '4' for 'a').
  return matches.filter((m) => m.token.length > 1);
}

/** Puts the fast methods in place (idempotent) and indexes the dictionaries now, not on the first check. */
export function installFastMatchers(): void {
  currentIndex(core.zxcvbnOptions);
  MatchDictionary.prototype.defaultMatch = defaultMatch;
  MatchL33t.prototype.match = l33tMatch;
  installFastScoring();
}

/** The index of the dictionaries zxcvbn has now (in shared memory already), for other threads' installSharedWords. */
export function shareCurrentWords(): SharedWordIndex {
  const options = core.zxcvbnOptions;
  return shareWordIndex(currentIndex(options), options.rankedDictionariesMaxWordSize);
}

/**
 * Gives zxcvbn dictionaries compiled in another thread (shareCurrentWords) instead of word lists of its own, and
 * puts the fast methods in place. zxcvbn then holds no word list: each ranked dictionary is a view of the shared
 * trie that answers `word in dictionary` and `dictionary[word]` as v3's plain object does (Object.prototype's
 * members included), for the one place v3's own matcher still runs (a substring that names such a member). A
 * thread that scores this way holds some 40 MB less than one that loads the lists (password-pool.ts).
 * Not for user inputs (`zxcvbn(password, userInputs)` would rebuild the index from these views): the service has none.
 */
export function installSharedWords(shared: SharedWordIndex): void {
  const dictionaries: Array<Record<string, number>> = [];
  const idx: WordIndex = {
    dictionaries,
    names: shared.names,
    firstChild: shared.firstChild,
    unit: shared.unit,
    hitStart: shared.hitStart,
    hitDictionary: shared.hitDictionary,
    hitRank: shared.hitRank,
  };
  for (let d = 0; d < shared.names.length; d++) dictionaries.push(rankedView(idx, d));
  const options = core.zxcvbnOptions;
  options.rankedDictionaries = Object.fromEntries(shared.names.map((name, d) => [name, dictionaries[d]]));
  options.rankedDictionariesMaxWordSize = { ...shared.maxWordSize };
  index = idx;
  MatchDictionary.prototype.defaultMatch = defaultMatch;
  MatchL33t.prototype.match = l33tMatch;
  installFastScoring();
}

/** Dictionary number `d` of the trie, as v3's `{ word: rank }` object looks to `in` and to reading a key. */
function rankedView(idx: WordIndex, d: number): Record<string, number> {
  return new Proxy({} as Record<string, number>, {
    has: (_target, key) => (typeof key === 'string' && rankIn(idx, d, key) !== undefined) || key in Object.prototype,
    get: (target, key) =>
      (typeof key === 'string' ? rankIn(idx, d, key) : undefined) ?? Reflect.get(Object.prototype, key, target),
  });
}

/** Puts v3's own methods back (the equivalence test scores its reference with them). */
export function uninstallFastMatchers(): void {
  MatchDictionary.prototype.defaultMatch = original.defaultMatch;
  MatchL33t.prototype.match = original.l33tMatch;
  uninstallFastScoring();
}
