/**
 * @tianji/client with memory storage: a script or service that signs in, works, and signs out; nothing is kept.
 *
 *   TIANJI_SERVER=http://127.0.0.1:3000 TIANJI_USERNAME=admin TIANJI_PASSWORD=… \
 *     node --conditions=development --import tsx packages/client/examples/memory.ts
 */
import { createSession, memoryStorage, toMask } from '@tianji/client';

const { TIANJI_SERVER = 'http://127.0.0.1:3000', TIANJI_USERNAME = 'admin', TIANJI_PASSWORD = '' } = process.env;

const session = createSession({
  baseUrl: TIANJI_SERVER,
  storage: memoryStorage(),
  onSignedOut: (reason, detail) => console.log(`已退出（${reason}）${detail ? `：${detail.message}` : ''}`),
});

const me = await session.login(TIANJI_USERNAME, TIANJI_PASSWORD);
console.log(`已登录：${me.username}（${me.roles.map((r) => r.name).join('、') || '无角色'}）`);
// The mask arrives as a JSON number; toMask reads the super administrator's all-ones exactly.
console.log(`权限掩码：${toMask(me.permissions)}`);
console.log(`可以新增用户：${session.canCall('POST /api/users') ? '是' : '否'}`);

const { data, error } = await session.api.GET('/api/users', { params: { query: { page: 1, pageSize: 5 } } });
console.log(data ? `用户共 ${data.data.total} 个` : `查询用户失败：${JSON.stringify(error)}`);

await session.logout();
