import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import {
  AppError,
  forbidden,
  isSignedOutCode,
  PENDING_MESSAGES,
  signedOut,
  unauthorized,
  type PendingCode,
} from '../../errors.js';
import { hasBits } from '../permissions/mask.js';
import { bitsOf, type PermissionName } from '../permissions/points.js';
import { loadUserAccess, menuMask, type UserAccess } from './access.js';
import type { TokenService } from './tokens.js';
import { routeOf } from '../../http/route-of.js';
import type { MenuCode } from '../../catalogue/index.js';

/**
 * A route's requirement, declared once in its config: the guard enforces it and the OpenAPI document emits it
 * as `x-permission`. `{menu, bits}` checks the user's mask on that menu; `{bits}` without a menu checks the
 * aggregate mask; 'authenticated' lets any signed-in user through; 'public' needs no token.
 */
export type AuthDeclaration = 'public' | 'authenticated' | { menu?: MenuCode; bits: PermissionName[] };

export interface AuthContext extends UserAccess {
  /** Claims of the presented access token. */
  tokenIssuedAt: number;
  /** The session the token belongs to (absent for tokens issued before sessions existed). */
  sessionId?: string;
  /** How the session was opened (RFC 8176 method references, from the token): `hwk` marks a passkey. */
  amr: readonly string[];
}

/**
 * What `req.auth` holds in a route whose `config` has type `C` (types.ts narrows FastifyRequest by it): the signed-in
 * user where the route declares a requirement the guard enforces, nothing where it declares 'public', and possibly
 * nothing where it declares none, so that reading it there needs a check.
 */
export type AuthOf<C> = C extends { auth: 'public' }
  ? undefined
  : C extends { auth: Exclude<AuthDeclaration, 'public'> }
    ? AuthContext
    : AuthContext | undefined;

/** A request the guard let through signed in: what a handler of a route declaring a requirement receives. */
export type SignedInRequest = FastifyRequest & { auth: AuthContext };

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
  }
}

// The scheme is case-insensitive (RFC 9110); the token is base64url segments only.
const BEARER = /^Bearer +([A-Za-z0-9_\-.]+)$/i;

/**
 * Verifies the bearer token against signature, expiry, the user's current token_version and status, and its
 * session. Each refusal carries its reason code (errors.ts SIGNED_OUT_MESSAGES).
 */
export async function authenticate(req: FastifyRequest): Promise<AuthContext> {
  const header = req.headers.authorization;
  if (!header) throw unauthorized('missing bearer token');
  const m = BEARER.exec(header);
  if (!m) throw unauthorized('malformed Authorization header: expected "Bearer <token>"');
  const claims = await req.server.tokens.verifyAccess(m[1]);
  const access = await loadUserAccess(req.server.db.kysely, claims.sub, claims.sid);
  if (!access) throw signedOut('SESSION_ENDED', 'user no longer exists');
  if (access.status !== 'enabled') throw signedOut('ACCOUNT_DISABLED', 'user is disabled');
  if (access.tokenVersion !== claims.ver)
    throw signedOut(versionReason(access.sessionsEndReason), 'token revoked: version mismatch, sign in again');
  if (claims.sid !== undefined) {
    const reason = access.session ? access.session.endReason : 'SESSION_ENDED';
    // The contract keeps an access token usable after its own holder signs out (LOGOUT); any other end is immediate.
    if (reason && reason !== 'LOGOUT')
      throw signedOut(isSignedOutCode(reason) ? reason : 'SESSION_ENDED', 'session ended');
  }
  // The token's facts join the object just read (ours alone): a spread copy took V8's slow path on every request.
  const auth: AuthContext = Object.assign(access, {
    tokenIssuedAt: claims.iat,
    sessionId: claims.sid,
    amr: Array.isArray(claims.amr) ? claims.amr : PASSWORD_AMR,
  });
  return auth;
}

/** The reason recorded with the last token_version increment; a version raised by hand or by an older release says SESSION_ENDED. */
export const versionReason = (recorded: string | null) => (isSignedOutCode(recorded) ? recorded : 'SESSION_ENDED');

const PASSWORD_AMR: readonly string[] = ['pwd'];

/**
 * Whether this session satisfies a role's 要求两步验证 without TOTP: it was opened with a passkey (`hwk`: a key bound
 * to our origin, with the user's PIN or biometrics), which no phishing page can relay, so it counts as the second
 * step (issue 53). A password sign-in of the same account still needs TOTP.
 */
export const passkeyVerified = (auth: Pick<AuthContext, 'amr'>) => auth.amr.includes('hwk');

/** What the account must do first, if anything: the facts ride on the row and grants read for every request. */
export function pendingOf(auth: AuthContext): PendingCode | undefined {
  if (auth.mustChangePassword) return 'PASSWORD_CHANGE_REQUIRED';
  if (auth.grants.requireTotp && !auth.totpEnabled && !passkeyVerified(auth)) return 'TOTP_SETUP_REQUIRED';
  return undefined;
}

export function isAllowed(access: UserAccess, decl: AuthDeclaration): boolean {
  if (decl === 'public' || decl === 'authenticated') return true;
  const need = bitsOf(decl.bits);
  const mask = decl.menu === undefined ? access.aggregate : menuMask(access, decl.menu);
  if (mask === undefined) return false;
  return hasBits(mask, need);
}

export default fp(
  async (app) => {
    app.addHook('onRequest', async (req) => {
      const config = routeOf(req).config;
      if (config?.area !== 'admin') return;
      const decl = config.auth ?? 'authenticated';
      if (decl === 'public') return;
      req.auth = await authenticate(req);
      const pending = pendingOf(req.auth);
      if (pending && !config.whilePending?.includes(pending)) throw new AppError(pending, PENDING_MESSAGES[pending]);
      if (!isAllowed(req.auth, decl)) throw forbidden();
    });
  },
  { name: 'auth-guard', dependencies: ['error-handler'] },
);
