import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, LookupError } from '../errors.js';
import { areaOfUrl, type Area } from './areas.js';
import { fail } from './envelope.js';
import { routeOf } from './route-of.js';
import { describeBodyError, describeValidation, type AjvError } from './validation-messages.js';
import { NO_STORE } from './no-store.js';

function areaOf(req: FastifyRequest): Area {
  return routeOf(req).config?.area ?? areaOfUrl(req.url);
}

/**
 * One renderer for every error: typed errors keep their code; validation errors name the field;
 * anything unexpected is logged and answered without internals. Never a stack trace in a response.
 */
export default fp(
  async (app) => {
    app.decorateRequest('callerError', false);
    app.setErrorHandler((err: FastifyError & Partial<AppError>, req, reply) => {
      // An unknown path is unknown whatever its body: the body is read (and refused) before the 404 handler runs.
      if (req.is404 && typeof err.code === 'string' && err.code.startsWith('FST_ERR_CTP_')) return notFound(req, reply);
      const area = areaOf(req);
      if (err instanceof AppError) {
        for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      }
      if (area === 'lookup') return sendLookupError(err, req, reply);
      return sendAdminError(err, req, reply);
    });

    app.setNotFoundHandler(notFound);
  },
  { name: 'error-handler' },
);

/** An unknown path (or method), in its area's body. */
function notFound(req: FastifyRequest, reply: FastifyReply) {
  const path = req.url.split('?')[0];
  if (areaOfUrl(req.url) === 'admin') {
    return reply
      .code(404)
      .header('cache-control', NO_STORE)
      .send({ code: 'NOT_FOUND', message: `no route ${req.method} ${path}` });
  }
  return reply.code(404).send(fail(404, `接口不存在：${req.method} ${truncate(path)}（未知路径，请查看 /docs）`));
}

/**
 * Errors the router raises before any route or hook runs: a malformed percent-escape in the path, an over-long path
 * parameter. Passed to Fastify as `frameworkErrors` (app.ts) so that these too get their area's body instead of
 * Fastify's own; a public path also gets the CORS header here, because the CORS hook has not run.
 */
export function renderFrameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const path = truncate(req.url.split('?')[0]);
  const why = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? '路径参数过长' : '路径含有无效的百分号编码';
  if (areaOfUrl(req.url) === 'admin') {
    return reply
      .code(400)
      .header('cache-control', NO_STORE)
      .send({ code: 'VALIDATION_ERROR', message: `malformed URL path ${path}` });
  }
  reply.header('access-control-allow-origin', '*');
  return reply.code(404).send(fail(404, `接口不存在：${req.method} ${path}（${why}）`));
}

function truncate(s: string) {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

const KEPT_STATUS = new Set([401, 403, 404, 429]);

function sendLookupError(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  // Every answer here but the last is the caller's doing, though the contract answers a bad parameter with 500:
  // usage and /metrics count those apart from server faults (monitor/plugin.ts).
  req.callerError = true;
  if (err.validation) {
    const { message } = describeValidation(
      err.validation as unknown as AjvError[],
      err.validationContext ?? 'querystring',
    );
    return reply.code(500).send(fail(500, message));
  }
  if (err instanceof LookupError) {
    req.callerError = err.fault === 'caller';
    return reply.code(500).send(fail(500, err.message));
  }
  if (err instanceof AppError) {
    // Rate limits, unknown paths and API key refusals keep their status (the key contract: 401, 403); the rest is 500.
    const status = KEPT_STATUS.has(err.statusCode) ? err.statusCode : 500;
    return reply.code(status).send(fail(status, err.message));
  }
  if (err.statusCode === 429) return reply.code(429).send(fail(429, err.message));
  if (err.statusCode && err.statusCode < 500) {
    return reply.code(500).send(fail(500, describeBodyError(err) ?? `请求无效：${err.message}`));
  }
  req.callerError = false;
  req.log.error({ err }, 'public API handler failed');
  return reply.code(500).send(fail(500, '服务器内部错误，请稍后重试'));
}

function sendAdminError(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err.validation) {
    const { message } = describeValidation(err.validation as unknown as AjvError[], err.validationContext ?? 'body');
    return reply.code(400).send({ code: 'VALIDATION_ERROR', message });
  }
  if (err instanceof AppError) return reply.code(err.statusCode).send({ code: err.code, message: err.message });
  if (err.statusCode === 429) return reply.code(429).send({ code: 'TOO_MANY_REQUESTS', message: err.message });
  if (err.statusCode === 413)
    return reply.code(413).send({ code: 'PAYLOAD_TOO_LARGE', message: 'request body too large' });
  if (err.statusCode && err.statusCode < 500) {
    return reply.code(400).send({ code: 'VALIDATION_ERROR', message: describeBodyError(err) ?? err.message });
  }
  const conflict = constraintConflict(err);
  if (conflict) return reply.code(409).send({ code: 'CONFLICT', message: conflict });
  req.log.error({ err }, 'admin handler failed');
  return reply.code(500).send({ code: 'INTERNAL_ERROR', message: 'internal server error' });
}

/**
 * A write that lost a race to a concurrent one (the row it refers to was just deleted, or the unique value was just
 * taken) fails on a database constraint. That is a conflict for the caller to retry, not a server fault.
 * PostgreSQL reports SQLSTATE 23503/23505; better-sqlite3 SQLITE_CONSTRAINT_FOREIGNKEY/UNIQUE.
 */
function constraintConflict(err: { code?: unknown }): string | undefined {
  switch (err.code) {
    case '23503':
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return 'a referenced record was changed or removed by another request; reload and try again';
    case '23505':
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
      return 'the value is already taken (another request may have just saved it); reload and try again';
    default:
      return undefined;
  }
}
