/** The five mood-quote styles and their Chinese names. */
export const MOOD_STYLES = {
  diary: '舔狗日记',
  toxic: '毒鸡汤',
  flattery: '彩虹屁',
  love: '土味情话',
  caption: '朋友圈文案',
} as const;

export type MoodStyle = keyof typeof MOOD_STYLES;

export interface MoodQuote {
  id: string;
  style: MoodStyle;
  content: string;
}

/** Placeholder in flattery templates that `name` fills. */
export const NAME_SLOT = '{name}';

/**
 * Candidates for a request: the style's quotes (all styles when omitted). When a name is given for flattery,
 * only templates that address someone are used, so the name always appears.
 */
export function candidates(all: readonly MoodQuote[], style?: MoodStyle, name?: string): MoodQuote[] {
  const pool = style ? all.filter((q) => q.style === style) : [...all];
  if (name && style === 'flattery') {
    const addressed = pool.filter((q) => q.content.includes(NAME_SLOT));
    if (addressed.length) return addressed;
  }
  return pool;
}

/** Fills the name slot: the given name, or 你 when none was given. */
export function render(q: MoodQuote, name?: string): string {
  return q.content.split(NAME_SLOT).join(name || '你');
}
