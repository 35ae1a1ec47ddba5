import net from 'node:net';

/**
 * Sends `raw` on one new connection to 127.0.0.1:`port` (from `localAddress`, e.g. 127.0.0.2: Linux routes all of
 * 127/8 to loopback, so each is a caller of its own) and reads until the server closes it, or `timeoutMs` of silence.
 * An array is sent in parts, `gapMs` apart.
 */
export function exchange(
  port: number,
  raw: Buffer | string | Array<Buffer | string>,
  { localAddress, timeoutMs = 5000, gapMs = 50 }: { localAddress?: string; timeoutMs?: number; gapMs?: number } = {},
): Promise<Buffer> {
  const parts = Array.isArray(raw) ? raw : [raw];
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const send = (i: number) => {
      if (i >= parts.length || s.destroyed) return;
      s.write(parts[i]);
      setTimeout(() => send(i + 1), gapMs);
    };
    const s = net.connect({ port, host: '127.0.0.1', localAddress }, () => send(0));
    s.setTimeout(timeoutMs, () => s.destroy());
    s.on('data', (d) => chunks.push(d));
    s.on('error', reject);
    s.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** Splits a byte stream of HTTP/1.1 responses (content-length framed) into status, headers and body. */
export function responses(data: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) throw new Error(`truncated response: ${data.subarray(at, at + 200).toString('latin1')}`);
    const [line, ...lines] = data.subarray(at, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const h of lines) {
      const i = h.indexOf(':');
      headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
    }
    const length = Number(headers['content-length'] ?? Number.NaN);
    if (!Number.isFinite(length)) throw new Error(`response without content-length: ${line}`);
    out.push({
      status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(line)?.[1]),
      headers,
      body: data.subarray(end + 4, end + 4 + length).toString('utf8'),
    });
    at = end + 4 + length;
  }
  return out;
}
