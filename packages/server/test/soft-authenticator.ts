import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software passkey authenticator for the server suites: what a phone or a security key does, in the open, so that a
 * test can also do what a broken or hostile one would (answer for another origin, replay, send a counter that went
 * back). ES256 keys, `none` attestation, user presence and verification set. The browser suites use Chromium's own
 * virtual authenticator instead.
 */

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** The little CBOR WebAuthn needs: integers, byte and text strings, maps. */
function cbor(v: Cbor): Buffer {
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') {
    const bytes = Buffer.from(v, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), Buffer.from(v)]);
  const parts = [head(5, v.size)];
  for (const [k, val] of v) parts.push(cbor(k), cbor(val));
  return Buffer.concat(parts);
}

const b64u = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

/** UP (user present) and UV (user verified). */
const FLAGS_UP_UV = 0x01 | 0x04;
const FLAG_AT = 0x40;

export interface SoftCredential {
  id: Buffer;
  key: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

export interface CeremonyOptions {
  challenge: string;
  rp?: { id?: string };
  rpId?: string;
  user?: { id: string };
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** `counting: false` behaves as a synced passkey does: its signature counter stays 0. */
  constructor(
    readonly origin: string,
    private readonly opts: { counting?: boolean } = {},
  ) {}

  /** navigator.credentials.create(): a new key pair for the options' RP and user. */
  create(options: CeremonyOptions, at: { origin?: string; userVerified?: boolean } = {}) {
    const rpId = options.rp?.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = cbor(
      new Map<number, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const cred: SoftCredential = {
      id: randomBytes(16),
      key: privateKey,
      rpId,
      userHandle: options.user!.id,
      counter: 0,
    };
    const flags = (at.userVerified === false ? 0x01 : FLAGS_UP_UV) | FLAG_AT;
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(cred.id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      u32(cred.counter),
      Buffer.alloc(16), // AAGUID: none
      idLen,
      cred.id,
      cose,
    ]);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: at.origin ?? this.origin,
      crossOrigin: false,
    });
    this.credentials.push(cred);
    return {
      id: b64u(cred.id),
      rawId: b64u(cred.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64u(Buffer.from(clientData)),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * navigator.credentials.get(): an assertion by `cred` (the newest by default) over the options' challenge. The
   * counter moves on by one unless `counter` says what to report.
   */
  get(
    options: CeremonyOptions,
    at: { origin?: string; cred?: SoftCredential; counter?: number; userHandle?: string | null } = {},
  ) {
    const cred = at.cred ?? this.credentials.at(-1)!;
    if (this.opts.counting !== false) cred.counter = at.counter ?? cred.counter + 1;
    const authenticatorData = Buffer.concat([
      sha256(cred.rpId),
      Buffer.from([FLAGS_UP_UV]),
      u32(this.opts.counting === false ? 0 : cred.counter),
    ]);
    const clientData = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: at.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientData)]), cred.key);
    const userHandle = at.userHandle === undefined ? cred.userHandle : at.userHandle;
    return {
      id: b64u(cred.id),
      rawId: b64u(cred.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64u(clientData),
        authenticatorData: b64u(authenticatorData),
        signature: b64u(signature),
        ...(userHandle !== null && { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
