/**
 * The example request of an operation as the API reference at /docs shows it, computed the way the Scalar bundle we
 * serve (@scalar/fastify-api-reference 1.40, web/api-reference.ts) computes it, so a test can send exactly that
 * (lookup-docs-page.test.ts checks these against the page itself in Chromium):
 * - `snippetQuery`: the request example and its copied curl command. Every query parameter is filled from its schema
 *   alone (the parameter's own `example` is not read): its `default`, else its `examples[0]`, `example`, `const`, first
 *   `enum`, first branch of `anyOf`; else an empty string for a string, the minimum or 1 for a number, true for a
 *   boolean, one pair per item of an array.
 * - `tryItQuery`: the "Test request" client. Only required parameters are switched on, each with the first of the
 *   parameter's `examples`, else its `example`, else the schema's `example`/`examples[0]`, else its `default`, else "".
 */
export interface DocParam {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  schema?: DocSchema;
}
export interface DocSchema {
  type?: string;
  examples?: unknown[];
  example?: unknown;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  anyOf?: DocSchema[];
  items?: DocSchema;
  minimum?: number;
  deprecated?: boolean;
}

function fromSchema(s: DocSchema | undefined): unknown {
  if (!s || s.deprecated) return undefined;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const branch = s.anyOf?.find((b) => b.type !== 'null');
  if (s.anyOf) return branch ? fromSchema(branch) : null;
  if (s.type === 'array' || s.items) return s.items ? [fromSchema(s.items)].filter((v) => v !== undefined) : [];
  switch (s.type) {
    case 'string':
      return '';
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    default:
      return undefined;
  }
}

const firstExample = (p: DocParam) => (p.examples ? Object.values(p.examples)[0]?.value : undefined);

/** The query string of the reference page's request example (and its curl command). */
export function snippetQuery(params: DocParam[]): string {
  const pairs: string[] = [];
  for (const p of params) {
    if (p.in !== 'query') continue;
    const v = p.schema?.default !== undefined ? p.schema.default : fromSchema(p.schema);
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v])
      pairs.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(String(one))}`);
  }
  return pairs.join('&');
}

/** The query string the "Test request" client sends as it opens: required parameters only. */
export function tryItQuery(params: DocParam[]): string {
  const pairs: string[] = [];
  for (const p of params) {
    if (p.in !== 'query' || !p.required) continue;
    const s = p.schema;
    const v =
      firstExample(p) ??
      p.example ??
      s?.example ??
      (s?.examples?.length ? (s.type === 'boolean' ? (s.default ?? false) : s.examples[0]) : undefined) ??
      s?.default ??
      '';
    pairs.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(String(v))}`);
  }
  return pairs.join('&');
}
