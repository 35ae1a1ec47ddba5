import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small round-robin reverse proxy, as nginx or Caddy would sit in front of the instances: each request goes to
 * the next upstream; an upstream that refuses the connection is skipped (as nginx's proxy_next_upstream error
 * does; non-idempotent requests only when nothing can have reached the upstream); otherwise a failure is 502. X-Forwarded-For is appended and X-Upstream names the instance that answered.
 */
export class RoundRobinProxy {
  private readonly server: http.Server;
  private next = 0;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  url = '';

  constructor(private readonly upstreams: () => Array<{ name: string; port: number }>) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.forward(req, res, Buffer.concat(chunks)));
    });
  }

  async listen() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close() {
    this.agent.destroy();
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(r));
  }

  /** Upstreams that failed to connect are left out for a moment (nginx: max_fails=1 fail_timeout=2s). */
  private readonly downUntil = new Map<string, number>();

  private forward(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tried: Set<string> = new Set()) {
    const untried = this.upstreams().filter((u) => !tried.has(u.name));
    const healthy = untried.filter((u) => (this.downUntil.get(u.name) ?? 0) <= Date.now());
    const list = healthy.length ? healthy : untried;
    if (!list.length) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end('no upstream answered');
      return;
    }
    const up = list[this.next++ % list.length];
    tried.add(up.name);
    const xff = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const out = http.request(
      {
        host: '127.0.0.1',
        port: up.port,
        method: req.method,
        path: req.url,
        agent: this.agent,
        headers: { ...req.headers, 'x-forwarded-for': xff, 'content-length': String(body.length) },
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, { ...upRes.headers, 'x-upstream': up.name });
        upRes.pipe(res);
        upRes.on('error', () => res.destroy());
      },
    );
    out.on('error', (err: NodeJS.ErrnoException) => {
      if (res.headersSent) res.destroy();
      // Refused: the request never arrived, so even a POST may go elsewhere. A reset kept-alive connection may
      // have delivered it (seen: a write committed by the dying instance, retried, answered 409): reads only.
      else if (
        err.code === 'ECONNREFUSED' ||
        (out.reusedSocket && err.code === 'ECONNRESET' && (req.method === 'GET' || req.method === 'HEAD'))
      ) {
        this.downUntil.set(up.name, Date.now() + 2000);
        this.forward(req, res, body, tried);
      } else
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`upstream ${up.name}: ${err.code ?? err.message}`);
    });
    out.end(body);
  }
}
