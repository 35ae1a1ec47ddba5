import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileStorage } from './node.js';
import { localStorageAdapter, memoryStorage } from './storage.js';

describe('refresh-token storage adapters', () => {
  it('memory keeps the token in the object only', () => {
    const s = memoryStorage();
    expect(s.load()).toBeNull();
    s.save('t1');
    expect(s.load()).toBe('t1');
    s.save(null);
    expect(s.load()).toBeNull();
    expect(s.sharedKey).toBeUndefined();
  });

  it('localStorage keeps it under its key and marks it shared across tabs', () => {
    const m = new Map<string, string>();
    const s = localStorageAdapter('k', {
      getItem: (k) => m.get(k) ?? null,
      setItem: (k, v) => void m.set(k, v),
      removeItem: (k) => void m.delete(k),
    });
    s.save('t1');
    expect(m.get('k')).toBe('t1');
    expect(s.load()).toBe('t1');
    s.save(null);
    expect(m.has('k')).toBe(false);
    expect(s.sharedKey).toBe('k');
  });

  it('a file survives a new adapter (a restart), is private to the owner, and is removed on sign-out', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-client-')), 'nested', 'session');
    await fileStorage(file).save('t1');
    expect(await fileStorage(file).load()).toBe('t1');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    await fileStorage(file).save(null);
    expect(fs.existsSync(file)).toBe(false);
    expect(await fileStorage(file).load()).toBeNull();
  });
});

describe('the refresh lock of the file storage', () => {
  it('a lock left by a process that died is taken over at once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-lock-'));
    const file = path.join(dir, 'token');
    // A lock as a `tianji` killed mid-refresh leaves it: fresh (so not stale by age), its holder gone.
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    fs.mkdirSync(`${file}.lock`);
    fs.writeFileSync(`${file}.lock.holder`, `${os.hostname()} ${dead}`);
    // proper-lockfile alone would wait 7.5 s and refuse (ELOCKED): the lock is younger than its 10 s staleness.
    expect(await fileStorage(file).coordinator!.withLock(async () => 'ran')).toBe('ran');
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  }, 20_000);

  it('a lock held by a live process is waited for, then refused in Chinese naming the lock', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-lock-'));
    const file = path.join(dir, 'token');
    fs.mkdirSync(`${file}.lock`);
    fs.writeFileSync(`${file}.lock.holder`, `${os.hostname()} ${process.pid}`);
    await expect(fileStorage(file).coordinator!.withLock(async () => 'ran')).rejects.toThrow(
      /^另一个 tianji 进程正在刷新登录状态.*token\.lock/,
    );
  }, 20_000);
});
