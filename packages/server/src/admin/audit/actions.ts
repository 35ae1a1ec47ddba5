/**
 * Every action the audit log records, with its name in Chinese and English, and the target types. Clients read
 * these names (generated into `@tianji/client` as AUDIT_ACTIONS), so the log speaks the operator's words. Every
 * writer takes an AuditAction (app.audit, Actor.audit, recordAudit), so an action not listed here does not compile.
 */
export const AUDIT_ACTIONS = {
  'user.create': { zh: '新增用户', en: 'Add user' },
  'user.update': { zh: '编辑用户', en: 'Edit user' },
  'user.delete': { zh: '删除用户', en: 'Delete user' },
  'user.batch-delete': { zh: '批量删除用户', en: 'Delete users' },
  'user.reset-password': { zh: '重置密码', en: 'Reset password' },
  'user.unlock': { zh: '解锁用户', en: 'Unlock user' },
  'user.reset-totp': { zh: '重置两步验证', en: 'Reset two-step sign-in' },
  'user.set-roles': { zh: '分配角色', en: 'Assign roles' },
  'user.force-logout': { zh: '强制下线', en: 'Force sign-out' },
  'user.export': { zh: '导出用户', en: 'Export users' },
  'user.username-collision': { zh: '用户名冲突（升级时发现）', en: 'Username collision (found on upgrade)' },
  'role.create': { zh: '新增角色', en: 'Add role' },
  'role.update': { zh: '编辑角色', en: 'Edit role' },
  'role.delete': { zh: '删除角色', en: 'Delete role' },
  'role.batch-delete': { zh: '批量删除角色', en: 'Delete roles' },
  'role.set-grants': { zh: '修改授权', en: 'Change grants' },
  'role.export': { zh: '导出角色', en: 'Export roles' },
  'role.rename-duplicate': { zh: '重名角色改名（升级时）', en: 'Duplicate role name renamed (upgrade)' },
  'menu.create': { zh: '新增菜单', en: 'Add menu' },
  'menu.add-child': { zh: '新增下级菜单', en: 'Add submenu' },
  'menu.update': { zh: '编辑菜单', en: 'Edit menu' },
  'menu.delete': { zh: '删除菜单', en: 'Delete menu' },
  'session.delete': { zh: '结束会话', en: 'End session' },
  'session.batch-delete': { zh: '批量结束会话', en: 'End sessions' },
  'auth.change-password': { zh: '修改自己的密码', en: 'Change own password' },
  'auth.update-profile': { zh: '修改个人资料', en: 'Edit own profile' },
  'auth.totp-enable': { zh: '开启两步验证', en: 'Turn on two-step sign-in' },
  'auth.totp-disable': { zh: '关闭两步验证', en: 'Turn off two-step sign-in' },
  'auth.totp-recovery-codes': { zh: '重新生成恢复码', en: 'Regenerate recovery codes' },
  'audit.export': { zh: '导出审计日志', en: 'Export audit log' },
  'login-log.export': { zh: '导出登录日志', en: 'Export sign-in log' },
  'content.create': { zh: '新增内容', en: 'Add content' },
  'content.update': { zh: '编辑内容', en: 'Edit content' },
  'content.delete': { zh: '删除内容', en: 'Delete content' },
  'content.batch-delete': { zh: '批量删除内容', en: 'Delete content items' },
  'content.import': { zh: '导入内容', en: 'Import content' },
  'content.export': { zh: '导出内容', en: 'Export content' },
  'api-key.create': { zh: '新增接口密钥', en: 'Add API key' },
  'api-key.update': { zh: '编辑接口密钥', en: 'Edit API key' },
  'api-key.revoke': { zh: '吊销接口密钥', en: 'Revoke API key' },
  'api-key.batch-revoke': { zh: '批量吊销接口密钥', en: 'Revoke API keys' },
  'api-key.rotate': { zh: '轮换接口密钥', en: 'Rotate API key' },
  'api-key.export': { zh: '导出接口密钥', en: 'Export API keys' },
  'api-key.policy': { zh: '设置必须使用密钥的接口', en: 'Set endpoints that require a key' },
  'cli.create-super-admin': { zh: '命令行：创建超级管理员', en: 'CLI: create super administrator' },
  'cli.reset-password': { zh: '命令行：重置密码', en: 'CLI: reset password' },
  'cli.reset-mfa': { zh: '命令行：重置两步验证', en: 'CLI: reset two-step sign-in' },
  'cli.unlock': { zh: '命令行：解除登录限制', en: 'CLI: clear sign-in throttling' },
} as const satisfies Record<string, { zh: string; en: string }>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The target types of the admin features (a content library's target type is the library's own name). */
export const AUDIT_TARGETS = {
  user: { zh: '用户', en: 'User' },
  role: { zh: '角色', en: 'Role' },
  menu: { zh: '菜单', en: 'Menu' },
  session: { zh: '会话', en: 'Session' },
  'audit-log': { zh: '审计日志', en: 'Audit log' },
  'login-log': { zh: '登录日志', en: 'Sign-in log' },
  'api-key': { zh: '接口密钥', en: 'API key' },
} as const satisfies Record<string, { zh: string; en: string }>;
