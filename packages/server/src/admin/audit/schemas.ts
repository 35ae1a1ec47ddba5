import { Type, type Static } from '@sinclair/typebox';
import { PageFields, Timestamp } from '../shared/schemas.js';

const IsoDate = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})?)?$',
  'x-hint': 'ISO 8601 日期或时间，如 2026-01-31 或 2026-01-31T08:00:00Z',
  examples: ['2026-01-31'],
});

const Filters = {
  keyword: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Case-insensitive substring of the action, the actor’s username, the target type or the target id',
    }),
  ),
  action: Type.Optional(
    Type.String({ maxLength: 64, description: 'Exact action, e.g. user.create', examples: ['user.create'] }),
  ),
  actorId: Type.Optional(Type.String({ maxLength: 64, description: 'Id of the user who acted' })),
  from: Type.Optional({
    ...IsoDate,
    description:
      'From this instant (inclusive). A bare date means 00:00 Beijing time (UTC+8) of that day, the day the admin shows.',
  }),
  to: Type.Optional({
    ...IsoDate,
    description: 'Up to this instant (inclusive). A bare date includes that whole Beijing day.',
  }),
};

export const AuditQuery = Type.Object({ ...PageFields, ...Filters });
export const AuditExportQuery = Type.Object(Filters);
export type AuditFilter = Static<typeof AuditExportQuery>;

export const AuditEntrySchema = Type.Object({
  id: Type.String(),
  actorId: Type.Union([Type.String(), Type.Null()]),
  actorUsername: Type.String(),
  action: Type.String({ examples: ['user.create'] }),
  targetType: Type.String({ examples: ['user'] }),
  targetId: Type.Union([Type.String(), Type.Null()]),
  targetName: Type.String({
    description:
      'The target by name: a username, a role or menu name (as now, or as recorded when since deleted), whose sessions; empty when none',
    examples: ['zhangsan'],
  }),
  detail: Type.Unknown({ description: 'What changed (never a password)' }),
  ip: Type.String({ description: 'Client address (honours TRUST_PROXY)' }),
  createdAt: Timestamp,
});
export type AuditEntry = Static<typeof AuditEntrySchema>;
