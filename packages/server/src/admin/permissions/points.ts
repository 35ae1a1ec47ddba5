/**
 * The ten permission points. Each is one bit; `icon` is a lucide icon name the admin app renders.
 *
 * `RESET` (64) guards unlocking a user (POST /api/users/{id}/unlock: clearing the sign-in throttling); operator-defined
 * pages may gate a "reset" action of their own with it too. Resetting a credential is `RESET_PASSWORD` (128): the
 * password and the two-step sign-in (POST /api/users/{id}/reset-totp) alike.
 */
export const PERMISSION_POINTS = [
  { value: 'SEARCH', label: 'search', bits: 1, icon: 'search' },
  { value: 'ADD', label: 'add', bits: 2, icon: 'plus' },
  { value: 'EDIT', label: 'edit', bits: 4, icon: 'pencil-line' },
  { value: 'DELETE', label: 'delete', bits: 8, icon: 'trash-2' },
  { value: 'BATCH_DELETE', label: 'batch-delete', bits: 16, icon: 'list-x' },
  { value: 'ADD_CHILD', label: 'add-child', bits: 32, icon: 'list-plus' },
  { value: 'RESET', label: 'reset', bits: 64, icon: 'rotate-ccw' },
  { value: 'RESET_PASSWORD', label: 'reset-password', bits: 128, icon: 'key-round' },
  { value: 'GRANT', label: 'grant', bits: 256, icon: 'shield-check' },
  { value: 'EXPORT', label: 'export', bits: 512, icon: 'download' },
] as const;

export type PermissionName = (typeof PERMISSION_POINTS)[number]['value'];

/** Bit value by name, e.g. `PERMISSION.EDIT === 4`. */
export const PERMISSION = Object.fromEntries(PERMISSION_POINTS.map((p) => [p.value, p.bits])) as Record<
  PermissionName,
  number
>;

/** OR of all ten points (1023). */
export const ALL_POINT_BITS = PERMISSION_POINTS.reduce((m, p) => m | p.bits, 0);

export const bitsOf = (names: readonly PermissionName[]): number => names.reduce((m, n) => m | PERMISSION[n], 0);

/** The points' names in Chinese and English: the server's own messages use the Chinese, clients get both (generated). */
export const POINT_NAMES: Record<PermissionName, { zh: string; en: string }> = {
  SEARCH: { zh: '查询', en: 'Search' },
  ADD: { zh: '新增', en: 'Add' },
  EDIT: { zh: '编辑', en: 'Edit' },
  DELETE: { zh: '删除', en: 'Delete' },
  BATCH_DELETE: { zh: '批量删除', en: 'Batch delete' },
  ADD_CHILD: { zh: '新增下级', en: 'Add child' },
  RESET: { zh: '重置', en: 'Reset' },
  RESET_PASSWORD: { zh: '重置密码', en: 'Reset password' },
  GRANT: { zh: '授权', en: 'Grant' },
  EXPORT: { zh: '导出', en: 'Export' },
};

/** The Chinese names of the points in `bits`, in point order, joined with 「、」: `pointNames(5) === '查询、编辑'`. */
export const pointNames = (bits: number): string =>
  PERMISSION_POINTS.filter((p) => (bits & p.bits) !== 0)
    .map((p) => POINT_NAMES[p.value].zh)
    .join('、');
