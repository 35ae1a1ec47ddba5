import { reactive } from 'vue';
import { ApiError, SessionEndedError } from '@tianji/client';

/**
 * Whether the server answered at all. A request that gets no answer (the network is down, the server restarts) or a
 * proxy's 502/503/504 says nothing about the session: the app keeps it, says 「无法连接服务器」 and offers a retry,
 * instead of showing the sign-in page as if the user were signed out.
 */
export const connection = reactive({
  unreachable: false,
  /** Bumped by each retry: the app keys its page on it, so the page loads its data again. */
  attempt: 0,
  retry: (): void => undefined,
});

/** True for a failure that means "no answer from tianji", not "tianji said no". */
export function isUnreachable(e: unknown): boolean {
  if (e instanceof SessionEndedError) return false;
  if (e instanceof ApiError)
    return e.status === 0 || (e.status >= 502 && e.status <= 504 && e.code.startsWith('HTTP_'));
  // fetch rejects with a TypeError when no answer came; an aborted request is not a connection failure.
  return e instanceof TypeError;
}

/** Marks the server unreachable, with what a retry does (re-run the navigation, reload the page). */
export function markUnreachable(retry: () => void): void {
  connection.unreachable = true;
  connection.retry = () => {
    connection.unreachable = false;
    connection.attempt++;
    retry();
  };
}

/** An answer came: the server is reachable again. */
export function markReachable(): void {
  connection.unreachable = false;
}

/** The error a call throws when no answer came (status 0, code UNREACHABLE), already shown by the app's banner. */
export const unreachableError = (cause: unknown) =>
  Object.assign(new ApiError(0, 'UNREACHABLE', '无法连接服务器'), { cause });
