import { describe, expect, it } from 'vitest';
import { formProblems } from './form-check';
import { fieldsOf, type JsonSchema } from './schema-form';

/** The body of POST /api/roles, as the server's OpenAPI document gives it. */
const role: JsonSchema = {
  type: 'object',
  required: ['code', 'name'],
  properties: {
    code: {
      type: 'string',
      pattern: '^[a-z][a-z0-9_:-]{1,31}$',
      'x-hint': '2 至 32 个字符：小写字母开头，只含小写字母、数字、_ : -',
    },
    name: { type: 'string', minLength: 1, maxLength: 64 },
    description: { type: 'string', maxLength: 255 },
    sort: { type: 'integer', minimum: 0, maximum: 100000 },
  },
};
const LABELS: Record<string, string> = { code: '编码', name: '名称', description: '描述', sort: '排序' };
const check = (model: Record<string, unknown>) => formProblems(fieldsOf(role), model, (f) => LABELS[f]);

describe('form problems before a save', () => {
  it('every missing field at once, one message each, in words', () => {
    expect(check({ code: '', name: '  ', description: '', sort: 0 })).toEqual({
      code: '请输入编码',
      name: '请输入名称',
    });
  });

  it('a value the schema refuses says what is allowed, never what was received', () => {
    const p = check({ code: '9x', name: 'x'.repeat(65), description: '', sort: 100001 });
    expect(p).toEqual({
      code: '编码应为 2 至 32 个字符：小写字母开头，只含小写字母、数字、_ : -',
      name: '名称应为 1–64 个字符',
      sort: '排序应在 0 至 100000 之间',
    });
    expect(Object.values(p).join()).not.toMatch(/收到|pattern|\^/);
  });

  it('a valid form has no problems; fields without a label are not checked', () => {
    expect(check({ code: 'auditor', name: '审计员', description: '', sort: 1 })).toEqual({});
    expect(formProblems(fieldsOf(role), { code: '' }, (f) => (f === 'name' ? '名称' : undefined))).toEqual({
      name: '请输入名称',
    });
  });

  it('an optional field that may be null (作者) may stay empty', () => {
    const quote: JsonSchema = {
      type: 'object',
      required: ['content', 'from_who'],
      properties: {
        content: { type: 'string', maxLength: 500 },
        from_who: { anyOf: [{ type: 'string', maxLength: 100 }, { type: 'null' }] },
      },
    };
    expect(formProblems(fieldsOf(quote), { content: '', from_who: '' }, (f) => f)).toEqual({
      content: '请输入content',
    });
  });
});
