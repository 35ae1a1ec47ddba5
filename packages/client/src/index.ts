/**
 * @tianji/client — the session client every tianji front end uses. Browser-safe: no Node built-ins here
 * (the file storage for Node lives in `@tianji/client/node`).
 *
 * @example
 * const session = createSession({ baseUrl: location.origin, storage: localStorageAdapter(), onSignedOut: () => router.push('/login') });
 * await session.login('admin', '…');
 * if (session.canCall('PATCH /api/users/{id}')) showEditButton();
 * const { data } = await session.api.GET('/api/users', { params: { query: { page: 1, pageSize: 20 } } });
 */
export {
  createSession,
  TianjiSession,
  type DeviceLoginStart,
  type Me,
  type MenuNode,
  type SessionOptions,
  type TotpEnabled,
  type TotpSetup,
} from './session.js';
export { memoryStorage, localStorageAdapter, type TokenStorage, type WebStorageLike } from './storage.js';
export {
  crossContextCoordinator,
  localCoordinator,
  type Coordinator,
  type CoordinatorMessage,
  type ContextApis,
  type LockManagerLike,
} from './coordinator.js';
export {
  ApiError,
  DeviceLoginError,
  MfaRequiredError,
  ReauthRequiredError,
  SessionEndedError,
  type DeviceLoginRefusal,
  type IdentityProof,
  type SignOutDetail,
  type SignOutReason,
} from './errors.js';
export {
  PERMISSION_POINTS,
  PERMISSION,
  ALL_ONES,
  toMask,
  bitsOf,
  hasBits,
  pointsIn,
  type PermissionName,
  type PermissionPoint,
} from './mask.js';
export { decodeClaims, lifetimeMs } from './jwt.js';
export { beijingTime } from './time.js';
export {
  LOOKUP_GROUP_CODES,
  lookupGroupName,
  ROTATION_GRACE_CHOICES,
  ROTATION_GRACE_MAX,
} from './names.js';
export {
  ROUTE_PERMISSIONS,
  MENU_POINT_ACTIONS,
  MENU_CATALOGUE,
  POINT_NAMES,
  ERROR_MESSAGES,
  AUDIT_ACTIONS,
  AUDIT_TARGETS,
  MENU_KIND_NAMES,
  LOGIN_EVENT_NAMES,
  LOGIN_REASON_NAMES,
  LOGIN_RESULT_NAMES,
  CLIENT_KIND_NAMES,
  SIGN_IN_METHOD_NAMES,
  API_KEY_STATUS_NAMES,
  STATUS_NAMES,
  type CatalogueMenu,
  type RouteKey,
  type paths,
  type components,
} from './generated/admin-api.js';
export {
  createPublicClient,
  readRateLimit,
  PublicApiError,
  type PublicClient,
  type PublicClientOptions,
  type PublicAnswer,
  type PublicData,
  type PublicQuery,
  type PublicJsonPath,
  type PublicImagePath,
  type RateLimit,
} from './public-client.js';
export { LOOKUP_GROUPS, type LookupGroup, type paths as PublicPaths } from './generated/public-api.js';
