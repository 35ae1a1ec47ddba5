import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { ensurePrivateDir } from './private-files.js';

/** Entry point: load config, build the app, listen, and shut down gracefully on SIGTERM/SIGINT. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`tianji: ${e.message}`);
      process.exit(78);
    }
    throw e;
  }
  // Tightened at every start: installs from before this rule created it 0755.
  ensurePrivateDir(config.dataDir, { tighten: true });
  const app = await buildApp({ config, persistSecret: true });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    await app.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err) => {
  console.error('tianji failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
