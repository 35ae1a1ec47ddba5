/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a URL or header block too large, a malformed request
 * line, raw UTF-8 in the URL): answered in the area's body shape like every
 * other error, never with Node's or Fastify's bare bodies, and only after the answers to every request pipelined
 * before them on the same keep-alive connection.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { areaOfUrl } from './areas.js';
import { fail } from './envelope.js';

const MESSAGES: Record<number, [zh: string, en: string]> = {
  400: ['请求格式错误，无法解析', 'malformed request'],
  408: ['请求超时', 'request timeout'],
  413: ['请求体过大', 'request body too large'],
  414: ['URL 过长', 'URL too long'],
  431: [
    '请求头过大或 URL 过长：请求行与所有请求头合计不能超过 16 KB',
    'request headers or URL too large (limit 16 KB)',
  ],
};

function statusOf(err: ConnectionError): number {
  if (err.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

interface Head {
  method: string;
  target: string;
  headers: Record<string, string>;
}

/** The request line and headers of a complete header block in `raw`, if it has one. */
function parseHead(raw: Buffer | undefined): Head | undefined {
  if (!raw) return undefined;
  const end = raw.indexOf('\r\n\r\n');
  const text = raw.subarray(0, end < 0 ? Math.min(raw.length, 8192) : end).toString('latin1');
  const [line, ...rest] = text.split('\r\n');
  // Not \S for the target: in JavaScript \xA0 is white space, and it is a byte of many UTF-8 characters (张 is E5 BC A0).
  const m = /^([A-Z]{1,16}) ([^ \t]+) HTTP\/1\.[01]$/.exec(line ?? '');
  if (!m) return undefined;
  const headers: Record<string, string> = {};
  for (const h of rest) {
    const i = h.indexOf(':');
    if (i > 0) headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
  }
  return end < 0 ? { method: m[1], target: m[2], headers: {} } : { method: m[1], target: m[2], headers };
}

/** `/api/x?k=京A` as the bytes arrived (UTF-8 read as latin1) → `/api/x?k=%E4%BA%ACA`. */
const percentEncodeHigh = (latin1: string) =>
  latin1.replace(/[\x80-\xff]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

type Outgoing = { once(event: 'finish' | 'close', cb: () => void): void };

/**
 * Runs `fn` once every answer Node owes on `socket` is written: the one on its way (`_httpMessage`), then, one after
 * another, those of the requests pipelined behind it. Node's own 'finish' listener, registered before ours, detaches
 * each answer from the socket and assigns the next: an answer still attached has not emitted 'finish' yet, even when
 * its bytes are all written (`writableFinished` is then already true, and a queued answer would be cut off).
 */
function afterAnswers(socket: Socket, fn: () => void): void {
  const current = (socket as Socket & { _httpMessage?: Outgoing | null })._httpMessage;
  if (!current || socket.destroyed) {
    fn();
    return;
  }
  let done = false;
  const next = () => {
    if (!done) {
      done = true;
      afterAnswers(socket, fn);
    }
  };
  current.once('finish', next);
  current.once('close', next);
}

/** Writes a whole response and closes the connection, after every answer still owed on this socket. */
function sendAndClose(
  socket: Socket,
  status: number,
  headers: Record<string, string | string[] | number | undefined>,
  body: Buffer | string,
) {
  afterAnswers(socket, () => {
    if (!socket.writable) return void socket.destroy();
    const payload = typeof body === 'string' ? Buffer.from(body) : body;
    const lines = Object.entries(headers)
      .filter(([k, v]) => v !== undefined && !/^(content-length|connection|transfer-encoding|keep-alive)$/i.test(k))
      .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k}: ${String(x)}`));
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      ...lines,
      `content-length: ${payload.length}`,
      'connection: close',
      '',
      '',
    ].join('\r\n');
    socket.end(Buffer.concat([Buffer.from(head, 'latin1'), payload]));
  });
}

/** Sockets whose refusal is already on its way: the parser, stuck on the refused bytes, reports any later data too. */
const refusing = new WeakSet<Socket>();

/**
 * Fastify's `clientErrorHandler`. A GET or HEAD refused only for raw UTF-8 in its URL
 * (`curl 'host/api/license-plate?keyword=京A'`, as people type it) is answered normally, with the URL percent-encoded,
 * as coming from the socket's address (X-Forwarded-For counts only as TRUST_PROXY says, as for any request).
 */
export function handleClientError(app: FastifyInstance, err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || refusing.has(socket)) return;
  refusing.add(socket);
  // Node hands over a Buffer; Fastify's types describe its JSON form.
  const packet = err.rawPacket as unknown;
  const raw = Buffer.isBuffer(packet) ? packet : undefined;
  // The packet may hold earlier pipelined requests too: the refused one starts after the header block before the error.
  // (A header block ending the packet is the refused request's own, when the parser read past it: an oversized header.)
  let before = raw ? raw.lastIndexOf('\r\n\r\n', Math.max(0, (err.bytesParsed ?? 0) - 1)) : -1;
  if (raw && before + 4 >= raw.length) before = raw.lastIndexOf('\r\n\r\n', Math.max(0, before - 1));
  const head = parseHead(raw && before >= 0 ? raw.subarray(before + 4) : raw);
  if (
    head &&
    err.code?.startsWith('HPE_INVALID_') &&
    /[\x80-\xff]/.test(head.target) &&
    (head.method === 'GET' || head.method === 'HEAD') &&
    Object.keys(head.headers).length > 0
  ) {
    const { host: _host, ...headers } = head.headers;
    app
      .inject({
        method: head.method,
        url: percentEncodeHigh(head.target),
        headers: { ...headers, host: head.headers.host ?? 'localhost' },
        remoteAddress: socket.remoteAddress,
      })
      .then((res) => sendAndClose(socket, res.statusCode, res.headers, head.method === 'HEAD' ? '' : res.rawPayload))
      .catch(() => socket.destroy());
    return;
  }
  const status = statusOf(err);
  const [zh, en] = MESSAGES[status] ?? MESSAGES[400];
  const admin = areaOfUrl(head?.target ?? '') === 'admin';
  // The admin API's own shape and codes, never cached (like every admin answer); the public envelope with CORS `*`.
  const code = status === 431 ? 'HEADERS_TOO_LARGE' : status === 408 ? 'REQUEST_TIMEOUT' : 'VALIDATION_ERROR';
  const body = admin ? { code, message: `${zh} · ${en}` } : fail(status, zh);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    ...(admin ? { 'cache-control': 'no-store' } : { 'access-control-allow-origin': '*' }),
  };
  sendAndClose(socket, status, headers, JSON.stringify(body));
}
