import { reactive } from 'vue';
import { LOGIN_EVENT_NAMES } from '@tianji/client';
import type { createAppSession } from './app-session';
import { shownPrefix, type UsageCaller } from './api-keys';
import type { AuditEntry } from './types';
import { totals, type Total, type UsageRowLike } from './usage';

type AppSession = ReturnType<typeof createAppSession>;

/** The route each number of the home page is read from: a number shows only when the user may call its route. */
export const HOME_ROUTES = {
  usage: 'GET /api/admin/usage',
  callers: 'GET /api/admin/usage/callers',
  sessions: 'GET /api/sessions',
  failedSignIns: 'GET /api/login-logs',
  audit: 'GET /api/audit-logs',
} as const;
export type HomeNumber = keyof typeof HOME_ROUTES;

/** Today in Beijing (the day usage is counted by): its date and the instant it began. */
export function beijingToday(now = Date.now()): { day: string; start: string } {
  const day = new Date(now + 8 * 3600_000).toISOString().slice(0, 10);
  return { day, start: `${day}T00:00:00+08:00` };
}

/** How many callers the home lists. */
export const TOP_CALLERS = 5;

/** A caller as a person reads it: the key's name and prefix (`合作方 tj_ab12cd34…`), or `anonymous` for no key. */
export const callerName = (c: Pick<UsageCaller, 'apiKeyId' | 'name' | 'prefix'>, anonymous: string) =>
  c.apiKeyId ? [c.name, c.prefix && shownPrefix({ prefix: c.prefix })].filter(Boolean).join(' ') : anonymous;

/** The busiest callers of a period, most requests first (the server sorts so too; the home keeps the first few). */
export const topCallers = (items: UsageCaller[], n = TOP_CALLERS) =>
  [...items].sort((a, b) => b.requests - a.requests).slice(0, n);

/**
 * The login log's filter for today's failed sign-ins: the home counts with it and its tile opens the log with it
 * (`?event=login&result=failure&from=…&to=…`), so the tile's number is the rows the log then shows.
 */
export const failedSignInsFilter = ({ day }: { day: string }) =>
  ({ event: 'login', result: 'failure', from: day, to: day }) as const;

/** A login-log filter read from a link's query: only values the log offers (a day is `YYYY-MM-DD`, Beijing). */
export interface LoginLogLinkFilter {
  event?: keyof typeof LOGIN_EVENT_NAMES;
  result?: 'success' | 'failure';
  from?: string;
  to?: string;
}

/**
 * The filter a link opens the login log with (the failed sign-ins tile's `failedSignInsFilter`), read back from the
 * route query; anything else in it is ignored. Both apps' login logs apply it.
 */
export function loginLogFilterOfQuery(q: Record<string, unknown>): LoginLogLinkFilter {
  const one = (k: string) => (typeof q[k] === 'string' ? (q[k] as string) : '');
  const day = (k: string) => (/^\d{4}-\d{2}-\d{2}$/.test(one(k)) ? one(k) : undefined);
  const event = one('event');
  const result = one('result');
  return Object.fromEntries(
    Object.entries({
      event: Object.hasOwn(LOGIN_EVENT_NAMES, event) ? event : undefined,
      result: result === 'success' || result === 'failure' ? result : undefined,
      from: day('from'),
      to: day('to'),
    }).filter(([, v]) => v !== undefined),
  ) as LoginLogLinkFilter;
}

export interface UsageSummary {
  requests: number;
  callerErrors: number;
  serverErrors: number;
  /** Server faults per request. */
  faultRate: number;
  /** Per endpoint, busiest first. */
  byEndpoint: Total[];
}

/** One day's usage rows summed over every endpoint. */
export function usageSummary(rows: UsageRowLike[]): UsageSummary {
  const byEndpoint = totals(rows);
  const sum = (k: 'requests' | 'callerErrors' | 'serverErrors') => byEndpoint.reduce((s, t) => s + t[k], 0);
  const [requests, serverErrors] = [sum('requests'), sum('serverErrors')];
  const faultRate = requests ? serverErrors / requests : 0;
  return { requests, callerErrors: sum('callerErrors'), serverErrors, faultRate, byEndpoint };
}

export interface HomeNumbers {
  /** Today's public API calls. */
  usage?: UsageSummary;
  /** Today's busiest callers of the public API (keys, and everyone without one), at most TOP_CALLERS. */
  callers?: UsageCaller[];
  /** Sessions signed in now. */
  sessions?: number;
  /** Sign-ins that failed today. */
  failedSignIns?: number;
  /** The newest audit entries. */
  audit?: AuditEntry[];
  /** A first load is under way (the page shows skeletons, not zeros or 「暂无数据」). */
  loading: boolean;
}

/**
 * The operator's numbers of the day, as both home pages show them: each read from the admin API only when the user
 * may call its route (`shows`), in parallel, one failing without hiding the others. `load` again to refresh.
 *
 * @example const home = useHomeNumbers(app); onMounted(home.load); // home.numbers.sessions, home.shows('audit')
 */
export function useHomeNumbers(
  app: Pick<AppSession, 'session' | 'call' | 'canCall'>,
  opts: { auditCount?: number } = {},
) {
  // Loading from the first render on (the page calls `load` when mounted): a skeleton, never a flash of '—'.
  const numbers = reactive<HomeNumbers>({ loading: true });
  const shows = (n: HomeNumber) => app.canCall(HOME_ROUTES[n]);
  const api = app.session.api;

  const readers: Record<HomeNumber, (today: ReturnType<typeof beijingToday>) => Promise<void>> = {
    usage: async ({ day }) => {
      const q = { from: day, to: day };
      numbers.usage = usageSummary((await app.call(api.GET('/api/admin/usage', { params: { query: q } }))).data.items);
    },
    callers: async ({ day }) => {
      const q = { from: day, to: day };
      const items = (await app.call(api.GET('/api/admin/usage/callers', { params: { query: q } }))).data.items;
      numbers.callers = topCallers(items);
    },
    sessions: async () => {
      const q = { page: 1, pageSize: 1 };
      numbers.sessions = (await app.call(api.GET('/api/sessions', { params: { query: q } }))).data.total;
    },
    failedSignIns: async (today) => {
      const q = { page: 1, pageSize: 1, ...failedSignInsFilter(today) };
      numbers.failedSignIns = (await app.call(api.GET('/api/login-logs', { params: { query: q } }))).data.total;
    },
    audit: async () => {
      const q = { page: 1, pageSize: opts.auditCount ?? 6 };
      numbers.audit = (await app.call(api.GET('/api/audit-logs', { params: { query: q } }))).data.items;
    },
  };

  async function load() {
    numbers.loading = true;
    const today = beijingToday();
    try {
      const shown = (Object.keys(readers) as HomeNumber[]).filter(shows);
      await Promise.allSettled(shown.map((n) => readers[n](today)));
    } finally {
      numbers.loading = false;
    }
  }
  return { numbers, shows, load };
}
