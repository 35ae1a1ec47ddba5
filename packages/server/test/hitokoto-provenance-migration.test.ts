/**
 * Migration 0020: a database seeded before issue 50 loses the quotations of copyrighted films and anime, gets the
 * categories, sources and standard characters of the current files, and keeps what its operator edited or added.
 */
import { afterEach, expect, it } from 'vitest';
import { readDataJson } from '../src/data-files.js';
import type { Db } from '../src/db/index.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { describeEachDb, freshDb } from './helpers.js';

type Item = { id: string } & Record<string, unknown>;
const sentence = (id: string, type: string, content: string, from: string, fromWho: string | null, via = 'tianji') => ({
  id,
  type,
  content,
  from,
  from_who: fromWho,
  creator: 'tianji',
  commit_from: via,
});

/** Rows exactly as the file before issue 50 shipped them. */
const BEFORE = {
  quotation: sentence('0ca1088b-54c6-4e4a-8761-f59b623f36cd', 'a', '真相只有一个！', '名侦探柯南', '江户川柯南'),
  ownUnderAnime: sentence('e54b0b66-7975-4d8b-8b91-b212b25da5e4', 'a', '笨蛋，谁说你是一个人了？', '原创', null),
  inventedSource: sentence(
    'fce2e413-b4f1-4d72-9333-ec481c0eb6f0',
    'j',
    '后来我听了很多歌，却再也没有一首，像那年夏天那样好听。',
    '网易云音乐热评',
    null,
  ),
  shijingUnderD: sentence(
    'e6fe8d34-e836-5f56-85c8-fd3ce5fc663f',
    'd',
    '参差荇菜，左右流之。窈窕淑女，寤寐求之。',
    '诗经·关雎',
    '佚名',
    'chinese-poetry',
  ),
  variant: sentence(
    '1a3f2039-d537-5f8d-97aa-4612e6a61a7c',
    'i',
    '一身转战三千里，一劒曾当百万师。',
    '老将行',
    '王维',
    'chinese-poetry',
  ),
  nearDuplicate: sentence(
    'd538bca2-757c-5c68-a00e-0a988c72bd5d',
    'i',
    '海内存知己，天涯若比隣。',
    '杜少府之任蜀州',
    '王勃',
    'chinese-poetry',
  ),
};
const POEMS_BEFORE = {
  variant: {
    id: 'cae8a893-7ae6-4824-b4c5-eada730b075f',
    title: '苏武庙',
    author: '温庭筠',
    dynasty: '唐',
    lines: [
      '苏武魂销汉使前，古祠高树两茫然。',
      '云边雁断胡天月，陇上羊归塞草烟。',
      '廻日楼台非甲帐，去时冠劒是丁年。',
      '茂陵不见封侯印，空向秋波哭逝川。',
    ],
    featured: '苏武魂销汉使前，古祠高树两茫然。',
  },
  lostCharacter: {
    id: '9711d6f5-569b-48c1-b3c0-7d5c37e34893',
    title: '敦煌廿咏（并序） 十八、相似树咏',
    author: '无名氏',
    dynasty: '唐',
    lines: [
      '两树夹招提，三春引影低。',
      '叶中微有字，阶下已成蹊。',
      '含气同修短，分条德且齐。',
      '不容凡鸟坐，应欲俟栖。',
    ],
    featured: '两树夹招提，三春引影低。',
  },
};

const shipped = (file: string) => new Map(readDataJson<Item[]>(file)!.map((r) => [r.id, r]));
const hitokotoNow = shipped('content/hitokoto.json');
const poemsNow = shipped('content/poems.json');

describeEachDb('migration 0020: the hitokoto library of issue 50 reaches a database seeded before', (dialect) => {
  let db: Db;
  afterEach(() => db?.close());

  /** The rows above, as an installation seeded before issue 50 holds them; `extra` replaces rows of the same id. */
  async function seededBefore(extra: { hitokoto: Item[]; poems: Item[] }) {
    db = await freshDb(dialect);
    await migrateToLatest(db, '0019-api-key-revision');
    const at = new Date().toISOString();
    const values = (library: string, items: Item[]) =>
      [...new Map(items.map((r) => [r.id, r])).values()].map(({ id, ...data }) => ({
        id,
        library,
        data: JSON.stringify(data),
        search_text: '',
        created_at: at,
        updated_at: at,
      }));
    await db.kysely
      .insertInto('content_items')
      .values([
        ...values('hitokoto', [...Object.values(BEFORE), ...extra.hitokoto]),
        ...values('poems', [...Object.values(POEMS_BEFORE), ...extra.poems]),
      ])
      .execute();
    for (const library of ['hitokoto', 'poems'])
      await db.kysely.insertInto('content_meta').values({ library, seeded_at: at, revision: 3 }).execute();
  }

  const rows = async (library: string) =>
    new Map(
      (await db.kysely.selectFrom('content_items').select(['id', 'data']).where('library', '=', library).execute()).map(
        (r) => [r.id, { id: r.id, ...(JSON.parse(r.data) as object) } as Item],
      ),
    );

  it('removes the quotations and brings unedited rows to the current files', { timeout: 60_000 }, async () => {
    await seededBefore({ hitokoto: [], poems: [] });
    await migrateToLatest(db);
    const hitokoto = await rows('hitokoto');
    expect(hitokoto.has(BEFORE.quotation.id)).toBe(false);
    expect(hitokoto.has(BEFORE.nearDuplicate.id)).toBe(false);
    for (const row of [BEFORE.ownUnderAnime, BEFORE.inventedSource, BEFORE.shijingUnderD, BEFORE.variant])
      expect(hitokoto.get(row.id)).toEqual(hitokotoNow.get(row.id));
    expect(hitokoto.get(BEFORE.ownUnderAnime.id)).toMatchObject({ type: 'e', from: '原创', source: 'tianji' });
    expect(hitokoto.get(BEFORE.inventedSource.id)).toMatchObject({ type: 'j', from: '原创', source: 'tianji' });
    expect(hitokoto.get(BEFORE.shijingUnderD.id)).toMatchObject({ type: 'i', source: 'npm:chinese-poetry@2.0.1' });
    expect(hitokoto.get(BEFORE.variant.id)?.content).toBe('一身转战三千里，一剑曾当百万师。');

    const poems = await rows('poems');
    expect(poems.has(POEMS_BEFORE.lostCharacter.id)).toBe(false);
    expect(poems.get(POEMS_BEFORE.variant.id)).toEqual(poemsNow.get(POEMS_BEFORE.variant.id));
    expect(poems.get(POEMS_BEFORE.variant.id)?.lines).toContain('回日楼台非甲帐，去时冠剑是丁年。');

    const meta = await db.kysely.selectFrom('content_meta').select(['library', 'revision']).execute();
    expect(meta.map((m) => m.revision)).toEqual([4, 4]);
  });

  it('leaves what an operator edited or added', { timeout: 60_000 }, async () => {
    const edited = { ...BEFORE.quotation, from: '名侦探柯南（运营者已取得授权）' };
    const own = sentence(
      '11111111-1111-4111-8111-111111111111',
      'a',
      '这是运营者自己写的一句。',
      '原创',
      null,
      'admin',
    );
    const editedPoem = { ...POEMS_BEFORE.variant, featured: '云边雁断胡天月，陇上羊归塞草烟。' };
    await seededBefore({ hitokoto: [edited, own], poems: [editedPoem] });
    await migrateToLatest(db);
    const hitokoto = await rows('hitokoto');
    expect(hitokoto.get(edited.id)).toEqual(edited);
    expect(hitokoto.get(own.id)).toEqual(own);
    expect((await rows('poems')).get(editedPoem.id)).toEqual(editedPoem);
  });
});
