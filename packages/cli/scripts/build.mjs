// Bundles the CLI with @tianji/client and its few dependencies into one file, so `npm i -g` needs nothing else.
import { build } from 'esbuild';

const outfile = process.argv[2] ?? new URL('../dist/tianji.cjs', import.meta.url).pathname;
await build({
  entryPoints: [new URL('../src/cli.ts', import.meta.url).pathname],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  conditions: ['development'],
  outfile,
  logLevel: 'warning',
});
