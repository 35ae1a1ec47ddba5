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
export async function librarySchema(library: string): Promise<JsonSchema | undefined> {
  doc ??= fetch('/openapi.json').then((r) => {
    if (!r.ok) throw new Error(`/openapi.json: HTTP ${r.status}`);
    return r.json();
  });
  const d = await doc.catch((e) => {
    doc = undefined;
    throw e;
  });
  return d.paths[`/api/admin/content/${library}`]?.post?.requestBody?.content['application/json']?.schema;
}
