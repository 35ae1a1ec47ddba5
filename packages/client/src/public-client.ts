/**
 * The public lookup API's client: typed by `generated/public-api.ts` (the server's own OpenAPI document), plain
 * `fetch`, so it runs in Node 18+ and every browser. An API key, when given, goes in the `X-API-Key` header — never
 * in the URL, where logs and referrers would keep it.
 *
 * @example
 * const tj = createPublicClient({ baseUrl: 'https://api.example.com', apiKey: process.env.TIANJI_API_KEY });
 * const hours = await tj.get('/api/almanac', { date: '2026-11-21' }); // typed: the 12 entries
 */
import type { paths } from './generated/public-api.js';

type Get<P extends keyof paths> = paths[P]['get'];
type JsonOk<P extends keyof paths> = Get<P> extends { responses: { 200: { content: infer C } } } ? C : never;

/** Paths whose answer is the JSON envelope (every one except the image renderers). */
export type PublicJsonPath = {
  [P in keyof paths]: 'application/json' extends keyof JsonOk<P> ? P : never;
}[keyof paths];

/** Paths answering an image (`/api/qrcode/image`, …). */
export type PublicImagePath = {
  [P in keyof paths]: 'image/png' extends keyof JsonOk<P> ? P : never;
}[keyof paths];

/** The query parameters of a public path. */
export type PublicQuery<P extends keyof paths> = NonNullable<Get<P>['parameters']['query']>;

/** The `data` of a public path's success envelope. */
export type PublicData<P extends PublicJsonPath> =
  JsonOk<P> extends { 'application/json': { data: infer D } } ? D : never;

/** The IETF draft's rate-limit state of one answer (`RateLimit-*`, or the older `X-RateLimit-*`). */
export interface RateLimit {
  /** Requests allowed in the current window. */
  limit: number;
  /** Requests left in it. */
  remaining: number;
  /** Seconds until the window starts over. */
  reset: number;
}

export interface PublicAnswer<D> {
  data: D;
  /** The server's `timestamp` (Unix milliseconds). */
  timestamp: number;
  /** Undefined when the server sent no rate-limit headers (limit turned off). */
  rateLimit?: RateLimit;
}

/**
 * A failure answer of the public API: the HTTP status, the envelope's `code` and `msg` (Chinese first, naming the
 * parameter), and on 429 how long to wait.
 */
export class PublicApiError extends Error {
  constructor(
    readonly status: number,
    /** The envelope's `code` (the HTTP status unless the server said otherwise). */
    readonly code: number,
    /** The envelope's `msg`, as the server wrote it. */
    readonly msg: string,
    /** Seconds to wait before trying again (429's `Retry-After`). */
    readonly retryAfter?: number,
    readonly rateLimit?: RateLimit,
  ) {
    super(msg);
    this.name = 'PublicApiError';
  }
}

export interface PublicClientOptions {
  /** The server's origin (`https://api.example.com`), optionally with a path prefix. */
  baseUrl: string;
  /** `tj_…`: sent as `X-API-Key`. Without it the calls are anonymous (the per-address limit). */
  apiKey?: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Headers to add to every call. */
  headers?: Record<string, string>;
}

export interface PublicClient {
  /** The `data` of a JSON endpoint; throws PublicApiError on any failure. */
  get<P extends PublicJsonPath>(path: P, query?: PublicQuery<P>): Promise<PublicData<P>>;
  /** The same with the answer's timestamp and rate-limit state. */
  call<P extends PublicJsonPath>(path: P, query?: PublicQuery<P>): Promise<PublicAnswer<PublicData<P>>>;
  /** An image endpoint's bytes (`format=png|svg` in the query chooses). */
  image<P extends PublicImagePath>(path: P, query?: PublicQuery<P>): Promise<Blob>;
  /** The rate-limit state of the latest answer, undefined before the first. */
  readonly rateLimit: RateLimit | undefined;
}

/** `RateLimit-*` (IETF draft) or `X-RateLimit-*` (older servers); undefined when absent. */
export function readRateLimit(headers: Headers): RateLimit | undefined {
  const read = (name: string) => headers.get(`ratelimit-${name}`) ?? headers.get(`x-ratelimit-${name}`);
  const limit = read('limit');
  if (limit === null) return undefined;
  return { limit: Number(limit), remaining: Number(read('remaining') ?? 0), reset: Number(read('reset') ?? 0) };
}

/** `Retry-After` as seconds: a number, or an HTTP date turned into seconds from now. */
function retryAfterOf(headers: Headers): number | undefined {
  const v = headers.get('retry-after');
  if (!v) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

async function failure(res: Response, rateLimit: RateLimit | undefined): Promise<PublicApiError> {
  let body: { code?: unknown; msg?: unknown } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // Not the envelope (a proxy's page): the status speaks.
  }
  const code = typeof body.code === 'number' ? body.code : res.status;
  const msg = typeof body.msg === 'string' ? body.msg : res.statusText || `HTTP ${res.status}`;
  return new PublicApiError(res.status, code, msg, retryAfterOf(res.headers), rateLimit);
}

/** A client for the public lookup API, anonymous or with an API key. */
export function createPublicClient(options: PublicClientOptions): PublicClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  let latest: RateLimit | undefined;

  async function send(path: string, query: object | undefined, accept: string): Promise<Response> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined || v === null) continue;
      for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
    }
    const qs = params.toString();
    const res = await doFetch(`${base}${path}${qs ? `?${qs}` : ''}`, { headers: { ...headers, accept } });
    latest = readRateLimit(res.headers) ?? latest;
    if (!res.ok) throw await failure(res, readRateLimit(res.headers));
    return res;
  }

  const call: PublicClient['call'] = async (path, query) => {
    const res = await send(path, query, 'application/json');
    const body = (await res.json()) as { data: never; timestamp: number };
    return { data: body.data, timestamp: body.timestamp, rateLimit: readRateLimit(res.headers) };
  };

  return {
    call,
    get: async (path, query) => (await call(path, query)).data,
    image: async (path, query) => (await send(path, query, 'image/png, image/svg+xml')).blob(),
    get rateLimit() {
      return latest;
    },
  };
}
