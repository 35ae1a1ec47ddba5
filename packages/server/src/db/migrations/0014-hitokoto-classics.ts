import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { normaliseText, readDataJson, SEARCH_FIELDS, searchText } from './frozen-helpers.js';

/** The rows scripts/build-hitokoto-classics.mjs adds to data/content/hitokoto.json (issue 29). */
const SOURCE = 'chinese-poetry';

type Row = { id: string; content: string; commit_from: string } & Record<string, unknown>;

const shippedClassics = () =>
  (readDataJson<Row[]>('content/hitokoto.json') ?? []).filter((r) => r.commit_from === SOURCE);

/**
 * The hitokoto library grew from 415 sentences to 5,763 with public-domain classics. A library is seeded once (so
 * that what an operator deletes stays deleted), so a database seeded before holds only the 415: this adds, once, the
 * classics it holds neither by id nor by content. A database not seeded yet gets the whole file from the seed.
 */
export async function addClassics(db: Kysely<Database>): Promise<void> {
  const meta = await db
    .selectFrom('content_meta')
    .select('seeded_at')
    .where('library', '=', 'hitokoto')
    .executeTakeFirst();
  if (!meta?.seeded_at) return;
  const held = await db.selectFrom('content_items').select(['id', 'library', 'data']).execute();
  const ids = new Set(held.map((r) => r.id));
  const contents = new Set(
    held
      .filter((r) => r.library === 'hitokoto')
      .map((r) => normaliseText(String((JSON.parse(r.data) as { content?: unknown }).content ?? ''))),
  );
  const now = Date.now();
  const rows = shippedClassics()
    .filter((r) => !ids.has(r.id) && !contents.has(normaliseText(r.content)))
    .map(({ id, ...data }, i) => {
      // After every row already there, in the file's order (snapshots list rows by created_at).
      const at = new Date(now + i).toISOString();
      return {
        id,
        library: 'hitokoto',
        data: JSON.stringify(data),
        search_text: searchText(SEARCH_FIELDS.hitokoto, data),
        created_at: at,
        updated_at: at,
      };
    });
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('content_items')
      .values(rows.slice(i, i + 500))
      .execute();
  if (rows.length > 0)
    await db
      .updateTable('content_meta')
      .set((eb) => ({ revision: eb('revision', '+', 1) }))
      .where('library', '=', 'hitokoto')
      .execute();
}

export const up = (db: Kysely<unknown>) => addClassics(db as Kysely<Database>);

/** Removes the classics again (by their ids), edited or not. */
export async function down(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as Kysely<Database>;
  const ids = shippedClassics().map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500)
    await db
      .deleteFrom('content_items')
      .where('library', '=', 'hitokoto')
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
}
