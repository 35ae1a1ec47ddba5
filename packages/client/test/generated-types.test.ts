import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OUTPUT, generateAdminTypes } from '../scripts/generate-types.js';

describe('typed admin calls', () => {
  it('src/generated/admin-api.ts matches the server’s current /openapi.json (else: npm run generate -w @tianji/client)', async () => {
    const fresh = await generateAdminTypes();
    const committed = fs.existsSync(OUTPUT) ? fs.readFileSync(OUTPUT, 'utf8') : '';
    if (committed !== fresh) {
      expect.fail(
        'packages/client/src/generated/admin-api.ts is stale: the admin routes changed. Run `npm run generate -w @tianji/client`.',
      );
    }
  });
});
