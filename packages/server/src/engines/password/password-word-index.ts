/**
 * zxcvbn's ranked dictionaries compiled into one trie held in typed arrays, for the fast dictionary matcher
 * (password-matchers.ts). Walking it character by character finds every word that starts at a position without
 * slicing or hashing a single substring, stops as soon as no word continues, and takes about a sixth of the memory
 * of a Map from word to hits (the trie of about 170,000 distinct words is some 400,000 nodes, under 6 MB).
 *
 * Nodes are numbered breadth first, so the children of node n are the consecutive nodes
 * firstChild[n] … firstChild[n + 1] − 1, in increasing order of the UTF-16 unit on their edge (`unit`). The hits
 * of the word that ends at node n (dictionary index and rank, in zxcvbn's dictionary order) are
 * hitDictionary/hitRank[hitStart[n] … hitStart[n + 1] − 1].
 */

export interface WordIndex {
  /** The ranked dictionaries it was built from, in zxcvbn's order (the matcher checks they are still current). */
  dictionaries: Array<Record<string, number>>;
  names: string[];
  firstChild: Int32Array;
  unit: Uint16Array;
  hitStart: Int32Array;
  hitDictionary: Uint8Array;
  hitRank: Int32Array;
}

/**
 * A WordIndex as another thread receives it: its arrays over SharedArrayBuffers, which posting to a worker thread
 * shares instead of copying, with the dictionaries' names (in zxcvbn's order) and their longest word's length.
 */
export interface SharedWordIndex extends Omit<WordIndex, 'dictionaries'> {
  maxWordSize: Record<string, number>;
}

/** The index as other threads receive it: its arrays are in shared memory already (buildWordIndex), so nothing is copied. */
export function shareWordIndex(idx: WordIndex, maxWordSize: Record<string, number>): SharedWordIndex {
  return {
    names: idx.names,
    maxWordSize: Object.fromEntries(idx.names.map((n) => [n, maxWordSize[n]])),
    firstChild: idx.firstChild,
    unit: idx.unit,
    hitStart: idx.hitStart,
    hitDictionary: idx.hitDictionary,
    hitRank: idx.hitRank,
  };
}

/** The node reached from `node` by the UTF-16 unit `u`, or −1. */
export function childOf(idx: WordIndex, node: number, u: number): number {
  let lo = idx.firstChild[node];
  const end = idx.firstChild[node + 1];
  const unit = idx.unit;
  // Binary search among many children (the first levels), then a scan (children are in increasing order).
  let hi = end;
  while (hi - lo > 8) {
    const mid = (lo + hi) >>> 1;
    if (unit[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  for (; lo < end && unit[lo] <= u; lo++) if (unit[lo] === u) return lo;
  return -1;
}

/** The node of `word` (whole string), or −1 when no word starts with it. */
export function nodeOf(idx: WordIndex, word: string): number {
  let node = 0;
  for (let k = 0; k < word.length && node >= 0; k++) node = childOf(idx, node, word.charCodeAt(k));
  return node;
}

/** Whether `word` is in any of the dictionaries. */
export function hasWord(idx: WordIndex, word: string): boolean {
  const node = nodeOf(idx, word);
  return node >= 0 && idx.hitStart[node] < idx.hitStart[node + 1];
}

/** The rank of `word` in dictionary number `d`, or undefined when that dictionary does not have it. */
export function rankIn(idx: WordIndex, d: number, word: string): number | undefined {
  const node = nodeOf(idx, word);
  if (node < 0) return undefined;
  for (let h = idx.hitStart[node]; h < idx.hitStart[node + 1]; h++)
    if (idx.hitDictionary[h] === d) return idx.hitRank[h];
  return undefined;
}

/**
 * Compiles the dictionaries. A word longer than its dictionary's `maxWordSize` is left out of that dictionary, as
 * v3's search window never reaches it (it can only happen to lower-cased user inputs).
 */
export function buildWordIndex(
  names: string[],
  dictionaries: Array<Record<string, number>>,
  maxWordSize: Record<string, number>,
): WordIndex {
  if (names.length > 255) throw new Error('password-word-index: at most 255 dictionaries');
  // Every (word, dictionary) pair, sorted by word (UTF-16 order) and, for one word, by dictionary.
  const words: string[] = [];
  const dictOf: number[] = [];
  dictionaries.forEach((dict, d) => {
    const max = maxWordSize[names[d]] ?? Number.POSITIVE_INFINITY;
    for (const word of Object.keys(dict)) {
      if (word.length > max) continue;
      words.push(word);
      dictOf.push(d);
    }
  });
  const order = Array.from(words.keys()).sort((a, b) =>
    words[a] < words[b] ? -1 : words[a] > words[b] ? 1 : dictOf[a] - dictOf[b],
  );
  const sorted = order.map((k) => words[k]);

  // Nodes: the root plus one per distinct prefix, i.e. per character of each word past its common prefix with
  // the word before it.
  let nodes = 1;
  for (let k = 0; k < sorted.length; k++) {
    if (k > 0 && sorted[k] === sorted[k - 1]) continue;
    nodes += sorted[k].length - (k > 0 ? commonPrefix(sorted[k - 1], sorted[k]) : 0);
  }
  // The index's arrays are in shared memory from the start, so that other threads can read them as they are, and
  // allocated before the working arrays below: freed after them, those are at the top of the allocator's heap, which
  // can then shrink (copied last, the shared arrays sat above them: 5–9 MB more RSS after the compiling thread ended).
  const firstChild = new Int32Array(new SharedArrayBuffer((nodes + 1) * 4));
  const unit = new Uint16Array(new SharedArrayBuffer(nodes * 2));
  const hitStart = new Int32Array(new SharedArrayBuffer((nodes + 1) * 4));
  const hitDictionary = new Uint8Array(new SharedArrayBuffer(sorted.length));
  const hitRank = new Int32Array(new SharedArrayBuffer(sorted.length * 4));
  // Breadth first: node n stands for the words sorted[lo[n]] … sorted[hi[n] − 1], which share their first
  // depth[n] characters; its children split that range by the next character.
  const lo = new Int32Array(nodes);
  const hi = new Int32Array(nodes);
  const depth = new Int32Array(nodes);
  hi[0] = sorted.length;
  let next = 1;
  let hits = 0;
  for (let n = 0; n < nodes; n++) {
    const d = depth[n];
    let k = lo[n];
    // The word that ends here sorts first in the range, once per dictionary that has it.
    hitStart[n] = hits;
    for (; k < hi[n] && sorted[k].length === d; k++, hits++) {
      hitDictionary[hits] = dictOf[order[k]];
      hitRank[hits] = dictionaries[dictOf[order[k]]][sorted[k]];
    }
    firstChild[n] = next;
    while (k < hi[n]) {
      const u = sorted[k].charCodeAt(d);
      lo[next] = k;
      while (k < hi[n] && sorted[k].charCodeAt(d) === u) k++;
      unit[next] = u;
      hi[next] = k;
      depth[next] = d + 1;
      next++;
    }
  }
  firstChild[nodes] = next;
  hitStart[nodes] = hits;
  return { dictionaries, names, firstChild, unit, hitStart, hitDictionary, hitRank };
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let k = 0;
  while (k < n && a.charCodeAt(k) === b.charCodeAt(k)) k++;
  return k;
}
