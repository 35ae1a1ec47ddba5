import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { RawReply, lookupRoute } from '../../plugins/lookup-platform.js';
import { HITOKOTO_CATEGORIES, fileSentenceSource, hitokotoScript, parseTypes, pickHitokoto, type Sentence, type SentenceSource } from './hitokoto.js';

const categories = Object.entries(HITOKOTO_CATEGORIES)
  .map(([l, n]) => `${l} ${n}`)
  .join(', ');

export const HitokotoSchema = Type.Object({
  id: Type.String({ format: 'uuid', examples: ['0ca1088b-54c6-4e4a-8761-f59b623f36cd'] }),
  from: Type.String({ description: 'The work it comes from', examples: ['名侦探柯南'] }),
  type: Type.String({ description: `Category letter: ${categories}`, examples: ['a'] }),
  length: Type.Integer({ description: 'Length of content in characters (Unicode code points)', examples: [7] }),
  content: Type.String({ examples: ['真相只有一个！'] }),
  creator: Type.String({ examples: ['tianji'] }),
  from_who: Type.Union([Type.String(), Type.Null()], { description: 'Who said it, or null', examples: ['江户川柯南'] }),
  commit_from: Type.String({ examples: ['tianji'] }),
});

/**
 * The admin-managed content library when the app has one (app.content, refreshed on every change), else the
 * shipped file. Either way the endpoint reads an in-memory snapshot.
 */
function sentenceSource(app: FastifyInstance): SentenceSource {
  if (app.hasDecorator('content')) return { all: () => app.content.items('hitokoto') as unknown as readonly Sentence[] };
  return fileSentenceSource();
}

export default async function hitokotoRoute(app: FastifyInstance) {
  const source = sentenceSource(app);
  const length = (name: string) =>
    Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: `${name} length of the sentence in characters (inclusive)`, examples: [name === 'Minimum' ? 5 : 30] }));

  lookupRoute(app, {
    group: 'daily',
    path: '/hitokoto',
    summary: '一言 Hitokoto',
    description: [
      'A random sentence from the library (anime, games, literature, poetry, philosophy, …); a new pick on every call.',
      '',
      `- \`type\`: comma-separated category letters (${categories}); omitted = every category. An unknown letter is an error naming it.`,
      '- `minLength` / `maxLength`: 0–1000, bounds on `length` (characters of `content`, counted as Unicode code points), both inclusive; `minLength` above `maxLength` is an error, and so is a range no sentence of the chosen categories has (the message lists the lengths that exist).',
      '- `format`: `json` (default) the envelope; `text` the bare sentence as text/plain; `js` a script that writes the sentence into the element matched by `select` (default `.hitokoto`), for `<script src="/api/hitokoto?format=js">`.',
    ].join('\n'),
    query: Type.Object({
      type: Type.Optional(Type.String({ maxLength: 64, description: 'Category letters a–l, comma-separated', examples: ['a,b'], 'x-hint': 'a 至 l 的分类字母，多个用逗号分隔，最长 64 个字符' })),
      // A plain enum (not a union of literals) so a wrong value is reported with every allowed value.
      format: Type.Unsafe<'json' | 'text' | 'js'>(Type.String({ enum: ['json', 'text', 'js'], default: 'json', description: 'json = the envelope, text = the bare sentence, js = a script', examples: ['json'] })),
      minLength: length('Minimum'),
      maxLength: length('Maximum'),
      select: Type.String({ minLength: 1, maxLength: 100, default: '.hitokoto', description: 'format=js: CSS selector of the element to fill', examples: ['.hitokoto'] }),
    }),
    data: HitokotoSchema,
    handler: (q) => {
      const sentence = pickHitokoto(source, { types: parseTypes(q.type), minLength: q.minLength, maxLength: q.maxLength });
      if (q.format === 'text') return new RawReply('text/plain; charset=utf-8', sentence.content);
      if (q.format === 'js') return new RawReply('text/javascript; charset=utf-8', hitokotoScript(sentence.content, q.select));
      return sentence;
    },
  });
}
