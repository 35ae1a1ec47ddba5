import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from './lazy-schemas.js';

function appWith(routes: (app: ReturnType<typeof Fastify>) => void) {
  const app = Fastify({ logger: false, schemaController: { compilersFactory: lazySchemaCompilers() as never } });
  routes(app);
  return app;
}

describe('lazy schema compilers', () => {
  it('compiles a route schema at its first request, not at start-up', async () => {
    const app = appWith((a) => {
      a.get('/broken', { schema: { querystring: { type: 'no-such-type' } } }, async () => ({ ok: true }));
      a.get('/fine', async () => ({ ok: true }));
    });
    // Eager compilation would refuse to start here.
    await app.ready();
    expect((await app.inject('/fine')).statusCode).toBe(200);
    expect((await app.inject('/broken')).statusCode).toBe(500);
    await app.close();
  });

  it('validates, coerces and reports errors as the eager compilers do', async () => {
    const app = appWith((a) => {
      a.get(
        '/n',
        {
          schema: {
            querystring: {
              type: 'object',
              properties: { n: { type: 'integer', maximum: 5 } },
              required: ['n'],
            },
            response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
          },
        },
        async (req: { query: unknown }) => ({ n: (req.query as { n: number }).n, hidden: 'not in the schema' }),
      );
    });
    const good = await app.inject('/n?n=3');
    expect(good.json()).toEqual({ n: 3 });
    const bad = await app.inject('/n?n=9');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('querystring/n must be <= 5');
    const missing = await app.inject('/n');
    expect(missing.json().message).toBe("querystring must have required property 'n'");
    await app.close();
  });
});
