import type { AjvError } from './validation-messages.js';

type Validator = ((data: unknown) => unknown) & { errors?: unknown };
type Compile = (routeSchema: { schema?: unknown }) => Validator;
interface Compilers {
  buildValidator(externalSchemas: unknown, ajvOptions: unknown): Compile;
  buildSerializer(externalSchemas: unknown, serializerOptions: unknown): unknown;
}

type SchemaNode = { type?: unknown; items?: SchemaNode; anyOf?: SchemaNode[]; properties?: Record<string, SchemaNode> };

/** A number or integer schema, an array of them, or a union with one. */
export const isNumeric = (s: SchemaNode | undefined): boolean =>
  !!s &&
  (s.type === 'number' ||
    s.type === 'integer' ||
    (s.type === 'array' && isNumeric(s.items)) ||
    !!s.anyOf?.some(isNumeric));

/** The top-level number or integer fields of a route schema (a query string, path parameters, a body). */
function numericFields(schema: SchemaNode | undefined): Array<[string, SchemaNode]> {
  return Object.entries(schema?.properties ?? {}).filter(([, s]) => isNumeric(s));
}

/**
 * The first of `fields` in `data` holding ±Infinity or NaN, as the ajv error of a value of the wrong type, so it is
 * worded as one: 参数 page 无效：应为整数，范围 1 至 1000000，收到 "Infinity".
 */
function nonFiniteError(fields: Array<[string, SchemaNode]>, data: unknown): AjvError | undefined {
  if (!data || typeof data !== 'object') return undefined;
  for (const [name, s] of fields) {
    const v = (data as Record<string, unknown>)[name];
    const bad = (Array.isArray(v) ? v : [v]).find((x) => typeof x === 'number' && !Number.isFinite(x));
    if (bad === undefined) continue;
    const type = s.type === 'integer' ? 'integer' : 'number';
    return { keyword: 'type', instancePath: `/${name}`, params: { type }, parentSchema: s, data: String(bad) };
  }
  return undefined;
}

/**
 * ajv with coerceTypes turns `Infinity`, `-Infinity` and overflowing strings such as `1e309` into ±Infinity and then
 * lets them pass `type: integer`, `minimum` and `maximum` (ajv-validator/ajv#2212, fastify/fastify#6718): an admin
 * list's `page=1e309` reached the database (500), a public route's `length=Infinity` would loop. Every validator the
 * compilers build refuses such a value as a value of the wrong type (400 on the admin API, the public API's error
 * answer), for every route at once.
 */
export function withFiniteNumbers<C extends Compilers>(compilers: C): C {
  return {
    ...compilers,
    buildValidator(externalSchemas: unknown, ajvOptions: unknown): Compile {
      const compile = compilers.buildValidator(externalSchemas, ajvOptions);
      return (routeSchema) => {
        const validate = compile(routeSchema);
        // Found once per route, not at every request: most routes have none, and their validator is ajv's own.
        const fields = numericFields(routeSchema.schema as SchemaNode);
        if (fields.length === 0) return validate;
        const checked: Validator = (data) => {
          const ok = validate(data);
          const bad = ok ? nonFiniteError(fields, data) : undefined;
          checked.errors = bad ? [bad] : validate.errors;
          return ok && !bad;
        };
        return checked;
      };
    },
  };
}
