import { reactive } from 'vue';
import { ApiError } from '@tianji/client';

/** The codes whose message may name a field: a bad value (400) and a value already taken (409, a username, a role name). */
const FIELD_CODES = new Set(['VALIDATION_ERROR', 'CONFLICT']);

/**
 * The field and the reason of a server validation or conflict error, read from its one wording
 * `参数 <field> 无效：<reason>` (errors.ts invalidParamMessage; nested fields as `holidays.0.name`).
 */
export function fieldErrorOf(e: unknown): { field: string; reason: string } | undefined {
  if (!(e instanceof ApiError) || !FIELD_CODES.has(e.code)) return undefined;
  const m = /^参数 (\S+) 无效：([\s\S]+)$/.exec(e.message);
  return m ? { field: m[1], reason: m[2] } : undefined;
}

export interface FieldErrors {
  /** The message under each field, by the field's server name (`newPassword`), empty when none. */
  readonly errors: Record<string, string>;
  /** Forgets every message (before a new submit, or when the dialog opens). */
  clear(): void;
  /**
   * Shows `e` under its field when it is a validation error on one of this form's fields, with the field's label
   * (「新密码无效：密码长度应至少为 8 个字符」), and returns true; false when it is not (the caller shows it otherwise).
   */
  show(e: unknown): boolean;
  /** Shows these messages under their fields (the form's own check before a save: formProblems). */
  set(messages: Record<string, string>): void;
}

/**
 * The server's validation errors of one form, shown under their fields instead of in a toast. `labels` gives the
 * label of each of the form's fields by its server name; a nested field (`holidays.0.name`) shows under its top field.
 *
 * @example const fe = useFieldErrors(() => ({ newPassword: t('password.new') })); // <el-form-item :error="fe.errors.newPassword">
 */
export function useFieldErrors(labels: () => Record<string, string>): FieldErrors {
  const errors = reactive<Record<string, string>>({});
  return {
    errors,
    clear() {
      for (const k of Object.keys(errors)) delete errors[k];
    },
    show(e) {
      const fe = fieldErrorOf(e);
      if (!fe) return false;
      const [top, ...rest] = fe.field.split('.');
      const known = labels();
      if (!Object.hasOwn(known, top)) return false;
      // A nested field says where: 「假期（第 1 项 · name）」.
      const where = rest.map((p) => (/^\d+$/.test(p) ? `第 ${Number(p) + 1} 项` : (known[p] ?? p))).join(' · ');
      const label = where ? `${known[top]}（${where}）` : known[top];
      // What was received is the server's note for the log, not for the person who just typed it.
      errors[top] = `${label}无效：${fe.reason.replace(/，收到 [\s\S]*$/, '')}`;
      return true;
    },
    set(messages) {
      Object.assign(errors, messages);
    },
  };
}
