import { reactive, ref, shallowRef, type Reactive } from 'vue';
import { ElMessage } from 'element-plus';
import { fieldsOf, formProblems, useFieldErrors, type CallOptions, type JsonSchema } from '@tianji/web-core';
import { i18n } from '../i18n';

/**
 * The add/edit dialog state of a list page: which record is being edited (null: a new one), the form, and `submit`,
 * which saves, closes, says "saved" and reloads the list. A failed save keeps the dialog open (the error was shown).
 * `labels` names the form's fields by their server names: a server error on one of them (a taken username, an invalid
 * code) shows under that field (`errors`) with its label instead of a toast; `save` passes `opts` to its `call`.
 * `schema` gives the request body's schema (requestSchema): before sending, every labelled field it refuses shows
 * its message at once (formProblems), as the server would refuse only the first.
 *
 * @example const dlg = useFormDialog(() => ({ name: '' }), (r: Role) => ({ name: r.name }), (f, e, opts) => saveRole(f, opts), list.load, () => ({ name: '名称' }));
 */
export function useFormDialog<T, F extends object>(
  blank: () => F,
  fromRow: (row: T) => F,
  save: (form: Reactive<F>, editing: T | null, opts: CallOptions) => Promise<unknown>,
  reload: () => Promise<unknown>,
  labels: () => Record<string, string> = () => ({}),
  schema?: (editing: T | null) => Promise<JsonSchema | undefined>,
) {
  const open = ref(false);
  const editing = shallowRef<T | null>(null);
  const form = reactive(blank());
  const fe = useFieldErrors(labels);

  function openAdd() {
    editing.value = null;
    Object.assign(form, blank());
    fe.clear();
    open.value = true;
  }
  function openEdit(row: T) {
    editing.value = row;
    Object.assign(form, fromRow(row));
    fe.clear();
    open.value = true;
  }
  async function submit() {
    fe.clear();
    const body = await schema?.(editing.value).catch(() => undefined);
    if (body) {
      const known = labels();
      const problems = formProblems(fieldsOf(body), form as Record<string, unknown>, (f) => known[f]);
      if (Object.keys(problems).length) return fe.set(problems);
    }
    await save(form, editing.value, { form: fe });
    open.value = false;
    ElMessage.success(i18n.global.t('common.saved'));
    await reload();
  }
  return { open, editing, form, errors: fe.errors, openAdd, openEdit, submit };
}
