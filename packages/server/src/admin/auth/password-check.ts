import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Type } from '@sinclair/typebox';
import { AppError, ANY_PENDING } from '../../errors.js';
import { fallbackRateLimitStore } from '../../http/rate-limit-store.js';
import { passwordCheck } from './password-policy.js';
import { data, PasswordPolicy } from './schemas.js';

/** A meter asks at most once per pause in typing; this leaves room for a fast typist and refuses a guessing loop. */
export const PASSWORD_CHECKS_PER_MINUTE = 60;

export const PasswordCheckBody = Type.Object({ password: PasswordPolicy }, { additionalProperties: false });

export const PasswordCheckSchema = Type.Object({
  score: Type.Integer({ minimum: 0, maximum: 4, description: 'zxcvbn score: 0–1 weak, 2 fair, 3–4 strong' }),
  ok: Type.Boolean({ description: 'Whether the password meets PASSWORD_MIN_LENGTH and PASSWORD_MIN_SCORE' }),
  problem: Type.String({
    description: 'Why it does not, in Chinese, word for word what a submit would refuse with; empty when ok',
  }),
});

/**
 * POST /api/auth/password-check: the strength meter under a new-password field, scored by the server's own engine
 * (the browser never loads the zxcvbn dictionaries) and judged by the policy's own function. The password travels
 * in the body (never in a URL or a log line), the answer is not stored (admin no-store), and each signed-in user may
 * ask PASSWORD_CHECKS_PER_MINUTE times a minute — including one that must change its password first.
 */
export default async function passwordCheckRoutes(parent: FastifyInstance) {
  // The limit plugin in a scope of its own: it counts this route only, per user (the guard has run by preHandler).
  await parent.register(rateLimit, {
    max: PASSWORD_CHECKS_PER_MINUTE,
    timeWindow: 60_000,
    hook: 'preHandler',
    keyGenerator: (req) => `pwcheck:${req.auth?.id ?? req.ip}`,
    store: parent.redis ? fallbackRateLimitStore(parent.redis, parent.log) : undefined,
    errorResponseBuilder: (_req, ctx) =>
      new AppError('TOO_MANY_REQUESTS', `密码强度检查过于频繁：每分钟最多 ${ctx.max} 次，请 ${ctx.after} 后重试`),
  });
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/password-check',
    {
      config: { auth: 'authenticated', whilePending: ANY_PENDING },
      schema: {
        tags: ['认证 Auth'],
        summary: '新密码强度检查（不保存） Check a new password against the policy (nothing is stored)',
        description:
          `The score (0–4) and whether the password meets the policy, with the same Chinese reason a password change ` +
          `would be refused with. At most ${PASSWORD_CHECKS_PER_MINUTE} checks a minute per user (429 with Retry-After).`,
        body: PasswordCheckBody,
        response: { 200: data(PasswordCheckSchema) },
      },
    },
    async (req) => ({ data: await passwordCheck(req.body.password, app.config.passwordPolicy) }),
  );
}
