import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { freshDb, testConfig, useTestApp } from './helpers.js';

const url = (password: string) => `/api/password-strength?password=${encodeURIComponent(password)}`;
const CRACK_KEYS = [
  'offlineFastHashing1e10PerSecond',
  'offlineSlowHashing1e4PerSecond',
  'onlineNoThrottling10PerSecond',
  'onlineThrottling100PerHour',
];

describe('GET /api/password-strength', () => {
  // A minute's budget, not the default 2 s: on a loaded machine a long passphrase's check waited past 2 s in the
  // pool and answered 500 (busy run of 2026-12-02). The budget itself is tested by its own suite.
  const t = useTestApp('sqlite', { PASSWORD_BUDGET_MS: '60000' });

  it('answers with the zxcvbn v3 fields, Chinese feedback and no caching', async () => {
    const res = await t.app.inject(url('woaini1314'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { code, msg, data } = res.json();
    expect({ code, msg }).toEqual({ code: 200, msg: '请求成功' });
    expect(Object.keys(data).sort()).toEqual([
      'calcTime',
      'crackTimesDisplay',
      'crackTimesSeconds',
      'feedback',
      'guesses',
      'guessesLog10',
      'password',
      'score',
      'sequence',
    ]);
    expect(Object.keys(data.crackTimesSeconds).sort()).toEqual(CRACK_KEYS);
    expect(Object.keys(data.crackTimesDisplay).sort()).toEqual(CRACK_KEYS);
    expect(data.password).toBe('woaini1314');
    expect(data.score).toBe(0);
    expect(data.sequence).toEqual([
      {
        pattern: 'dictionary',
        i: 0,
        j: 9,
        token: 'woaini1314',
        matchedWord: 'woaini1314',
        rank: 14,
        dictionaryName: 'zhCommonPasswords',
        reversed: false,
        l33t: false,
        baseGuesses: 14,
        uppercaseVariations: 1,
        l33tVariations: 1,
        guesses: 14,
        guessesLog10: expect.closeTo(Math.log10(14), 12),
      },
    ]);
    expect(data.feedback).toEqual({ warning: '这是被频繁使用的密码。', suggestions: ['再加入一些不常见的词语。'] });
    expect(data.crackTimesDisplay.offlineFastHashing1e10PerSecond).toBe('不到 1 秒');
  });

  it('passes the fields of other patterns through (date, l33t substitutions)', async () => {
    const date = (await t.app.inject(url('zhangwei19880612'))).json().data.sequence;
    expect(date.find((m: { pattern: string }) => m.pattern === 'date')).toMatchObject({
      token: '19880612',
      separator: '',
      year: 1988,
    });
    const l33t = (await t.app.inject(url('P@ssw0rd'))).json().data.sequence[0];
    expect(l33t).toMatchObject({
      l33t: true,
      subs: [
        { letter: 'a', substitution: '@' },
        { letter: 'o', substitution: '0' },
      ],
      subDisplay: '@ -> a, 0 -> o',
    });
  });

  it('scores a strong passphrase 4 with an empty warning', async () => {
    const data = (await t.app.inject(url('correct horse battery staple'))).json().data;
    expect(data.score).toBe(4);
    expect(data.feedback.warning).toBe('');
  });

  it('accepts 64 characters, Chinese text and emoji, and echoes them back', async () => {
    for (const pw of [
      'the quick brown fox jumps over the lazy dog while seven zebras sing',
      '我爱你一生一世',
      '🔑密码🔒',
    ]) {
      const p = pw.slice(0, 64);
      const res = await t.app.inject(url(p));
      expect(res.statusCode, p).toBe(200);
      expect(res.json().data.password).toBe(p);
    }
  });

  it.each([
    ['missing', '/api/password-strength', '参数 password 无效：缺少必填参数'],
    ['empty', url(''), '参数 password 无效：应为 1 至 64 个字符的密码，收到 ""'],
    ['too long', url('a'.repeat(65)), /^参数 password 无效：应为 1 至 64 个字符的密码，收到 "a{61}\.\.\."$/],
    ['repeated', '/api/password-strength?password=a&password=b', /^参数 password 无效：只能出现一次/],
  ])('rejects a %s password with a 500 envelope naming the parameter', async (_what, path, msg) => {
    const res = await t.app.inject(path);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 500, data: null });
    expect(res.json().msg).toMatch(msg);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is documented in the toolbox group with its bounds', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    const op = doc.paths['/api/password-strength'].get;
    expect(op.tags).toEqual(['工具箱 Toolbox']);
    expect(op.parameters).toContainEqual(
      expect.objectContaining({
        name: 'password',
        in: 'query',
        required: true,
        schema: expect.objectContaining({ minLength: 1, maxLength: 64 }),
      }),
    );
  });
});

describe('password privacy', () => {
  it('keeps the password out of the access log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const db = await freshDb('sqlite');
    // Request lines on (they are off by default outside production), as an operator who wants them would have it.
    const app = await buildApp({ config: testConfig({ LOG_REQUESTS: 'true' }), db, logger: { level: 'info', stream } });
    try {
      await app.ready();
      expect((await app.inject(url('S3cret-Horse-77'))).statusCode).toBe(200);
      expect((await app.inject(url(`${'x'.repeat(80)}S3cret`))).statusCode).toBe(500);
      await app.inject('/api/unknown-endpoint?probe=visible');
      const log = lines.join('');
      expect(log).toContain('probe=visible'); // the access log is on…
      expect(log).not.toContain('S3cret'); // …but never records a password
    } finally {
      await app.close();
      await db.close();
    }
  });
});
