import { describe, expect, it, vi } from 'vitest';
import {
  beijingSeconds,
  formatBytes,
  formatMs,
  formatPercent,
  formatUptime,
  serverStatusCards,
  type StatusCard,
  useServerStatus,
} from './server-status';
import type { ServerStatus } from './types';

const MIB = 1024 * 1024;

const status: ServerStatus = {
  checkedAt: '2026-11-23T06:32:05.000Z',
  process: {
    startedAt: '2026-11-20T02:20:00.000Z',
    uptimeSeconds: 3 * 86400 + 4 * 3600 + 12 * 60 + 5,
    version: '0.1.0',
    node: 'v20.19.0',
    pid: 4242,
    hostname: 'tianji-1',
    platform: 'linux x64',
  },
  memory: {
    rss: 312 * MIB,
    heapUsed: 45.3 * MIB,
    heapTotal: 64 * MIB,
    systemTotal: 8192 * MIB,
    systemFree: 2048 * MIB,
  },
  cpu: { percent: 12.34, cores: 2, load: [0.5, 0.61, 0.7] },
  eventLoop: { p50: 10.2, p99: 12.5, max: 40 },
  database: {
    kind: 'postgres',
    ok: true,
    latencyMs: 0.42,
    migration: '0021-holiday-notice-names',
    pool: { max: 10, size: 3, idle: 2, waiting: 0 },
  },
  redis: { configured: true, connected: false, latencyMs: null },
  passwordPool: { threads: 3, running: 1, busy: 0, queued: 2 },
  requests: { perMinute: 120, callerErrorsPerMinute: 4, serverFaultsPerMinute: 1 },
};

const row = (cards: StatusCard[], key: StatusCard['key'], label: string) =>
  cards.find((c) => c.key === key)?.rows.find((r) => r.label.startsWith(label));

describe('服务监控 formatting', () => {
  it('shows sizes in KB, MB and GB', () => {
    expect(formatBytes(820 * 1024)).toBe('820 KB');
    expect(formatBytes(45.3 * MIB)).toBe('45.3 MB');
    expect(formatBytes(312 * MIB)).toBe('312 MB');
    expect(formatBytes(8 * 1024 * MIB)).toBe('8.00 GB');
  });

  it('shows milliseconds with the precision they deserve, and nothing measured as a dash', () => {
    expect(formatMs(0.423)).toBe('0.42 ms');
    expect(formatMs(3.21)).toBe('3.2 ms');
    expect(formatMs(120.4)).toBe('120 ms');
    expect(formatMs(null)).toBe('—');
  });

  it('shows uptime in days, hours and minutes', () => {
    expect(formatUptime(3 * 86400 + 4 * 3600 + 12 * 60 + 59)).toBe('3 天 4 小时 12 分钟');
    expect(formatUptime(4 * 3600)).toBe('4 小时 0 分钟');
    expect(formatUptime(12 * 60)).toBe('12 分钟');
    expect(formatUptime(59)).toBe('不到 1 分钟');
    expect(formatUptime(86400 + 60, 'en')).toBe('1 d 0 h 1 min');
  });

  it('shows percentages with one decimal and instants in Beijing time', () => {
    expect(formatPercent(12.34)).toBe('12.3%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(beijingSeconds('2026-11-23T06:32:05.000Z')).toBe('2026-11-23 14:32:05');
  });

  it('makes RuoYi’s cards with units, Beijing dates and the rows that need a look marked', () => {
    const cards = serverStatusCards(status);
    expect(cards.map((c) => c.title)).toEqual([
      'CPU',
      '内存',
      '服务器 / 进程',
      '数据库',
      'Redis',
      '密码校验线程池',
      '请求（最近一分钟）',
    ]);
    expect(row(cards, 'cpu', '进程占用')?.value).toBe('12.3%');
    expect(row(cards, 'cpu', '事件循环延迟')?.value).toBe('10 ms / 13 ms / 40 ms');
    expect(row(cards, 'memory', '堆内存')?.value).toBe('45.3 MB / 64.0 MB');
    expect(row(cards, 'memory', '本机内存（')?.value).toBe('6.00 GB / 8.00 GB');
    expect(row(cards, 'memory', '本机内存使用率')?.value).toBe('75.0%');
    expect(row(cards, 'process', '启动时间')?.value).toBe('2026-11-20 10:20');
    expect(row(cards, 'process', '已运行')?.value).toBe('3 天 4 小时 12 分钟');
    expect(row(cards, 'database', '类型')?.value).toBe('PostgreSQL');
    expect(row(cards, 'database', '查询耗时')?.value).toBe('0.42 ms');
    expect(row(cards, 'database', '连接池')?.value).toBe('3 / 10');
    expect(row(cards, 'redis', '状态')).toMatchObject({ value: '未连接（限流按实例计）', state: 'bad' });
    expect(row(cards, 'passwordPool', '排队中')).toMatchObject({ value: '2', state: 'warn' });
    expect(row(cards, 'requests', '服务故障')).toMatchObject({ value: '1', state: 'bad' });
    expect(row(cards, 'requests', '调用方错误')).toMatchObject({ value: '4' });
  });

  it('leaves out what SQLite and a server without Redis do not have', () => {
    const cards = serverStatusCards({
      ...status,
      database: { ...status.database, kind: 'sqlite', pool: null },
      redis: { configured: false, connected: false, latencyMs: null },
    });
    expect(row(cards, 'database', '连接池')).toBeUndefined();
    expect(row(cards, 'database', '类型')?.value).toBe('SQLite');
    expect(cards.find((c) => c.key === 'redis')?.rows).toEqual([
      { label: '状态', value: '未配置（限流按实例计）', state: undefined },
    ]);
  });
});

describe('服务监控 reading by itself', () => {
  it('reads every 5 s while visible, not while the tab is hidden, and at once when shown again', async () => {
    vi.useFakeTimers();
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
    vi.stubGlobal('document', doc);
    let reads = 0;
    const app = {
      session: { api: { GET: () => Promise.resolve({ data: { data: status }, response: new Response() }) } },
      call: async <T>(p: Promise<{ data?: T }>) => {
        reads++;
        return (await p).data as T;
      },
    } as unknown as Parameters<typeof useServerStatus>[0];
    const live = useServerStatus(app);
    try {
      live.start();
      await vi.advanceTimersByTimeAsync(0);
      expect(reads).toBe(1);
      expect(live.state.status?.process.pid).toBe(4242);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(reads).toBe(3);
      doc.visibilityState = 'hidden';
      doc.dispatchEvent(new Event('visibilitychange'));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(reads).toBe(3);
      doc.visibilityState = 'visible';
      doc.dispatchEvent(new Event('visibilitychange'));
      await vi.advanceTimersByTimeAsync(0);
      expect(reads).toBe(4);
      live.stop();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(reads).toBe(4);
    } finally {
      live.stop();
      vi.unstubAllGlobals();
      vi.useRealTimers();
    }
  });
});
