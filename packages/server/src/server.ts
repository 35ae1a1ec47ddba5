import { buildApp } from './app.js';
import { type Config, ConfigError, assertSharedSecret, loadConfig } from './config.js';
import { ensurePrivateDir } from './private-files.js';
import { logDestination } from './log-destination.js';
import { adminUrl, firstStartBanner } from './first-start-banner.js';
import { StartupTimer } from './startup-timer.js';

/**
 * In-flight requests get this long after SIGTERM, then the process exits regardless. With at most LOG_FLUSH_MS
 * spent on the last log lines, a SIGTERM always ends the process within 10 s.
 */
const SHUTDOWN_LIMIT_MS = 8_000;
const LOG_FLUSH_MS = 1_000;

/** Entry point: load config, build the app, listen, and shut down gracefully on SIGTERM/SIGINT. */
async function main() {
  // From the process's start: loading the modules (the server and its data sets) is the first stage.
  const startup = new StartupTimer(0);
  startup.mark('modules');
  let config: Config;
  try {
    config = loadConfig();
    assertSharedSecret(config);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`tianji: ${e.message}`);
      process.exit(78);
    }
    throw e;
  }
  // Tightened at every start: installs from before this rule created it 0755.
  ensurePrivateDir(config.dataDir, { tighten: true });
  const log = await terminalOrDestination();
  startup.mark('config');
  let generatedPassword: string | undefined;
  const app = await buildApp({
    config,
    persistSecret: true,
    startup,
    logger: { level: config.logLevel, stream: log },
    onGeneratedPassword: (p) => {
      generatedPassword = p;
    },
  });
  let closing = false;
  const exit = (code: number) => void log.flush(LOG_FLUSH_MS).finally(() => process.exit(code));
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Requests still running (a slow upload, a long stream) get SHUTDOWN_LIMIT_MS; SIGTERM always ends the process.
    const timer = setTimeout(() => {
      app.log.warn(`shutdown did not finish within ${SHUTDOWN_LIMIT_MS / 1000} s; exiting anyway`);
      exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    // Keep-alive connections that were busy when the server stopped listening become idle after their answer,
    // but Node closes idle connections only once, at close(): without this, close() waits for the clients'
    // keep-alive timeout (seen: SIGTERM during image rendering took the full fallback delay).
    const idle = setInterval(() => app.server.closeIdleConnections(), 100).unref();
    try {
      await app.close();
    } catch (err) {
      app.log.error({ err }, 'error while shutting down');
      clearTimeout(timer);
      return exit(1);
    }
    clearTimeout(timer);
    clearInterval(idle);
    exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // Every plugin started (the public API's data sets, the web apps' files): what is left of the boot is listen().
  await app.ready();
  startup.mark('plugins');
  await app.listen({ port: config.port, host: config.host });
  startup.mark('listen');
  app.log.info({ startupMs: startup.stages }, startup.summary());
  if (generatedPassword) {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    process.stderr.write(
      firstStartBanner({
        adminUrl: adminUrl({ publicBaseUrl: config.publicBaseUrl, host: config.host, port }),
        username: config.adminUsername,
        password: generatedPassword,
        host: config.host,
      }),
    );
  }
}

/**
 * On a terminal, readable lines (pino-pretty, when installed: it is a dependency, but an image may leave it out);
 * anywhere else, JSON lines for the log collector, written so they never hold the process (log-destination.ts).
 */
async function terminalOrDestination() {
  if (process.stdout.isTTY) {
    try {
      const { default: pretty } = await import('pino-pretty');
      const stream = pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' });
      return { write: (line: string) => void stream.write(line), flush: async (_ms: number) => undefined };
    } catch {
      // Not installed: JSON lines, as in production.
    }
  }
  return logDestination();
}

main().catch((err) => {
  console.error('tianji failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
