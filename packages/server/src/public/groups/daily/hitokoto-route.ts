import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { RawReply, lookupRoute } from '../../platform/lookup-platform.js';
import { ok } from '../../../http/envelope.js';
import {
  HITOKOTO_CATEGORIES,
  fileSentenceSource,
  hitokotoScript,
  pickHitokoto,
  type Hitokoto,
  type Sentence,
  type SentenceSource,
} from '../../shared/hitokoto.js';
import { encodeBody, resolveHitokotoQuery } from './hitokoto-compat.js';
import { answersPerItem } from '../../../shared/memo.js';

const categories = Object.entries(HITOKOTO_CATEGORIES)
  .map(([l, n]) => `${l} ${n}`)
  .join(', ');

const HitokotoSchema = Type.Object({
  id: Type.String({ format: 'uuid', examples: ['a3fece9d-92ff-4793-aa7f-59271aa74c4d'] }),
  from: Type.String({ description: 'The work it comes from', examples: ['论语·为政'] }),
  type: Type.String({ description: `Category letter: ${categories}`, examples: ['k'] }),
  length: Type.Integer({ description: 'Length of content in characters (Unicode code points)', examples: [14] }),
  content: Type.String({ examples: ['学而不思则罔，思而不学则殆。'] }),
  hitokoto: Type.String({
    description: '与 content 相同，hitokoto.cn 的字段名 The same as content, under hitokoto.cn’s field name',
    examples: ['学而不思则罔，思而不学则殆。'],
  }),
  creator: Type.String({ examples: ['tianji'] }),
  from_who: Type.Union([Type.String(), Type.Null()], { description: 'Who said it, or null', examples: ['孔子'] }),
  commit_from: Type.String({ examples: ['tianji'] }),
});

/**
 * The admin-managed content library when the app has one (app.content, refreshed on every change), else the
 * shipped file. Either way the endpoint reads an in-memory snapshot.
 */
function sentenceSource(app: FastifyInstance): SentenceSource {
  if (app.hasDecorator('content')) return { all: (): readonly Sentence[] => app.content.items('hitokoto') };
  return fileSentenceSource();
}

/** The answer for a picked sentence, made once per sentence of a snapshot and serialised once (see stableData). */
const answerOf = answersPerItem((picked: Hitokoto) => ({ ...picked, hitokoto: picked.content }));

export default async function hitokotoRoute(app: FastifyInstance) {
  const source = sentenceSource(app);
  const length = (name: string, alias = '') =>
    Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        description: `${alias}${name} length of the sentence in characters (inclusive)`,
        examples: [name === 'Minimum' ? 5 : 30],
      }),
    );
  const formats = ['json', 'text', 'js'];

  lookupRoute(app, {
    path: '/hitokoto',
    stableData: true,
    zh: '一言：随机返回一句话（动画、游戏、文学、诗词等分类），兼容 hitokoto.cn 的参数。',
    media: ['text/plain', 'text/javascript'],
    summary: '一言 Hitokoto',
    description: [
      'A random sentence from the library (anime, games, literature, poetry, philosophy, …); a new pick on every call.',
      '',
      `- \`type\`: comma-separated category letters (${categories}); omitted = every category. An unknown letter is an error naming it.`,
      '- `minLength` / `maxLength`: 0–1000, bounds on `length` (characters of `content`, counted as Unicode code points), both inclusive; `minLength` above `maxLength` is an error, and so is a range no sentence of the chosen categories has (the message lists the lengths that exist).',
      '- `format`: `json` (default) the envelope; `text` the bare sentence as text/plain; `js` a script that writes the sentence into the element matched by `select` (default `.hitokoto`), for `<script src="/api/hitokoto?format=js">`.',
      '',
      '**兼容 hitokoto.cn：** 要让 hitokoto.cn 的客户端原样可用，请用 `/hitokoto/`（与 hitokoto.cn v1 逐项相同的回答，只需换域名）；本接口保留本服务的信封，同时按 hitokoto.cn 的含义接受它的参数：`c`（分类，可重复：`c=a&c=b`，与 `type` 合并）、`encode`（= `format`）、`charset`（`utf-8` 默认，或 `gbk`）、`callback`（JSONP：`encode=json` 时返回 `callback({...句子...});`，句子对象与 `data` 相同，含 hitokoto.cn 的 `hitokoto` 字段）、`select`、`min_length` / `max_length`（= `minLength` / `maxLength`）。同一设置两种写法都给出且取值不同时报错。',
      'hitokoto.cn compatibility: its parameters are accepted with its meaning (c repeatable, encode, charset utf-8|gbk, callback for JSONP, select, min_length, max_length); the sentence carries hitokoto.cn’s `hitokoto` field too.',
    ].join('\n'),
    query: Type.Object({
      type: Type.Optional(
        Type.String({
          maxLength: 64,
          description: 'Category letters a–l, comma-separated',
          examples: ['d,i'],
          'x-hint': 'a 至 l 的分类字母，多个用逗号分隔，最长 64 个字符',
        }),
      ),
      // A plain enum (not a union of literals) so a wrong value is reported with every allowed value.
      format: Type.Optional(
        Type.Unsafe<'json' | 'text' | 'js'>(
          Type.String({
            enum: formats,
            description: 'json (default) = the envelope, text = the bare sentence, js = a script',
            examples: ['json'],
          }),
        ),
      ),
      minLength: length('Minimum'),
      maxLength: length('Maximum'),
      c: Type.Optional(
        Type.Array(Type.String({ pattern: '^[a-l]$', 'x-hint': 'a 至 l 的单个分类字母' }), {
          maxItems: 12,
          description: 'hitokoto.cn：分类字母，可重复（c=a&c=b），与 type 合并 Category letter, repeatable',
          examples: [['i']],
        }),
      ),
      encode: Type.Optional(
        Type.Unsafe<'json' | 'text' | 'js'>(
          // No example: the reference page fills every parameter with its example, and encode=text beside format=json
          // is a conflict (the page's example request must answer 200 with the envelope).
          Type.String({ enum: formats, description: 'hitokoto.cn：同 format The same as format' }),
        ),
      ),
      charset: Type.Optional(
        Type.Unsafe<string>(
          Type.String({
            enum: ['utf-8', 'UTF-8', 'utf8', 'gbk', 'GBK'],
            description: 'hitokoto.cn：text / js / JSONP 的字符集，utf-8（默认）或 gbk Character set of the answer',
            examples: ['utf-8'],
          }),
        ),
      ),
      callback: Type.Optional(
        Type.String({
          maxLength: 64,
          pattern: '^[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*$',
          'x-hint': 'JavaScript 函数名（字母、数字、_、$，可用 . 连接），最长 64 个字符',
          // No example, so the reference page's example request answers the envelope, not JSONP.
          description: 'hitokoto.cn：JSONP 回调函数名（encode=json 时），如 showHitokoto JSONP callback',
        }),
      ),
      min_length: length('Minimum', 'hitokoto.cn：同 minLength. '),
      max_length: length('Maximum', 'hitokoto.cn：同 maxLength. '),
      select: Type.String({
        minLength: 1,
        maxLength: 100,
        default: '.hitokoto',
        description: 'format=js: CSS selector of the element to fill',
        examples: ['.hitokoto'],
      }),
    }),
    data: HitokotoSchema,
    handler: (q) => {
      const r = resolveHitokotoQuery(q);
      const sentence = answerOf(
        pickHitokoto(source, { types: r.types, minLength: r.minLength, maxLength: r.maxLength }),
      );
      const raw = (type: string, text: string) =>
        new RawReply(`${type}; charset=${r.charset}`, encodeBody(text, r.charset));
      if (r.format === 'text') return raw('text/plain', sentence.content);
      if (r.format === 'js') return raw('text/javascript', hitokotoScript(sentence.content, q.select));
      if (r.callback) return raw('text/javascript', `;${r.callback}(${JSON.stringify(sentence)});`);
      if (r.charset === 'gbk') return raw('application/json', JSON.stringify(ok(sentence)));
      return sentence;
    },
  });
}
