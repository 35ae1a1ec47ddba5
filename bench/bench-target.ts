/**
 * The shape of one benchmark target and what its setup may call; in a module of its own so the target lists
 * (targets.ts, password-targets.ts) and the runner import it without importing each other.
 */

export interface BenchContext {
  /** `http://127.0.0.1:<port>` of the app under test. */
  baseUrl: string;
  /** Signs in as the seeded super administrator and returns the pair. */
  login(): Promise<{ accessToken: string; refreshToken: string }>;
}

export interface BenchTarget {
  /** Short name; `--only <text>` keeps the targets whose name or path contains the text. */
  name: string;
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /**
   * Runs once against the started app before the load, e.g. to obtain a token. What it returns is merged into
   * the request (headers are added, path replaces).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a setup that only prepares state returns nothing
  setup?: (ctx: BenchContext) => Promise<{ headers?: Record<string, string>; path?: string } | void>;
  /** Status every response must have (default: any 2xx). A run with other statuses is reported as invalid. */
  expectStatus?: number;
  /** Several paths each connection sends in turn (e.g. distinct passwords, so no cache answers them all); replaces `path` in the load. */
  paths?: string[];
  /** Load sent alongside the measured one and not measured itself (e.g. an attacker's slow requests); `path` is called per request. */
  background?: { connections: number; path: () => string };
  /**
   * Measures the first burst after a quiet spell: right before the measured run, which then has no warm-up, the app
   * stops the threads its idle timers would stop (the password lanes' after ten minutes).
   */
  afterIdle?: boolean;
  /**
   * Ceiling for the server CPU per request as a multiple of the target's answer floor's (issue 31); bench and
   * bench:floors print it as met or not met, with the ratio to bare Fastify beside it.
   */
  budget?: number;
  /**
   * Ceiling for the p99 latency in ms at the run's connections, with no error answer (issue 31's password aim: under
   * 150 ms, the first burst after idle included); `npm run bench` prints it as met or not met.
   */
  p99Budget?: number;
}
