import { Type, type StringOptions } from '@sinclair/typebox';

/**
 * A link stored in content and handed to browsers: an absolute http(s) URL, or a path on this service. Nothing
 * else — no `javascript:`, `data:` or `vbscript:` (script run on whoever clicks), no protocol-relative `//host`
 * or `/\host` (which browsers read as another host), no whitespace or control characters anywhere.
 */
const SAFE_LINK = '^(?:https?://[^\\s\\x00-\\x1f\\x7f/?#\\\\]+|/(?![/\\\\]))[^\\s\\x00-\\x1f\\x7f]*$';
const safeLink = new RegExp(SAFE_LINK, 'u');

export const isSafeLink = (url: string): boolean => safeLink.test(url);

/** A string schema that accepts only safe links; create, edit and import all validate with it. */
export const SafeLink = (opts: StringOptions = {}) =>
  Type.String({
    ...opts,
    pattern: SAFE_LINK,
    'x-hint': '以 http:// 或 https:// 开头的网址，或以 / 开头的本站路径 · an http(s) URL or a path on this service',
  });
