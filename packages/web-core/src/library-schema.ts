import type { JsonSchema } from './schema-form';

let doc:
  | Promise<{
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
    }>
  | undefined;

/**
 * A content library's item schema, read from the server's own OpenAPI document (public, fetched once):
 * the body of POST /api/admin/content/<library>.
 */
export const librarySchema = (library: string) => requestSchema('post', `/api/admin/content/${library}`);

/** The JSON schema of a route's request body in the server's OpenAPI document: what a form's save sends. */
export async function requestSchema(method: 'post' | 'patch' | 'put', path: string): Promise<JsonSchema | undefined> {
  doc ??= fetch('/openapi.json').then((r) => {
    if (!r.ok) throw new Error(`/openapi.json: HTTP ${r.status}`);
    return r.json();
  });
  const d = await doc.catch((e) => {
    doc = undefined;
    throw e;
  });
  return d.paths[path]?.[method]?.requestBody?.content['application/json']?.schema;
}
