import { type Config, ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/index.js';
import { migrateToLatest } from '../db/migrate.js';
import { seedDatabase } from '../admin/seed.js';
import { EXIT, answerHelp, runAdminCli, type CliIo } from './admin-commands.js';
import { isDatabaseCommand, runDatabaseCli } from './database-commands.js';

/** All of standard input, as text (for --password-stdin). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `npm run admin -- <command>`: the operator's recovery tool. Opens the configured database (migrating and seeding
 * it like the server would, so it also works on a fresh installation), runs one command, and exits with its code.
 */
async function main(argv: string[]): Promise<number> {
  const io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l), readStdin };
  const answered = answerHelp(argv, io);
  if (answered !== undefined) return answered;
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      io.err(`tianji admin: ${e.message}`);
      return EXIT.CONFIG;
    }
    throw e;
  }
  // These read or fill the whole database as it is: no migration or first-start seed before them.
  if (isDatabaseCommand(argv)) return runDatabaseCli(argv, config.databaseUrl, io);
  const db = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db);
    const seeded = await seedDatabase(db.kysely, {
      adminUsername: config.adminUsername,
      adminPassword: config.adminPassword,
      passwordPolicy: config.passwordPolicy,
    });
    if (seeded.weakPassword)
      io.out(
        `(ADMIN_PASSWORD is below the password policy: ${seeded.weakPassword}; "${config.adminUsername}" must change it at the first sign-in)`,
      );
    if (seeded.generatedPassword)
      io.out(
        `(empty database: created the first super administrator "${config.adminUsername}" with password ${seeded.generatedPassword})`,
      );
    return await runAdminCli(argv, db.kysely, io, { passwordPolicy: config.passwordPolicy });
  } catch (e) {
    io.err(`tianji admin: cannot use the database: ${(e as Error).message}`);
    return EXIT.FAILED;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error('tianji admin failed:', e instanceof Error ? e.message : e);
    process.exitCode = EXIT.FAILED;
  },
);
