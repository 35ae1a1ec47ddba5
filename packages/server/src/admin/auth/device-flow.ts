import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, DeviceAuthorizationsTable } from '../../db/schema.js';
import { AppError, conflict, devicePoll } from '../../errors.js';
import { usernameKey } from '../shared/username-key.js';
import { newDeviceCode, newUserCode, normalizeUserCode } from './device-codes.js';
import { sha256 } from './tokens.js';
import { Throttled } from './throttle.js';
import type { ClientKind } from '../sessions/device.js';

/**
 * The device authorization grant (RFC 8628, issue 53) over its table: a device asks for a code, a signed-in person
 * approves or refuses it by its user code, the device polls with its device code and gets its session once. The
 * routes (device-routes.ts) add the throttle, the proof of identity, the session and the logs.
 */

/** How long a code lives (seconds). */
export const DEVICE_CODE_TTL_S = 600;
/** The least wait between two polls of a device (seconds); each SLOW_DOWN adds SLOW_DOWN_STEP_S (RFC 8628 §3.5). */
export const DEVICE_POLL_INTERVAL_S = 5;
export const SLOW_DOWN_STEP_S = 5;
/** New codes one address may ask for within CODE_WINDOW_MS. */
export const CODES_PER_ADDRESS = 10;
export const CODE_WINDOW_MS = 10 * 60_000;
/** Rows expired longer than this are deleted at the next code request. */
const KEEP_EXPIRED_MS = 24 * 60 * 60_000;

export const UNKNOWN_USER_CODE_MESSAGE = '授权码不存在或已过期 (device code not found or expired)';

/**
 * A user code that names no request awaiting a decision: unknown, mistyped, expired, decided or used. The sign-in
 * throttle counts these per (account, address), so codes cannot be found by trying.
 */
export class UnknownUserCode extends AppError {
  constructor() {
    super('NOT_FOUND', UNKNOWN_USER_CODE_MESSAGE);
  }
}

export interface DeviceRequest {
  clientName: string;
  usernameHint: string | null;
  ip: string;
  userAgent: string;
  deviceLabel: string;
  clientKind: ClientKind;
}

/** Who decides, as the guard read them for this request. */
export interface Approver {
  id: string;
  username: string;
  tokenVersion: number;
  amr: readonly string[];
}

export type DeviceRow = Selectable<DeviceAuthorizationsTable>;

/** An approval the device's poll has just claimed: the session to start is the approver's. */
export interface ClaimedApproval {
  row: DeviceRow;
  approverId: string;
  approverVersion: number;
  amr: string[];
}

export class DeviceFlowService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  private iso(offsetMs = 0) {
    return new Date(this.now() + offsetMs).toISOString();
  }

  /**
   * A new request: its device code (returned once, stored as its hash) and user code. Refused with 429 when the
   * address asked for CODES_PER_ADDRESS codes within CODE_WINDOW_MS; rows long expired are pruned first.
   */
  async start(req: DeviceRequest): Promise<{ deviceCode: string; userCode: string }> {
    await this.db.deleteFrom('device_authorizations').where('expires_at', '<', this.iso(-KEEP_EXPIRED_MS)).execute();
    const recent = await this.db
      .selectFrom('device_authorizations')
      .select(['created_at'])
      .where('ip', '=', req.ip.slice(0, 64))
      .where('created_at', '>', this.iso(-CODE_WINDOW_MS))
      .orderBy('created_at', 'desc')
      .limit(CODES_PER_ADDRESS)
      .execute();
    if (recent.length >= CODES_PER_ADDRESS) {
      // The oldest of the last CODES_PER_ADDRESS leaves the window first.
      const wait = Date.parse(recent[recent.length - 1].created_at) + CODE_WINDOW_MS - this.now();
      throw new Throttled(
        wait,
        `device:${req.ip}`,
        '此地址申请登录码过于频繁',
        'too many device codes from this address',
      );
    }
    const deviceCode = newDeviceCode();
    const userCode = await this.freeUserCode();
    await this.db
      .insertInto('device_authorizations')
      .values({
        id: randomUUID(),
        device_code_hash: sha256(deviceCode),
        user_code: userCode,
        client_name: req.clientName,
        username_hint: req.usernameHint,
        ip: req.ip.slice(0, 64),
        user_agent: req.userAgent.slice(0, 255),
        device_label: req.deviceLabel.slice(0, 128),
        client_kind: req.clientKind,
        status: 'pending',
        approved_by: null,
        approver_token_version: null,
        approver_amr: null,
        interval_seconds: DEVICE_POLL_INTERVAL_S,
        last_polled_at: null,
        created_at: this.iso(),
        expires_at: this.iso(DEVICE_CODE_TTL_S * 1000),
        decided_at: null,
        session_id: null,
      })
      .execute();
    return { deviceCode, userCode };
  }

  /** A user code no live request holds (20^8 codes: a clash is rare, but two live requests must never share one). */
  private async freeUserCode(): Promise<string> {
    for (;;) {
      const code = newUserCode();
      const taken = await this.db
        .selectFrom('device_authorizations')
        .select('id')
        .where('user_code', '=', code)
        .where('expires_at', '>', this.iso())
        .executeTakeFirst();
      if (!taken) return code;
    }
  }

  /** The live (unexpired) request of a user code as typed, whatever its status; null when there is none. */
  private async live(input: string): Promise<DeviceRow | null> {
    const code = normalizeUserCode(input);
    if (!code) return null;
    const row = await this.db
      .selectFrom('device_authorizations')
      .selectAll()
      .where('user_code', '=', code)
      .where('expires_at', '>', this.iso())
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row ?? null;
  }

  /** The request awaiting a decision under this user code; UnknownUserCode (404) for anything else. */
  async pending(input: string): Promise<DeviceRow> {
    const row = await this.live(input);
    if (row?.status !== 'pending') throw new UnknownUserCode();
    return row;
  }

  /**
   * Approves or refuses the request of a user code, once: 404 (UnknownUserCode) when no live request has it, 409
   * when it was decided already (or concurrently: the write is conditional on `pending`), 403 when it was asked for
   * another account (`username` at the code request).
   */
  async decide(input: string, approver: Approver, verdict: 'approved' | 'denied'): Promise<DeviceRow> {
    const row = await this.live(input);
    if (!row) throw new UnknownUserCode();
    if (row.status !== 'pending') throw alreadyDecided();
    if (row.username_hint !== null && usernameKey(row.username_hint) !== usernameKey(approver.username))
      throw new AppError(
        'FORBIDDEN',
        `此授权码是为用户「${row.username_hint}」申请的，只有该用户可以${verdict === 'approved' ? '批准' : '拒绝'}` +
          ' (this code was requested for another account)',
      );
    const approved = verdict === 'approved';
    const done = await this.db
      .updateTable('device_authorizations')
      .set({
        status: verdict,
        approved_by: approved ? approver.id : null,
        approver_token_version: approved ? approver.tokenVersion : null,
        approver_amr: approved ? approver.amr.join(',') : null,
        decided_at: this.iso(),
      })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', this.iso())
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw alreadyDecided();
    return row;
  }

  /**
   * A device's poll. An approved request is claimed here, exactly once (`approved → consumed` is one conditional
   * write, so of concurrent polls one wins); every other state throws its RFC 8628 answer: AUTHORIZATION_PENDING,
   * SLOW_DOWN (polled within the interval, which grows), ACCESS_DENIED, EXPIRED_TOKEN (expired, unknown, or already
   * used: the device starts again either way).
   */
  async poll(deviceCode: string): Promise<ClaimedApproval> {
    const now = this.iso();
    const row = await this.db
      .selectFrom('device_authorizations')
      .selectAll()
      .where('device_code_hash', '=', sha256(deviceCode))
      .executeTakeFirst();
    if (!row) throw devicePoll('EXPIRED_TOKEN', 'unknown device code');
    if (row.status === 'consumed') throw devicePoll('EXPIRED_TOKEN', 'this code has already been used');
    if (row.status === 'denied') throw devicePoll('ACCESS_DENIED');
    if (row.expires_at <= now) throw devicePoll('EXPIRED_TOKEN');
    if (row.status === 'approved') {
      const claimed = await this.db
        .updateTable('device_authorizations')
        .set({ status: 'consumed', last_polled_at: now })
        .where('id', '=', row.id)
        .where('status', '=', 'approved')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw devicePoll('EXPIRED_TOKEN', 'this code has already been used');
      return {
        row,
        approverId: row.approved_by ?? '',
        approverVersion: Number(row.approver_token_version),
        amr: row.approver_amr ? row.approver_amr.split(',') : ['pwd'],
      };
    }
    const interval = Number(row.interval_seconds);
    if (row.last_polled_at !== null && this.now() - Date.parse(row.last_polled_at) < interval * 1000) {
      const slower = interval + SLOW_DOWN_STEP_S;
      await this.db
        .updateTable('device_authorizations')
        .set({ interval_seconds: slower, last_polled_at: now })
        .where('id', '=', row.id)
        .execute();
      throw devicePoll('SLOW_DOWN', `poll at most every ${slower} s`);
    }
    await this.db.updateTable('device_authorizations').set({ last_polled_at: now }).where('id', '=', row.id).execute();
    throw devicePoll('AUTHORIZATION_PENDING');
  }

  /** Ties the session the device got to its request (for the record). */
  async issued(id: string, sessionId: string): Promise<void> {
    await this.db.updateTable('device_authorizations').set({ session_id: sessionId }).where('id', '=', id).execute();
  }
}

const alreadyDecided = () => conflict('此授权码已被批准或拒绝，不能再次处理 (this code has already been decided)');
