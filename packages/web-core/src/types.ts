import type { paths } from '@tianji/client';

/** Record shapes of the admin API, read from the generated OpenAPI types (one source: the server's schemas). */
type Json<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

export type User = Json<'/api/users', 'get'>['data']['items'][number];
export type Role = Json<'/api/roles', 'get'>['data']['items'][number];
export type RoleDetail = Json<'/api/roles/{id}', 'get'>['data'];
export type MenuTreeNode = Json<'/api/menus', 'get'>['data'][number];
export type AuditEntry = Json<'/api/audit-logs', 'get'>['data']['items'][number];
export type OnlineSession = Json<'/api/sessions', 'get'>['data']['items'][number];
export type UsageRow = Json<'/api/admin/usage', 'get'>['data']['items'][number];
export type Status = User['status'];
export type OwnSession = Json<'/api/auth/sessions', 'get'>['data'][number];
export type Profile = Json<'/api/auth/profile', 'get'>['data'];
export type ServerStatus = Json<'/api/admin/server-status', 'get'>['data'];
