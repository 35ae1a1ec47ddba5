/**
 * The SDK as someone outside the checkout gets it: `npm pack -w packages/client`, the tarball installed into an empty
 * folder offline (its two dependencies from the local npm cache, pinned by the monorepo's lockfile), imported there, and
 * the README's sign-in example — the fenced block itself, read from README.md and the docs — run with plain `node`
 * against a real server: no TOTP, a 6-digit code typed at its prompt, and a recovery code.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/src/admin/auth/totp.js';
import { USER_PASSWORD } from '../../server/test/auth-fixtures.js';
import { ADMIN, getTestInstance, type TestInstance } from '../../server/test/helpers.js';
import { enrolledUser } from '../../server/test/totp-fixtures.js';

const run = promisify(execFile);
const root = path.join(import.meta.dirname, '../../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The ```js block of `file` that starts with `// sign-in.mjs`. */
function signInExample(file: string): string {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const block = /```js\n(\/\/ sign-in\.mjs[^\n]*\n[\s\S]*?)```/.exec(text);
  if (!block) throw new Error(`${file}: no \`\`\`js block starting with // sign-in.mjs`);
  return block[1];
}

/**
 * A package-lock for a folder that depends on the tarball only: the tarball's dependencies, and theirs, copied from the
 * monorepo's lockfile (same versions, same integrity), so `npm ci --offline` finds every one in the npm cache.
 */
function lockFor(tarball: string, integrity: string): object {
  const rootLock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string; dependencies?: Record<string, string> }>;
  };
  const client = JSON.parse(fs.readFileSync(path.join(root, 'packages/client/package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };
  const packages: Record<string, object> = {
    '': { name: 'outside', version: '1.0.0', dependencies: { '@tianji/client': `file:${tarball}` } },
    'node_modules/@tianji/client': {
      version: client.version,
      resolved: `file:${tarball}`,
      integrity,
      dependencies: client.dependencies,
    },
  };
  const wanted = Object.keys(client.dependencies);
  while (wanted.length) {
    const name = wanted.pop()!;
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    const { dev, devOptional, peer, ...entry } = rootLock.packages[key] as Record<string, unknown>;
    packages[key] = entry;
    wanted.push(...Object.keys((entry.dependencies as Record<string, string>) ?? {}));
  }
  return { name: 'outside', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

/** `node sign-in.mjs` in the outside folder, with `stdin` typed at its prompt. */
function runExample(dir: string, env: Record<string, string>, stdin = ''): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['sign-in.mjs'], {
      cwd: dir,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
    child.stdin.end(stdin);
  });
}

describe('@tianji/client outside the checkout', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-pack-'));
  const app = path.join(tmp, 'outside');
  let t: TestInstance;
  let server: string;

  beforeAll(async () => {
    const packed = await run(npm, ['pack', '-w', 'packages/client', '--pack-destination', tmp, '--json'], {
      cwd: root,
    });
    const [{ filename, integrity }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{
      filename: string;
      integrity: string;
    }>;
    fs.mkdirSync(app);
    const tarball = `../${filename}`;
    fs.writeFileSync(
      path.join(app, 'package.json'),
      JSON.stringify({ name: 'outside', version: '1.0.0', dependencies: { '@tianji/client': `file:${tarball}` } }),
    );
    fs.writeFileSync(path.join(app, 'package-lock.json'), JSON.stringify(lockFor(tarball, integrity)));
    // Nothing from the network: the tarball, and its dependencies from the local npm cache.
    await run(npm, ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: app });
    fs.writeFileSync(path.join(app, 'sign-in.mjs'), signInExample('packages/client/README.md'));
    t = await getTestInstance('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the packed manifest carries no sources-only paths, and package.json is left as it was', () => {
    const packed = JSON.parse(fs.readFileSync(path.join(app, 'node_modules/@tianji/client/package.json'), 'utf8'));
    expect(JSON.stringify(packed.exports)).not.toContain('src/');
    expect(fs.existsSync(path.join(root, 'packages/client/package.json.pack-original'))).toBe(false);
    const own = JSON.parse(fs.readFileSync(path.join(root, 'packages/client/package.json'), 'utf8'));
    expect(own.exports['.'].development).toBe('./src/index.ts');
  });

  it('both entry points import from the installed tarball, in a bundler’s development mode too', async () => {
    const probe =
      "const [c, n] = await Promise.all([import('@tianji/client'), import('@tianji/client/node')]);" +
      'console.log(typeof c.createSession, typeof c.MfaRequiredError, typeof n.fileStorage);';
    for (const conditions of [[], ['--conditions=development']]) {
      const r = await run(process.execPath, [...conditions, '--input-type=module', '-e', probe], { cwd: app });
      expect(r.stdout.trim()).toBe('function function function');
    }
  });

  it('the README’s sign-in example is the docs’ one, and signs in an account without TOTP', async () => {
    expect(signInExample('docs/guide/clients.md')).toBe(signInExample('packages/client/README.md'));
    const r = await runExample(app, {
      TIANJI_SERVER: server,
      TIANJI_USERNAME: ADMIN.username,
      TIANJI_PASSWORD: ADMIN.password,
    });
    expect(r.code, r.out).toBe(0);
    expect(r.out.trim()).toBe(`已登录：${ADMIN.username}`);
  });

  it('with TOTP: asks for the code at its prompt, or takes a recovery code and says how many are left', async () => {
    const u = await enrolledUser(t.app, t.db, 'readme_totp');
    const env = { TIANJI_SERVER: server, TIANJI_USERNAME: u.username, TIANJI_PASSWORD: USER_PASSWORD };
    const typed = await runExample(app, env, `${totpCode(u.secret, Date.now())}\n`);
    expect(typed.code, typed.out).toBe(0);
    expect(typed.out).toContain('两步验证码或恢复码：');
    expect(typed.out).toContain(`已登录：${u.username}`);
    expect(typed.out).not.toContain('恢复码登录');
    const recovered = await runExample(app, { ...env, TIANJI_TOTP: u.recoveryCodes[0] });
    expect(recovered.code, recovered.out).toBe(0);
    expect(recovered.out).toContain(`已登录：${u.username}`);
    expect(recovered.out).toContain('已使用恢复码登录，还剩 9 个恢复码');
  });
});
