import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.js';

const KEYS = ['id', 'from', 'type', 'length', 'content', 'hitokoto', 'creator', 'from_who', 'commit_from'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const shipped = JSON.parse(
  readFileSync(new URL('../../../data/content/hitokoto.json', import.meta.url), 'utf8'),
) as Array<{ id: string; type: string; content: string }>;
const chars = (s: string) => [...s].length;

describe('GET /api/hitokoto', () => {
  const t = useTestApp('sqlite');

  const get = async (query: string) => {
    const res = await t.app.inject({ url: `/api/hitokoto${query}` });
    return { status: res.statusCode, type: String(res.headers['content-type']), text: res.body };
  };
  const json = async (query: string) => {
    const r = await get(query);
    return { ...r, body: JSON.parse(r.text) };
  };

  describe('hitokoto.cn’s parameters, with hitokoto.cn’s meaning', () => {
    it('c is a repeatable category', async () => {
      for (let i = 0; i < 15; i++) {
        const d = (await json('?c=d&c=i')).body.data;
        expect(['d', 'i']).toContain(d.type);
      }
      expect((await json('?c=i')).body.data.type).toBe('i');
      expect((await json('?c=z')).body.msg).toContain('参数 c');
    });

    it('encode is format; the sentence carries the hitokoto field', async () => {
      const text = await get('?encode=text&c=i');
      expect(text.type).toBe('text/plain; charset=utf-8');
      expect(shipped.some((s) => s.content === text.text)).toBe(true);
      const js = await get('?encode=js&select=%23quote');
      expect(js.type).toContain('text/javascript');
      expect(js.text).toContain("'#quote'");
      const d = (await json('?encode=json')).body.data;
      expect(d.hitokoto).toBe(d.content);
      expect((await json('?encode=text&format=js')).body.msg).toMatch(/参数 encode.*format/);
    });

    it('callback answers JSONP that calls the function with the sentence', async () => {
      const r = await get('?callback=show&c=i');
      expect(r.type).toContain('text/javascript');
      let got: { hitokoto: string; type: string } | undefined;
      vm.runInNewContext(r.text, { show: (x: typeof got) => (got = x) });
      expect(got?.type).toBe('i');
      expect(shipped.some((s) => s.content === got?.hitokoto)).toBe(true);
      expect((await json('?callback=alert(1)')).body.msg).toContain('参数 callback');
    });

    it('min_length / max_length bound the length like minLength / maxLength', async () => {
      for (let i = 0; i < 10; i++) {
        const d = (await json('?min_length=10&max_length=12')).body.data;
        expect(d.length).toBeGreaterThanOrEqual(10);
        expect(d.length).toBeLessThanOrEqual(12);
      }
      expect((await json('?min_length=3&minLength=4')).body.msg).toContain('参数 min_length');
    });

    it('charset=gbk encodes the answer in GBK', async () => {
      const res = await t.app.inject({ url: '/api/hitokoto?encode=text&charset=gbk&c=i' });
      expect(res.headers['content-type']).toBe('text/plain; charset=gbk');
      const decoded = new TextDecoder('gbk').decode(res.rawPayload);
      expect(shipped.some((s) => s.content === decoded)).toBe(true);
      expect((await json('?charset=big5')).body.msg).toContain('参数 charset');
    });
  });

  it('returns one sentence in the envelope with exactly the hitokoto fields', async () => {
    const { status, type, body } = await json('');
    expect(status).toBe(200);
    expect(type).toContain('application/json');
    expect(body).toMatchObject({ code: 200, msg: '请求成功' });
    const d = body.data;
    expect(Object.keys(d).sort()).toEqual([...KEYS].sort());
    expect(d.id).toMatch(UUID);
    expect(d.type).toMatch(/^[a-l]$/);
    expect(d.length).toBe(chars(d.content));
    expect(d.from_who === null || typeof d.from_who === 'string').toBe(true);
    // The sentence is one of the shipped library's, with its own id and category.
    const row = shipped.find((s) => s.id === d.id);
    expect(row).toMatchObject({ content: d.content, type: d.type });
  });

  it('picks anew on every call', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await json('')).body.data.id);
    expect(ids.size).toBeGreaterThan(1);
  });

  it('keeps to the requested categories', async () => {
    for (let i = 0; i < 15; i++) expect((await json('?type=i')).body.data.type).toBe('i');
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) seen.add((await json('?type=a,%20K')).body.data.type);
    for (const s of seen) expect(['a', 'k']).toContain(s);
    expect((await json('?type=')).status).toBe(200);
  });

  it('bounds length with minLength and maxLength, counting characters not UTF-16 units', async () => {
    for (let i = 0; i < 15; i++) {
      const d = (await json('?minLength=10&maxLength=20')).body.data;
      expect(d.length).toBeGreaterThanOrEqual(10);
      expect(d.length).toBeLessThanOrEqual(20);
    }
    const shortest = Math.min(...shipped.map((s) => chars(s.content)));
    const d = (await json(`?maxLength=${shortest}`)).body.data;
    expect(d.length).toBe(shortest);
  });

  it('answers format=text with the bare sentence as text/plain', async () => {
    const r = await get('?format=text&type=d');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/plain/);
    expect(shipped.some((s) => s.content === r.text && s.type === 'd')).toBe(true);
  });

  it('answers format=js with a script that writes the sentence into the selected element', async () => {
    const r = await get('?format=js&select=%23quote');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/javascript/);
    expect(r.text).toMatch(/^\(function hitokoto\(\)\{var hitokoto=".*";var dom=document\.querySelector\('#quote'\);/);
    const dom = { innerText: '' };
    let selected = '';
    vm.runInNewContext(r.text, {
      document: {
        querySelector: (s: string) => {
          selected = s;
          return dom;
        },
      },
    });
    expect(selected).toBe('#quote');
    // biome-ignore lint/performance/useDomNodeTextContent: the shipped script sets innerText, as on hitokoto.cn
    expect(shipped.some((s) => s.content === dom.innerText)).toBe(true);
    // Default selector
    expect((await get('?format=js')).text).toContain("document.querySelector('.hitokoto')");
  });

  it('cannot be turned into markup or script injection through select', async () => {
    const evil = '</script><script>alert(1)</script>"\'';
    const r = await get(`?format=js&select=${encodeURIComponent(evil)}`);
    expect(r.status).toBe(200);
    expect(r.text).not.toContain('</script>');
    expect(r.text).not.toContain('<');
    let selected = '';
    vm.runInNewContext(r.text, {
      document: {
        querySelector: (s: string) => {
          selected = s;
          return { innerText: '' };
        },
      },
    });
    expect(selected).toBe(evil);
  });

  it('rejects unknown category letters, naming them', async () => {
    const { status, body } = await json('?type=a,x,z,x');
    expect(status).toBe(500);
    expect(body).toMatchObject({ code: 500, data: null });
    expect(body.msg).toContain('参数 type');
    expect(body.msg).toContain('"x"');
    expect(body.msg).toContain('"z"');
    expect(body.msg).not.toContain('"a"');
    expect((await json('?type=ab')).body.msg).toContain('"ab"');
  });

  it('rejects minLength above maxLength and a range no sentence has, saying so', async () => {
    const inverted = await json('?minLength=30&maxLength=10');
    expect(inverted.status).toBe(500);
    expect(inverted.body.msg).toContain('参数 minLength');
    expect(inverted.body.msg).toContain('maxLength');
    const none = await json('?minLength=900');
    expect(none.status).toBe(500);
    expect(none.body.msg).toContain('没有');
    expect(none.body.msg).toMatch(/现有句子长度为 \d+ 至 \d+/);
  });

  it('rejects out-of-bounds and malformed parameters, naming each', async () => {
    const cases: Array<[string, string]> = [
      ['?minLength=-1', 'minLength'],
      ['?maxLength=1001', 'maxLength'],
      ['?minLength=abc', 'minLength'],
      ['?format=xml', 'format'],
      ['?format=json&format=text', 'format'],
      [`?type=${'a,'.repeat(40)}`, 'type'],
      [`?format=js&select=${'x'.repeat(101)}`, 'select'],
    ];
    for (const [q, param] of cases) {
      const { status, body } = await json(q);
      expect(status, q).toBe(500);
      expect(body.msg, q).toContain(`参数 ${param}`);
    }
    expect((await json('?format=xml')).body.msg).toContain('json, text, js');
  });
});
