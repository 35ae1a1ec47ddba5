/** The session behaviour (scenarios.ts) through spawned `tianji` processes: --json output and exit codes. */
import { cliDriver } from './drivers/cli.js';
import { describeClient } from './run.js';

describeClient('cli', cliDriver, { timeout: 120_000 });
