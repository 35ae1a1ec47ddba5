import { ElMessage } from 'element-plus';
import { ApiError } from '@tianji/client';
import { serverMessage } from '../i18n';
import { session } from '../session';

/**
 * A JSON call on a path built at run time (the content library pages: one page, many libraries, so the typed
 * per-path calls do not apply). Same error handling as `call`: the message is shown, 403 by the session.
 */
export async function rawCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await session.fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) {
    const err = await ApiError.from(res);
    if (err.status !== 403) ElMessage.error(serverMessage(err));
    throw err;
  }
  return (res.status === 204 ? undefined : await res.json()) as T;
}
