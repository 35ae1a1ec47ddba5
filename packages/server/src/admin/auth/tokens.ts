import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { signedOut, unauthorized } from '../../errors.js';
import { ensurePrivateDir } from '../../private-files.js';

/**
 * Access and refresh tokens are HS256 JWTs with distinct `typ` headers and audiences, so neither can stand in
 * for the other. The algorithm is pinned on verify: `none`, RS/ES or any other header is rejected.
 */
const ALG = 'HS256';
const ISSUER = 'tianji';
const KINDS = {
  access: { typ: 'at+jwt', aud: 'tianji:access' },
  refresh: { typ: 'rt+jwt', aud: 'tianji:refresh' },
  /** Between a correct password and the TOTP code: proves the first factor only, opens nothing else. */
  mfa: { typ: 'mfa+jwt', aud: 'tianji:mfa' },
  /** A WebAuthn ceremony (passkeys.ts): carries its challenge from the options to the answer; opens nothing else. */
  webauthn: { typ: 'wa+jwt', aud: 'tianji:webauthn' },
} as const;
/** How long a passkey prompt may stay open (seconds): the browser's own time-out is 60 s by default. */
export const CEREMONY_TTL = 300;
/** register: adding a passkey; login: signing in with one; reauth: a signed-in user's proof of identity with one. */
export type CeremonyPurpose = 'register' | 'login' | 'reauth';
export interface CeremonyClaims extends AccessClaims {
  jti: string;
  pur: CeremonyPurpose;
  /** The challenge (base64url) the authenticator must have signed. */
  chl: string;
}
/** How long the TOTP step of a sign-in may take (seconds). */
export const MFA_TOKEN_TTL = 300;
export type TokenKind = keyof typeof KINDS;
/** Access tokens whose signature was verified, remembered (oldest evicted first); ~1 KB each. */
const VERIFIED_CACHE_SIZE = 10_000;

export interface AccessClaims {
  sub: string;
  ver: number;
  iat: number;
  exp: number;
  /** The session (refresh-token family) the token belongs to; absent in tokens issued before sessions existed. */
  sid?: string;
  /**
   * How the session was opened (RFC 8176 method references): `pwd`, `pwd,otp`, or `hwk,user` for a passkey. Absent in
   * tokens issued before passkeys existed (read as `pwd`).
   */
  amr?: string[];
}
export interface RefreshClaims extends AccessClaims {
  jti: string;
  fam: string;
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The signing secret: JWT_SECRET when configured, else a random one generated on first start and kept in the
 * data folder (mode 0600) so restarts keep sessions. There is no built-in default.
 */
export function resolveSecret(configured: string | undefined, dataDir: string, persist: boolean): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  if (!persist) return randomBytes(32);
  const file = path.join(dataDir, 'jwt-secret');
  try {
    const kept = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
    // A truncated or hand-edited file must not silently become a guessable key.
    if (kept.length < 32)
      throw new Error(`${file} holds fewer than 32 key bytes; delete it to generate a new secret (every session ends)`);
    return kept;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    ensurePrivateDir(dataDir);
    const secret = randomBytes(48);
    try {
      fs.writeFileSync(file, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another instance sharing the folder created it first: use theirs, so both accept the same tokens.
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return resolveSecret(configured, dataDir, persist);
      throw err;
    }
    return secret;
  }
}

export class TokenService {
  private imported?: Promise<CryptoKey>;
  private readonly verifiedAccess = new Map<string, AccessClaims>();

  constructor(
    private readonly key: Uint8Array,
    readonly accessTtl: number,
    readonly refreshTtl: number,
  ) {}

  signAccess(userId: string, ver: number, sid: string, amr: readonly string[] = ['pwd']): Promise<string> {
    return this.sign('access', { ver, sid, amr }, userId, this.accessTtl);
  }

  async signRefresh(
    userId: string,
    ver: number,
    family: string,
  ): Promise<{ token: string; jti: string; expiresAt: Date }> {
    const jti = randomUUID();
    const token = await this.sign('refresh', { ver, fam: family }, userId, this.refreshTtl, jti);
    return { token, jti, expiresAt: new Date(Date.now() + this.refreshTtl * 1000) };
  }

  private async sign(
    kind: TokenKind,
    claims: Record<string, unknown>,
    sub: string,
    ttl: number,
    jti?: string,
  ): Promise<string> {
    const { typ, aud } = KINDS[kind];
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, typ })
      .setIssuer(ISSUER)
      .setAudience(aud)
      .setSubject(sub)
      .setIssuedAt(now)
      .setExpirationTime(now + ttl);
    if (jti) jwt.setJti(jti);
    return jwt.sign(await this.cryptoKey());
  }

  /**
   * Verifies an access token. A client sends the same token on every request for its whole lifetime, so the
   * claims of verified tokens are remembered by their exact text: whether a given string carries a valid
   * signature never changes (the key is fixed for the life of the process), and expiry is checked again on
   * every hit. Revocation is not cached here: the guard compares `ver` and the user's status with the database.
   */
  async verifyAccess(token: string): Promise<AccessClaims> {
    const known = this.verifiedAccess.get(token);
    if (known && known.exp > Date.now() / 1000) return known;
    if (known) this.verifiedAccess.delete(token);
    const claims = (await this.verify('access', token)) as AccessClaims;
    if (this.verifiedAccess.size >= VERIFIED_CACHE_SIZE)
      this.verifiedAccess.delete(this.verifiedAccess.keys().next().value!);
    this.verifiedAccess.set(token, claims);
    return claims;
  }

  /** Each carries its own jti, so that the second step can accept it once (routes.ts /login/totp). */
  signMfa(userId: string, ver: number): Promise<string> {
    return this.sign('mfa', { ver }, userId, MFA_TOKEN_TTL, randomUUID());
  }

  async verifyMfa(token: string): Promise<AccessClaims & { jti: string }> {
    const c = (await this.verify('mfa', token)) as AccessClaims & { jti?: unknown };
    if (typeof c.jti !== 'string') throw unauthorized('invalid mfa token: missing jti');
    return c as AccessClaims & { jti: string };
  }

  /**
   * For a registration or a proof of identity, `userId` and `ver` tie the ceremony to the account as it is (a password
   * change voids it).
   */
  signCeremony(purpose: CeremonyPurpose, challenge: string, userId = '-', ver = 0): Promise<string> {
    return this.sign('webauthn', { ver, pur: purpose, chl: challenge }, userId, CEREMONY_TTL, randomUUID());
  }

  async verifyCeremony(token: string, purpose: CeremonyPurpose): Promise<CeremonyClaims> {
    const c = (await this.verify('webauthn', token)) as CeremonyClaims;
    if (c.pur !== purpose || typeof c.chl !== 'string' || typeof c.jti !== 'string')
      throw unauthorized(`invalid webauthn token: not a ${purpose} ceremony`);
    return c;
  }

  async verifyRefresh(token: string): Promise<RefreshClaims> {
    const c = (await this.verify('refresh', token)) as RefreshClaims;
    if (typeof c.jti !== 'string' || typeof c.fam !== 'string')
      throw unauthorized('invalid refresh token: missing jti or family');
    return c;
  }

  private async verify(kind: TokenKind, token: string): Promise<AccessClaims> {
    const { typ, aud } = KINDS[kind];
    try {
      const { payload } = await jwtVerify(token, await this.cryptoKey(), {
        algorithms: [ALG],
        issuer: ISSUER,
        audience: aud,
        typ,
        requiredClaims: ['sub', 'iat', 'exp'],
      });
      if (typeof payload.sub !== 'string' || !payload.sub)
        throw unauthorized(`invalid ${kind} token: malformed sub claim`);
      if (!Number.isSafeInteger(payload.ver) || (payload.ver as number) < 0)
        throw unauthorized(`invalid ${kind} token: missing or malformed ver claim`);
      return payload as unknown as AccessClaims;
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw signedOut('TOKEN_EXPIRED', `${kind} token expired`);
      if (e instanceof joseErrors.JWTClaimValidationFailed && (e.claim === 'typ' || e.claim === 'aud')) {
        // Signature already checked: it is one of ours, but of the other kind (or forged claims under our key).
        if (kind === 'mfa' || kind === 'webauthn')
          throw unauthorized(`invalid ${kind} token: another kind of token cannot be used here`);
        const other: TokenKind = kind === 'access' ? 'refresh' : 'access';
        throw unauthorized(
          `invalid ${kind} token: a${other === 'access' ? 'n' : ''} ${other} token cannot be used here`,
        );
      }
      if (e instanceof joseErrors.JOSEError) throw unauthorized(`invalid ${kind} token: ${describeJoseError(e)}`);
      throw e;
    }
  }

  /**
   * The secret imported once as a WebCrypto key: jose would otherwise import the raw bytes on every sign and
   * verify, which doubles the cost of each authenticated request.
   */
  private cryptoKey(): Promise<CryptoKey> {
    return (this.imported ??= crypto.subtle.importKey(
      'raw',
      new Uint8Array(this.key),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    ));
  }
}

function describeJoseError(e: InstanceType<typeof joseErrors.JOSEError>): string {
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return 'signature verification failed';
  if (e instanceof joseErrors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  if (e instanceof joseErrors.JWTClaimValidationFailed) return `claim ${e.claim} check failed`;
  if (e instanceof joseErrors.JWSInvalid || e instanceof joseErrors.JWTInvalid) return 'malformed token';
  return 'verification failed';
}
