/**
 * The 示例 (examples) section of every help page and of the command reference, by command path ('' is `tianji`
 * itself). Each line is a runnable command (a `# …` line says what the next one does); commander-zh.test.ts
 * parses every one against the real command definitions, and fails for a command without examples.
 */
import type { Command } from 'commander';

export const EXAMPLES: Record<string, readonly string[]> = {
  '': [
    '# 第一次使用：登录一个服务器（凭据保存在 ~/.config/tianji/）',
    'tianji login --server https://tianji.example.com --username admin',
    'tianji users list',
    '# 脚本里：输出 JSON；出错时 stderr 也是 JSON，退出码说明原因',
    'tianji --json users get alice',
    'tianji --profile staging whoami',
  ],
  login: [
    'tianji login --server https://tianji.example.com --username admin',
    '# 脚本里：密码从标准输入读入，两步验证码用 --totp 给出',
    'echo "$TIANJI_PASSWORD" | tianji login --username admin --password-stdin --totp 123456',
    '# 不输入密码：在已登录的浏览器或手机上批准（打印网址和代码，等待批准）',
    'tianji login --web --server https://tianji.example.com',
    'tianji login --web --username admin',
    '# 第二个服务器存为另一个配置',
    'tianji --profile staging login --server https://staging.example.com --username admin',
  ],
  password: ['tianji password'],
  whoami: ['tianji whoami', 'tianji --json whoami'],
  logout: ['tianji logout', 'tianji --profile staging logout'],
  totp: ['tianji totp status', 'tianji totp setup', 'tianji totp enable --code 123456'],
  'totp status': ['tianji totp status'],
  'totp setup': ['tianji totp setup', 'echo "$TIANJI_PASSWORD" | tianji totp setup --password-stdin'],
  'totp enable': ['tianji totp enable --code 123456', 'tianji totp enable --code 123456 --sign-out-others'],
  'totp disable': ['tianji totp disable', '# 用验证码或恢复码代替密码', 'tianji totp disable --totp 123456'],
  'totp recovery-codes': ['tianji totp recovery-codes', 'tianji totp recovery-codes --totp 123456'],
  users: ['tianji users list --keyword li', 'tianji users get alice', 'tianji users disable alice'],
  'users list': [
    'tianji users list',
    'tianji users list --keyword li --status enabled',
    'tianji users list --page 2 --page-size 50',
  ],
  'users get': ['tianji users get alice', 'tianji --json users get alice'],
  'users create': [
    'tianji users create alice --nickname 小李 --role auditor',
    'echo "$NEW_PASSWORD" | tianji users create bob --password-stdin --disabled',
  ],
  'users enable': ['tianji users enable alice'],
  'users disable': ['tianji users disable alice'],
  'users reset-password': [
    'tianji users reset-password alice',
    'echo "$NEW_PASSWORD" | tianji users reset-password alice --password-stdin',
  ],
  'users unlock': ['tianji users unlock alice'],
  'users reset-totp': ['tianji users reset-totp alice'],
  'users roles': [
    '# 查看',
    'tianji users roles alice',
    '# 改为恰好这两个角色',
    'tianji users roles alice auditor editor',
    'tianji users roles alice --none',
  ],
  'users force-logout': ['tianji users force-logout alice'],
  roles: ['tianji roles list', 'tianji roles grant auditor system:user SEARCH'],
  'roles list': ['tianji roles list', 'tianji roles list --keyword audit'],
  'roles grant': [
    'tianji roles grant auditor system:user SEARCH,EXPORT',
    '# 用数字给出权限位（1 = SEARCH）',
    'tianji roles grant auditor system:role 1',
  ],
  menus: ['tianji menus tree'],
  'menus tree': ['tianji menus tree', 'tianji menus tree --all'],
  content: ['tianji content list poems --keyword 月', 'tianji content export jokes jokes.csv'],
  'content list': ['tianji content list poems', 'tianji content list hitokoto --keyword 人生 --page 2'],
  'content export': [
    'tianji content export jokes jokes.csv',
    '# 不给文件：写到标准输出',
    'tianji content export poems --format json > poems.json',
  ],
  'content import': [
    'tianji content import jokes jokes.csv',
    '# 不给文件：读标准输入',
    'tianji content import poems --format json < poems.json',
  ],
  audit: ['tianji audit list --action user.create'],
  'audit list': [
    'tianji audit list',
    'tianji audit list --action user.create --from 2026-01-01 --to 2026-01-31',
    'tianji audit list --keyword alice --page-size 100',
  ],
  sessions: ['tianji sessions list', 'tianji sessions list --all'],
  'sessions list': ['tianji sessions list', 'tianji sessions list --all'],
  'sessions end': [
    '# 会话 ID 见 tianji sessions list',
    'tianji sessions end 0b6f3d2e-6a1c-4c59-9a55-2f0a7d6c1e42',
    'tianji sessions end 0b6f3d2e-6a1c-4c59-9a55-2f0a7d6c1e42 --all',
  ],
  'login-log': ['tianji login-log list --keyword alice'],
  'login-log list': ['tianji login-log list', 'tianji login-log list --keyword alice --page 2'],
  keys: ['tianji keys list', 'tianji keys create 天气小程序 --group daily life'],
  'keys list': ['tianji keys list', 'tianji keys list --status active --keyword 小程序'],
  'keys create': [
    'tianji keys create 天气小程序 --note "张三的小程序" --group daily life',
    'tianji keys create 临时测试 --expires 2026-12-31 --per-minute 30 --per-day 1000',
    'tianji keys create 官网 --origin https://www.example.com --address 203.0.113.0/24',
  ],
  'keys revoke': ['tianji keys revoke tj_ab12cd34', 'tianji keys revoke 临时测试 旧版小程序 --yes'],
  'keys rotate': ['tianji keys rotate 天气小程序', 'tianji keys rotate tj_ab12cd34 --grace 0'],
  profiles: ['tianji profiles list', 'tianji profiles use staging'],
  'profiles list': ['tianji profiles list'],
  'profiles use': ['tianji profiles use staging'],
  'profiles remove': ['tianji profiles remove staging'],
};

/** A command's path under `tianji`: 'users get'; '' for the program. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The 示例 block of a help page: `$ command` lines, comments as they are. */
export function examplesText(lines: readonly string[]): string {
  return `\n示例：\n${lines.map((l) => `  ${l.startsWith('#') ? l : `$ ${l}`}`).join('\n')}`;
}

/** Adds the examples to `cmd` and every command under it. */
export function addExamples(cmd: Command): void {
  const lines = EXAMPLES[commandPath(cmd)];
  if (lines) cmd.addHelpText('after', examplesText(lines));
  for (const sub of cmd.commands) addExamples(sub);
}
