import { session } from '../session';
import { ApiError } from '@tianji/client';
import { saveBlob } from '@tianji/web-core';

/** Downloads an authenticated export (CSV/JSON) under the file name the server suggests (`登录日志-2026-12-01.csv`). */
export async function download(path: string, fallbackName: string): Promise<void> {
  const res = await session.fetch(path);
  if (!res.ok) throw await ApiError.from(res);
  const blob = await res.blob();
  saveBlob(blob, suggestedName(res.headers.get('content-disposition') ?? '') ?? fallbackName);
}

/** The file name of a Content-Disposition: its UTF-8 `filename*` (the Chinese name), else its plain `filename`. */
function suggestedName(disposition: string): string | undefined {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (utf8) {
    try {
      return decodeURIComponent(utf8);
    } catch {
      // A malformed name: the plain one below.
    }
  }
  return /filename="([^"]+)"/.exec(disposition)?.[1];
}

/** A query string from the set values only. */
export function queryString(q: Record<string, string | number | undefined | null>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}
