/**
 * hitokoto.cn's query parameters, read with hitokoto.cn's meaning so callers can migrate by changing the host:
 * `c` (category, repeatable), `encode` (json / text / js), `charset` (utf-8 / gbk), `callback` (JSONP), `select`,
 * `min_length`, `max_length`. The service's own names (`type`, `format`, `minLength`, `maxLength`) stay; giving both
 * names of one setting with different values is an error naming both.
 *
 * Pure module: no HTTP framework here.
 */
import iconv from 'iconv-lite';
import { paramError } from '../../../errors.js';
import { parseTypes } from '../../shared/hitokoto.js';

export type HitokotoFormat = 'json' | 'text' | 'js';

export interface HitokotoQueryIn {
  type?: string;
  c?: string[];
  format?: HitokotoFormat;
  encode?: HitokotoFormat;
  charset?: string;
  callback?: string;
  minLength?: number;
  maxLength?: number;
  min_length?: number;
  max_length?: number;
}

export interface HitokotoRequest {
  types: string[];
  format: HitokotoFormat;
  charset: 'utf-8' | 'gbk';
  callback?: string;
  minLength?: number;
  maxLength?: number;
}

function either<T>(own: string, ownValue: T | undefined, alias: string, aliasValue: T | undefined): T | undefined {
  if (ownValue !== undefined && aliasValue !== undefined && ownValue !== aliasValue) {
    throw paramError(
      alias,
      `与 ${own} 是同一设置（hitokoto.cn 的写法），两者同时给出时必须相同；${own} 为 ${String(ownValue)}`,
      aliasValue,
    );
  }
  return ownValue ?? aliasValue;
}

/** One request from both vocabularies; `format` defaults to json, `charset` to utf-8. */
export function resolveHitokotoQuery(q: HitokotoQueryIn): HitokotoRequest {
  // `type=a,b` and `c=a&c=b` name categories the same way: together they are the union.
  const letters = [q.type, ...(q.c ?? [])].filter((x): x is string => x !== undefined && x !== '');
  const charset = (q.charset ?? 'utf-8').toLowerCase().replace(/^utf8$/, 'utf-8');
  if (charset !== 'utf-8' && charset !== 'gbk') throw paramError('charset', '应为 utf-8 或 gbk', q.charset);
  return {
    types: parseTypes(letters.length > 0 ? letters.join(',') : undefined),
    format: either('format', q.format, 'encode', q.encode) ?? 'json',
    charset,
    callback: q.callback,
    minLength: either('minLength', q.minLength, 'min_length', q.min_length),
    maxLength: either('maxLength', q.maxLength, 'max_length', q.max_length),
  };
}

/** `text` in the requested charset: a string for UTF-8, GBK bytes otherwise. */
export function encodeBody(text: string, charset: 'utf-8' | 'gbk'): string | Buffer {
  return charset === 'utf-8' ? text : iconv.encode(text, 'gbk');
}
