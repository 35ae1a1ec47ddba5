import { expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { adminCall } from './admin-fixtures.js';
import { describeEachDb, getTestInstance, testConfig } from './helpers.js';

const ENDPOINT = '/api/mood-quote';
/** The bound the guide states for an instance without Redis (docs/guide/api-keys.md). */
const BOUND_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeEachDb('API keys on two instances without Redis', (dialect) => {
  it('a revoked key, a narrowed key and a new policy apply on the other instance within 2 s', async () => {
    const a = await getTestInstance(dialect);
    const b = await buildApp({ config: testConfig(), db: a.db, logger: false });
    await b.ready();
    try {
      const admin = await adminCall(a.app);
      const made = async () => (await admin('POST', '/api/admin/api-keys', { name: 'k' })).json().data;
      const revoked = await made();
      const narrowed = await made();
      const call = (secret?: string) => b.inject({ url: ENDPOINT, headers: secret ? { 'x-api-key': secret } : {} });
      expect((await call(revoked.secret)).statusCode).toBe(200);
      expect((await call(narrowed.secret)).statusCode).toBe(200);

      expect((await admin('DELETE', `/api/admin/api-keys/${revoked.key.id}`)).statusCode).toBe(204);
      const edit = await admin('PATCH', `/api/admin/api-keys/${narrowed.key.id}`, { groups: ['daily'] });
      expect(edit.statusCode).toBe(200);
      const policy = await admin('PUT', '/api/admin/api-keys/policy', { requireKeyGroups: ['mood'] });
      expect(policy.statusCode).toBe(200);
      await sleep(BOUND_MS);
      expect((await call(revoked.secret)).statusCode).toBe(401);
      expect((await call(narrowed.secret)).statusCode).toBe(403);
      // The first anonymous request after the bound may still be answered under the old policy (it only starts the
      // read); the one after it is not.
      await call();
      expect((await call()).statusCode).toBe(401);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
