import { reactive } from 'vue';
import type { createAppSession } from './app-session';

/**
 * Approving a device sign-in (`tianji login --web`, or any program using the SDK's startDeviceLogin; RFC 8628) in
 * either web app: the code the device shows, the request behind it (program, device, address, place, when), then
 * 批准 (after a proof of identity when the sign-in is older than ten minutes) or 拒绝. The server decides; the apps
 * only draw it.
 */

/** The request behind a code, as GET /api/auth/device/requests/{userCode} answers. */
export interface DeviceRequest {
  userCode: string;
  clientName: string;
  deviceLabel: string;
  ip: string;
  location: { zh: string; en: string };
  createdAt: string;
  expiresAt: string;
  /** The account the device asked for, when it named one (only that account may approve). */
  username: string | null;
}

/** What a person types or pastes (「abcd efgh」, 「ABCD-EFGH」, full-width letters) as the server prints it: `ABCD-EFGH`. */
export function userCodeOf(raw: string): string {
  const letters = raw
    .replace(/[Ａ-Ｚａ-ｚ]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .toUpperCase()
    .replace(/[^A-Z]/g, '')
    .slice(0, 8);
  return letters.length > 4 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}

export const USER_CODE_LENGTH = 9;

type AppSession = Pick<ReturnType<typeof createAppSession>, 'session' | 'call'>;
type WithProof = <T>(action: () => Promise<T>) => Promise<T>;

export function useDeviceApproval(app: AppSession, withProof: WithProof) {
  const { session, call } = app;
  const state = reactive({
    code: '',
    request: null as DeviceRequest | null,
    busy: false,
    /** How it ended on this page: approved or refused. */
    decided: null as 'approved' | 'denied' | null,
  });
  const path = () => ({ params: { path: { userCode: state.code } } });

  async function busy<T>(fn: () => Promise<T>): Promise<T> {
    state.busy = true;
    try {
      return await fn();
    } finally {
      state.busy = false;
    }
  }

  return {
    state,
    /** Takes typed input as a code (`userCodeOf`). */
    input(raw: string): void {
      state.code = userCodeOf(raw);
      state.request = null;
      state.decided = null;
    },
    complete: () => state.code.length === USER_CODE_LENGTH,
    /** Looks the code up; a wrong or expired one is the server's 404, shown by `call`. */
    lookup: () =>
      busy(async () => {
        state.decided = null;
        state.request = (await call(session.api.GET('/api/auth/device/requests/{userCode}', path())))
          .data as DeviceRequest;
      }),
    approve: () =>
      busy(async () => {
        await withProof(() => call(session.api.POST('/api/auth/device/requests/{userCode}/approve', path())));
        state.decided = 'approved';
      }),
    deny: () =>
      busy(async () => {
        await call(session.api.POST('/api/auth/device/requests/{userCode}/deny', path()));
        state.decided = 'denied';
      }),
  };
}
