/**
 * Reads (never verifies: that is the server's job) the time claims of a JWT, to refresh before the access token
 * expires. Works in browsers and Node (atob is global in both).
 */
export interface TimeClaims {
  /** The server session (sign-in) the token belongs to. */
  sid?: string;
  iat?: number;
  exp?: number;
  sub?: string;
}

export function decodeClaims(token: string): TimeClaims | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const b64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const bin = atob(b64);
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    return claims && typeof claims === 'object' ? (claims as TimeClaims) : null;
  } catch {
    return null;
  }
}

/**
 * How long the token surely lives after it was issued, in ms. Measured from `exp - iat` against the local clock
 * at receipt rather than by comparing `exp` with the local clock, so a client whose clock is off neither
 * refreshes too late nor all the time. Both claims are whole seconds (iat is rounded down), so the token may be
 * up to 1 s older than `iat` says: one second is taken off (half the lifetime at most).
 */
export function lifetimeMs(token: string): number | null {
  const c = decodeClaims(token);
  if (!c || typeof c.exp !== 'number' || typeof c.iat !== 'number' || c.exp <= c.iat) return null;
  const seconds = c.exp - c.iat;
  return Math.max(seconds - 1, seconds / 2) * 1000;
}
