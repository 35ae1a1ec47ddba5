import fp from 'fastify-plugin';
import { PasswordPool } from './password-pool.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The password-strength threads: the public /api/password-strength scores on them, 服务监控 shows them. */
    passwordPool: PasswordPool;
  }
}

/** One password pool per app (password-pool.ts), its dictionaries and first thread loaded once the server listens. */
export default fp(
  async (app) => {
    const pool = new PasswordPool({
      workers: app.config.passwordWorkers,
      budgetMs: app.config.passwordBudgetMs,
      onError: (err) => app.log.error({ err }, 'password worker failed'),
    });
    app.decorate('passwordPool', pool);
    app.addHook('onClose', () => pool.close());
    // Dictionaries and zxcvbn ready before the first check (in the background; not in tests that never listen).
    app.addHook('onListen', (done) => {
      void pool.prepare();
      done();
    });
  },
  { name: 'password-pool' },
);
