import { Type, type Static } from '@sinclair/typebox';
import { PageFields, Timestamp } from '../shared/schemas.js';
import { CLIENT_KINDS, SIGN_IN_METHODS } from './device.js';
import { literalUnion } from '../../shared/literal-union.js';
import { LocationSchema } from '../shared/location.js';

export const ClientKindSchema = literalUnion(CLIENT_KINDS, {
  description: 'What signed in, from the X-Client-Kind header: web, mobile, cli, sdk or other',
});

/** One live session (sign-in) as operators and the user see it. */
export const SessionSchema = Type.Object({
  id: Type.String({ description: 'Session id' }),
  userId: Type.String(),
  username: Type.String(),
  nickname: Type.String(),
  createdAt: { ...Timestamp, description: 'Signed in at' },
  lastUsedAt: { ...Timestamp, description: 'Last refresh (not every request)' },
  expiresAt: { ...Timestamp, description: 'The refresh token expires then unless used' },
  ip: Type.String({ description: 'Address it signed in from (honours TRUST_PROXY)' }),
  location: LocationSchema,
  userAgent: Type.String(),
  clientKind: ClientKindSchema,
  signInMethod: literalUnion(SIGN_IN_METHODS, {
    description:
      'How it was opened: password (with or without the second step), passkey, or device (a CLI or device approved in a signed-in app)',
  }),
  deviceLabel: Type.String({
    description: 'Browser and system read from the user agent, e.g. Chrome 131 · Windows 10',
  }),
});
export type SessionDto = Static<typeof SessionSchema>;
/** A session as stored: without its 登录地点, which is looked up as it is read. */
export type SessionRecord = Omit<SessionDto, 'location'>;

/** A session in the operators' list: with why the actor may not end it, as the users list says why not per row. */
export const OnlineSessionSchema = Type.Intersect([
  SessionSchema,
  Type.Object({
    deniedReason: Type.Optional(
      Type.String({
        description:
          'Why you may not end this session or sign its user out everywhere (the user holds permissions you lack, a super administrator among them); absent when you may',
      }),
    ),
  }),
]);

export const OwnSessionSchema = Type.Intersect([
  SessionSchema,
  Type.Object({ current: Type.Boolean({ description: 'The session of the token making this request' }) }),
]);

export const SessionQuery = Type.Object({
  ...PageFields,
  userId: Type.Optional(Type.String({ format: 'uuid', description: 'Only this user’s sessions' })),
  ip: Type.Optional(Type.String({ maxLength: 64, description: 'Address starts with this (e.g. 10.0.)' })),
  clientKind: Type.Optional(ClientKindSchema),
});
export type SessionFilter = Static<typeof SessionQuery>;
