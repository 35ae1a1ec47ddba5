/** The ten permission points. Each is one bit; `name` is the Chinese name messages use; `icon` is a lucide icon name the admin app renders. */
export const PERMISSION_POINTS = [
  { value: 'SEARCH', name: '查询', label: 'search', bits: 1, icon: 'search' },
  { value: 'ADD', name: '新增', label: 'add', bits: 2, icon: 'plus' },
  { value: 'EDIT', name: '编辑', label: 'edit', bits: 4, icon: 'pencil-line' },
  { value: 'DELETE', name: '删除', label: 'delete', bits: 8, icon: 'trash-2' },
  { value: 'BATCH_DELETE', name: '批量删除', label: 'batch-delete', bits: 16, icon: 'list-x' },
  { value: 'ADD_CHILD', name: '新增下级', label: 'add-child', bits: 32, icon: 'list-plus' },
  { value: 'RESET', name: '重置', label: 'reset', bits: 64, icon: 'rotate-ccw' },
  { value: 'RESET_PASSWORD', name: '重置密码', label: 'reset-password', bits: 128, icon: 'key-round' },
  { value: 'GRANT', name: '授权', label: 'grant', bits: 256, icon: 'shield-check' },
  { value: 'EXPORT', name: '导出', label: 'export', bits: 512, icon: 'download' },
] as const;

export type PermissionName = (typeof PERMISSION_POINTS)[number]['value'];

/** Bit value by name, e.g. `PERMISSION.EDIT === 4`. */
export const PERMISSION = Object.fromEntries(PERMISSION_POINTS.map((p) => [p.value, p.bits])) as Record<PermissionName, number>;

/** OR of all ten points (1023). */
export const ALL_POINT_BITS = PERMISSION_POINTS.reduce((m, p) => m | p.bits, 0);

export const bitsOf = (names: readonly PermissionName[]): number => names.reduce((m, n) => m | PERMISSION[n], 0);

/** The Chinese names of the points in `bits`, in point order, joined with 「、」: `pointNames(5) === '查询、编辑'`. */
export const pointNames = (bits: number): string =>
  PERMISSION_POINTS.filter((p) => (bits & p.bits) !== 0)
    .map((p) => p.name)
    .join('、');
