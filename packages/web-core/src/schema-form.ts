/**
 * Form fields from a content library's JSON schema (the body schema of POST /api/admin/content/<library> in the
 * server's OpenAPI document), so one generic page edits every library — and a library the server adds — without
 * per-library code. Form models hold strings for list fields (one entry per line), converted back on save.
 */
export type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  description?: string;
  'x-hint'?: string;
  /** The names of a coded field's values (`{ a: { zh: '动画', en: 'Anime' } }`): shown instead of the codes. */
  'x-names'?: ValueNames;
};

export type ValueNames = Record<string, { zh: string; en: string }>;

/** What a text field allows, from its schema: checked before a save (form-check.ts). */
export type TextRules = { pattern?: string; minLength?: number; maxLength?: number };

export type Field =
  | ({
      kind: 'text';
      name: string;
      required: boolean;
      multiline: boolean;
      nullable: boolean;
      hint?: string;
    } & TextRules)
  | { kind: 'date'; name: string; required: boolean }
  | { kind: 'integer'; name: string; required: boolean; min?: number; max?: number }
  | { kind: 'enum'; name: string; required: boolean; options: string[]; names?: ValueNames }
  | { kind: 'list'; name: string; required: boolean; item: 'text' | 'date' }
  | { kind: 'rows'; name: string; required: boolean; fields: Field[] }
  | { kind: 'json'; name: string; required: boolean };

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';

const textRules = (s: JsonSchema): TextRules =>
  Object.fromEntries(
    (['pattern', 'minLength', 'maxLength'] as const).filter((k) => s[k] !== undefined).map((k) => [k, s[k]]),
  );

function fieldOf(name: string, s: JsonSchema, required: boolean): Field {
  const variants = s.anyOf ?? [];
  const nonNull = variants.filter((v) => v.type !== 'null');
  const enumValues =
    variants.length && variants.every((v) => v.enum?.length === 1 || v.const !== undefined)
      ? variants.map((v) => String(v.const ?? v.enum![0]))
      : s.enum?.map(String);
  const names = s['x-names'];
  if (enumValues) return { kind: 'enum', name, required, options: enumValues, ...(names ? { names } : {}) };
  // A coded string (a pattern, e.g. hitokoto's category letter) whose values the schema names: a select too.
  if (names && s.type === 'string') return { kind: 'enum', name, required, options: Object.keys(names), names };
  if (variants.length === 2 && nonNull.length === 1 && nonNull[0].type === 'string') {
    // A field that may be null is optional to a person (left empty it is sent as null), whatever `required` says
    // about the key: the form shows no required mark, and its placeholder says 选填.
    return {
      kind: 'text',
      name,
      required: false,
      multiline: (nonNull[0].maxLength ?? 0) > 200,
      nullable: true,
      hint: nonNull[0]['x-hint'],
      ...textRules(nonNull[0]),
    };
  }
  if (s.type === 'string') {
    if (s.pattern === DATE) return { kind: 'date', name, required };
    return {
      kind: 'text',
      name,
      required,
      multiline: (s.maxLength ?? 0) > 200,
      nullable: false,
      hint: s['x-hint'] ?? s.description,
      ...textRules(s),
    };
  }
  if (s.type === 'integer') return { kind: 'integer', name, required, min: s.minimum, max: s.maximum };
  if (s.type === 'array' && s.items?.type === 'string')
    return { kind: 'list', name, required, item: s.items.pattern === DATE ? 'date' : 'text' };
  if (s.type === 'array' && s.items?.type === 'object' && s.items.properties)
    return { kind: 'rows', name, required, fields: fieldsOf(s.items) };
  return { kind: 'json', name, required };
}

export function fieldsOf(schema: JsonSchema): Field[] {
  const req = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, s]) => fieldOf(name, s, req.has(name)));
}

export type Model = Record<string, unknown>;

/** The form model of an item (or of a new, empty item). */
export function toModel(fields: Field[], item: Record<string, unknown> = {}): Model {
  const m: Model = {};
  for (const f of fields) {
    const v = item[f.name];
    switch (f.kind) {
      case 'integer':
        m[f.name] = typeof v === 'number' ? v : undefined;
        break;
      case 'list':
        m[f.name] = Array.isArray(v) ? v.join('\n') : '';
        break;
      case 'rows':
        m[f.name] = Array.isArray(v) ? v.map((row) => toModel(f.fields, row as Record<string, unknown>)) : [];
        break;
      case 'json':
        m[f.name] = v === undefined ? '' : JSON.stringify(v, null, 2);
        break;
      default:
        m[f.name] = v === null || v === undefined ? '' : String(v);
    }
  }
  return m;
}

/** The request body from a form model. Throws an Error naming the field when a JSON field does not parse. */
export function fromModel(fields: Field[], m: Model): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = m[f.name];
    switch (f.kind) {
      case 'integer':
        if (typeof v === 'number') out[f.name] = v;
        break;
      case 'list': {
        const entries = String(v ?? '')
          .split(/[\n,，]/)
          .map((s) => s.trim())
          .filter(Boolean);
        if (entries.length || f.required) out[f.name] = entries;
        break;
      }
      case 'rows':
        out[f.name] = ((v as Model[]) ?? []).map((row) => fromModel(f.fields, row));
        break;
      case 'json':
        if (String(v ?? '').trim() === '') break;
        try {
          out[f.name] = JSON.parse(String(v));
        } catch {
          throw new Error(f.name);
        }
        break;
      case 'text': {
        const s = String(v ?? '');
        if (s === '' && f.nullable) out[f.name] = null;
        else if (s !== '' || f.required) out[f.name] = s;
        break;
      }
      default: {
        const s = String(v ?? '');
        if (s !== '' || f.required) out[f.name] = s;
      }
    }
  }
  return out;
}

/** What a select shows for one value of an enum field: its name when the schema names it (`动画`), else the value. */
export function optionLabel(f: Field, value: string, lang: 'zh' | 'en' = 'zh'): string {
  const n = f.kind === 'enum' ? f.names?.[value] : undefined;
  return n ? n[lang] : value;
}

/** Table cell text for a field of an item: named codes by their names, lists joined, nothing for null. */
export function cellText(f: Field, v: unknown, lang: 'zh' | 'en' = 'zh'): string {
  if (v === null || v === undefined) return '';
  if (f.kind === 'enum') return optionLabel(f, String(v), lang);
  if (f.kind === 'list' && Array.isArray(v)) return v.join(f.item === 'date' ? ', ' : ' / ');
  if (f.kind === 'rows' && Array.isArray(v))
    return v.map((r) => String((r as Record<string, unknown>)[f.fields[0]?.name] ?? '')).join('、');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * Columns worth a table column, at most `max`, in the schema's order. Chosen first: the long texts (an item's
 * content is what an operator looks for), then the plain fields, then nested rows and JSON.
 */
export function tableFields(fields: Field[], max = 5): Field[] {
  const rank = (f: Field) => (f.kind === 'text' && f.multiline ? 0 : f.kind === 'rows' || f.kind === 'json' ? 2 : 1);
  const chosen = new Set([...fields].sort((a, b) => rank(a) - rank(b)).slice(0, max));
  return fields.filter((f) => chosen.has(f));
}
