import Bowser from 'bowser';
import type { SignInMethod } from '../../db/schema.js';

/** What kind of program signed in, as the client says in the `X-Client-Kind` header. */
export const CLIENT_KINDS = ['web', 'mobile', 'cli', 'sdk', 'other'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

/**
 * Each client kind's name (generated into `@tianji/client`): the session lists, the login log and its export, and
 * the CLI say 网页, 移动端, 命令行 alike.
 */
export const CLIENT_KIND_NAMES = {
  web: { zh: '网页', en: 'Web' },
  mobile: { zh: '移动端', en: 'Mobile' },
  cli: { zh: '命令行', en: 'CLI' },
  sdk: { zh: 'SDK', en: 'SDK' },
  other: { zh: '其他', en: 'Other' },
} as const satisfies Record<ClientKind, { zh: string; en: string }>;

/** How a session was opened (the sessions table's `sign_in_method`, migration 0022). */
export const SIGN_IN_METHODS = ['password', 'passkey', 'device'] as const satisfies readonly SignInMethod[];

/**
 * Each sign-in method's name (generated into `@tianji/client`): the session lists' 方式 column in both apps and the
 * CLI. A password sign-in with a second step is still 密码 (the login log tells the recovery code apart).
 */
export const SIGN_IN_METHOD_NAMES = {
  password: { zh: '密码', en: 'Password' },
  passkey: { zh: '通行密钥', en: 'Passkey' },
  device: { zh: '浏览器授权', en: 'Approved in a browser' },
} as const satisfies Record<SignInMethod, { zh: string; en: string }>;

/** The header value when it is one of CLIENT_KINDS (any case), else `other`: a sign-in never fails over it. */
export function clientKindOf(header: string | string[] | undefined): ClientKind {
  const v = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  return (CLIENT_KINDS as readonly string[]).includes(v ?? '') ? (v as ClientKind) : 'other';
}

/**
 * A readable device label from the user agent, e.g. `Chrome 131 · Windows 10` or `Safari 17.5 · iOS 17.5`;
 * a program's own agent (`curl/8.5.0`) shows its first word; nothing known gives ''.
 */
export function deviceLabel(userAgent: string): string {
  const ua = userAgent.trim();
  if (!ua) return '';
  const { browser, os } = Bowser.parse(ua);
  const browserPart = browser.name ? [browser.name, majorMinor(browser.version)].filter(Boolean).join(' ') : '';
  const osPart = os.name ? [os.name, os.versionName ?? majorMinor(os.version)].filter(Boolean).join(' ') : '';
  const label = [browserPart, osPart].filter(Boolean).join(' · ');
  return (label || ua.split(/\s/)[0]).slice(0, 128);
}

/** `131.0.0.0` → `131`, `17.5` → `17.5`: enough to tell versions apart without the noise. */
function majorMinor(version: string | undefined): string {
  if (!version) return '';
  const [major, minor] = version.split('.');
  return minor && minor !== '0' ? `${major}.${minor}` : major;
}
