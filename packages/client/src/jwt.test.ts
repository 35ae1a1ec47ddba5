import { describe, expect, it } from 'vitest';
import { decodeClaims, lifetimeMs } from './jwt.js';

const token = (payload: object) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;

describe('JWT time claims', () => {
  it('reads iat/exp, including base64url characters and non-ASCII claims', () => {
    expect(decodeClaims(token({ sub: '用户-?>', iat: 100, exp: 1000 }))).toEqual({
      sub: '用户-?>',
      iat: 100,
      exp: 1000,
    });
    expect(lifetimeMs(token({ iat: 100, exp: 1000 }))).toBe(899_000); // one second off for the rounding of iat
    expect(lifetimeMs(token({ iat: 100, exp: 101 }))).toBe(500);
  });

  it('gives null for anything that is not a JWT with times', () => {
    expect(decodeClaims('nonsense')).toBeNull();
    expect(decodeClaims('a.%%%.c')).toBeNull();
    expect(lifetimeMs(token({ iat: 100 }))).toBeNull();
  });
});
