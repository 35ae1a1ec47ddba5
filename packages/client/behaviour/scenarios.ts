/**
 * The session behaviour, written once: every client (SDK, CLI, desktop web, mobile web) runs these scenarios through
 * its own surface (a ClientDriver, driver.ts) against a real server (world.ts). The README matrix is generated from
 * this table (`matrixMarkdown()`, checked by matrix.test.ts).
 */
import { expect } from 'vitest';
import { CLIENT_KINDS, CLIENT_LABELS, type ClientDriver, type ClientKind, type ShownReason } from './driver.js';
import type { World } from './world.js';
import { ADMIN } from '../../server/test/helpers.js';
import { MENUS } from '../../server/src/catalogue/index.js';

const USERS = MENUS.users.code;
const ROLES = MENUS.roles.code;
const MENUS_MENU = MENUS.menus.code;

/**
 * How a client covers a scenario: directly, through the nearest surface it has (`via`), not yet (`pending`), or not at
 * all because the scenario is not about such a client (`na`, with why).
 */
export type Coverage = 'run' | { via: string } | { pending: string } | { na: string };

export interface Scenario {
  id: string;
  title: { zh: string; en: string };
  clients: Record<ClientKind, Coverage>;
  run(d: ClientDriver, world: World): Promise<void>;
}

export const ALL_ONES_DIGITS = '9223372036854775807';
const every = (c: Coverage, mobile: Coverage = c): Record<ClientKind, Coverage> => ({
  sdk: c,
  cli: c,
  web: c,
  mobile,
});

/** The server's reason for an ended session: its code where the client shows codes, its Chinese message always. */
async function expectReason(d: ClientDriver, code: string, message: RegExp) {
  const shown = (await d.shownReason()) as ShownReason | null;
  expect(shown, `${d.kind} shows no reason`).not.toBeNull();
  if (shown!.code !== undefined) expect(shown!.code).toBe(code);
  expect(shown!.message).toMatch(message);
  expect(await d.signedIn()).toBe(false);
}

/** An operator ends the session; the client shows the reason. */
const endedBy =
  (act: (world: World, user: Awaited<ReturnType<World['user']>>) => Promise<unknown>, code: string, message: RegExp) =>
  async (d: ClientDriver, world: World) => {
    const user = await world.user(`ended-${code.toLowerCase()}`, { [USERS]: 1 });
    await d.signIn(user.username, user.password);
    expect(await d.signedIn()).toBe(true);
    await act(world, user);
    await expectReason(d, code, message);
  };

export const SCENARIOS: Scenario[] = [
  {
    id: 'sign-in',
    title: { zh: '登录后显示身份、角色与权限掩码', en: 'sign in shows identity, roles and the aggregate mask' },
    clients: {
      ...every('run'),
      web: {
        via: 'name and roles from the header and home page; the app shows no mask, so the /api/auth/me answer it renders from',
      },
      mobile: {
        via: 'name and roles from the 我的 page; the app shows no mask, so the /api/auth/me answer it renders from',
      },
    },
    async run(d) {
      await d.signIn(ADMIN.username, ADMIN.password);
      const me = await d.identity();
      expect(['admin', '超级管理员']).toContain(me.shownName);
      expect(me.roles.some((r) => r === '超级管理员' || r === 'super_admin')).toBe(true);
      expect(me.mask).toBe(ALL_ONES_DIGITS);
    },
  },
  {
    id: 'menu-bits-0',
    title: { zh: '授权位为 0 的菜单可见但没有操作', en: 'a menu granted with bits 0 is visible and offers no actions' },
    clients: {
      ...every('run'),
      cli: { via: '`tianji menus tree --json`: the menu is listed with no points (shown as 仅可见)' },
      web: { via: 'the page’s action buttons (the search form’s 重置 needs no permission and is not counted)' },
      mobile: {
        via: 'users menu: the 用户 tab (SEARCH) and a user’s page’s buttons; the phone app has no role or menu page, so those menus are read from the /api/auth/me answer it renders from',
      },
    },
    async run(d, world) {
      const user = await world.user('bits0', { [USERS]: 1, [ROLES]: 0 });
      await d.signIn(user.username, user.password);
      expect(await d.visibleActions(ROLES)).toEqual([]);
      expect(await d.visibleActions(USERS)).toContain('SEARCH');
      expect(await d.visibleActions(MENUS_MENU)).toBeNull();
    },
  },
  {
    id: 'grant-shows-action',
    title: { zh: '授予权限位后刷新菜单即显示对应操作', en: 'granting a bit shows its action after the menus refresh' },
    clients: {
      ...every('run'),
      cli: { via: 'every command reads /api/auth/me anew: the next `tianji menus tree --json` is the refresh' },
      web: { via: 'navigating to the page reloads the menus; the EDIT button appears' },
      mobile: { via: 'tapping a tab reloads the menus; a user’s page shows 停用 (EDIT)' },
    },
    async run(d, world) {
      const user = await world.user('grant', { [USERS]: 1 });
      await d.signIn(user.username, user.password);
      expect(await d.visibleActions(USERS)).not.toContain('EDIT');
      await world.setGrants(user, { [USERS]: 1 | 4 });
      await d.refreshMenus();
      expect(await d.visibleActions(USERS)).toContain('EDIT');
    },
  },
  {
    id: 'revoked-action-forbidden',
    title: {
      zh: '权限位已被收回的操作显示「无权限」并刷新菜单',
      en: 'an action whose bit was removed meanwhile says 无权限 and the menus refresh',
    },
    clients: {
      ...every('run'),
      cli: { via: '`tianji users enable` (PATCH) exits 3 with 无权限; the next command shows the menus anew' },
      web: { via: 'the edit dialog’s save shows 无权限 and the EDIT button goes away without a reload' },
      mobile: {
        via: '停用 (PATCH status) on the user’s page already open (reaching another is a navigation, which reloads the menus first) shows 无权限（权限已变更） and the button goes away without a reload',
      },
    },
    async run(d, world) {
      const target = await world.user('target');
      const user = await world.user('revoke', { [USERS]: 1 | 4 });
      await d.signIn(user.username, user.password);
      expect(await d.visibleActions(USERS)).toContain('EDIT');
      await world.setGrants(user, { [USERS]: 1 });
      expect(await d.doAction('PATCH /api/users/{id}', target.username)).toEqual({
        kind: 'forbidden',
        message: expect.stringMatching(/^无权限/),
      });
      expect(await d.visibleActions(USERS)).not.toContain('EDIT');
      expect(await d.signedIn()).toBe(true);
    },
  },
  {
    id: 'concurrent-refresh',
    title: {
      zh: '访问令牌过期时并发操作只刷新一次，全部保持登录',
      en: 'expired access token with concurrent actions: exactly one refresh, all stay signed in',
    },
    clients: {
      sdk: { via: 'three parallel calls on one session' },
      cli: { via: 'three `tianji` processes started at once on one profile' },
      web: { via: 'three tabs of one browser, clicked at once' },
      mobile: { via: 'three tabs of one browser, their tab bars tapped at once' },
    },
    async run(d, world) {
      await d.signIn(ADMIN.username, ADMIN.password);
      await d.prepareConcurrent(3);
      await world.waitForAccessExpiry();
      const before = world.refreshes();
      const outcomes = await d.concurrentActions(3);
      expect(outcomes).toEqual([{ kind: 'ok' }, { kind: 'ok' }, { kind: 'ok' }]);
      expect(world.refreshes() - before).toBe(1);
      expect(await d.signedIn()).toBe(true);
    },
  },
  {
    id: 'failed-refresh',
    title: {
      zh: '刷新失败即退出登录并显示原因',
      en: 'a failed refresh signs out with the reason (refresh token used by someone else first)',
    },
    clients: every('run'),
    async run(d, world) {
      const user = await world.user('stolen', { [USERS]: 1 });
      await d.signIn(user.username, user.password);
      await world.stealRefreshToken(await d.storedRefreshToken());
      await world.waitForAccessExpiry();
      await expectReason(d, 'REFRESH_REUSED', /重复使用/);
    },
  },
  {
    id: 'logout',
    title: { zh: '退出登录吊销刷新令牌', en: 'logout revokes the refresh token' },
    clients: every('run'),
    async run(d, world) {
      const user = await world.user('logout', { [USERS]: 1 });
      await d.signIn(user.username, user.password);
      const token = await d.storedRefreshToken();
      await d.logout();
      expect(await d.signedIn()).toBe(false);
      const res = await fetch(`${world.baseUrl}/api/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: token }),
      });
      expect(res.status).toBe(401);
    },
  },
  {
    id: 'password-changed',
    title: {
      zh: '在另一客户端修改密码后本客户端退出并显示 PASSWORD_CHANGED',
      en: 'password changed on another client: this one is signed out with PASSWORD_CHANGED',
    },
    clients: every('run'),
    run: endedBy((w, u) => w.changePasswordElsewhere(u, 'changed-password-2'), 'PASSWORD_CHANGED', /^密码已修改/),
  },
  {
    id: 'session-ended',
    title: {
      zh: '管理员结束本会话后显示「此设备已被管理员下线」（SESSION_REVOKED）',
      en: 'an operator ends this session: the client shows SESSION_REVOKED (this device signed out by an administrator)',
    },
    clients: every('run'),
    run: endedBy((w, u) => w.endSessions(u), 'SESSION_REVOKED', /^此设备已被管理员下线/),
  },
  {
    id: 'forced-logout',
    title: {
      zh: '管理员强制下线后显示 FORCED_LOGOUT',
      en: 'an operator forces sign-out: the client shows FORCED_LOGOUT',
    },
    clients: every('run'),
    run: endedBy((w, u) => w.forceLogout(u), 'FORCED_LOGOUT', /^你已被管理员强制下线/),
  },
  {
    id: 'account-disabled',
    title: {
      zh: '账号被停用后显示 ACCOUNT_DISABLED',
      en: 'an operator disables the account: the client shows ACCOUNT_DISABLED',
    },
    clients: every('run'),
    run: endedBy((w, u) => w.disable(u), 'ACCOUNT_DISABLED', /^账号已停用/),
  },
  {
    id: 'must-change-password',
    title: {
      zh: '必须修改密码的账号登录后先改密码',
      en: 'an account that must change its password is asked to before anything else',
    },
    clients: {
      sdk: { via: '`session.mustChangePassword`; other calls answer 403 PASSWORD_CHANGE_REQUIRED' },
      cli: {
        via: '`tianji login` prints the notice (`--json`: mustChangePassword) and other commands exit 3; `tianji password` prompts on a terminal only, so the change is the same PUT /api/auth/password made with the CLI’s stored session',
      },
      web: {
        via: 'the app lands on 个人中心 with 修改密码 open and 首次登录请先修改密码; opening the users page’s address brings it back there',
      },
      mobile: {
        via: 'the app lands on 我的 with 修改密码 open; opening the users page’s address brings it back there with 首次登录请先修改密码',
      },
    },
    async run(d, world) {
      const target = await world.user('mc-target');
      const user = await world.user('mustchange', { [USERS]: 1 | 4 }, { mustChangePassword: true });
      await d.signIn(user.username, user.password);
      expect(await d.mustChangePassword()).toBe(true);
      expect(await d.doAction('PATCH /api/users/{id}', target.username)).toEqual({
        kind: 'forbidden',
        message: expect.stringMatching(/修改密码/),
      });
      await d.changeOwnPassword(user.password, 'chosen-by-the-user-7');
      user.password = 'chosen-by-the-user-7';
      expect(await d.mustChangePassword()).toBe(false);
      expect(await d.signedIn()).toBe(true);
      expect((await d.identity()).shownName).toBe(user.username);
      expect(await d.doAction('PATCH /api/users/{id}', target.username)).toEqual({ kind: 'ok' });
    },
  },
  {
    id: 'totp',
    title: { zh: '开启两步验证的账号登录需要动态码', en: 'an account with TOTP signs in with a one-time code' },
    clients: {
      sdk: { via: '`login()` throws MfaRequiredError, then `loginTotp(mfaToken, code)`' },
      cli: { via: '`tianji login --password-stdin --totp CODE`' },
      web: { via: 'the login page’s code form after the password' },
      mobile: { via: 'the login page’s code step after the password, typed on its number keyboard' },
    },
    async run(d, world) {
      const user = await world.user('totp', { [USERS]: 1 });
      const authenticator = await world.enrolTotp(user);
      await expect(d.signIn(user.username, user.password, () => '000000')).rejects.toThrow();
      expect(await d.signedIn()).toBe(false);
      await d.signIn(user.username, user.password, authenticator);
      expect(await d.signedIn()).toBe(true);
      // The owner learns of the wrong code at once, in every client (the server's sentence, shown once).
      expect(await d.securityNotice()).toMatch(/自上次登录以来，你的账号有 1 次两步验证码输入错误/);
      expect((await d.identity()).shownName).toBe(user.username);
    },
  },
  {
    id: 'reauth-before-totp',
    title: {
      zh: '登录超过 10 分钟的会话开启两步验证前要再次输入密码',
      en: 'a session signed in over ten minutes ago re-enters the password before enrolling TOTP',
    },
    clients: {
      sdk: { via: '`setupTotp()` throws ReauthRequiredError; `setupTotp({ password })` re-authenticates and retries' },
      cli: {
        via: '`tianji totp setup` exits 3 (REAUTH_REQUIRED) without a terminal; again with `--password-stdin`, then `tianji totp enable --code`',
      },
      web: {
        via: 'the user menu’s 个人资料, 两步验证: 开启两步验证 opens the 验证身份 dialog; the password lets the setup go on, then 确认开启 with the code',
      },
      mobile: {
        via: '我的 → 两步验证: 开启两步验证 opens the 验证身份 bottom sheet; the password lets the setup go on, then 确认开启 with the code',
      },
    },
    async run(d, world) {
      const user = await world.user('reauth', { [USERS]: 1 });
      await d.signIn(user.username, user.password);
      await world.ageSessions(user);
      const enrolled = await d.enrolTotp(user.password, (secret) => world.authenticator(secret)()!);
      expect(enrolled.askedForPassword).toBe(true);
      expect(enrolled.recoveryCodes).toHaveLength(10);
      expect(await world.totpEnabled(user)).toBe(true);
      expect(await d.signedIn()).toBe(true);
    },
  },
  {
    id: 'device-sign-in',
    title: { zh: '在浏览器中批准登录（设备授权）', en: 'a sign-in approved in a browser (device flow)' },
    clients: {
      sdk: 'run',
      cli: 'run',
      web: {
        na: 'a browser signs in by itself; it is where the approval is given (apps/admin/test/device-approval.test.ts)',
      },
      mobile: { na: 'likewise the approver: 批准设备登录 at /m/device (apps/admin/test/device-approval.test.ts)' },
    },
    async run(d, world) {
      const user = await world.user('device', { [USERS]: 1 });
      await d.signInApprovedElsewhere((code) => world.decideDevice(user, code, 'approve'));
      expect(await d.signedIn()).toBe(true);
      expect((await d.identity()).shownName).toBe(user.username);
      await d.logout();
      // Refused in the browser: nothing is signed in, and the client says so in the server's words.
      await expect(d.signInApprovedElsewhere((code) => world.decideDevice(user, code, 'deny'))).rejects.toThrow(
        /登录请求已被拒绝/,
      );
      expect(await d.signedIn()).toBe(false);
    },
  },
  {
    id: 'passkey-sign-in',
    title: {
      zh: '添加通行密钥并只用它登录，满足角色的两步验证要求',
      en: 'add a passkey and sign in with it alone, which satisfies a role’s two-step requirement',
    },
    clients: {
      sdk: {
        via: 'a software authenticator (packages/server/test/soft-authenticator.ts) answers the typed register options and passkeyLoginOptions(), then loginWithPasskey',
      },
      cli: { na: 'no browser or authenticator of its own: it signs in through a browser (device-sign-in)' },
      web: {
        via: 'Chromium’s virtual authenticator: 个人资料 › 通行密钥 › 添加通行密钥, then 使用通行密钥登录 on the sign-in page',
      },
      mobile: {
        via: 'Chromium’s virtual authenticator: 我的 › 通行密钥 › 添加通行密钥, then 使用通行密钥登录 on the sign-in page',
      },
    },
    async run(d, world) {
      const target = await world.user('pk-target');
      const user = await world.user('passkey', { [USERS]: 1 | 4 });
      await d.signIn(user.username, user.password);
      await d.addPasskey(user.password);
      await d.logout();
      // From now on a password alone would leave the user at the TOTP set-up: the passkey counts as the second step.
      await world.requireTwoStep(user);
      await d.signInWithPasskey();
      expect(await d.signedIn()).toBe(true);
      expect((await d.identity()).shownName).toBe(user.username);
      expect(await d.doAction('PATCH /api/users/{id}', target.username)).toEqual({ kind: 'ok' });
    },
  },
];

const mark = (c: Coverage, notes: string[]): string => {
  if (c === 'run') return '✓';
  if ('pending' in c) return 'pending';
  if ('na' in c) {
    notes.push(`does not apply: ${c.na}`);
    return `— ⁽${notes.length}⁾`;
  }
  notes.push(c.via);
  return `✓ ⁽${notes.length}⁾`;
};

/** The README matrix: scenario × client, ✓ / pending, with the surface each mapped step uses as numbered notes. */
export function matrixMarkdown(): string {
  const notes: string[] = [];
  const head = `| scenario | ${CLIENT_KINDS.map((k) => CLIENT_LABELS[k]).join(' | ')} |`;
  const rule = `|---|${CLIENT_KINDS.map(() => ':-:').join('|')}|`;
  const rows = SCENARIOS.map(
    (s) =>
      `| \`${s.id}\` ${s.title.zh}<br>${s.title.en} | ${CLIENT_KINDS.map((k) => mark(s.clients[k], notes)).join(' | ')} |`,
  );
  const pending = [...new Set(SCENARIOS.flatMap((s) => CLIENT_KINDS.map((k) => s.clients[k])))]
    .filter((c): c is { pending: string } => typeof c === 'object' && 'pending' in c)
    .map((c) => c.pending);
  return [
    head,
    rule,
    ...rows,
    '',
    ...notes.map((n, i) => `${i + 1}. ${n}`),
    ...(pending.length ? ['', `Pending: ${[...new Set(pending)].join('; ')}.`] : []),
  ].join('\n');
}
