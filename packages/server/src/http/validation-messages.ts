import { invalidParamMessage } from '../errors.js';

/** What ajv (with `verbose: true`) reports for one failed keyword. */
export interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: Record<string, unknown>;
  data?: unknown;
}

/**
 * Turns the first ajv error into a sentence that names the parameter, says what is allowed and echoes what was given.
 * A schema may carry `x-hint` (e.g. `YYYY-MM-DD，范围 1900-01-01 至 2100-12-31`) to describe its allowed values;
 * without it the sentence is built from the schema's own bounds.
 */
export function describeValidation(errors: AjvError[], context: string): { field: string; message: string } {
  // A union of literals fails each branch before the anyOf itself: name the union's choices, not its first branch.
  const e = errors.find((x) => x.keyword === 'anyOf' && x.instancePath === errors[0].instancePath) ?? errors[0];
  let field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required') field = [field, String(e.params.missingProperty)].filter(Boolean).join('.');
  if (e.keyword === 'additionalProperties')
    field = [field, String(e.params.additionalProperty)].filter(Boolean).join('.');
  if (!field) field = context;
  const s = e.parentSchema ?? {};
  const hint = typeof s['x-hint'] === 'string' ? (s['x-hint'] as string) : undefined;
  // A password in a request body (sign-in, new passwords) is never repeated back: it would land in toasts and logs.
  // Nor a sign-in's mfaToken, which stands for a correct password for five minutes.
  const secret = context === 'body' && (/password$/i.test(field) || field === 'mfaToken');
  // An unknown field's `data` is the whole enclosing object (a password beside it included): the name is enough.
  const given = e.keyword === 'required' || e.keyword === 'additionalProperties' || secret ? undefined : e.data;
  // An object's hint describes its required fields, not the unknown one: that sentence lists the known ones.
  let allowed = hint && e.keyword !== 'additionalProperties' ? `应为 ${hint}` : allowedFromSchema(e, s);
  // `?n=1&n=2` arrives as an array: say that the key was repeated rather than that the value has the wrong type.
  if (e.keyword === 'type' && Array.isArray(e.data) && context === 'querystring') allowed = `只能出现一次，${allowed}`;
  const message = invalidParamMessage(field, allowed, given);
  return { field, message };
}

function range(s: Record<string, unknown>, lo: string, hi: string): string {
  const min = s[lo];
  const max = s[hi];
  if (min !== undefined && max !== undefined) return `${min} 至 ${max}`;
  if (min !== undefined) return `不小于 ${min}`;
  if (max !== undefined) return `不大于 ${max}`;
  return '';
}

function allowedFromSchema(e: AjvError, s: Record<string, unknown>): string {
  switch (e.keyword) {
    case 'required':
      return '缺少必填参数';
    case 'additionalProperties': {
      const known = Object.keys((s.properties as Record<string, unknown> | undefined) ?? {});
      return known.length ? `不支持该参数，可用的参数为 ${known.join('、')}` : '不支持该参数';
    }
    case 'type': {
      const t = String(e.params.type);
      const kind =
        t === 'integer'
          ? '整数'
          : t === 'number'
            ? '数字'
            : t === 'boolean'
              ? 'true 或 false'
              : t === 'string'
                ? '单个字符串'
                : t;
      const r = range(s, 'minimum', 'maximum');
      return `应为${kind}${r ? `，范围 ${r}` : ''}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `超出范围：应为 ${range(s, 'minimum', 'maximum') || e.message}`;
    case 'minLength':
    case 'maxLength':
      return `长度应为 ${range(s, 'minLength', 'maxLength')} 个字符`;
    case 'minItems':
    case 'maxItems':
      return `数量应为 ${range(s, 'minItems', 'maxItems')} 项`;
    case 'enum':
      return `应为以下之一：${(e.params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `应为 ${String(e.params.allowedValue)}`;
    case 'anyOf': {
      const options = (s.anyOf as Array<{ const?: unknown }> | undefined)
        ?.map((o) => o.const)
        .filter((v) => v !== undefined);
      return options?.length ? `应为以下之一：${options.join(', ')}` : '格式错误';
    }
    case 'pattern':
      return `格式错误：应匹配 ${String(e.params.pattern)}`;
    case 'format':
      return `格式错误：应为 ${String(e.params.format)}`;
    default:
      return e.message ?? '格式错误';
  }
}

/**
 * Fastify's own 4xx answers about the request body (English in Fastify) as the project's wording, naming `body`.
 * An invalid JSON body and one with a `__proto__` or `constructor.prototype` key (refused by Fastify's parser
 * against prototype poisoning) reach here as one code: the sentence names both.
 */
const BODY_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: '应为有效的 JSON，且不能含有 __proto__ 或 constructor.prototype 键',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Content-Type 为 application/json 时请求体不能为空',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持该 Content-Type，应为 application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '长度与 Content-Length 不符',
};

/** The project's message for a Fastify body error (see BODY_ERRORS), or undefined for any other error. */
export function describeBodyError(err: { code?: unknown }): string | undefined {
  const allowed =
    typeof err.code === 'string' && Object.hasOwn(BODY_ERRORS, err.code) ? BODY_ERRORS[err.code] : undefined;
  return allowed && invalidParamMessage('body', allowed);
}
