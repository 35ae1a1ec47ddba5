import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The entry file of a worker thread that sits next to the calling module: the compiled `.js` when running from
 * dist/, otherwise the TypeScript source loaded through tsx (dev server, vitest).
 *
 * @example new Piscina(workerEntry(import.meta.url, 'svg-png-worker'))
 */
export function workerEntry(moduleUrl: string, name: string): { filename: string; execArgv: string[] } {
  const js = new URL(`./${name}.js`, moduleUrl);
  if (existsSync(fileURLToPath(js))) return { filename: js.href, execArgv: process.execArgv };
  const tsx = pathToFileURL(createRequire(moduleUrl).resolve('tsx')).href;
  return { filename: new URL(`./${name}.ts`, moduleUrl).href, execArgv: ['--import', tsx] };
}
