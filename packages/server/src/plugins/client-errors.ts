import http from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { areaOfUrl } from './areas.js';
import { fail } from './envelope.js';

/** Node's default limit (16 KiB, `--max-http-header-size`): what a too-large request is told. */
const HEADER_LIMIT_KB = Math.round(http.maxHeaderSize / 1024);

/**
 * Requests that Node's HTTP parser refuses before Fastify sees them: headers over the size limit (a 20 KB
 * Authorization), a malformed request line, a request that timed out. Passed to Fastify as `clientErrorHandler`
 * (app.ts) so that these too get their area's body — `{code, message}` with `Cache-Control: no-store` for the admin
 * API, the public envelope for the public API — instead of Node's bare status line. The area is read from the
 * request line in the bytes received so far.
 */
export function renderClientError(err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'HEADERS_TOO_LARGE', `请求头过大：所有请求头合计不能超过 ${HEADER_LIMIT_KB} KB · request headers exceed ${HEADER_LIMIT_KB} KB`]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', '请求超时 · request timed out']
        : [400, 'BAD_REQUEST', '请求格式无效（HTTP 解析失败） · malformed HTTP request'];
  // Node hands over a Buffer; Fastify's type describes its JSON form.
  const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : Buffer.from(err.rawPacket?.data ?? []);
  const target = /^[A-Z]+ (\S+)/.exec(raw.subarray(0, 2048).toString('latin1'))?.[1] ?? '';
  const area = areaOfUrl(target);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', connection: 'close', 'x-content-type-options': 'nosniff' };
  let body: string;
  if (area === 'admin') {
    headers['cache-control'] = 'no-store';
    body = JSON.stringify({ code, message });
  } else {
    if (area === 'lookup') headers['access-control-allow-origin'] = '*';
    body = JSON.stringify(fail(status, message));
  }
  if (socket.writable) {
    const head = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)) })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${head}\r\n${body}`);
  }
  socket.destroy(err);
}
