/**
 * What `npm run bench:memory` sends: every public `GET /api/...` operation of the app's OpenAPI document (so a new
 * route is exercised without editing this file), each with its largest allowed inputs — integers at their maximum
 * (sizes, counts, lengths), every choice of an enumeration in turn, a distinct seed per request (so that caches fill
 * as they would under real traffic) — and a sensible valid value where only some texts are valid (addresses,
 * colours, barcode texts). Pure: no server, no I/O; seeded, so every run sends the same requests.
 */
import { seededRng } from '../packages/server/src/shared/rng.js';

export interface ParamSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  enum?: unknown[];
  anyOf?: Array<{ enum?: unknown[]; const?: unknown }>;
  default?: unknown;
}

export interface QueryParam {
  name: string;
  required?: boolean;
  example?: unknown;
  schema?: ParamSchema;
}

interface OpenApiOperation {
  parameters?: Array<QueryParam & { in: string }>;
  security?: unknown[];
  'x-permission'?: unknown;
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

export interface OpenApiDocument {
  paths: Record<string, { get?: OpenApiOperation }>;
}

/**
 * The load is run in phases, in this order, so that each one's RSS growth shows: the IP databases, the image caches
 * and render threads, and the password threads are the known large holders; `mixed` then sends everything at once.
 */
export const PHASES = ['data', 'ip-region', 'images', 'password', 'mixed'] as const;
export type Phase = (typeof PHASES)[number];

export interface Operation {
  path: string;
  phase: Exclude<Phase, 'mixed'>;
  params: QueryParam[];
}

/** Public = a GET under /api/ that needs no sign-in (no security requirement, no permission). */
export function publicGetOperations(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const op = item.get;
    // Public lookups declare `security: [{}, {apiKey: []}]` (anonymous, or with a key); a sign-in has no `{}`.
    const signIn = !!op?.security?.length && !op.security.some((s) => Object.keys(s as object).length === 0);
    if (!op || !path.startsWith('/api/') || signIn || op['x-permission'] !== undefined) continue;
    const params = (op.parameters ?? []).filter((p) => p.in === 'query');
    ops.push({ path, params, phase: phaseOf(path, op, params) });
  }
  return ops;
}

function phaseOf(path: string, op: OpenApiOperation, params: QueryParam[]): Operation['phase'] {
  if (path === '/api/ip-region') return 'ip-region';
  if (path === '/api/password-strength') return 'password';
  const types = Object.values(op.responses ?? {}).flatMap((r) => Object.keys(r.content ?? {}));
  const rendersPng = params.some((p) => choices(p.schema)?.includes('png'));
  return rendersPng || types.some((t) => t.startsWith('image/')) ? 'images' : 'data';
}

/** The alternatives of an enumeration (`enum`, or TypeBox's union of one-value enums), if the schema is one. */
function choices(schema: ParamSchema | undefined): unknown[] | undefined {
  if (schema?.enum) return schema.enum;
  if (schema?.anyOf?.every((s) => s.enum?.length === 1 || 'const' in s))
    return schema.anyOf.map((s) => (s.enum ? s.enum[0] : s.const));
  return undefined;
}

/** A public address spread over the whole space, IPv4 and IPv6 in turn, so that lookups touch all of each database. */
function address(k: number): string {
  const r = seededRng(`address-${k}`).next;
  if (k % 2 === 0) {
    // First octets 1–223 without the private, loopback and link-local blocks.
    let a: number;
    do a = 1 + Math.floor(r() * 223);
    while (a === 10 || a === 127 || a === 169 || a === 172 || a === 192 || a === 100);
    return [a, ...Array.from({ length: 3 }, () => Math.floor(r() * 256))].join('.');
  }
  const group = () => Math.floor(r() * 0x10000).toString(16);
  return [
    `2${Math.floor(r() * 0x1000)
      .toString(16)
      .padStart(3, '0')}`,
    ...Array.from({ length: 7 }, group),
  ].join(':');
}

/** zxcvbn's worst case (a l33t word repeated, 64 characters) every fourth request, else 64 random characters. */
function password(k: number): string {
  const r = seededRng(`password-${k}`).next;
  const tail = Array.from({ length: 8 }, () => String.fromCharCode(33 + Math.floor(r() * 94))).join('');
  return k % 4 === 0 ? 'p4$$w0rd'.repeat(7) + tail : Array.from({ length: 8 }, () => tail).join('');
}

type Value = string | number | boolean | string[] | undefined;
type Pick = (k: number, p: QueryParam) => Value;

const date = (k: number) => new Date(Date.UTC(2026, 0, 1 + k)).toISOString().slice(0, 10);

/** Values by parameter name where the schema alone cannot say what is valid and large. */
const BY_NAME: Record<string, Pick> = {
  seed: (k, p) => `${k}-`.padEnd(p.schema?.maxLength ?? 64, 's'),
  ip: address,
  password,
  date,
  // Years and birth years across their whole range: each year is a distinct memo entry.
  year: (k, p) => (p.schema?.minimum ?? 1900) + (k % ((p.schema?.maximum ?? 2100) - (p.schema?.minimum ?? 1900) + 1)),
  birthYear: (k) => 1950 + (k % 70),
  color: (k) => `#${((k * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6)}`,
};

/** Per route, where one parameter's valid values depend on another (a barcode's text on its type, say). */
const QRCODE: Record<string, Pick> = {
  // The longest text every error-correction level holds (1273 bytes at H), in colours that scan.
  text: (k) => `https://example.com/tianji/${k}/`.padEnd(1273, 'x'),
  color: () => '000000',
  background: () => 'ffffff',
};
const none: Pick = () => undefined;

const BY_ROUTE: Record<string, Record<string, Pick>> = {
  '/api/qrcode': QRCODE,
  '/api/qrcode/image': QRCODE,
  // Bounds any sentence meets would have to be guessed; the route's largest work is the unfiltered pick.
  '/api/hitokoto': { minLength: none, maxLength: none, min_length: none, max_length: none },
  // Either a keyword (飞花令) or a line to continue (接龙), in turn.
  '/api/poem-game': { keyword: (k) => (k % 2 ? undefined : '月'), after: (k) => (k % 2 ? '床前明月光' : undefined) },
  '/api/postcode': { keyword: () => '广东' },
  // The years with published holiday arrangements.
  '/api/holiday': { year: (k) => 2004 + (k % 23) },
  // Code 128 at the largest scale and height: the widest image of the types that take free text.
  '/api/barcode': { type: () => 'code128', text: (k) => `TIANJI-${k}-`.padEnd(80, 'X') },
  '/api/barcode/image': { type: () => 'code128', text: (k) => `TIANJI-${k}-`.padEnd(80, 'X') },
  '/api/wallpaper/image': { seed: date },
};

/** The value of one query parameter for the k-th request, or undefined to leave it out. */
export function valueFor(path: string, p: QueryParam, k: number): Value {
  const pick = BY_ROUTE[path]?.[p.name] ?? BY_NAME[p.name];
  if (pick) return pick(k, p);
  const s = p.schema ?? {};
  if ((s.type === 'integer' || s.type === 'number') && s.maximum !== undefined) return s.maximum;
  const alternatives = choices(s);
  if (alternatives) return String(alternatives[k % alternatives.length]);
  if (s.type === 'boolean') return k % 2 === 0;
  const example = p.example ?? s.default;
  if (s.type === 'array') return example === undefined ? undefined : ([] as string[]).concat(example as string);
  return example === undefined ? undefined : (example as string | number);
}

/** The k-th request of an operation: its path with a query string. */
export function requestUrl(op: Operation, k: number): string {
  const q = new URLSearchParams();
  for (const p of op.params) {
    const v = valueFor(op.path, p, k);
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(p.name, String(one));
  }
  const qs = q.toString();
  return qs ? `${op.path}?${qs}` : op.path;
}
