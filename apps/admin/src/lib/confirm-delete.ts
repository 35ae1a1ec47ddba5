import { ElMessage, ElMessageBox } from 'element-plus';
import { i18n } from '../i18n';

/**
 * Asks before deleting, deletes, says how many went and reloads the list. `what` names one record, or is the number
 * of selected records; `remove` returns how many the server deleted (nothing: one).
 */
export async function deleteWithConfirm(
  what: string | number,
  remove: () => Promise<number | undefined>,
  reload: () => Promise<unknown>,
): Promise<void> {
  const { t } = i18n.global;
  const question =
    typeof what === 'number' ? t('common.batchDeleteConfirm', { n: what }) : t('common.deleteConfirm', { name: what });
  await ElMessageBox.confirm(question, t('common.hint'), { type: 'warning' });
  const n = await remove();
  ElMessage.success(t('common.deleted', { n: typeof n === 'number' ? n : 1 }));
  await reload();
}
