import { reactive } from 'vue';
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { ApiError, type Me } from '@tianji/client';
import type { createAppSession } from './app-session';
import { chinesePart, type Lang } from './texts';

/**
 * Passkeys in both web apps (issue 53): sign in with one (no username: the browser offers this site's passkeys), and
 * the owner's list in 个人资料 › 通行密钥 (add after a proof of identity, rename, remove). The browser half is
 * @simplewebauthn/browser; the server decides everything. The apps only draw it.
 */

/** A passkey as GET /api/auth/passkeys lists it. */
export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  provider: string | null;
  synced: boolean;
  transports: string[];
  sessions: number;
}

const TEXTS = {
  zh: {
    signIn: '使用通行密钥登录',
    unsupported: '此浏览器不支持通行密钥',
    cancelled: '已取消，或等待超时：没有使用通行密钥',
    exists: '这台设备上已经有此账号的通行密钥',
    insecure: '当前地址不能使用通行密钥：请用主机名（本机用 localhost）或 HTTPS 地址打开本站',
    failed: '通行密钥验证未通过，请重试',
    unreachable: '无法连接服务器，请稍后再试',
    kind: {
      synced: '已同步的通行密钥',
      device: '本设备',
      key: '安全密钥',
      phone: '手机',
      other: '通行密钥',
    },
  },
  en: {
    signIn: 'Sign in with a passkey',
    unsupported: 'This browser does not support passkeys',
    cancelled: 'Cancelled or timed out: no passkey was used',
    exists: 'This device already holds a passkey for this account',
    insecure: 'Passkeys do not work at this address: open the site by host name (localhost locally) or over HTTPS',
    failed: 'The passkey was not accepted. Please try again.',
    unreachable: 'Cannot reach the server. Please try again later.',
    kind: {
      synced: 'Synced passkey',
      device: 'This device',
      key: 'Security key',
      phone: 'Phone',
      other: 'Passkey',
    },
  },
};
export const passkeyTexts = (lang: Lang = 'zh') => TEXTS[lang];

/** The session or the browser cannot do passkeys: said as 「此浏览器不支持通行密钥」. */
export class PasskeysUnsupported extends Error {
  constructor() {
    super('passkeys are not supported here');
    this.name = 'PasskeysUnsupported';
  }
}

/** Whether this browser can use passkeys at all (the sign-in button shows only then). */
export const passkeysSupported = (): boolean => typeof window !== 'undefined' && browserSupportsWebAuthn();

/** Where a passkey lives, in words: the authenticator's name when known, else what its transports say. */
export function passkeyKind(p: Pick<Passkey, 'provider' | 'synced' | 'transports'>, lang: Lang = 'zh'): string {
  const k = TEXTS[lang].kind;
  if (p.provider) return p.provider;
  if (p.synced) return k.synced;
  if (p.transports.includes('internal')) return k.device;
  if (p.transports.includes('hybrid')) return k.phone;
  if (p.transports.some((t) => t === 'usb' || t === 'nfc' || t === 'ble')) return k.key;
  return k.other;
}

/**
 * What a failed passkey step says: the browser's refusal (cancelled, already registered, an address passkeys cannot
 * use) or the server's answer in its own words; a throttle or an unreachable server as the password sign-in says them.
 */
export function passkeyFailure(e: unknown, lang: Lang = 'zh'): string {
  const t = TEXTS[lang];
  // The browser's DOMException, or @simplewebauthn/browser's WebAuthnError carrying it as its cause.
  const err = e as { name?: string; cause?: { name?: string } } | null;
  const was = (n: string) => err?.name === n || err?.cause?.name === n;
  if (was('NotAllowedError') || was('AbortError')) return t.cancelled;
  if (was('InvalidStateError')) return t.exists;
  if (was('SecurityError')) return t.insecure;
  if (e instanceof PasskeysUnsupported) return t.unsupported;
  if (e instanceof ApiError) {
    if (e.status === 0) return t.unreachable;
    return (lang === 'zh' && chinesePart(e.message)) || t.failed;
  }
  return t.failed;
}

/** What a passkey sign-in needs of a session (the SDK's `TianjiSession`). */
export interface PasskeyLoginCapable {
  passkeyLoginOptions(): Promise<{ options: Record<string, unknown>; ceremony: string }>;
  loginWithPasskey(ceremony: string, credential: unknown): Promise<Me>;
}

/** A whole passkey sign-in: the server's options, the browser's prompt, the server's verdict. */
export async function signInWithPasskey(s: PasskeyLoginCapable): Promise<Me> {
  const { options, ceremony } = await s.passkeyLoginOptions();
  const credential = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return s.loginWithPasskey(ceremony, credential);
}

type AppSession = Pick<ReturnType<typeof createAppSession>, 'session' | 'call'>;
/** The proof of identity the server may ask before adding or removing (useIdentityProof's withProof). */
type WithProof = <T>(action: () => Promise<T>) => Promise<T>;

/** The owner's passkeys: the list, and adding (after a proof when asked), renaming, removing. */
export function usePasskeys(app: AppSession, withProof: WithProof) {
  const { session, call } = app;
  const state = reactive({ list: [] as Passkey[], loading: false, busy: false });

  async function load(): Promise<void> {
    state.loading = true;
    try {
      state.list = (await call(session.api.GET('/api/auth/passkeys'))).data as Passkey[];
    } finally {
      state.loading = false;
    }
  }

  return {
    state,
    load,
    /**
     * Adds a passkey of this device (or a phone, a security key: the browser asks). A server refusal is shown by
     * `call` and rethrown (`isHandled`); the browser's own refusal is thrown for the app to say (`passkeyFailure`).
     */
    async add(name?: string): Promise<Passkey> {
      state.busy = true;
      try {
        const { options, ceremony } = await withProof(
          async () => (await call(session.api.POST('/api/auth/passkeys/register/options'))).data,
        );
        const credential = await startRegistration({
          optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
        });
        const body = { ceremony, credential, ...(name?.trim() && { name: name.trim() }) };
        const added = (await call(session.api.POST('/api/auth/passkeys', { body: body as never }))).data as Passkey;
        await load();
        return added;
      } finally {
        state.busy = false;
      }
    },
    async rename(id: string, name: string): Promise<void> {
      await call(session.api.PATCH('/api/auth/passkeys/{id}', { params: { path: { id } }, body: { name } }));
      await load();
    },
    /** Removes it; with `endSessions`, the other sessions it opened end too. Returns how many ended. */
    async remove(id: string, endSessions: boolean): Promise<number> {
      const { signedOut } = await withProof(
        async () =>
          (
            await call(
              session.api.DELETE('/api/auth/passkeys/{id}', {
                params: { path: { id }, query: endSessions ? { endSessions: true } : {} },
              }),
            )
          ).data,
      );
      await load();
      return signedOut;
    },
  };
}
