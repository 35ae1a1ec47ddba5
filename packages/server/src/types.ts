import type { Db } from './db/index.js';
import type { Config } from './config.js';
import type { Area } from './http/areas.js';
import type { LookupGroup } from './catalogue/lookup-groups.js';
import type { AuthDeclaration, AuthOf } from './admin/auth/guard.js';
import type { Redis } from 'ioredis';
import type { PendingCode } from './errors.js';
import type { ContentStore } from './content/store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which error/body shape the route uses; see http/areas.ts. */
    area?: Area;
    lookupGroup?: LookupGroup;
    /** Public routes: media types answered besides the JSON envelope (documented in OpenAPI). */
    lookupMedia?: string[];
    /** A public route outside /api (the hitokoto.cn drop-in) counted in usage like the lookup routes. */
    countsUsage?: boolean;
    /** Admin routes: 'public', 'authenticated', or the permission bits (and menu) required. Emitted as x-permission. */
    auth?: AuthDeclaration;
    /** Admin routes still open while the account must first change its password or set up TOTP (errors.ts). */
    whilePending?: readonly PendingCode[];
  }
  interface FastifyInstance {
    config: Config;
    db: Db;
    redis?: Redis;
    /** In-memory snapshots of the content libraries (refreshed on change, across instances via Redis). */
    content: ContentStore;
  }
  // Fastify's own type parameters (the names must match to merge), of which ContextConfig, the route's `config` as
  // declared, types `auth`: a handler reads `req.auth` without a check exactly where the guard has set it.
  interface FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider, ContextConfig> {
    /** The signed-in user, set by the guard (admin/auth/guard.ts) before any handler runs. */
    auth: AuthOf<ContextConfig>;
    /** Set by the error handler when a failed answer is the caller's doing (http/error-handler.ts). */
    callerError: boolean;
  }
}
