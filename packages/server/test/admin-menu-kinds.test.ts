import { afterAll, beforeAll, expect, it } from 'vitest';
import { MENUS } from '../src/catalogue/index.js';
import { describeEachDb, getTestInstance, type TestInstance } from './helpers.js';
import { adminCall, type Call } from './admin-fixtures.js';

interface Node {
  id: string;
  code: string;
  kind: string;
  target: string;
  children: Node[];
}
const find = (nodes: Node[], code: string): Node | undefined => {
  for (const n of nodes) {
    if (n.code === code) return n;
    const hit = find(n.children, code);
    if (hit) return hit;
  }
  return undefined;
};

describeEachDb('menu kinds: directory, page, link, embed', (dialect) => {
  let t: TestInstance;
  let admin: Call;
  const GRAFANA = 'https://grafana.example.com';
  beforeAll(async () => {
    t = await getTestInstance(dialect, { MENU_EMBED_ORIGINS: `${GRAFANA}, https://wiki.example.com` });
    admin = await adminCall(t.app);
  });
  afterAll(() => t.close());

  it('built-in menus are directories or pages', async () => {
    const tree = (await admin('GET', '/api/menus')).json().data as Node[];
    expect(find(tree, MENUS.system.code)).toMatchObject({ kind: 'directory', target: '' });
    expect(find(tree, MENUS.users.code)).toMatchObject({ kind: 'page', target: '' });
  });

  it('creates one of each kind; the signed-in tree carries kind and target for the app', async () => {
    const made = [
      { code: 'ops', kind: 'directory' },
      { code: 'ops:people', kind: 'page', target: MENUS.users.code },
      { code: 'ops:docs', kind: 'link', target: 'https://docs.example.com/tianji' },
      { code: 'ops:grafana', kind: 'embed', target: `${GRAFANA}/d/abc?orgId=1` },
    ];
    for (const m of made) {
      const res = await admin('POST', '/api/menus', { name: m.code, ...m });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ kind: m.kind, target: m.target ?? '' });
    }
    const me = (await admin('GET', '/api/auth/me')).json().data as { menus: Node[] };
    expect(find(me.menus, 'ops:grafana')).toMatchObject({ kind: 'embed', target: `${GRAFANA}/d/abc?orgId=1` });
    expect(find(me.menus, 'ops:people')).toMatchObject({ kind: 'page', target: MENUS.users.code });
  });

  it('refuses a target that does not fit its kind, naming target, in Chinese', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ kind: 'page', target: MENUS.system.code }, /内置页面的菜单编码/],
      [{ kind: 'link', target: 'javascript:alert(1)' }, /http/],
      [{ kind: 'embed', target: 'https://evil.example.com/' }, /MENU_EMBED_ORIGINS/],
      [{ kind: 'directory', target: 'https://docs.example.com' }, /须为空/],
      [{ kind: 'folder' }, /kind/],
    ];
    for (const [body, msg] of cases) {
      const res = await admin('POST', '/api/menus', { code: 'bad', name: 'bad', ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(/参数 (target|kind)/);
      expect(res.json().message).toMatch(msg);
    }
  });

  it('checks an edit against the kind it ends up with; a built-in menu keeps its kind', async () => {
    const tree = (await admin('GET', '/api/menus')).json().data as Node[];
    const docs = find(tree, 'ops:docs')!;
    expect((await admin('PATCH', `/api/menus/${docs.id}`, { kind: 'embed' })).statusCode).toBe(400);
    const ok = await admin('PATCH', `/api/menus/${docs.id}`, { kind: 'embed', target: 'https://wiki.example.com/x' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ kind: 'embed', target: 'https://wiki.example.com/x' });
    const users = find(tree, MENUS.users.code)!;
    expect(
      (await admin('PATCH', `/api/menus/${users.id}`, { kind: 'link', target: 'https://x.example.com' })).statusCode,
    ).toBe(409);
  });

  it("the admin app's CSP frames exactly the configured origins", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/' });
    expect(res.headers['content-security-policy']).toMatch(
      /frame-src https:\/\/grafana\.example\.com https:\/\/wiki\.example\.com(;|$)/,
    );
  });
});
