/**
 * Builds `data/chinese-color-blocks.json`: for each 8×8×8 block of the sRGB cube, every Chinese traditional colour
 * that is the nearest name (CIEDE2000 within the naming threshold) of at least one of the block's 512 colours.
 * nearestChineseColor then measures a hex colour against its block's few answers instead of the whole table, with
 * the same result (see chinese-colors.ts).
 *
 *   npx tsx scripts/build-chinese-color-blocks.ts
 *
 * Run it after any change to `data/chinese-colors.json` or to the threshold: until then the service ignores the stale
 * file (its fingerprint no longer matches) and measures every colour against the whole table, and
 * `chinese-colors.test.ts` fails. It measures all 16,777,216 colours with `nearestMatch` over the whole table, split
 * over one child process per CPU (about 3 CPU-minutes).
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { converter } from 'culori';
import {
  BLOCK_SIZE,
  BLOCKS_PER_SIDE,
  NAME_THRESHOLD,
  blockOf,
  blocksFingerprint,
  nearestMatch,
  type ColorBlocksFile,
} from '../packages/server/src/engines/color/chinese-colors.js';

/** The rows of the file for red block `red`: [green block][blue block] → the sorted indices of its answers. */
function blocksOfRed(red: number): number[][][] {
  const toLab = converter('lab65');
  const rgb = { mode: 'rgb' as const, r: 0, g: 0, b: 0 };
  const first = blockOf(red * BLOCK_SIZE, 0, 0);
  const sets = Array.from({ length: BLOCKS_PER_SIDE ** 2 }, () => new Set<number>());
  for (let r = red * BLOCK_SIZE; r < (red + 1) * BLOCK_SIZE; r++) {
    for (let g = 0; g < 256; g++) {
      for (let b = 0; b < 256; b++) {
        rgb.r = r / 255;
        rgb.g = g / 255;
        rgb.b = b / 255;
        const match = nearestMatch(toLab(rgb), NAME_THRESHOLD);
        if (match) sets[blockOf(r, g, b) - first].add(match.index);
      }
    }
  }
  const sorted = sets.map((set) => [...set].sort((x, y) => x - y));
  return Array.from({ length: BLOCKS_PER_SIDE }, (_, g) =>
    sorted.slice(g * BLOCKS_PER_SIDE, (g + 1) * BLOCKS_PER_SIDE),
  );
}

/** A child process: measures the red blocks it is given and sends each one's rows to the parent. */
async function child(reds: number[]): Promise<void> {
  for (const red of reds) {
    const message = { red, rows: blocksOfRed(red) };
    await new Promise<void>((resolve, reject) =>
      process.send!(message, undefined, {}, (err) => (err ? reject(err) : resolve())),
    );
  }
  process.disconnect();
}

/** The parent: one child per CPU, each taking every n-th red block; then the file. */
async function build(): Promise<void> {
  const started = Date.now();
  const byRed: number[][][][] = [];
  const workers = Math.min(availableParallelism(), BLOCKS_PER_SIDE);
  await Promise.all(
    Array.from({ length: workers }, (_, w) => {
      const reds = Array.from({ length: BLOCKS_PER_SIDE }, (_, r) => r).filter((r) => r % workers === w);
      const worker = fork(fileURLToPath(import.meta.url), ['--red', ...reds.map(String)], {
        execArgv: ['--import', import.meta.resolve('tsx')],
      });
      worker.on('message', (m: { red: number; rows: number[][][] }) => {
        byRed[m.red] = m.rows;
      });
      return new Promise<void>((resolve, reject) =>
        worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`child ${w} exited with ${code}`)))),
      );
    }),
  );

  const file: ColorBlocksFile = { fingerprint: blocksFingerprint(), blockSize: BLOCK_SIZE, blocks: byRed.flat() };
  // One (red, green) row of 32 blocks per line: a table change shows as a readable diff.
  const json = `{
  "fingerprint": ${JSON.stringify(file.fingerprint)},
  "blockSize": ${BLOCK_SIZE},
  "blocks": [
${file.blocks.map((row) => `    ${JSON.stringify(row)}`).join(',\n')}
  ]
}
`;
  writeFileSync(new URL('../data/chinese-color-blocks.json', import.meta.url), json);
  const lists = file.blocks.flat();
  console.log(
    `data/chinese-color-blocks.json: ${lists.length} blocks, ${lists.filter((l) => l.length === 0).length} with no name, ` +
      `at most ${Math.max(...lists.map((l) => l.length))} names in one (${(json.length / 1024).toFixed(0)} KiB, ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
}

if (process.argv[2] === '--red') await child(process.argv.slice(3).map(Number));
else await build();
