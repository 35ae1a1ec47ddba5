import { session } from '../session';
import { ApiError } from '@tianji/client';
import { saveBlob } from '@tianji/web-core';

/** Downloads an authenticated export (CSV/JSON) under the file name the server suggests. */
export async function download(path: string, fallbackName: string): Promise<void> {
  const res = await session.fetch(path);
  if (!res.ok) throw await ApiError.from(res);
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  saveBlob(blob, name);
}

/** A query string from the set values only. */
export function queryString(q: Record<string, string | number | undefined | null>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}
