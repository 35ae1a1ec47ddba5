import type { Field } from './schema-form';

/**
 * What is wrong with a form before it is sent, every field at once (the server names only the first): one message per
 * field, in words — 「请输入编码」, 「编码应为 2 至 32 个字符：小写字母开头，…」 — from the request body's schema, the same
 * one the server validates with. `label` gives each field's label; fields it does not name are not checked.
 *
 * @example formProblems(fieldsOf(schema), { code: '', name: '' }, (f) => labels[f]) // { code: '请输入编码', name: '请输入名称' }
 */
export function formProblems(
  fields: Field[],
  model: Record<string, unknown>,
  label: (field: string) => string | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const name = label(f.name);
    if (!name) continue;
    const problem = problemOf(f, model[f.name], name);
    if (problem) out[f.name] = problem;
  }
  return out;
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && !v.length);

function problemOf(f: Field, v: unknown, label: string): string | undefined {
  const minLength = f.kind === 'text' ? (f.minLength ?? 0) : 0;
  if (isEmpty(v)) {
    if (!f.required && minLength === 0) return undefined;
    return f.kind === 'enum' || f.kind === 'date' ? `请选择${label}` : `请输入${label}`;
  }
  if (f.kind === 'integer' && typeof v === 'number') {
    if ((f.min !== undefined && v < f.min) || (f.max !== undefined && v > f.max))
      return `${label}应在 ${f.min ?? '−∞'} 至 ${f.max ?? '∞'} 之间`;
    return undefined;
  }
  if (f.kind !== 'text' || typeof v !== 'string') return undefined;
  const length = [...v].length;
  const tooShort = length < minLength;
  const tooLong = f.maxLength !== undefined && length > f.maxLength;
  if (f.pattern && !matches(f.pattern, v)) return f.hint ? `${label}应为 ${f.hint}` : `${label}的格式不正确`;
  if (tooShort || tooLong)
    return f.maxLength !== undefined && minLength > 0
      ? `${label}应为 ${minLength}–${f.maxLength} 个字符`
      : tooLong
        ? `${label}最多 ${f.maxLength} 个字符`
        : `${label}至少 ${minLength} 个字符`;
  return undefined;
}

function matches(pattern: string, v: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(v);
  } catch {
    return true; // A pattern this browser cannot read: the server still checks it.
  }
}
