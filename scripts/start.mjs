/**
 * `npm start`: builds what changed (scripts/build-if-changed.mjs), then runs the compiled server with the container
 * image's allocator settings (scripts/launcher.mjs).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runServer, SERVER_ENTRY } from './launcher.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-changed.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
runServer(path.join(root, SERVER_ENTRY), process.argv.slice(2));
