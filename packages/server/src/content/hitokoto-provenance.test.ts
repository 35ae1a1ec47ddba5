/**
 * What the hitokoto library says about itself is true (issue 50): every sentence says where it comes from, none of
 * ours is a published quotation, each work sits in one category, variant characters are written in their standard
 * form, and the documents state the library's size exactly.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dataFilePath, readDataJson } from '../data-files.js';
import { normaliseText } from './content-lint.js';
import { HITOKOTO_TYPE_NAMES } from '../catalogue/content-libraries.js';
import { standardChars } from './variant-chars.js';

type Row = {
  id: string;
  type: string;
  content: string;
  from: string;
  from_who: string | null;
  commit_from: string;
  source?: string;
};
const rows = readDataJson<Row[]>('content/hitokoto.json')!;
const poems = readDataJson<Array<{ title: string; lines: string[] }>>('content/poems.json')!;
const published = new Set(readDataJson<{ hashes: string[] }>('content/hitokoto-published.json')!.hashes);

/** Provenance kinds, in the order the documents list them. */
const PROVENANCE = ['tianji', 'public-domain', 'npm:chinese-poetry@2.0.1'] as const;
/** The categories of classical texts: public-domain works, where a published collection quoting them is no matter. */
const CLASSICAL = new Set(['d', 'i', 'k']);
/** A work as `from` names it: `诗经·关雎` → 诗经, `论语·学而` → 论语. */
const workOf = (r: Row) => r.from.split('·')[0];
const fingerprint = (text: string) => createHash('sha256').update(normaliseText(text)).digest('hex').slice(0, 16);
const n = (x: number) => x.toLocaleString('en-US');

describe('the hitokoto library: provenance', () => {
  it('every row says where it comes from, and the extracted rows name the package', () => {
    const wrong = rows.filter(
      (r) =>
        !(PROVENANCE as readonly string[]).includes(r.source ?? '') ||
        (r.commit_from === 'chinese-poetry') !== r.source!.startsWith('npm:chinese-poetry@') ||
        (r.from === '原创') !== (r.source === 'tianji'),
    );
    expect(wrong.map((r) => `${r.content} (${r.from}, ${r.source})`)).toEqual([]);
  });

  it('the extracted rows name the installed version of the package they came from', () => {
    const lock = JSON.parse(fs.readFileSync(new URL('../../../../package-lock.json', import.meta.url), 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    // The collection is not a dependency (350 MB): the version is the one the build script's comment installs.
    const script = fs.readFileSync(new URL('../../../../scripts/build-hitokoto-classics.mjs', import.meta.url), 'utf8');
    const pinned = /chinese-poetry@(\d+\.\d+\.\d+)/.exec(script)?.[1];
    expect(lock.packages['node_modules/chinese-poetry']).toBeUndefined();
    expect(PROVENANCE).toContain(`npm:chinese-poetry@${pinned}`);
  });

  it('no sentence of ours, and none outside the classical categories, is a published quotation', () => {
    const found = rows.filter(
      (r) => (r.source === 'tianji' || !CLASSICAL.has(r.type)) && published.has(fingerprint(r.content)),
    );
    expect(found.map((r) => `${r.type} ${r.content}`)).toEqual([]);
    // The list does hold what it must: the quotations removed by issue 50 (真相只有一个！) and the bundle's lines.
    expect(published.has(fingerprint('真相只有一个！'))).toBe(true);
    expect(published.has(fingerprint('教练，我想打篮球！'))).toBe(true);
    expect(published.size).toBeGreaterThan(9000);
  });

  it('categories with no open source hold nothing, and no row invents a source', () => {
    expect(rows.filter((r) => 'abch'.includes(r.type)).map((r) => `${r.type} ${r.content}`)).toEqual([]);
    expect(rows.filter((r) => /^(?:网络|网易云音乐热评)$/.test(r.from)).map((r) => r.content)).toEqual([]);
  });
});

describe('the hitokoto library: one category per work', () => {
  it('files every work under one category', () => {
    const categories = new Map<string, Set<string>>();
    for (const r of rows.filter((r) => r.from !== '原创' && r.from !== '民间谚语')) {
      const work = workOf(r);
      categories.set(work, (categories.get(work) ?? new Set()).add(r.type));
    }
    const split = [...categories].filter(([, types]) => types.size > 1).map(([w, t]) => `${w}: ${[...t].join(',')}`);
    expect(split).toEqual([]);
  });

  it('keeps classical verse out of d 文学 (prose: 小说、散文、戏剧) and the thinkers in k 哲学', () => {
    const byWork = (work: string) => new Set(rows.filter((r) => workOf(r) === work).map((r) => r.type));
    for (const verse of ['诗经', '楚辞', '离骚']) expect([...byWork(verse)]).toEqual(['i']);
    for (const thinker of ['论语', '孟子', '荀子', '道德经', '庄子', '大学', '中庸', '礼记'])
      expect([...byWork(thinker)]).toEqual(['k']);
  });
});

describe('the shipped texts: variant characters and lost characters', () => {
  it('writes every variant character in its standard form (天涯若比隣 → 天涯若比邻)', () => {
    const sentences = rows.filter((r) => standardChars(r.content + r.from) !== r.content + r.from);
    const verse = poems.filter((p) => standardChars(p.title + p.lines.join('')) !== p.title + p.lines.join(''));
    expect(sentences.map((r) => r.content).slice(0, 5)).toEqual([]);
    expect(verse.map((p) => p.title).slice(0, 5)).toEqual([]);
  });

  it('serves no couplet whose source lost a character', () => {
    expect(rows.filter((r) => r.content === '不容凡鸟坐，应欲俟栖。')).toEqual([]);
  });
});

/** The table the documents carry: sentences per category and provenance. */
function sizeTable(): string {
  const count = (f: (r: Row) => boolean) => n(rows.filter(f).length);
  const head = [
    "| Category | Sentences | `tianji` (the project's own) | `public-domain` (transcribed) | `npm:chinese-poetry@2.0.1` (extracted) |",
    '|---|---:|---:|---:|---:|',
  ];
  const line = (label: string, f: (r: Row) => boolean) =>
    `| ${label} | ${count(f)} | ${PROVENANCE.map((p) => count((r) => f(r) && r.source === p)).join(' | ')} |`;
  const body = Object.entries(HITOKOTO_TYPE_NAMES).map(([t, name]) => line(`${t} ${name.zh}`, (r) => r.type === t));
  return [...head, ...body, line('all', () => true)].join('\n');
}

/** The extracted rows by work. */
function worksTable(): string {
  const works = new Map<string, { type: string; count: number }>();
  for (const r of rows.filter((r) => r.commit_from === 'chinese-poetry')) {
    const work = ['诗经', '楚辞', '论语', '孟子', '大学', '中庸', '幽梦影'].includes(workOf(r))
      ? workOf(r)
      : '唐诗三百首 and the other poems of poems.json (couplets)';
    const w = works.get(work) ?? { type: r.type, count: 0 };
    w.count++;
    works.set(work, w);
  }
  return [
    '| Work (extracted from chinese-poetry) | Category | Sentences |',
    '|---|---|---:|',
    ...[...works].map(([w, { type, count }]) => `| ${w} | ${type} | ${n(count)} |`),
  ].join('\n');
}

describe('the documents state the library as it is', () => {
  const read = (p: string) => fs.readFileSync(new URL(`../../../../${p}`, import.meta.url), 'utf8');

  it('data/README.md and the docs site carry the size and provenance tables', () => {
    for (const doc of [fs.readFileSync(dataFilePath('README.md'), 'utf8'), read('docs/guide/hitokoto.md')]) {
      expect(doc).toContain(sizeTable());
      expect(doc).toContain(worksTable());
    }
  });

  it('README.md (Chinese) and README.en.md state the size per category and provenance', () => {
    const count = (f: (r: Row) => boolean) => n(rows.filter(f).length);
    const types = Object.entries(HITOKOTO_TYPE_NAMES);
    const held = types.filter(([t]) => rows.some((r) => r.type === t));
    const empty = types.filter(([t]) => !rows.some((r) => r.type === t)).map(([t, name]) => `${t} ${name.zh}`);
    const sizes = held.map(([t, name]) => `${t} ${name.zh} ${count((r) => r.type === t)}`);
    const [own, transcribed, extracted] = (['tianji', 'public-domain', 'npm:chinese-poetry@2.0.1'] as const).map((s) =>
      count((r) => r.source === s),
    );
    const summaries = {
      'README.en.md':
        `library of ${n(rows.length)} sentences: ${own} of the project's own writing, ` +
        `${transcribed} public-domain texts it transcribed and ${extracted} public-domain classics extracted from the npm ` +
        `package chinese-poetry 2.0.1; by category ${sizes.join(', ')}, ` +
        `while ${empty.slice(0, -1).join(', ')} and ${empty.at(-1)} ship empty (no openly licensed source`,
      'README.md':
        `一言句库共 ${n(rows.length)} 句：本项目原创 ${own} 句、手录的公有领域作品 ${transcribed} 句、` +
        `从 npm 包 chinese-poetry 2.0.1 提取的公有领域古典作品 ${extracted} 句；按分类 ${sizes.join('、')}；` +
        `${empty.slice(0, -1).join('、')}与 ${empty.at(-1)}是空的（没有可公开授权的来源`,
    };
    for (const [file, summary] of Object.entries(summaries)) {
      const readme = read(file).replace(/\s+/g, ' ');
      const at = Math.max(readme.indexOf(summary.split(' ', 2).join(' ')), 0);
      expect(readme.slice(at, at + summary.length), file).toBe(summary);
    }
    expect(read('docs/guide/hitokoto.md')).toContain(`句库共 ${n(rows.length)} 句`);
  });
});
