/**
 * Migration 0014: a database seeded before the library grew (415 sentences) gets the 5,347 classics once, without
 * bringing back what its operator deleted or doubling what they added; a new database gets them from the seed.
 */
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import type { Db } from '../src/db/index.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { addClassics } from '../src/db/migrations/0014-hitokoto-classics.js';
import { describeEachDb, freshDb } from './helpers.js';

type Row = { id: string; content: string; commit_from: string };
const shipped = JSON.parse(
  readFileSync(new URL('../../../data/content/hitokoto.json', import.meta.url), 'utf8'),
) as Row[];
const handWritten = shipped.filter((r) => r.commit_from !== 'chinese-poetry');
const classics = shipped.filter((r) => r.commit_from === 'chinese-poetry');

describeEachDb('migration 0014: the classics reach a library seeded before', (dialect) => {
  let db: Db;
  afterEach(() => db?.close());

  /** The state an install seeded with the 415 sentences is in, less one its operator deleted, plus one they added. */
  async function seededBefore() {
    db = await freshDb(dialect);
    await migrateToLatest(db);
    const at = new Date().toISOString();
    const row = (id: string, data: object) => ({
      id,
      library: 'hitokoto',
      data: JSON.stringify(data),
      search_text: '',
      created_at: at,
      updated_at: at,
    });
    const kept = handWritten.slice(1).map(({ id, ...data }) => row(id, data));
    // The operator typed in a line of 诗经 themselves, under an id of their own.
    const own = { ...classics[0], commit_from: 'admin' } as Partial<Row>;
    delete own.id;
    kept.push(row('11111111-1111-4111-8111-111111111111', own));
    for (let i = 0; i < kept.length; i += 200)
      await db.kysely
        .insertInto('content_items')
        .values(kept.slice(i, i + 200))
        .execute();
    await db.kysely.insertInto('content_meta').values({ library: 'hitokoto', seeded_at: at, revision: 3 }).execute();
  }

  const hitokoto = () =>
    db.kysely.selectFrom('content_items').select(['id', 'data']).where('library', '=', 'hitokoto').execute();

  it('adds every classic once, keeps deletions and adds nothing a second time', { timeout: 60_000 }, async () => {
    await seededBefore();
    await addClassics(db.kysely);
    const rows = await hitokoto();
    const ids = new Set(rows.map((r) => r.id));
    expect(rows).toHaveLength(handWritten.length - 1 + 1 + classics.length - 1);
    expect(ids.has(handWritten[0].id)).toBe(false);
    expect(ids.has(classics[0].id)).toBe(false);
    expect(ids.has(classics.at(-1)!.id)).toBe(true);
    const meta = await db.kysely.selectFrom('content_meta').selectAll().executeTakeFirstOrThrow();
    expect(meta.revision).toBe(4);
    await addClassics(db.kysely);
    expect(await hitokoto()).toHaveLength(rows.length);
  });

  it('leaves a library not seeded yet to the seed', async () => {
    db = await freshDb(dialect);
    await migrateToLatest(db);
    await addClassics(db.kysely);
    expect(await hitokoto()).toHaveLength(0);
  });
});
