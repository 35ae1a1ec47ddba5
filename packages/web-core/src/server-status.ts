import { reactive } from 'vue';
import { beijingTime } from '@tianji/client';
import type { createAppSession } from './app-session';
import type { Lang } from './texts';
import type { ServerStatus } from './types';

type AppSession = ReturnType<typeof createAppSession>;

/** The route 服务监控 reads: a page or entry for it shows only when the user may call it. */
export const SERVER_STATUS_ROUTE = 'GET /api/admin/server-status' as const;

/** How often an open 服务监控 page reads again while it is visible. */
export const SERVER_STATUS_REFRESH_MS = 5000;

const KIB = 1024;
const MIB = KIB * 1024;
const GIB = MIB * 1024;

/** Bytes as a person reads them: `820 KB`, `45.3 MB`, `312 MB`, `7.72 GB` (binary units, as the OS reports them). */
export function formatBytes(n: number): string {
  if (n < MIB) return `${Math.round(n / KIB)} KB`;
  if (n < GIB) {
    const mb = n / MIB;
    return `${mb < 100 ? mb.toFixed(1) : Math.round(mb)} MB`;
  }
  return `${(n / GIB).toFixed(2)} GB`;
}

/** Milliseconds: `0.42 ms`, `3.2 ms`, `120 ms`; nothing measured shows as `—`. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

/** A share in percent, one decimal: `12.5%`. */
export const formatPercent = (p: number): string => `${(Math.round(p * 10) / 10).toFixed(1)}%`;

const UNITS = {
  zh: { day: ' 天', hour: ' 小时', minute: ' 分钟', under: '不到 1 分钟', sep: ' ' },
  en: { day: ' d', hour: ' h', minute: ' min', under: 'under 1 min', sep: ' ' },
};

/** How long the process has run, to the minute: `3 天 4 小时 12 分钟`, `4 小时 0 分钟`, `12 分钟`, `不到 1 分钟`. */
export function formatUptime(seconds: number, lang: Lang = 'zh'): string {
  const u = UNITS[lang];
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return u.under;
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const parts = d
    ? [`${d}${u.day}`, `${h}${u.hour}`, `${m}${u.minute}`]
    : h
      ? [`${h}${u.hour}`, `${m}${u.minute}`]
      : [`${m}${u.minute}`];
  return parts.join(u.sep);
}

/** An instant to the second, Beijing time: `2026-11-23 14:32:05` (the page's 更新于 moves every refresh). */
export function beijingSeconds(value: string | number | Date): string {
  const d = new Date(value);
  return `${beijingTime(d.getTime())}:${String(new Date(d.getTime() + 8 * 3600_000).getUTCSeconds()).padStart(2, '0')}`;
}

/** One line of a card: what, its value, and whether it needs a look (`warn`) or is down (`bad`). */
export interface StatusRow {
  label: string;
  value: string;
  state?: 'ok' | 'warn' | 'bad';
}

export interface StatusCard {
  /** Stable name of the card (test ids, keys): cpu, memory, process, database, redis, passwordPool, requests. */
  key: 'cpu' | 'memory' | 'process' | 'database' | 'redis' | 'passwordPool' | 'requests';
  title: string;
  rows: StatusRow[];
}

const TEXT = {
  zh: {
    cpu: 'CPU',
    cpuProcess: '进程占用（单核 = 100%）',
    cores: '核心数',
    load: '系统负载（1 / 5 / 15 分钟）',
    loop: '事件循环延迟（中位 / 99 分位 / 最长）',
    memory: '内存',
    rss: '进程常驻内存',
    heap: '堆内存（已用 / 已分配）',
    system: '本机内存（已用 / 总量）',
    systemUse: '本机内存使用率',
    process: '服务器 / 进程',
    version: '天机版本',
    node: 'Node.js 版本',
    host: '主机名',
    platform: '操作系统',
    pid: '进程号',
    started: '启动时间',
    uptime: '已运行',
    database: '数据库',
    kind: '类型',
    state: '状态',
    up: '正常',
    down: '不可用',
    latency: '查询耗时',
    migration: '最新迁移',
    none: '无',
    pool: '连接池（已开 / 上限）',
    poolIdle: '空闲连接',
    poolWaiting: '等待连接的查询',
    redis: 'Redis',
    notConfigured: '未配置（限流按实例计）',
    connected: '已连接',
    disconnected: '未连接（限流按实例计）',
    ping: '响应耗时',
    passwordPool: '密码校验线程池',
    threads: '线程（已加载 / 上限）',
    busy: '正在校验',
    queued: '排队中',
    requests: '请求（最近一分钟）',
    perMinute: '请求数',
    faults: '服务故障（服务器一方出错）',
    callerErrors: '调用方错误（参数有误、路径不存在、限流）',
    refresh: '刷新',
    updatedAt: '更新于',
    autoRefresh: '每 5 秒自动刷新',
    loading: '加载中…',
  },
  en: {
    cpu: 'CPU',
    cpuProcess: 'Process (one core = 100%)',
    cores: 'Cores',
    load: 'Load (1 / 5 / 15 min)',
    loop: 'Event-loop delay (median / p99 / max)',
    memory: 'Memory',
    rss: 'Resident memory',
    heap: 'Heap (used / allocated)',
    system: 'Machine memory (used / total)',
    systemUse: 'Machine memory in use',
    process: 'Server / process',
    version: 'Tianji version',
    node: 'Node.js version',
    host: 'Host name',
    platform: 'Operating system',
    pid: 'Process id',
    started: 'Started',
    uptime: 'Up for',
    database: 'Database',
    kind: 'Kind',
    state: 'State',
    up: 'OK',
    down: 'Unavailable',
    latency: 'Query time',
    migration: 'Latest migration',
    none: 'None',
    pool: 'Pool (open / limit)',
    poolIdle: 'Idle connections',
    poolWaiting: 'Queries waiting',
    redis: 'Redis',
    notConfigured: 'Not configured (rate limits per instance)',
    connected: 'Connected',
    disconnected: 'Not connected (rate limits per instance)',
    ping: 'Response time',
    passwordPool: 'Password-check threads',
    threads: 'Threads (loaded / limit)',
    busy: 'Checking',
    queued: 'Queued',
    requests: 'Requests (last minute)',
    perMinute: 'Requests',
    faults: 'Server faults (the server’s doing)',
    callerErrors: 'Caller errors (bad parameters, unknown paths, rate limits)',
    refresh: 'Refresh',
    updatedAt: 'Updated',
    autoRefresh: 'Refreshes every 5 s',
    loading: 'Loading…',
  },
};

/** The page's own words (button, 更新于 …) in a language. */
export const serverStatusTexts = (lang: Lang) => TEXT[lang];

/** An event-loop delay that users feel: a p99 past this many ms is flagged. */
const SLOW_LOOP_MS = 100;

/**
 * 服务监控's cards, as both apps show them (RuoYi's layout: CPU, 内存, 服务器/进程, 数据库, Redis, and ours: 密码校验线程池,
 * 请求): labels in the interface language, values with their units, a row that needs a look marked.
 */
export function serverStatusCards(s: ServerStatus, lang: Lang = 'zh'): StatusCard[] {
  const x = TEXT[lang];
  const { memory: mem, database: db } = s;
  const systemUsed = mem.systemTotal - mem.systemFree;
  const systemShare = mem.systemTotal ? (systemUsed / mem.systemTotal) * 100 : 0;
  const loop = s.eventLoop;
  return [
    {
      key: 'cpu',
      title: x.cpu,
      rows: [
        { label: x.cpuProcess, value: formatPercent(s.cpu.percent), state: s.cpu.percent >= 90 ? 'warn' : 'ok' },
        { label: x.cores, value: String(s.cpu.cores) },
        { label: x.load, value: s.cpu.load.map((l) => l.toFixed(2)).join(' / ') },
        {
          label: x.loop,
          value: [loop.p50, loop.p99, loop.max].map(formatMs).join(' / '),
          state: loop.p99 >= SLOW_LOOP_MS ? 'warn' : 'ok',
        },
      ],
    },
    {
      key: 'memory',
      title: x.memory,
      rows: [
        { label: x.rss, value: formatBytes(mem.rss) },
        { label: x.heap, value: `${formatBytes(mem.heapUsed)} / ${formatBytes(mem.heapTotal)}` },
        { label: x.system, value: `${formatBytes(systemUsed)} / ${formatBytes(mem.systemTotal)}` },
        { label: x.systemUse, value: formatPercent(systemShare), state: systemShare >= 90 ? 'warn' : 'ok' },
      ],
    },
    {
      key: 'process',
      title: x.process,
      rows: [
        { label: x.version, value: s.process.version },
        { label: x.node, value: s.process.node },
        { label: x.host, value: s.process.hostname },
        { label: x.platform, value: s.process.platform },
        { label: x.pid, value: String(s.process.pid) },
        { label: x.started, value: beijingTime(s.process.startedAt) },
        { label: x.uptime, value: formatUptime(s.process.uptimeSeconds, lang) },
      ],
    },
    {
      key: 'database',
      title: x.database,
      rows: [
        { label: x.kind, value: db.kind === 'postgres' ? 'PostgreSQL' : 'SQLite' },
        { label: x.state, value: db.ok ? x.up : x.down, state: db.ok ? 'ok' : 'bad' },
        { label: x.latency, value: formatMs(db.latencyMs) },
        { label: x.migration, value: db.migration ?? x.none },
        ...(db.pool
          ? [
              { label: x.pool, value: `${db.pool.size} / ${db.pool.max}` },
              { label: x.poolIdle, value: String(db.pool.idle) },
              {
                label: x.poolWaiting,
                value: String(db.pool.waiting),
                state: db.pool.waiting > 0 ? ('warn' as const) : ('ok' as const),
              },
            ]
          : []),
      ],
    },
    {
      key: 'redis',
      title: x.redis,
      rows: [
        {
          label: x.state,
          value: !s.redis.configured ? x.notConfigured : s.redis.connected ? x.connected : x.disconnected,
          state: !s.redis.configured ? undefined : s.redis.connected ? 'ok' : 'bad',
        },
        ...(s.redis.configured ? [{ label: x.ping, value: formatMs(s.redis.latencyMs) }] : []),
      ],
    },
    {
      key: 'passwordPool',
      title: x.passwordPool,
      rows: [
        { label: x.threads, value: `${s.passwordPool.running} / ${s.passwordPool.threads}` },
        { label: x.busy, value: String(s.passwordPool.busy) },
        { label: x.queued, value: String(s.passwordPool.queued), state: s.passwordPool.queued > 0 ? 'warn' : 'ok' },
      ],
    },
    {
      key: 'requests',
      title: x.requests,
      rows: [
        { label: x.perMinute, value: String(s.requests.perMinute) },
        {
          label: x.faults,
          value: String(s.requests.serverFaultsPerMinute),
          state: s.requests.serverFaultsPerMinute > 0 ? 'bad' : 'ok',
        },
        { label: x.callerErrors, value: String(s.requests.callerErrorsPerMinute) },
      ],
    },
  ];
}

/**
 * 服务监控's data for a page: read now and every SERVER_STATUS_REFRESH_MS while the page is visible (a hidden tab
 * does not poll; it reads at once when shown again). `start` when the page mounts, `stop` when it goes.
 *
 * @example const live = useServerStatus(app); onMounted(live.start); onUnmounted(live.stop); // live.state.status
 */
export function useServerStatus(app: Pick<AppSession, 'session' | 'call'>, intervalMs = SERVER_STATUS_REFRESH_MS) {
  const state = reactive<{ status?: ServerStatus; updatedAt?: string; loading: boolean }>({ loading: false });
  let timer: ReturnType<typeof setInterval> | undefined;
  let inFlight: Promise<void> | undefined;

  function refresh(): Promise<void> {
    inFlight ??= (async () => {
      state.loading = true;
      try {
        state.status = (await app.call(app.session.api.GET('/api/admin/server-status'))).data;
        state.updatedAt = beijingSeconds(Date.now());
      } finally {
        state.loading = false;
        inFlight = undefined;
      }
    })();
    return inFlight;
  }
  const quiet = () => refresh().catch(() => undefined);
  const visible = () => typeof document === 'undefined' || document.visibilityState === 'visible';
  function schedule() {
    clearInterval(timer);
    timer = visible() ? setInterval(quiet, intervalMs) : undefined;
  }
  function onVisibility() {
    if (visible()) void quiet();
    schedule();
  }
  return {
    state,
    refresh,
    start() {
      void quiet();
      schedule();
      document.addEventListener('visibilitychange', onVisibility);
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
      document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
