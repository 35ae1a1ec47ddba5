/**
 * @tianji/client with file storage (Node): the refresh token lives in a file (0600), so the next run resumes the
 * session without the password, as the `tianji` CLI does. Several processes may share the file: they refresh once
 * between them (a lock file).
 *
 *   TIANJI_SERVER=http://127.0.0.1:3000 TIANJI_USERNAME=admin TIANJI_PASSWORD=… TIANJI_TOKEN_FILE=/tmp/tianji-token \
 *     node --conditions=development --import tsx packages/client/examples/file.ts
 *   # again, without TIANJI_PASSWORD: resumed from the file. With SIGN_OUT=1: signs out and removes the file.
 */
import os from 'node:os';
import path from 'node:path';
import { createSession, fileStorage } from '@tianji/client/node';

const {
  TIANJI_SERVER = 'http://127.0.0.1:3000',
  TIANJI_USERNAME = 'admin',
  TIANJI_PASSWORD,
  TIANJI_TOKEN_FILE = path.join(os.homedir(), '.tianji-example', 'refresh-token'),
  SIGN_OUT,
} = process.env;

const session = createSession({
  baseUrl: TIANJI_SERVER,
  storage: fileStorage(TIANJI_TOKEN_FILE),
  clientKind: 'sdk',
  onSignedOut: (reason, detail) => console.log(`已退出（${reason}）${detail ? `：${detail.message}` : ''}`),
});

// A stored session first: refreshes with the token in the file and loads the user.
let me = await session.restore();
if (me) console.log(`已恢复会话：${me.username}`);
else if (TIANJI_PASSWORD) {
  me = await session.login(TIANJI_USERNAME, TIANJI_PASSWORD);
  console.log(`已登录：${me.username}，刷新令牌保存在 ${TIANJI_TOKEN_FILE}`);
} else {
  console.log('未登录：设置 TIANJI_PASSWORD 登录一次');
  process.exit(4);
}

const { data } = await session.api.GET('/api/auth/sessions');
console.log(`你的在线会话：${data?.data.length ?? 0} 个`);

if (SIGN_OUT) await session.logout();
session.close();
