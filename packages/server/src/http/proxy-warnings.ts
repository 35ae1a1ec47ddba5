import fp from 'fastify-plugin';
import type { Config } from '../config.js';

/** Said once at start-up when TRUST_PROXY=true: the left-most X-Forwarded-For is whatever the client wrote. */
export const TRUST_ALL_WARNING =
  'TRUST_PROXY=true 会信任请求自带的 X-Forwarded-For 最左边的地址，而这个地址由客户端自己填写：任何人都能冒充来源地址，绕过登录限流与接口限流，或冒充账号主人的地址让其被锁。请改为代理的跳数（如 TRUST_PROXY=1）或代理地址/CIDR 列表（如 TRUST_PROXY=10.0.0.0/8）。' +
  ' (TRUST_PROXY=true trusts the client-written left-most X-Forwarded-For address: set a hop count or a list of proxy addresses/CIDRs instead.)';

/** Said once, at the first request that carries X-Forwarded-For while TRUST_PROXY is unset. */
export const UNTRUSTED_FORWARD_WARNING =
  '收到带 X-Forwarded-For 的请求，但未设置 TRUST_PROXY：所有经过代理的用户都会被视为代理自身的地址，共用同一个限流额度，一个客户端的失败登录就能挡住所有人登录。若服务位于反向代理之后，请把 TRUST_PROXY 设为代理的跳数（如 1）或代理地址/CIDR 列表。' +
  ' (A request carries X-Forwarded-For but TRUST_PROXY is unset: every proxied user shares the proxy’s address and its limits; set TRUST_PROXY to the hop count or the proxy addresses.)';

/**
 * Warns the operator about the two TRUST_PROXY settings that let one client throttle or impersonate others:
 * `true` (trusting an address the client writes), and none at all behind a proxy (everyone shares its address).
 */
export default fp(
  async (app, opts: { trustProxy: Config['trustProxy'] }) => {
    if (opts.trustProxy === true) app.log.warn(TRUST_ALL_WARNING);
    if (opts.trustProxy !== false) return;
    let warned = false;
    // A callback hook, not an async one: it runs on every request, and a promise per request costs more than the check.
    app.addHook('onRequest', (req, _reply, done) => {
      if (!warned && req.headers['x-forwarded-for'] !== undefined) {
        warned = true;
        req.log.warn(UNTRUSTED_FORWARD_WARNING);
      }
      done();
    });
  },
  { name: 'proxy-warnings' },
);
