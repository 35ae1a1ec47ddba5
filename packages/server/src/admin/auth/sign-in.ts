import type { FastifyRequest } from 'fastify';
import type { LOGIN_REASON_NAMES } from '../login-log/names.js';
import { clientKindOf } from '../sessions/device.js';
import { CredentialError, SignInSuperseded, type ClientInfo } from './service.js';
import { SecondStepLocked, Throttled, type LoginThrottle } from './throttle.js';

/** What every sign-in route (password, TOTP step, passkey) shares: who is calling, and what the login log files. */

export const clientInfo = (req: FastifyRequest): ClientInfo => ({
  ip: req.ip,
  userAgent: String(req.headers['user-agent'] ?? ''),
  clientKind: clientKindOf(req.headers['x-client-kind']),
});

/** Why a sign-in step failed, as the login log files it (every reason has its names in login-log/names.ts). */
export const failureReason = (e: unknown): keyof typeof LOGIN_REASON_NAMES =>
  e instanceof CredentialError
    ? e.failure
    : e instanceof SignInSuperseded
      ? 'ACCOUNT_CHANGED'
      : e instanceof SecondStepLocked
        ? 'TOTP_LOCKED'
        : e instanceof Throttled
          ? 'THROTTLED'
          : 'ERROR';

/** A refused attempt is logged once per throttled key; every other failure each time. */
export const worthLoggingWith = async (throttle: LoginThrottle, e: unknown) =>
  !(e instanceof Throttled) || (await throttle.firstRefusal(e));
