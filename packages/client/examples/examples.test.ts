/**
 * The Node examples run as a user would run them (their own process, through the package's own entry points)
 * against a real server; the localStorage one is a browser module and is type-checked only.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, getTestInstance, type TestInstance } from '../../server/test/helpers.js';

function runExample(file: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=development', '--import', 'tsx', path.join(import.meta.dirname, file)],
      { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe('SDK examples against a real server', () => {
  let t: TestInstance;
  let server: string;
  beforeAll(async () => {
    t = await getTestInstance('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  it('memory storage: signs in, shows the all-ones mask exactly, lists users, signs out', async () => {
    const r = await runExample('memory.ts', {
      TIANJI_SERVER: server,
      TIANJI_USERNAME: ADMIN.username,
      TIANJI_PASSWORD: ADMIN.password,
    });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('已登录：admin（超级管理员）');
    expect(r.out).toContain('权限掩码：9223372036854775807');
    expect(r.out).toContain('可以新增用户：是');
    expect(r.out).toMatch(/用户共 \d+ 个/);
    expect(r.out).toContain('已退出（logout）');
  });

  it('two-step: enrols TOTP with the password as proof, shows ten recovery codes, renews them, turns it off', async () => {
    const r = await runExample('two-step.ts', {
      TIANJI_SERVER: server,
      TIANJI_USERNAME: ADMIN.username,
      TIANJI_PASSWORD: ADMIN.password,
    });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^密钥：[A-Z2-7]+（或扫描 otpauth:\/\/totp\/.+ 的二维码）$/m);
    expect(r.out).toContain('两步验证已开启，恢复码 10 个');
    expect(r.out).toMatch(/身份已验证，\S+ 前有效/);
    expect(r.out).toContain('新的恢复码 10 个，旧的已作废');
    expect(r.out).toContain('两步验证已关闭：是');
  });

  it('file storage: the second run resumes from the file without the password; SIGN_OUT removes it', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-example-')), 'refresh-token');
    const env = { TIANJI_SERVER: server, TIANJI_USERNAME: ADMIN.username, TIANJI_TOKEN_FILE: file };
    const first = await runExample('file.ts', { ...env, TIANJI_PASSWORD: ADMIN.password });
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain('已登录：admin');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const second = await runExample('file.ts', { ...env, SIGN_OUT: '1' });
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain('已恢复会话：admin');
    expect(second.out).toMatch(/你的在线会话：[1-9]\d* 个/);
    expect(fs.existsSync(file)).toBe(false);
    const third = await runExample('file.ts', env);
    expect(third.code).toBe(4);
    expect(third.out).toContain('未登录');
  });
});
