import { describe, expect, it } from 'vitest';
import { ConfigError, assertSharedSecret, loadConfig } from './config.js';

describe('JWT_SECRET on PostgreSQL', () => {
  it('a PostgreSQL deployment without JWT_SECRET is refused, saying why', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://db/tianji' });
    expect(() => assertSharedSecret(config)).toThrow(ConfigError);
    expect(() => assertSharedSecret(config)).toThrow(/JWT_SECRET.*PostgreSQL.*所有实例/);
  });

  it('with a shared secret, or on SQLite, the service starts', () => {
    expect(() =>
      assertSharedSecret(loadConfig({ DATABASE_URL: 'postgresql://db/tianji', JWT_SECRET: 'x'.repeat(32) })),
    ).not.toThrow();
    expect(() => assertSharedSecret(loadConfig({ DATA_DIR: '/tmp/tianji-config-test' }))).not.toThrow();
  });
});
