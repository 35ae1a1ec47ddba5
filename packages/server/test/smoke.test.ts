import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, getTestInstance, login, bearer, type TestInstance } from './helpers.js';

describeEachDb('service basics', (dialect) => {
  let t: TestInstance;
  beforeAll(async () => {
    t = await getTestInstance(dialect);
  });
  afterAll(() => t.close());

  it('answers health and readiness with the database dialect', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().database).toBe(dialect);
  });

  it('serves an OpenAPI 3.1 document', async () => {
    const res = await t.app.inject('/openapi.json');
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toBe('3.1.0');
  });

  it('signs in the seeded super administrator with the all-ones mask as exact digits', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: 'admin-password-123' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('"permissions":9223372036854775807');
    const { accessToken } = await login(t.app);
    const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(accessToken) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.menus[0].code).toBe('system');
  });

  it('renders an unknown public path as a 404 envelope', async () => {
    const res = await t.app.inject('/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, data: null });
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});
