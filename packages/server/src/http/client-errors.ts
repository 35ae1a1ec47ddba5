/**
 * Requests Node's HTTP layer refuses before Fastify sees them (a URL or header block too large, a malformed request
 * line, raw UTF-8 in the URL, no Host, an unknown Expect, CONNECT): answered in the area's body shape like every
 * other error, never with Node's or Fastify's bare bodies, and only after the answers to every request pipelined
 * before them on the same keep-alive connection.
 */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { areaOfUrl } from './areas.js';
import { fail } from './envelope.js';
import { NO_STORE } from './no-store.js';

type Message = readonly [zh: string, en: string];

const MESSAGES: Record<number, Message> = {
  400: ['请求格式错误，无法解析', 'malformed request'],
  408: ['请求超时', 'request timeout'],
  413: ['请求体过大', 'request body too large'],
  414: ['URL 过长', 'URL too long'],
  431: [
    '请求头过大或 URL 过长：请求行与所有请求头合计不能超过 16 KB',
    'request headers or URL too large (limit 16 KB)',
  ],
};

const NO_HOST: Message = [
  '缺少 Host 请求头：HTTP/1.1 请求必须带 Host（如 Host: api.example.com）',
  'the Host header is required in HTTP/1.1 requests',
];
const TWO_HOSTS: Message = [
  'Host 请求头重复：一个请求只能有一个 Host（如 Host: api.example.com）',
  'a request must carry exactly one Host header',
];
const CONNECT: Message = [
  '不支持 CONNECT 方法：本服务不是代理，请求方法只能是 GET、HEAD、OPTIONS（管理接口另有 POST、PUT、PATCH、DELETE）',
  'CONNECT is not supported: this service is not a proxy',
];
const badExpect = (value: string): Message => [
  `不支持的 Expect 请求头：只接受 100-continue，收到 ${JSON.stringify(value.slice(0, 40))}`,
  'unsupported Expect header: only 100-continue is accepted',
];

/** A refusal in the area of `target`: the admin API's shape and code, never cached, or the public envelope with CORS `*`. */
function refusal(target: string, status: number, [zh, en]: Message, code = 'VALIDATION_ERROR') {
  const admin = areaOfUrl(target) === 'admin';
  return {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(admin ? { 'cache-control': NO_STORE } : { 'access-control-allow-origin': '*' }),
    },
    body: JSON.stringify(admin ? { code, message: `${zh} · ${en}` } : fail(status, zh)),
  };
}

function statusOf(err: ConnectionError): number {
  if (err.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

interface Head {
  method: string;
  target: string;
  version: string;
  headers: Record<string, string>;
  /** The header block ends in the packet (the request could be re-run). */
  complete: boolean;
}

/** The request line and headers of a complete header block in `raw`, if it has one. */
function parseHead(raw: Buffer | undefined): Head | undefined {
  if (!raw) return undefined;
  const end = raw.indexOf('\r\n\r\n');
  const text = raw.subarray(0, end < 0 ? Math.min(raw.length, 8192) : end).toString('latin1');
  const [line, ...rest] = text.split('\r\n');
  // Not \S for the target: in JavaScript \xA0 is white space, and it is a byte of many UTF-8 characters (张 is E5 BC A0).
  const m = /^([A-Z]{1,16}) ([^ \t]+) HTTP\/(1\.[01])$/.exec(line ?? '');
  if (!m) return undefined;
  const headers: Record<string, string> = {};
  for (const h of rest) {
    const i = h.indexOf(':');
    if (i > 0) headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
  }
  return { method: m[1], target: m[2], version: m[3], headers, complete: end >= 0 };
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
    head.complete
  ) {
    const { host, ...headers } = head.headers;
    if (host === undefined && head.version === '1.1') {
      const { headers: h, body } = refusal(head.target, 400, NO_HOST);
      sendAndClose(socket, 400, h, body);
      return;
    }
    app
      .inject({
        method: head.method,
        url: percentEncodeHigh(head.target),
        headers: { ...headers, host: host ?? 'localhost' },
        remoteAddress: socket.remoteAddress,
      })
      .then((res) => sendAndClose(socket, res.statusCode, res.headers, head.method === 'HEAD' ? '' : res.rawPayload))
      .catch(() => socket.destroy());
    return;
  }
  const status = statusOf(err);
  const code = status === 431 ? 'HEADERS_TOO_LARGE' : status === 408 ? 'REQUEST_TIMEOUT' : 'VALIDATION_ERROR';
  const { headers, body } = refusal(head?.target ?? '', status, MESSAGES[status] ?? MESSAGES[400], code);
  sendAndClose(socket, status, headers, body);
}

/** Answers `res` (an ordinary response, queued behind earlier ones by Node) with a refusal. */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: Message, close: boolean) {
  const { headers, body } = refusal(req.url ?? '', status, message);
  const length = { 'content-length': Buffer.byteLength(body) };
  res.writeHead(status, { ...headers, ...length, ...(close ? { connection: 'close' } : {}) }).end(body);
}

/** Whether the request has more than one Host header (Node keeps the first in `headers` and drops the others). */
function twoHosts(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i].length === 4 && raw[i].toLowerCase() === 'host' && ++seen > 1) return true;
  return false;
}

/**
 * The requests Node itself would answer bare, answered like the parser's refusals: an HTTP/1.1 request without Host
 * (400, and the connection closes, as Node does; needs `http: { requireHostHeader: false }` so that it reaches us),
 * an Expect other than 100-continue (417), CONNECT (405 and the connection closes: this service is no proxy). And one
 * Node lets through: a request with two Host headers, which RFC 9112 (3.2) says a server must refuse with 400 (Node
 * would answer for the first while a proxy in front may have routed by the other); the connection closes.
 */
export function refuseBareRequests(app: FastifyInstance): void {
  const server = app.server;
  // Node has no event for a missing or repeated Host: the checks sit in front of Fastify's request listener (a
  // property read, and a pass over the raw header names).
  const [fastifyHandler] = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeListener('request', fastifyHandler);
  server.on('request', (req, res) => {
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1)
      return refuse(req, res, 400, NO_HOST, true);
    if (twoHosts(req)) return refuse(req, res, 400, TWO_HOSTS, true);
    fastifyHandler(req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    refuse(req, res, 417, badExpect(String(req.headers.expect)), false),
  );
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    // Node has let go of this socket: read and drop what the client sends, and end it if the client never does.
    socket.resume();
    socket.setTimeout(10_000, () => socket.destroy());
    const { headers, body } = refusal('', 405, CONNECT);
    sendAndClose(socket, 405, { ...headers, allow: 'GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE' }, body);
  });
}
