import { Type, type SchemaOptions, type TLiteral, type TSchema, type TUnion } from '@sinclair/typebox';

type Literals<T extends readonly string[]> = Extract<{ -readonly [K in keyof T]: TLiteral<T[K]> }, TSchema[]>;

/**
 * A schema accepting exactly one of `values`, typed as their union. `Type.Union(values.map(Type.Literal))` builds
 * the same JSON schema, but from an array (not a tuple) TypeBox infers `never`, which made handlers cast; the one
 * assertion here restores the tuple TypeBox would have inferred from a literal list.
 */
export function literalUnion<const T extends readonly string[]>(values: T, options?: SchemaOptions) {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<Literals<T>>;
}

/**
 * For an answer field: one of `values` as a string `enum`, typed as their union. fast-json-stringify writes an `anyOf`
 * (what literalUnion builds) by testing each branch with ajv for every value it writes; an enum it writes as a plain
 * string. The OpenAPI document shows the same choices.
 */
export function stringEnum<const T extends readonly string[]>(values: T, options?: SchemaOptions) {
  return Type.Unsafe<T[number]>(Type.String({ ...options, enum: [...values] }));
}
