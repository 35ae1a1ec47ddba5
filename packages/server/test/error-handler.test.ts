import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import errorHandler from '../src/http/error-handler.js';

/** A bare app with only the error renderer and routes that fail the way real handlers can. */
async function appThrowing(err: unknown, area: 'admin' | 'lookup') {
  const app = Fastify({ logger: false });
  await app.register(errorHandler);
  app.get('/x', { config: { area } }, async () => {
    throw err;
  });
  return app;
}

const dbError = (code: string) =>
  Object.assign(new Error(`constraint failed (${code}) at /srv/app/db.js:10:5`), { code });

describe('error renderer', () => {
  it.each(['23503', 'SQLITE_CONSTRAINT_FOREIGNKEY', '23505', 'SQLITE_CONSTRAINT_UNIQUE'])(
    'turns a lost race on a database constraint (%s) into 409 CONFLICT in the admin API',
    async (code) => {
      const res = await (await appThrowing(dbError(code), 'admin')).inject('/x');
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('CONFLICT');
      expect(res.body).not.toContain('/srv/app');
    },
  );

  it('answers an unexpected failure without internals, in each area’s shape', async () => {
    const admin = await (await appThrowing(new Error('boom at /srv/app/x.js:1:1'), 'admin')).inject('/x');
    expect(admin.statusCode).toBe(500);
    expect(admin.json()).toEqual({ code: 'INTERNAL_ERROR', message: 'internal server error' });
    const pub = await (await appThrowing(new Error('boom at /srv/app/x.js:1:1'), 'lookup')).inject('/x');
    expect(pub.statusCode).toBe(500);
    expect(pub.json()).toMatchObject({ code: 500, data: null });
    expect(pub.body).not.toContain('boom');
  });
});
