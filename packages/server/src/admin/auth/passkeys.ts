import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Database } from '../../db/schema.js';
import type { AuthenticatorTransport } from '@simplewebauthn/server';
import { conflict, notFound, unauthorized, validation } from '../../errors.js';
import { publicBaseUrl } from '../../http/public-url.js';
import { PASSKEY_PROVIDERS } from './passkey-providers.js';
import { CredentialError } from './service.js';
import type { CeremonyPurpose, TokenService } from './tokens.js';

/** At most this many passkeys per account (GitHub allows 50; an operator needs a few: phone, laptop, a spare key). */
export const PASSKEY_LIMIT = 10;
/** The name the owner gives a passkey. */
export const PASSKEY_NAME_MAX = 32;
const RP_NAME = 'tianji 天机';

/** The relying party a passkey is bound to: the site's host name (RP ID) and the origin the browser reports. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/**
 * The relying party of this request: PUBLIC_BASE_URL when configured, else the request's own host if it is one of
 * TRUSTED_HOSTS (the Host header is the client's to choose: a passkey bound to an arbitrary one would be useless, and
 * an origin check against it would check nothing). WebAuthn refuses an IP address as RP ID, so an address is refused
 * here first with words that say what to do (docs: 会话与安全).
 */
export function relyingPartyOf(req: FastifyRequest): RelyingParty {
  const base = publicBaseUrl(req);
  if (!base)
    throw validation(
      `通行密钥只能在受信任的地址上使用：请设置 PUBLIC_BASE_URL，或把「${req.host}」加入 TRUSTED_HOSTS (passkeys need a trusted host)`,
    );
  const url = new URL(base);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host))
    throw validation(
      `通行密钥不能用 IP 地址（${host}）访问：请用主机名打开本站（本机请用 localhost），或设置 PUBLIC_BASE_URL 为域名 (an IP address cannot be a WebAuthn RP ID)`,
    );
  return { id: host, origin: url.origin };
}

export interface PasskeyItem {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** The authenticator by name when its AAGUID is well known, else null. */
  provider: string | null;
  /** Synced to other devices (a password manager or a platform account), not bound to one device. */
  synced: boolean;
  transports: string[];
  /** Live sessions opened with it. */
  sessions: number;
}

type PasskeyRow = Omit<Database['passkeys'], 'counter'> & { counter: number | string };

const itemOf = (
  r: Pick<
    PasskeyRow,
    'id' | 'name' | 'created_at' | 'last_used_at' | 'aaguid' | 'device_type' | 'backed_up' | 'transports'
  >,
  sessions: number,
): PasskeyItem => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  provider: PASSKEY_PROVIDERS[r.aaguid] ?? null,
  synced: r.device_type === 'multiDevice' || Number(r.backed_up) === 1,
  transports: r.transports ? r.transports.split(',') : [],
  sessions,
});

/** The stored comma-separated transports as WebAuthn names them (none stored: undefined, the browser tries all). */
const transportsOf = (stored: string): AuthenticatorTransport[] | undefined =>
  stored ? (stored.split(',') as AuthenticatorTransport[]) : undefined;

const tooMany = () =>
  conflict(`每个账号最多 ${PASSKEY_LIMIT} 个通行密钥：请先删除不用的 (at most ${PASSKEY_LIMIT} passkeys)`);

/**
 * A passkey answer that does not verify, counted by the sign-in throttle: at sign-in 401 (logged with its reason); as
 * a signed-in user's proof of identity 400, as a wrong password there is (a 401 would tell the app its session ended).
 */
const passkeyFailure = (
  reason: 'PASSKEY_INVALID' | 'PASSKEY_UNKNOWN',
  userId: string | null,
  detail: string,
  code: 'UNAUTHORIZED' | 'VALIDATION_ERROR' = 'UNAUTHORIZED',
) => new CredentialError(code, `通行密钥验证未通过，请重试 (${detail})`, reason, userId);

/** What a verified passkey sign-in yields: whose it is, and which passkey. */
export interface PasskeyAssertion {
  userId: string;
  passkeyId: string;
  /** The ceremony's id: the route spends it once (a replayed assertion finds it spent). */
  ceremonyId: string;
}

/**
 * Passkeys (WebAuthn, with @simplewebauthn/server): registration of one's own, sign-in with a discoverable credential
 * and no username, the owner's list. Every ceremony's challenge travels in a short signed token (tokens.ts `webauthn`),
 * so that any instance of a cluster can finish what another began; the route spends its id once.
 */
export class PasskeyService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tokens: TokenService,
    private readonly now: () => number = Date.now,
  ) {}

  private readonly iso = () => new Date(this.now()).toISOString();

  async list(userId: string): Promise<PasskeyItem[]> {
    const rows = await this.db
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const live = await this.db
      .selectFrom('sessions')
      .select(['passkey_id', (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('passkey_id', 'is not', null)
      .groupBy('passkey_id')
      .execute();
    const counts = new Map(live.map((r) => [r.passkey_id, Number(r.n)]));
    return rows.map((r) => itemOf(r, counts.get(r.id) ?? 0));
  }

  async count(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Options for navigator.credentials.create(), and the ceremony token to send back with its answer. */
  async registrationOptions(
    rp: RelyingParty,
    user: { id: string; username: string; nickname: string; tokenVersion: number },
  ): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; ceremony: string }> {
    const existing = await this.credentialsOf(user.id);
    if (existing.length >= PASSKEY_LIMIT) throw tooMany();
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: rp.id,
      userName: user.username,
      userDisplayName: user.nickname || user.username,
      // The user handle is the account id: a discoverable credential hands it back at sign-in.
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: existing,
      // Discoverable (sign in without a username) and verified (PIN or biometrics): it stands for both factors.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const ceremony = await this.tokens.signCeremony('register', options.challenge, user.id, user.tokenVersion);
    return { options, ceremony };
  }

  /** Verifies the authenticator's answer to registrationOptions and stores the public key. */
  async register(
    rp: RelyingParty,
    user: { id: string; tokenVersion: number },
    ceremony: string,
    response: RegistrationResponseJSON,
    name: string,
  ): Promise<PasskeyItem> {
    const claims = await this.ceremonyOf(ceremony, 'register');
    // 400, not 401: the session is fine, only this ceremony is not (a 401 would sign the app out).
    if (claims.sub !== user.id || claims.ver !== user.tokenVersion)
      throw validation('此次添加已失效，请重新开始 (the ceremony belongs to another account or an older sign-in)');
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: claims.chl,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
      });
    } catch (e) {
      throw validation(`通行密钥验证未通过：${(e as Error).message}`);
    }
    if (!verified.verified) throw validation('通行密钥验证未通过');
    const info = verified.registrationInfo;
    const row = {
      id: randomUUID(),
      user_id: user.id,
      credential_id: info.credential.id,
      public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports: (info.credential.transports ?? response.response.transports ?? []).join(',').slice(0, 128),
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp ? 1 : 0,
      aaguid: info.aaguid,
      name,
      created_at: this.iso(),
      last_used_at: null,
    } satisfies PasskeyRow;
    if (
      await this.db
        .selectFrom('passkeys')
        .select('id')
        .where('credential_id', '=', row.credential_id)
        .executeTakeFirst()
    )
      throw conflict('这个通行密钥已经添加过了 (credential already registered)');
    if ((await this.count(user.id)) >= PASSKEY_LIMIT) throw tooMany();
    await this.db.insertInto('passkeys').values(row).execute();
    return itemOf(row, 0);
  }

  /** Options for navigator.credentials.get() with no credential list: the browser offers the site's passkeys. */
  async authenticationOptions(
    rp: RelyingParty,
  ): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; ceremony: string }> {
    const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required' });
    return { options, ceremony: await this.tokens.signCeremony('login', options.challenge) };
  }

  /**
   * Options for a signed-in user's proof of identity with one of their own passkeys (the browser offers only those),
   * bound to the account as it is; 409 when the account has none.
   */
  async reauthOptions(
    rp: RelyingParty,
    user: { id: string; tokenVersion: number },
  ): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; ceremony: string }> {
    const own = await this.credentialsOf(user.id);
    if (own.length === 0) throw conflict('你还没有通行密钥：请输入当前密码验证身份 (no passkeys on this account)');
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      userVerification: 'required',
      allowCredentials: own,
    });
    const ceremony = await this.tokens.signCeremony('reauth', options.challenge, user.id, user.tokenVersion);
    return { options, ceremony };
  }

  /** The user's passkeys as the browser's credential lists name them (excluded at registration, allowed for a proof). */
  private async credentialsOf(userId: string): Promise<{ id: string; transports?: AuthenticatorTransport[] }[]> {
    const rows = await this.db
      .selectFrom('passkeys')
      .select(['credential_id', 'transports'])
      .where('user_id', '=', userId)
      .execute();
    return rows.map((c) => ({ id: c.credential_id, transports: transportsOf(c.transports) }));
  }

  /** The passkey that answered and its owner's name, read once before verifying (the throttle counts per account). */
  async find(credentialId: string): Promise<(PasskeyRow & { username: string }) | undefined> {
    return this.db
      .selectFrom('passkeys')
      .innerJoin('users', 'users.id', 'passkeys.user_id')
      .selectAll('passkeys')
      .select('users.username')
      .where('passkeys.credential_id', '=', credentialId)
      .executeTakeFirst();
  }

  /**
   * Verifies a sign-in assertion: the challenge of a live login ceremony, our origin and RP ID, user verification,
   * the stored public key, a user handle naming the passkey's owner, and a signature counter that moved forward
   * (when the authenticator keeps one: synced passkeys report 0). The counter is advanced only from the value this
   * check read, so of two answers racing with the same counter one is refused.
   */
  async authenticate(
    rp: RelyingParty,
    ceremony: string,
    response: AuthenticationResponseJSON,
    /** The passkey `find` read for `response.id`; undefined when there is none. */
    row: PasskeyRow | undefined,
    /**
     * For a proof of identity (reauthOptions): the signed-in user, whose ceremony it must be and whose passkey must
     * answer. Absent: a sign-in.
     */
    prover?: { id: string; tokenVersion: number },
  ): Promise<PasskeyAssertion> {
    const claims = await this.ceremonyOf(ceremony, prover ? 'reauth' : 'login');
    const fail = (reason: 'PASSKEY_INVALID' | 'PASSKEY_UNKNOWN', userId: string | null, detail: string) =>
      passkeyFailure(reason, userId, detail, prover ? 'VALIDATION_ERROR' : 'UNAUTHORIZED');
    if (prover && (claims.sub !== prover.id || claims.ver !== prover.tokenVersion))
      throw validation('此次验证已失效，请重试 (the ceremony belongs to another account or an older sign-in)');
    if (!row) throw fail('PASSKEY_UNKNOWN', null, 'unknown credential');
    if (prover && row.user_id !== prover.id) throw fail('PASSKEY_INVALID', prover.id, 'not a passkey of this account');
    const handle = response.response.userHandle;
    if (handle && new TextDecoder().decode(isoBase64URL.toBuffer(handle)) !== row.user_id)
      throw fail('PASSKEY_INVALID', row.user_id, 'user handle does not match');
    const stored = Number(row.counter);
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: claims.chl,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: row.credential_id,
          publicKey: isoBase64URL.toBuffer(row.public_key),
          counter: stored,
          transports: transportsOf(row.transports),
        },
        requireUserVerification: true,
      });
    } catch (e) {
      throw fail('PASSKEY_INVALID', row.user_id, (e as Error).message);
    }
    if (!verified.verified) throw fail('PASSKEY_INVALID', row.user_id, 'signature not verified');
    const next = verified.authenticationInfo.newCounter;
    const moved = await this.db
      .updateTable('passkeys')
      .set({ counter: next, last_used_at: this.iso() })
      .where('id', '=', row.id)
      .where('counter', '=', stored)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1)
      throw fail('PASSKEY_INVALID', row.user_id, 'signature counter already used by another sign-in');
    return { userId: row.user_id, passkeyId: row.id, ceremonyId: claims.jti };
  }

  async rename(userId: string, id: string, name: string): Promise<PasskeyItem> {
    const res = await this.db
      .updateTable('passkeys')
      .set({ name })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw notFound('passkey');
    return (await this.list(userId)).find((p) => p.id === id)!;
  }

  /** Deletes one of the owner's passkeys; returns its name (for the audit entry). */
  async remove(userId: string, id: string, db: Kysely<Database> = this.db): Promise<string> {
    const row = await db
      .selectFrom('passkeys')
      .select('name')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('passkey');
    await db.deleteFrom('passkeys').where('id', '=', id).execute();
    return row.name;
  }

  /** The live sessions opened with passkey `id` of the user. */
  async sessionsOpenedWith(userId: string, id: string, db: Kysely<Database> = this.db): Promise<string[]> {
    const rows = await db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('passkey_id', '=', id)
      .where('ended_at', 'is', null)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * The ceremony's claims, or the refusal: 401 at sign-in (nobody is signed in), 400 for a signed-in user's ceremony
   * (the session is fine, only the ceremony is not: a 401 would make the app refresh and then sign out).
   */
  private async ceremonyOf(token: string, purpose: CeremonyPurpose) {
    try {
      return await this.tokens.verifyCeremony(token, purpose);
    } catch {
      if (purpose === 'login')
        throw unauthorized(
          '通行密钥登录已过期或无效，请重新点击「使用通行密钥登录」 (webauthn ceremony expired or invalid)',
        );
      throw validation(
        purpose === 'register'
          ? '此次添加已过期或无效，请重新添加通行密钥 (webauthn ceremony expired or invalid)'
          : '此次验证已过期或无效，请重试 (webauthn ceremony expired or invalid)',
      );
    }
  }
}

/** Removes every passkey of a user (an operator's 重置两步验证): returns how many there were. */
export async function removePasskeys(db: Kysely<Database>, userId: string): Promise<number> {
  const res = await db.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows);
}
