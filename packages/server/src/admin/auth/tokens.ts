import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { unauthorized } from '../../errors.js';

/**
 * Access and refresh tokens are HS256 JWTs with distinct `typ` headers and audiences, so neither can stand in
 * for the other. The algorithm is pinned on verify: `none`, RS/ES or any other header is rejected.
 */
const ALG = 'HS256';
const ISSUER = 'tianji';
const KINDS = {
  access: { typ: 'at+jwt', aud: 'tianji:access' },
  refresh: { typ: 'rt+jwt', aud: 'tianji:refresh' },
} as const;
export type TokenKind = keyof typeof KINDS;

export interface AccessClaims {
  sub: string;
  ver: number;
  iat: number;
  exp: number;
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
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48);
    fs.writeFileSync(file, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

export class TokenService {
  constructor(
    private readonly key: Uint8Array,
    readonly accessTtl: number,
    readonly refreshTtl: number,
  ) {}

  signAccess(userId: string, ver: number): Promise<string> {
    return this.sign('access', { ver }, userId, this.accessTtl);
  }

  async signRefresh(userId: string, ver: number, family: string): Promise<{ token: string; jti: string; expiresAt: Date }> {
    const jti = randomUUID();
    const token = await this.sign('refresh', { ver, fam: family }, userId, this.refreshTtl, jti);
    return { token, jti, expiresAt: new Date(Date.now() + this.refreshTtl * 1000) };
  }

  private sign(kind: TokenKind, claims: Record<string, unknown>, sub: string, ttl: number, jti?: string): Promise<string> {
    const { typ, aud } = KINDS[kind];
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: ALG, typ }).setIssuer(ISSUER).setAudience(aud).setSubject(sub).setIssuedAt(now).setExpirationTime(now + ttl);
    if (jti) jwt.setJti(jti);
    return jwt.sign(this.key);
  }

  verifyAccess(token: string): Promise<AccessClaims> {
    return this.verify('access', token) as Promise<AccessClaims>;
  }

  async verifyRefresh(token: string): Promise<RefreshClaims> {
    const c = (await this.verify('refresh', token)) as RefreshClaims;
    if (typeof c.jti !== 'string' || typeof c.fam !== 'string') throw unauthorized('invalid refresh token: missing jti or family');
    return c;
  }

  private async verify(kind: TokenKind, token: string): Promise<AccessClaims> {
    const { typ, aud } = KINDS[kind];
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALG],
        issuer: ISSUER,
        audience: aud,
        typ,
        requiredClaims: ['sub', 'iat', 'exp'],
      });
      if (!Number.isSafeInteger(payload.ver) || (payload.ver as number) < 0) throw unauthorized(`invalid ${kind} token: missing or malformed ver claim`);
      return payload as unknown as AccessClaims;
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw unauthorized(`${kind} token expired`);
      if (e instanceof joseErrors.JOSEError) throw unauthorized(`invalid ${kind} token: ${describeJoseError(e)}`);
      throw e;
    }
  }
}

function describeJoseError(e: InstanceType<typeof joseErrors.JOSEError>): string {
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return 'signature verification failed';
  if (e instanceof joseErrors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  if (e instanceof joseErrors.JWTClaimValidationFailed) return `claim ${e.claim} check failed`;
  if (e instanceof joseErrors.JWSInvalid || e instanceof joseErrors.JWTInvalid) return 'malformed token';
  return 'verification failed';
}
