/** A poem as the content library holds it. */
export interface Poem {
  id: string;
  title: string;
  author: string;
  dynasty: string;
  lines: string[];
  featured?: string;
}

/** One verse (a clause between punctuation marks) and the poem it comes from. */
export interface Verse {
  text: string;
  poem: Poem;
}

const PUNCTUATION = /[，。！？；、：,.!?;:\s“”‘’「」『』《》()（）—…]+/;

/** Splits a poem line such as `床前明月光，疑是地上霜。` into its verses. */
export function versesOf(line: string): string[] {
  return line.split(PUNCTUATION).filter((v) => v.length >= 2);
}

/**
 * The verses of every poem, indexed by character (飞花令: which verses contain 月) and by first character
 * (接龙: which verses start with 霜). Built once per library snapshot.
 */
export class PoemIndex {
  readonly verses: Verse[] = [];
  private readonly byChar = new Map<string, Verse[]>();
  private readonly byFirst = new Map<string, Verse[]>();

  constructor(poems: readonly Poem[]) {
    for (const poem of poems) {
      for (const line of poem.lines) {
        for (const text of versesOf(line)) {
          const verse = { text, poem };
          this.verses.push(verse);
          for (const ch of new Set(text)) push(this.byChar, ch, verse);
          push(this.byFirst, [...text][0], verse);
        }
      }
    }
  }

  /** Verses containing `keyword` (one or more characters). A single character is a lookup, not a scan. */
  containing(keyword: string): readonly Verse[] {
    const chars = [...keyword];
    const candidates = this.byChar.get(chars[0]) ?? [];
    return chars.length === 1 ? candidates : candidates.filter((v) => v.text.includes(keyword));
  }

  /** Verses that begin with `ch`. */
  startingWith(ch: string): readonly Verse[] {
    return this.byFirst.get(ch) ?? [];
  }
}

function push(m: Map<string, Verse[]>, k: string, v: Verse) {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** The character a 接龙 answer must start with: the last Han character of the given line. */
export function lastHanChar(line: string): string | undefined {
  const han = [...line].filter((c) => /\p{Script=Han}/u.test(c));
  return han[han.length - 1];
}
