/**
 * A stand-in for the tianji auth endpoints, for unit tests that need exact control of time and of which token
 * the "server" accepts. The real-server suite (session-behaviour.test.ts) checks the same behaviour end to end.
 */
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

export interface FakeServer {
  fetch: (req: Request) => Promise<Response>;
  clock: { now: number };
  /** POST /api/auth/refresh requests seen. */
  refreshes: number;
  /** Requests to guarded routes answered 401. */
  rejected: number;
  /** Ends every session (as a password change elsewhere does). */
  revokeAll(): void;
  /** Makes every access token issued so far invalid, refresh tokens untouched (e.g. the server restarted with a new key). */
  rejectIssuedAccessTokens(): void;
  /** Answer 503 to refreshes while set. */
  refreshDown: boolean;
  /** PUT /api/auth/password requests that changed the password (every earlier token rejected from that moment). */
  passwordChanges: number;
  /** While set, a password change commits at once but answers its fresh pair only when this resolves. */
  passwordAnswerDelay?: Promise<void>;
  menus: Array<{ code: string; permissions: number | string; children: unknown[] }>;
}

export function fakeServer(ttlSeconds = 60): FakeServer {
  let seq = 0;
  let generation = 0;
  const validRefresh = new Set<string>();
  const json = (status: number, body: unknown) =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  const unauthorized = (message: string) => json(401, { code: 'UNAUTHORIZED', message });

  const s: FakeServer = {
    clock: { now: 1_700_000_000_000 },
    refreshes: 0,
    rejected: 0,
    refreshDown: false,
    passwordChanges: 0,
    menus: [{ code: 'system', permissions: 0, children: [{ code: 'system:user', permissions: 1 + 4, children: [] }] }],
    revokeAll: () => validRefresh.clear(),
    rejectIssuedAccessTokens: () => {
      generation++;
    },
    fetch: async (req) => {
      const url = new URL(req.url);
      const pair = () => {
        const iat = Math.floor(s.clock.now / 1000);
        const refreshToken = `r.${b64url({ n: ++seq })}.s`;
        validRefresh.add(refreshToken);
        return {
          accessToken: `h.${b64url({ sub: 'u1', iat, exp: iat + ttlSeconds, gen: generation, n: seq })}.s`,
          refreshToken,
        };
      };
      const accessOk = () => {
        const m = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '');
        if (!m) return false;
        const claims = JSON.parse(Buffer.from(m[1].split('.')[1], 'base64url').toString()) as {
          exp: number;
          gen: number;
        };
        return claims.exp * 1000 > s.clock.now && claims.gen === generation && validRefresh.size > 0;
      };
      switch (`${req.method} ${url.pathname}`) {
        case 'POST /api/auth/login':
          return json(200, {
            data: { ...pair(), user: { id: 'u1', username: 'alice', nickname: '', roles: [], permissions: 5 } },
          });
        case 'POST /api/auth/refresh': {
          s.refreshes++;
          if (s.refreshDown) return json(503, { code: 'UNAVAILABLE', message: 'down' });
          const { refreshToken } = (await req.json()) as { refreshToken: string };
          if (!validRefresh.delete(refreshToken)) return unauthorized('invalid refresh token');
          return json(200, { data: pair() });
        }
        case 'PUT /api/auth/password': {
          if (!accessOk()) {
            s.rejected++;
            return unauthorized('access token expired');
          }
          // As the server does: every earlier pair ends, this client gets a fresh one.
          s.passwordChanges++;
          generation++;
          validRefresh.clear();
          const fresh = pair();
          await s.passwordAnswerDelay;
          return json(200, { data: fresh });
        }
        case 'POST /api/auth/logout':
          validRefresh.delete(((await req.json()) as { refreshToken: string }).refreshToken);
          return new Response(null, { status: 204 });
      }
      if (!accessOk()) {
        s.rejected++;
        return unauthorized('access token expired');
      }
      if (url.pathname === '/api/auth/me')
        return json(200, {
          data: { id: 'u1', username: 'alice', nickname: '', roles: [], permissions: 5, menus: s.menus },
        });
      if (url.pathname === '/api/roles') return json(403, { code: 'FORBIDDEN', message: '无权限' });
      return json(200, { data: { items: [], total: 0, page: 1, pageSize: 20 } });
    },
  };
  return s;
}
