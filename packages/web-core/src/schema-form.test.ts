import { describe, expect, it } from 'vitest';
import { cellText, fieldsOf, fromModel, tableFields, toModel, type JsonSchema } from './schema-form';

// Shapes as the server's OpenAPI document gives them (TypeBox → JSON schema).
const holidays: JsonSchema = {
  type: 'object',
  required: ['year', 'holidays'],
  properties: {
    year: { type: 'integer', minimum: 1949, maximum: 2200 },
    holidays: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'start', 'end', 'work'],
        properties: {
          name: { type: 'string', maxLength: 20 },
          start: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          end: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          work: { type: 'array', items: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } },
        },
      },
    },
  },
};
const hitokoto: JsonSchema = {
  type: 'object',
  required: ['type', 'content', 'from_who'],
  properties: {
    type: { type: 'string', pattern: '^[abcdefghijkl]$' },
    content: { type: 'string', maxLength: 500 },
    from_who: { anyOf: [{ type: 'string', maxLength: 100 }, { type: 'null' }] },
    style: {
      anyOf: [
        { type: 'string', enum: ['diary'] },
        { type: 'string', enum: ['toxic'] },
      ],
    },
    lines: { type: 'array', items: { type: 'string' } },
  },
};

describe('content forms from the library schema', () => {
  it('derives fields: dates, integers, enums, nullable texts, lists and nested rows', () => {
    const f = fieldsOf(hitokoto);
    expect(f.map((x) => x.kind)).toEqual(['text', 'text', 'text', 'enum', 'list']);
    expect(f[1]).toMatchObject({ multiline: true });
    // 作者 may be null: optional in the form (no required mark, 选填), though the key is always sent.
    expect(f[2]).toMatchObject({ nullable: true, required: false });
    expect(f[3]).toMatchObject({ options: ['diary', 'toxic'] });
    const h = fieldsOf(holidays);
    expect(h[0]).toMatchObject({ kind: 'integer', min: 1949, max: 2200 });
    expect(h[1].kind === 'rows' && h[1].fields.map((x) => x.kind)).toEqual(['text', 'date', 'date', 'list']);
  });

  it('a holiday schedule survives the round trip through the form', () => {
    const fields = fieldsOf(holidays);
    const item = {
      year: 2026,
      holidays: [{ name: '春节', start: '2026-02-15', end: '2026-02-23', work: ['2026-02-14', '2026-02-28'] }],
    };
    const model = toModel(fields, item);
    expect((model.holidays as Array<Record<string, unknown>>)[0].work).toBe('2026-02-14\n2026-02-28');
    expect(fromModel(fields, model)).toEqual(item);
  });

  it('an empty nullable text is sent as null; list entries split on lines or commas', () => {
    const fields = fieldsOf(hitokoto);
    expect(
      fromModel(fields, {
        type: 'a',
        content: '你好',
        from_who: '',
        style: 'diary',
        lines: '床前明月光，\n疑是地上霜',
      }),
    ).toEqual({
      type: 'a',
      content: '你好',
      from_who: null,
      style: 'diary',
      lines: ['床前明月光', '疑是地上霜'],
    });
  });

  it('shows nested rows by their first field in the table', () => {
    const h = fieldsOf(holidays)[1];
    expect(cellText(h, [{ name: '元旦' }, { name: '春节' }])).toBe('元旦、春节');
  });
});

describe('a library whose fields carry codes (一言)', () => {
  const hitokoto: JsonSchema = {
    type: 'object',
    required: ['type', 'content', 'from', 'from_who', 'creator', 'commit_from'],
    properties: {
      type: { type: 'string', pattern: '^[abcdefghijkl]$', 'x-names': { a: { zh: '动画', en: 'Anime' } } },
      content: { type: 'string', maxLength: 500 },
      from: { type: 'string', maxLength: 100 },
      from_who: { anyOf: [{ type: 'string', maxLength: 100 }, { type: 'null' }] },
      creator: { type: 'string', maxLength: 50 },
      commit_from: { type: 'string', maxLength: 50 },
    },
  };

  it('lists the content among the columns, in the schema’s order', () => {
    expect(tableFields(fieldsOf(hitokoto)).map((f) => f.name)).toEqual([
      'type',
      'content',
      'from',
      'from_who',
      'creator',
    ]);
  });

  it('offers a named code as a select and shows its name, not the letter', () => {
    const [type] = fieldsOf(hitokoto);
    expect(type).toMatchObject({ kind: 'enum', options: ['a'] });
    expect(cellText(type, 'a')).toBe('动画');
    expect(cellText(type, 'a', 'en')).toBe('Anime');
    expect(cellText(type, 'z')).toBe('z');
    expect(cellText(fieldsOf(hitokoto)[3], null)).toBe('');
  });
});
