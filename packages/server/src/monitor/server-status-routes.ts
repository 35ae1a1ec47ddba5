import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MENUS } from '../catalogue/index.js';
import { ServerStatusSchema, serverStatus } from './server-status.js';

/** 服务监控: this instance's process, the database, Redis, the password threads and the last minute's answers. */
const serverStatusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    {
      config: { auth: { menu: MENUS.serverStatus.code, bits: ['SEARCH'] } },
      schema: {
        tags: ['监控 Monitor'],
        summary: '服务监控：进程、数据库、Redis 与请求 Server status',
        description:
          'How the instance that answers is doing now: uptime, version, memory, CPU and event-loop delay of its process; the database (kind, `select 1` latency, latest migration, PostgreSQL pool); Redis (configured, connected, PING latency); the password-strength threads; and its answers of the last 60 s with caller errors apart from server faults. Behind a load balancer each instance answers for itself.',
        response: { 200: Type.Object({ data: ServerStatusSchema }) },
      },
    },
    async () => ({ data: await serverStatus(app) }),
  );
};

export default serverStatusRoutes;
