import fp from 'fastify-plugin';
import { LoginLog } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    loginLog: LoginLog;
  }
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** The login log, fed by AuthService's session ends, pruned at start and every hour (LOGIN_LOG_RETENTION). */
export default fp(
  async (app, opts: { now?: () => number }) => {
    const log = new LoginLog(app.db.kysely, app.log, app.config.loginLogRetentionMs, opts.now);
    app.decorate('loginLog', log);
    app.authService.onSessionsEnded((ended) => log.recordEnded(ended));
    const prune = () =>
      log.prune().then(
        (n) => n.logs + n.sessions > 0 && app.log.info(n, 'login log: pruned old rows'),
        (err) => app.log.warn({ err }, 'login log: pruning failed'),
      );
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      await prune();
      timer = setInterval(prune, PRUNE_EVERY_MS).unref();
    });
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'login-log' },
);
