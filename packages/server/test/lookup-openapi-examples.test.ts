import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_GROUPS } from '../src/catalogue/lookup-groups.js';
import { useTestApp } from './helpers.js';
import { type DocParam, snippetQuery, tryItQuery } from './scalar-example-request.js';

type Media = { schema?: Record<string, unknown>; example?: unknown };
type Operation = {
  tags?: string[];
  parameters?: DocParam[];
  summary?: string;
  description?: string;
  responses: Record<string, { content?: Record<string, Media> }>;
};

const PUBLIC_TAGS = new Set<string>(Object.values(LOOKUP_GROUPS).map((g) => g.name));

describe('the OpenAPI document of the public API', () => {
  let doc: { paths: Record<string, { get?: Operation }>; components?: { schemas?: Record<string, unknown> } };
  let operations: Array<[string, Operation]>;
  const t = useTestApp('sqlite');
  beforeAll(async () => {
    doc = (await t.app.inject('/openapi.json')).json();
    operations = Object.entries(doc.paths)
      .map(([url, item]) => [url, item.get] as [string, Operation | undefined])
      .filter((e): e is [string, Operation] => !!e[1]?.tags?.some((tag) => PUBLIC_TAGS.has(tag)));
  });

  it('gives every JSON endpoint a whole-response example that still validates against its schema', () => {
    expect(operations.length).toBeGreaterThan(30);
    const ajv = new Ajv({ strict: false, allErrors: false });
    // ajv-formats is CommonJS: under NodeNext its plugin is the default import's `default`.
    formats.default(ajv);
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
      ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    let checked = 0;
    for (const [url, op] of operations) {
      const json = op.responses['200']?.content?.['application/json'];
      if (!json) continue;
      expect(json.example, `${url} has no example`).toBeDefined();
      const validate = ajv.compile(json.schema!);
      expect(validate(json.example), `${url}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(json.example).toMatchObject({ code: 200, msg: '请求成功' });
      checked++;
    }
    expect(checked).toBeGreaterThan(25);
  });

  it('answers every endpoint’s example request, as the reference page builds it, with 200', async () => {
    const failed: string[] = [];
    for (const [url, op] of operations) {
      const jsonDocumented = !!op.responses['200']?.content?.['application/json'];
      for (const [shown, query] of [
        ['request example / curl', snippetQuery(op.parameters ?? [])],
        ['test request', tryItQuery(op.parameters ?? [])],
      ] as const) {
        const res = await t.app.inject(`${url}${query ? `?${query}` : ''}`);
        const type = String(res.headers['content-type']);
        if (res.statusCode !== 200)
          failed.push(`${shown} ${url}?${decodeURIComponent(query)} → ${res.statusCode} ${res.body}`);
        // A JSON endpoint's example answers the envelope (not JSONP or text because of an example value).
        else if (jsonDocumented && !type.startsWith('application/json'))
          failed.push(`${shown} ${url}?${decodeURIComponent(query)} → ${type}`);
      }
    }
    expect(failed).toEqual([]);
  });

  it('gives every required parameter one example, so no tool sends it empty', () => {
    for (const [url, op] of operations)
      for (const p of op.parameters ?? []) if (p.required) expect(p.example, `${url} ${p.name}`).toBeDefined();
  });

  it('describes every public endpoint in Chinese first', () => {
    for (const [url, op] of operations) {
      expect(op.summary, url).toMatch(/^\p{Script=Han}|^[A-Z]{2,4} \p{Script=Han}/u);
      expect(op.description, url).toMatch(/^\p{Script=Han}/u);
    }
  });

  it('documents the real media types of image, text and script answers', () => {
    const content = (url: string) => Object.keys(doc.paths[url].get!.responses['200'].content ?? {});
    for (const url of [
      '/api/random-image/image',
      '/api/random-avatar/image',
      '/api/qrcode/image',
      '/api/barcode/image',
      '/api/wallpaper/image',
    ]) {
      expect(content(url), url).toEqual(expect.arrayContaining(['image/png', 'image/svg+xml']));
      expect(content(url), url).not.toContain('application/json');
    }
    expect(content('/api/hitokoto')).toEqual(
      expect.arrayContaining(['application/json', 'text/plain', 'text/javascript']),
    );
    // Every endpoint documents a 200 answer in at least one media type.
    for (const [url] of operations) expect(content(url).length, url).toBeGreaterThan(0);
  });
});
