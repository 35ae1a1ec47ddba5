/**
 * @tianji/client turning two-step sign-in on and off for one's own account. Enrolling needs a proof of identity from
 * the last ten minutes: the methods take the current password as `proof` and send it only if the server asks
 * (REAUTH_REQUIRED); without it they throw ReauthRequiredError, for an app to ask the person and try again.
 *
 *   TIANJI_SERVER=http://127.0.0.1:3000 TIANJI_USERNAME=lily TIANJI_PASSWORD=… \
 *     node --conditions=development --import tsx packages/client/examples/two-step.ts
 */
import * as OTPAuth from 'otpauth';
import { createSession } from '@tianji/client';

const { TIANJI_SERVER = 'http://127.0.0.1:3000', TIANJI_USERNAME = 'admin', TIANJI_PASSWORD = '' } = process.env;
const proof = { password: TIANJI_PASSWORD };

const session = createSession({ baseUrl: TIANJI_SERVER });
await session.login(TIANJI_USERNAME, TIANJI_PASSWORD);

const setup = await session.setupTotp(proof);
console.log(`密钥：${setup.secret}（或扫描 ${setup.otpauthUri} 的二维码）`);
// The person's authenticator app shows this code; here it is computed from the secret.
const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.secret) }).generate();
const { recoveryCodes } = await session.enableTotp(code, { proof });
console.log(`两步验证已开启，恢复码 ${recoveryCodes.length} 个（只显示这一次，请保存）`);

// With TOTP on, a code proves it too (here an unused recovery code, which it uses up).
console.log(`身份已验证，${new Date(await session.reauthenticate({ code: recoveryCodes[0] })).toISOString()} 前有效`);

console.log(`新的恢复码 ${(await session.regenerateRecoveryCodes(proof)).length} 个，旧的已作废`);
await session.disableTotp(proof);
console.log(`两步验证已关闭：${session.user?.totpEnabled ? '否' : '是'}`);
await session.logout();
