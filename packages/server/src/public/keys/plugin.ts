import fp from 'fastify-plugin';
import { ApiKeyRegistry } from './registry.js';
import { KeyQuota } from './quota.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** API keys of public callers: cached lookup, require-a-key policy, change notices (public/keys/registry.ts). */
    apiKeys: ApiKeyRegistry;
    /** Per-key request windows (public/keys/quota.ts). */
    apiKeyQuota: KeyQuota;
  }
  interface FastifyRequest {
    /** The id of the API key a public request was answered under; '' for an anonymous caller. */
    apiKeyId: string;
  }
}

/** The public side of API keys, shared by the admin routes (which announce changes) and the public gate. */
export default fp(
  async (app) => {
    const registry = new ApiKeyRegistry(app.db.kysely, app.log, app.redis);
    await registry.init();
    app.decorate('apiKeys', registry);
    app.decorate('apiKeyQuota', new KeyQuota(app.log, app.redis));
    app.decorateRequest('apiKeyId', '');
    app.addHook('onClose', async () => registry.close());
  },
  { name: 'api-keys' },
);
