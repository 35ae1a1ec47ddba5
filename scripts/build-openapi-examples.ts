/**
 * Builds `data/openapi-examples.json`: one real answer of every public JSON endpoint, asked with the example values
 * of its own parameters exactly as the reference page at /docs fills them (packages/server/test/scalar-example-request.ts),
 * shown as the whole-response example in the OpenAPI document (web/openapi.ts).
 *
 *   npx tsx scripts/build-openapi-examples.ts
 *
 * `packages/server/test/lookup-openapi-examples.test.ts` checks that every public endpoint has one and that each
 * still validates against the endpoint's response schema; rerun this script when a response shape changes.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { openDatabase } from '../packages/server/src/db/index.js';
import { LOOKUP_GROUPS } from '../packages/server/src/catalogue/lookup-groups.js';
import { type DocParam, snippetQuery } from '../packages/server/test/scalar-example-request.js';

const PUBLIC_TAGS = new Set<string>(Object.values(LOOKUP_GROUPS).map((g) => g.name));

const config = loadConfig({
  DATA_DIR: path.join(os.tmpdir(), 'tianji-examples'),
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: randomBytes(12).toString('hex'),
  RATE_LIMIT_MAX: '0',
  LOG_LEVEL: 'silent',
  JWT_SECRET: randomBytes(32).toString('hex'),
});
const db = openDatabase('sqlite::memory:');
const app = await buildApp({ config, db, logger: false });
await app.ready();
const doc = app.swagger() as {
  paths: Record<
    string,
    {
      get?: {
        tags?: string[];
        parameters?: DocParam[];
        responses?: Record<string, { content?: Record<string, unknown> }>;
      };
    }
  >;
};

const out: Record<string, { query: string; response: unknown }> = {};
for (const [url, item] of Object.entries(doc.paths)) {
  const op = item.get;
  if (!op?.tags?.some((t) => PUBLIC_TAGS.has(t))) continue;
  if (!op.responses?.['200']?.content?.['application/json']) continue; // image-only endpoints
  // The request the reference page shows for the endpoint (its request example and curl command), so the documented
  // answer is the answer to that request.
  const query = snippetQuery(op.parameters ?? []);
  const res = await app.inject(`${url}${query ? `?${query}` : ''}`);
  if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('application/json')) {
    console.warn(`skipped ${url}?${query}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    continue;
  }
  out[url] = { query, response: res.json() };
}
await app.close();
await db.close();
const lines = Object.entries(out).map(([url, v]) => `  ${JSON.stringify(url)}: ${JSON.stringify(v)}`);
writeFileSync(new URL('../data/openapi-examples.json', import.meta.url), `{\n${lines.join(',\n')}\n}\n`);
console.log(`data/openapi-examples.json: ${lines.length} endpoints`);
