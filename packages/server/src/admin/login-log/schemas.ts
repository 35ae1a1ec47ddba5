import { Type, type Static } from '@sinclair/typebox';
import { AuditQuery } from '../audit/schemas.js';
import { PageFields, Timestamp } from '../shared/schemas.js';
import { ClientKindSchema } from '../sessions/schemas.js';
import { literalUnion } from '../../shared/literal-union.js';
import { LocationSchema } from '../shared/location.js';

export const LOGIN_EVENTS = ['login', 'logout', 'session-ended', 'forced-logout', 'refresh-reused'] as const;
export type LoginEvent = (typeof LOGIN_EVENTS)[number];
export const LOGIN_RESULTS = ['success', 'failure'] as const;
export type LoginResult = (typeof LOGIN_RESULTS)[number];

const Filters = {
  keyword: Type.Optional(
    Type.String({ maxLength: 100, description: 'Case-insensitive substring of the username (as typed)' }),
  ),
  userId: Type.Optional(Type.String({ format: 'uuid', description: 'Only rows of this user' })),
  ip: Type.Optional(Type.String({ maxLength: 64, description: 'Address starts with this (e.g. 10.0.)' })),
  event: Type.Optional(
    literalUnion(LOGIN_EVENTS, { description: 'login, logout, session-ended, forced-logout or refresh-reused' }),
  ),
  result: Type.Optional(literalUnion(LOGIN_RESULTS, { description: 'success or failure' })),
  from: AuditQuery.properties.from,
  to: AuditQuery.properties.to,
};

export const LoginLogQuery = Type.Object({ ...PageFields, ...Filters });
export const LoginLogExportQuery = Type.Object(Filters);
export type LoginLogFilter = Static<typeof LoginLogExportQuery>;

export const LoginLogEntrySchema = Type.Object({
  id: Type.String(),
  createdAt: Timestamp,
  event: literalUnion(LOGIN_EVENTS, { description: 'What happened' }),
  result: literalUnion(LOGIN_RESULTS, { description: 'success or failure' }),
  reason: Type.String({
    description:
      'Why: UNKNOWN_USER, WRONG_PASSWORD, ACCOUNT_DISABLED, WRONG_TOTP, TOTP_LOCKED (the account’s second step locked after wrong codes), THROTTLED, ACCOUNT_CHANGED (the account changed while the sign-in was checked), PASSKEY_INVALID (a passkey’s signature or counter did not verify), PASSKEY_UNKNOWN (no such passkey) for a failed sign-in; how a successful one was made when it was not the password: RECOVERY_CODE (its second step was a recovery code), PASSKEY, DEVICE (approved in a signed-in app); the code a session ended with (SESSION_ENDED, SESSION_REVOKED (an operator ended that one session), FORCED_LOGOUT, PASSWORD_CHANGED, ACCOUNT_DISABLED, REFRESH_REUSED, LOGOUT); empty otherwise',
  }),
  username: Type.String({ description: 'As typed at sign-in' }),
  userId: Type.Union([Type.String(), Type.Null()]),
  sessionId: Type.Union([Type.String(), Type.Null()]),
  ip: Type.String(),
  location: LocationSchema,
  userAgent: Type.String(),
  deviceLabel: Type.String(),
  clientKind: ClientKindSchema,
  actorId: Type.Union([Type.String(), Type.Null()], { description: 'Who ended the session, when someone did' }),
  actorUsername: Type.String(),
});
export type LoginLogEntry = Static<typeof LoginLogEntrySchema>;
/** A row as stored: without its 登录地点, which is looked up as it is read. */
export type LoginLogRecord = Omit<LoginLogEntry, 'location'>;
