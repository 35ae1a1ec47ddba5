import { reactive, ref, shallowRef, type Reactive } from 'vue';
import { ElMessage } from 'element-plus';
import { i18n } from '../i18n';

/**
 * The add/edit dialog state of a list page: which record is being edited (null: a new one), the form, and `submit`,
 * which saves, closes, says "saved" and reloads the list. A failed save keeps the dialog open (the error was shown).
 *
 * @example const dlg = useFormDialog(() => ({ name: '' }), (r: Role) => ({ name: r.name }), saveRole, list.load);
 */
export function useFormDialog<T, F extends object>(
  blank: () => F,
  fromRow: (row: T) => F,
  save: (form: Reactive<F>, editing: T | null) => Promise<unknown>,
  reload: () => Promise<unknown>,
) {
  const open = ref(false);
  const editing = shallowRef<T | null>(null);
  const form = reactive(blank());

  function openAdd() {
    editing.value = null;
    Object.assign(form, blank());
    open.value = true;
  }
  function openEdit(row: T) {
    editing.value = row;
    Object.assign(form, fromRow(row));
    open.value = true;
  }
  async function submit() {
    await save(form, editing.value);
    open.value = false;
    ElMessage.success(i18n.global.t('common.saved'));
    await reload();
  }
  return { open, editing, form, openAdd, openEdit, submit };
}
