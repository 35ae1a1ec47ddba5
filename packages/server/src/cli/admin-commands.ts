import { transact } from '../db/transaction.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { recordAudit } from '../admin/audit/recorder.js';
import { AuthService, hashPassword, nowIso } from '../admin/auth/service.js';
import { TokenService } from '../admin/auth/tokens.js';
import { FailureStore } from '../admin/auth/throttle.js';
import { clearTotp } from '../admin/auth/mfa.js';
import { removePasskeys } from '../admin/auth/passkeys.js';
import { superRoleId } from '../admin/super-admin.js';
import { usernameKey } from '../admin/shared/username-key.js';
import { passwordPolicyProblem, type PasswordPolicy } from '../admin/auth/password-policy.js';

/** Exit codes: 0 done, 1 the command failed (e.g. no such user), 2 wrong usage, 78 bad configuration (as the server). */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2, CONFIG: 78 } as const;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** All of standard input, for --password-stdin (admin.ts reads process.stdin). */
  readStdin?(): Promise<string>;
}

export interface AdminCliOptions {
  /** PASSWORD_MIN_LENGTH / PASSWORD_MIN_SCORE: a chosen password below them must be changed at the next sign-in. */
  passwordPolicy?: PasswordPolicy;
}

export const USAGE = `Usage: npm run admin -- <command> [options]

Operator recovery for a locked-out installation. Works directly on the configured database (DATABASE_URL);
the server does not need to run.

Commands:
  reset-password <username> [--password <pw> | --password-stdin]
                                                    Set a new password (generated and printed when omitted),
                                                    sign the user out everywhere and clear their sign-in throttle.
  unlock <username>                                 Clear the sign-in throttle of the account (every address).
  create-super-admin <username> [--password <pw> | --password-stdin]
                                                    Create the user as super administrator, or enable an existing
                                                    user and give them the super administrator role.
  list-super-admins                                 List the users holding the super administrator role.
  reset-mfa <username>                              Turn TOTP two-step sign-in off and remove the passkeys of a
                                                    user who lost their devices and recovery codes (they may
                                                    enrol again).

Moving and saving the whole installation (docs/deploy.md, 从单机迁移到集群 / 备份与恢复):
  copy-database --to <postgres://… | sqlite:file> [--replace]
                                                    Copy every table of the configured database into an empty
                                                    database (migrated first), then compare row counts and
                                                    checksums of every table. --replace empties a target first.
  backup <file> [--replace]                         Write the configured database to one portable file
                                                    (gzipped JSON lines, either dialect), then check the file.
  restore <file> [--replace]                        Load a backup into the configured database, which must be
                                                    empty (--replace empties it first), then check it.

Passing --password puts it in your shell history: prefer --password-stdin (the first line of standard input,
e.g. from a password manager), or omit both to get a generated one, which its user must replace at the next
sign-in. A chosen password is scored by the same policy as the admin API (PASSWORD_MIN_LENGTH, PASSWORD_MIN_SCORE):
below it, the account must change it at the next sign-in.`;

const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;
const CLI_ACTOR = { actorId: null, actorUsername: '(cli)', ip: 'local' };

class UsageError extends Error {}
class CommandError extends Error {}

const generatePassword = () => randomBytes(12).toString('base64url');

function checkPassword(pw: string | undefined) {
  if (pw !== undefined && (pw.length < 8 || pw.length > 128))
    throw new UsageError('--password must be 8 to 128 characters');
}

/**
 * Whether the account must change `given` at the next sign-in: a generated password (undefined) was printed to a
 * terminal, and one chosen below the policy is weak; one chosen that meets it stands (typically the operator's own,
 * for their own locked-out account). Says why on `io` when the policy is the reason.
 */
async function mustChange(io: CliIo, given: string | undefined, policy: PasswordPolicy | undefined): Promise<boolean> {
  if (given === undefined) return true;
  const problem = policy && (await passwordPolicyProblem(given, policy));
  if (problem)
    io.out(
      `Note: the password is below the password policy (${problem}); the user must change it at the next sign-in.`,
    );
  return Boolean(problem);
}

/** AuthService ends sessions with database writes only; the key of this TokenService signs nothing. */
const sessions = (db: Kysely<Database>) => new AuthService(db, new TokenService(randomBytes(32), 60, 60));

async function resetPassword(
  db: Kysely<Database>,
  io: CliIo,
  username: string,
  given: string | undefined,
  policy: PasswordPolicy | undefined,
) {
  checkPassword(given);
  const user = await db
    .selectFrom('users')
    .select(['id', 'status'])
    .where('username', '=', username)
    .executeTakeFirst();
  if (!user) throw new CommandError(`no user named "${username}" (list-super-admins shows the super administrators)`);
  const password = given ?? generatePassword();
  const hash = await hashPassword(password);
  const mustChangePassword = (await mustChange(io, given, policy)) ? 1 : 0;
  await transact(db, async (trx) => {
    // Sessions before the user's row: the lock order of every session end (auth/service.ts endSessions).
    await sessions(db).invalidateSessions(user.id, trx, 'PASSWORD_CHANGED', null);
    await trx
      .updateTable('users')
      .set({ password_hash: hash, must_change_password: mustChangePassword, updated_at: nowIso() })
      .where('id', '=', user.id)
      .execute();
    await recordAudit(trx, {
      ...CLI_ACTOR,
      action: 'cli.reset-password',
      targetType: 'user',
      targetId: user.id,
      detail: { username },
    });
  });
  await new FailureStore(db).clearAccount(username);
  io.out(`Password of "${username}" reset; every session of this user is signed out and sign-in throttling cleared.`);
  if (!given) io.out(`New password: ${password}`);
  if (user.status !== 'enabled')
    io.out(`Note: "${username}" is disabled and cannot sign in; "create-super-admin ${username}" enables it.`);
}

async function createSuperAdmin(
  db: Kysely<Database>,
  io: CliIo,
  username: string,
  given: string | undefined,
  policy: PasswordPolicy | undefined,
) {
  if (!USERNAME.test(username)) throw new UsageError('username must be 3 to 32 characters: letters, digits, _ . -');
  checkPassword(given);
  const existing = await db
    .selectFrom('users')
    .select(['id', 'status'])
    .where('username', '=', username)
    .executeTakeFirst();
  const namesake = existing
    ? undefined
    : await db
        .selectFrom('users')
        .select('username')
        .where('username_key', '=', usernameKey(username))
        .executeTakeFirst();
  if (namesake)
    throw new CommandError(
      `"${username}" differs from the existing user "${namesake.username}" only by case or Unicode form; usernames must be unique regardless of these`,
    );
  const password = given ?? (existing ? undefined : generatePassword());
  const hash = password === undefined ? undefined : await hashPassword(password);
  const mustChangePassword = password !== undefined && (await mustChange(io, given, policy)) ? 1 : 0;
  const lines = await transact(db, async (trx) => {
    const roleId = await superRoleId(trx);
    const now = nowIso();
    const out: string[] = [];
    let userId = existing?.id;
    if (!userId) {
      userId = randomUUID();
      await trx
        .insertInto('users')
        .values({
          id: userId,
          username,
          username_key: usernameKey(username),
          nickname: '',
          password_hash: hash!,
          status: 'enabled',
          token_version: 0,
          must_change_password: mustChangePassword,
          created_at: now,
          updated_at: now,
        })
        .execute();
      out.push(`Created super administrator "${username}".`);
    } else {
      if (hash) await sessions(db).invalidateSessions(userId, trx, 'PASSWORD_CHANGED', null);
      await trx
        .updateTable('users')
        .set({
          status: 'enabled',
          updated_at: now,
          ...(hash ? { password_hash: hash, must_change_password: mustChangePassword } : {}),
        })
        .where('id', '=', userId)
        .execute();
      out.push(
        `"${username}" is ${existing!.status === 'enabled' ? 'enabled' : 'now enabled again'} and holds the super administrator role.`,
      );
      if (hash) out.push('Its password was replaced; its existing sessions are signed out.');
    }
    const has = await trx
      .selectFrom('user_roles')
      .select('role_id')
      .where('user_id', '=', userId)
      .where('role_id', '=', roleId)
      .executeTakeFirst();
    if (!has) await trx.insertInto('user_roles').values({ user_id: userId, role_id: roleId }).execute();
    const detail = {
      username,
      created: !existing,
      enabled: existing?.status === 'disabled',
      passwordSet: hash !== undefined,
    };
    await recordAudit(trx, {
      ...CLI_ACTOR,
      action: 'cli.create-super-admin',
      targetType: 'user',
      targetId: userId,
      detail,
    });
    return out;
  });
  for (const l of lines) io.out(l);
  if (!given && password) io.out(`Password: ${password}`);
}

async function unlock(db: Kysely<Database>, io: CliIo, username: string) {
  const cleared = await new FailureStore(db).clearAccount(username);
  const known = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  await recordAudit(db, {
    ...CLI_ACTOR,
    action: 'cli.unlock',
    targetType: 'user',
    targetId: known?.id ?? null,
    detail: { username, cleared },
  });
  io.out(
    `Sign-in throttling of "${username}" cleared (${cleared} counter${cleared === 1 ? '' : 's'}, from every address).`,
  );
  if (!known) io.out(`Note: there is no user named "${username}".`);
}

async function resetMfa(db: Kysely<Database>, io: CliIo, username: string) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'totp_enabled_at', 'totp_secret'])
    .where('username', '=', username)
    .executeTakeFirst();
  if (!user) throw new CommandError(`no user named "${username}"`);
  await clearTotp(db, user.id);
  // A passkey is a second step too (issue 53): one lost with the device must not keep working.
  const passkeys = await removePasskeys(db, user.id);
  await recordAudit(db, {
    ...CLI_ACTOR,
    action: 'cli.reset-mfa',
    targetType: 'user',
    targetId: user.id,
    detail: { username, wasEnabled: user.totp_enabled_at !== null, ...(passkeys > 0 && { passkeys }) },
  });
  io.out(
    user.totp_enabled_at
      ? `Two-step sign-in (TOTP) of "${username}" turned off; its recovery codes are deleted. The user signs in with the password alone and may enrol again.`
      : `"${username}" had no TOTP enabled; any pending setup was cleared.`,
  );
  if (passkeys > 0) io.out(`${passkeys} passkey${passkeys === 1 ? '' : 's'} of "${username}" removed.`);
}

async function listSuperAdmins(db: Kysely<Database>, io: CliIo) {
  const rows = await db
    .selectFrom('users')
    .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
    .select(['users.id', 'users.username', 'users.nickname', 'users.status'])
    .where('user_roles.role_id', '=', await superRoleId(db))
    .orderBy('users.username')
    .execute();
  if (rows.length === 0) io.out('No user holds the super administrator role.');
  for (const r of rows) io.out(`${r.username}\t${r.status}\t${r.id}${r.nickname ? `\t${r.nickname}` : ''}`);
  if (!rows.some((r) => r.status === 'enabled'))
    io.out('No enabled super administrator: run "create-super-admin <username>" to restore access.');
}

/** The password given with --password or on standard input (its first line), or undefined for a generated one. */
async function chosenPassword(io: CliIo, flag: string | undefined, fromStdin: boolean): Promise<string | undefined> {
  if (!fromStdin) return flag;
  if (flag !== undefined) throw new UsageError('give --password or --password-stdin, not both');
  if (!io.readStdin) throw new UsageError('--password-stdin: standard input cannot be read here');
  const password = (await io.readStdin()).split(/\r?\n/)[0];
  if (!password)
    throw new UsageError('--password-stdin: standard input is empty (expected the password on its first line)');
  return password;
}

/**
 * When argv asks for help or names no command: prints the usage and returns the exit code (0 for help, 2 for
 * nothing); otherwise undefined. Opens nothing, so `--help` never creates a database.
 */
export function answerHelp(argv: string[], io: CliIo): number | undefined {
  const help = argv.includes('--help') || argv.includes('-h');
  const command = argv.find((a) => !a.startsWith('-'));
  if (!help && command !== undefined && command !== 'help') return undefined;
  io.out(USAGE);
  return help || command === 'help' ? EXIT.OK : EXIT.USAGE;
}

/**
 * Runs one command against an open, migrated database and returns the exit code. Messages go to `io`
 * (stdout for results, stderr for errors), so tests call this directly.
 */
export async function runAdminCli(
  argv: string[],
  db: Kysely<Database>,
  io: CliIo,
  opts: AdminCliOptions = {},
): Promise<number> {
  const answered = answerHelp(argv, io);
  if (answered !== undefined) return answered;
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        password: { type: 'string', short: 'p' },
        'password-stdin': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    const [command, username, ...extra] = positionals;
    const needsUser = ['reset-password', 'create-super-admin', 'unlock', 'reset-mfa'].includes(command);
    if (needsUser && (!username || extra.length)) throw new UsageError(`${command} takes exactly one <username>`);
    const given = await chosenPassword(io, values.password, values['password-stdin'] ?? false);
    if (command === 'reset-password') await resetPassword(db, io, username, given, opts.passwordPolicy);
    else if (command === 'create-super-admin') await createSuperAdmin(db, io, username, given, opts.passwordPolicy);
    else if (command === 'list-super-admins') await listSuperAdmins(db, io);
    else if (command === 'unlock') await unlock(db, io, username);
    else if (command === 'reset-mfa') await resetMfa(db, io, username);
    else throw new UsageError(`unknown command "${command}"`);
    return EXIT.OK;
  } catch (e) {
    if (e instanceof CommandError) {
      io.err(`error: ${e.message}`);
      return EXIT.FAILED;
    }
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`error: ${(e as Error).message}\n\n${USAGE}`);
      return EXIT.USAGE;
    }
    io.err(`error: ${(e as Error).message}`);
    return EXIT.FAILED;
  }
}
