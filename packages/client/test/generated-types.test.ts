import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  OUTPUT,
  PUBLIC_OUTPUT,
  generateAdminTypes,
  generatePublicTypes,
  liveOpenApiDocument,
} from '../scripts/generate-types.js';

describe('typed calls', async () => {
  const doc = await liveOpenApiDocument();
  it.each([
    ['admin-api.ts', OUTPUT, generateAdminTypes, 'the admin routes'],
    ['public-api.ts', PUBLIC_OUTPUT, generatePublicTypes, 'the public lookup routes'],
  ])(
    'src/generated/%s matches the server’s current /openapi.json (else: npm run generate -w @tianji/client)',
    async (name, file, generate, what) => {
      const fresh = await generate(doc);
      const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (committed !== fresh) {
        expect.fail(
          `packages/client/src/generated/${name} is stale: ${what} changed. Run \`npm run generate -w @tianji/client\`.`,
        );
      }
    },
  );
});
