import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../errors.js';
import { TokenService, resolveSecret } from './tokens.js';

const KEY = new TextEncoder().encode('k'.repeat(48));

describe('TokenService', () => {
  afterEach(() => vi.useRealTimers());

  it('round-trips an access token and keeps sub and ver', async () => {
    const tokens = new TokenService(KEY, 900, 3600);
    const claims = await tokens.verifyAccess(await tokens.signAccess('u1', 7, 's1'));
    expect(claims).toMatchObject({ sub: 'u1', ver: 7 });
  });

  it('stops accepting a remembered access token once it expires', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const tokens = new TokenService(KEY, 60, 3600);
    const token = await tokens.signAccess('u1', 0, 's1');
    await tokens.verifyAccess(token); // now remembered
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    await expect(tokens.verifyAccess(token)).resolves.toMatchObject({ sub: 'u1' });
    vi.setSystemTime(new Date('2026-01-01T00:01:01Z'));
    await expect(tokens.verifyAccess(token)).rejects.toMatchObject({
      code: 'TOKEN_EXPIRED',
      message: expect.stringMatching(/access token expired/),
    });
  });

  it('does not accept a token signed with another key, even after verifying a genuine one', async () => {
    const mine = new TokenService(KEY, 900, 3600);
    const theirs = new TokenService(new TextEncoder().encode('t'.repeat(48)), 900, 3600);
    await mine.verifyAccess(await mine.signAccess('u1', 0, 's1'));
    await expect(mine.verifyAccess(await theirs.signAccess('u1', 0, 's1'))).rejects.toBeInstanceOf(AppError);
  });

  it('tells the two kinds apart in both directions', async () => {
    const tokens = new TokenService(KEY, 900, 3600);
    const refresh = (await tokens.signRefresh('u1', 0, 'fam')).token;
    await expect(tokens.verifyAccess(refresh)).rejects.toMatchObject({
      message: expect.stringMatching(/refresh token cannot be used/),
    });
    await expect(tokens.verifyRefresh(await tokens.signAccess('u1', 0, 's1'))).rejects.toMatchObject({
      message: expect.stringMatching(/access token cannot be used/),
    });
    await expect(tokens.verifyRefresh(refresh)).resolves.toMatchObject({ sub: 'u1', fam: 'fam' });
  });
});

describe('resolveSecret', () => {
  const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-secret-'));

  it('uses JWT_SECRET when configured', () => {
    expect(Buffer.from(resolveSecret('s'.repeat(32), dir(), true)).toString()).toBe('s'.repeat(32));
  });

  it('generates a secret on first start, keeps it private, and reuses it after a restart', () => {
    const d = dir();
    const first = resolveSecret(undefined, d, true);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(d, 'jwt-secret')).mode & 0o077).toBe(0);
    expect(Buffer.from(resolveSecret(undefined, d, true)).equals(Buffer.from(first))).toBe(true);
  });

  it('refuses a kept secret that is too short instead of signing with a guessable key', () => {
    const d = dir();
    fs.writeFileSync(path.join(d, 'jwt-secret'), 'abc');
    expect(() => resolveSecret(undefined, d, true)).toThrow(/fewer than 32 key bytes/);
  });
});
