/**
 * The signed-in session of one profile, on @tianji/client's file storage (which holds the cross-process refresh
 * lock), plus the small helpers every command uses to call the server.
 */
import { ApiError, createSession, fileStorage, type TianjiSession, type TokenStorage } from '@tianji/client/node';
import { InvalidArgumentError, type Command } from 'commander';
import {
  credentialsPath,
  DEFAULT_SERVER,
  namedProfile,
  profileName,
  profilesFileForPeople,
  readProfiles,
  type Profile,
  type ProfilesFile,
} from './config.js';
import { CliError, describeFailure, emit, EXIT, type LastRejection, type Output } from './output.js';

export interface GlobalOptions {
  profile?: string;
  json?: boolean;
}

export interface Context {
  profile: string;
  settings: Profile;
  session: TianjiSession;
  storage: TokenStorage;
  json: boolean;
  /** The reason the server gave with its last 401 (TOKEN_EXPIRED, SESSION_ENDED, …). */
  rejection: LastRejection;
}

/**
 * A profile someone named (--profile, TIANJI_PROFILE) that was never created is said so, with where profiles live and
 * how to make one — not "not signed in", which would send them to log in to the default server.
 */
export function missingProfile(name: string, file: ProfilesFile, where: string): CliError {
  const known = Object.keys(file.profiles);
  return new CliError(
    EXIT.USAGE,
    `配置 "${name}" 不存在（profile "${name}" does not exist）。` +
      `已有的配置：${known.length ? known.join(', ') : '（无）'}，保存在 ${where}；` +
      `新建请运行 tianji --profile ${name} login --server <服务器地址>，查看请运行 tianji profiles list`,
    'PROFILE_NOT_FOUND',
  );
}

/** `create`: the command makes the profile (login), so a new name is welcome. */
export function openContext(opts: GlobalOptions, server?: string, { create = false } = {}): Context {
  const profile = profileName(opts.profile);
  const file = readProfiles();
  const named = namedProfile(opts.profile);
  if (named && !create && !Object.hasOwn(file.profiles, named))
    throw missingProfile(named, file, profilesFileForPeople());
  const stored = file.profiles[profile];
  const settings: Profile = { ...stored, server: server ?? stored?.server ?? DEFAULT_SERVER };
  const rejection: LastRejection = {};
  const storage = fileStorage(credentialsPath(profile));
  const session = createSession({
    baseUrl: settings.server,
    // The session lists and the login log then say 命令行, not SDK.
    clientKind: 'cli',
    storage,
    fetch: async (req) => {
      const res = await fetch(req);
      if (res.status === 401) {
        const body = (await res
          .clone()
          .json()
          .catch(() => ({}))) as LastRejection;
        rejection.code = body.code;
        rejection.message = body.message;
      }
      return res;
    },
  });
  return { profile, settings, session, storage, json: Boolean(opts.json), rejection };
}

/** Unwraps an openapi-fetch answer: the `data` of the envelope, or the server's error as an ApiError. */
export async function unwrap<T>(
  call: Promise<{ data?: { data: T }; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw ApiError.fromBody(response, error);
  return data?.data as T;
}

/** A call the generated types do not know (content libraries by name, routes newer than this client). */
export async function raw<T = unknown>(ctx: Context, method: string, path: string, body?: unknown): Promise<T> {
  const res = await ctx.session.fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw await ApiError.from(res);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  if (!text) return undefined as T;
  const parsed = JSON.parse(text) as { data?: T };
  return (parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed) as T;
}

/**
 * Wraps a command's action: opens the profile's session, runs, prints (table or --json) and turns any failure into
 * its exit code. Commander passes the positional arguments, then the options, then the command itself.
 */
export function action<A extends unknown[]>(fn: (ctx: Context, ...args: A) => Promise<Output | undefined>) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const ctx = openContext(cmd.optsWithGlobals<GlobalOptions>());
    try {
      const out = await fn(ctx, ...(args.slice(0, -1) as A));
      if (out) emit(out, ctx.json);
    } catch (e) {
      throw describeFailure(e, ctx.rejection, ctx.settings.server);
    } finally {
      ctx.session.close();
    }
  };
}

/** `--page 2`: a whole number from `min` (1 unless said), or a usage error naming the option. */
export function positiveInt(name: string, max = Number.MAX_SAFE_INTEGER, min = 1) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) {
      throw new InvalidArgumentError(`${name} 必须是 ${min} 到 ${max} 之间的整数（got ${value}）`);
    }
    return n;
  };
}
