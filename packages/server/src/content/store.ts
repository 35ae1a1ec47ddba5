import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { readDataJson } from '../data-files.js';
import { LIBRARIES, type LibraryDef, type LibraryItem, type LibraryName } from '../catalogue/content-libraries.js';
import { searchTextOf } from './repository.js';
import { subscribeChannel } from '../http/redis-subscriber.js';

const CHANNEL = 'tianji:content-changed';

/**
 * In-memory snapshots of every library. Public endpoints read these (no database query per public request);
 * an admin change reloads the affected library here and, through Redis pub/sub, on every other instance.
 */
export class ContentStore {
  /** Rows as parsed from the database: each was checked against its library's item schema when written. */
  private readonly snapshots = new Map<string, readonly object[]>();
  private readonly versions = new Map<string, number>();
  private readonly listeners = new Set<(library: string) => void>();
  private subscription?: { close(): void };
  private readonly instanceId = randomUUID();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly redis?: Redis,
  ) {}

  /** Seeds libraries never seeded before from data/, loads every snapshot, and listens for other instances' changes. */
  async init(): Promise<void> {
    for (const lib of LIBRARIES) await this.seed(lib);
    for (const lib of LIBRARIES) await this.reload(lib.name);
    if (this.redis) {
      this.subscription = await subscribeChannel(this.redis, CHANNEL, this.log, {
        // "<instance>|<library>": this instance reloaded already when it made the change.
        onMessage: (message) => {
          const [from, library] = message.split('|');
          if (from !== this.instanceId && this.snapshots.has(library))
            void this.reload(library).catch((err) => this.log.error({ err }, 'content reload failed'));
        },
        // Changes published while Redis was unreachable never arrive: after a reconnection, reload everything.
        onReconnect: () => {
          this.log.info('redis reconnected: reloading every content library');
          for (const lib of LIBRARIES)
            void this.reload(lib.name).catch((err) => this.log.error({ err }, 'content reload failed'));
        },
      });
    }
  }

  async close(): Promise<void> {
    this.subscription?.close();
  }

  /** The current snapshot of a library (ids included), typed by the library's item schema (validated on write). */
  items<N extends LibraryName>(library: N): readonly LibraryItem<N>[] {
    return (this.snapshots.get(library) ?? []) as readonly LibraryItem<N>[];
  }

  /** Goes up every time the library's snapshot is reloaded: part of a cache key for answers derived from it. */
  version(library: string): number {
    return this.versions.get(library) ?? 0;
  }

  onChange(listener: (library: string) => void): void {
    this.listeners.add(listener);
  }

  /** Call after a committed change: reloads here, bumps the revision, and tells the other instances. */
  async changed(library: string): Promise<void> {
    await this.reload(library);
    await this.db
      .updateTable('content_meta')
      .set((eb) => ({ revision: eb('revision', '+', 1) }))
      .where('library', '=', library)
      .execute();
    await this.redis
      ?.publish(CHANNEL, `${this.instanceId}|${library}`)
      .catch((err) => this.log.warn({ err: err.message }, 'content publish failed'));
  }

  private async reload(library: string): Promise<void> {
    const rows = await this.db
      .selectFrom('content_items')
      .select(['id', 'data', 'created_at'])
      .where('library', '=', library)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    this.snapshots.set(
      library,
      rows.map((r) => ({ ...(JSON.parse(r.data) as object), id: r.id, created_at: r.created_at })),
    );
    this.versions.set(library, this.version(library) + 1);
    for (const l of this.listeners) l(library);
  }

  private async seed(lib: LibraryDef): Promise<void> {
    const meta = await this.db
      .selectFrom('content_meta')
      .selectAll()
      .where('library', '=', lib.name)
      .executeTakeFirst();
    if (meta?.seeded_at) return;
    const raw = readDataJson(lib.seedFile);
    if (raw === undefined) {
      this.log.warn({ library: lib.name, file: lib.seedFile }, 'no seed file for content library');
      if (!meta)
        await this.db.insertInto('content_meta').values({ library: lib.name, seeded_at: null, revision: 0 }).execute();
      return;
    }
    const items = lib.fromSeedFile ? lib.fromSeedFile(raw) : (raw as Array<Record<string, unknown>>);
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const ids = new Set<string>();
      const rows = items.map((item, i) => {
        const { id: fileId, ...data } = item as { id?: string };
        // Ids come from the file when present and unique; a repeated or missing one gets a fresh UUID.
        const id = typeof fileId === 'string' && !ids.has(fileId) ? fileId : randomUUID();
        ids.add(id);
        // Seed rows keep the file's order through created_at (ms steps) so snapshots list them as shipped.
        const created = new Date(Date.parse(now) + i).toISOString();
        return {
          id,
          library: lib.name,
          data: JSON.stringify(data),
          search_text: searchTextOf(lib, data),
          created_at: created,
          updated_at: created,
        };
      });
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .insertInto('content_items')
          .values(rows.slice(i, i + 500))
          .execute();
      if (meta) await trx.updateTable('content_meta').set({ seeded_at: now }).where('library', '=', lib.name).execute();
      else await trx.insertInto('content_meta').values({ library: lib.name, seeded_at: now, revision: 0 }).execute();
    });
    this.log.info({ library: lib.name, count: items.length }, 'seeded content library');
  }
}
