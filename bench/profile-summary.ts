/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 40]`: the functions that took the most CPU in a V8
 * profile (`npm run bench -- --cpu-prof <folder>`), by self time and by total time, grouped by function and file.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '40' } },
});
if (!positionals[0]) throw new Error('usage: profile-summary.ts <file.cpuprofile> [--top 40]');
const profile = JSON.parse(fs.readFileSync(positionals[0], 'utf8')) as { nodes: ProfileNode[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const label = (n: ProfileNode) => {
  const url = n.callFrame.url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, '~/')
    .replace(`${process.cwd()}/`, '');
  return `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
};
const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
for (const n of profile.nodes) {
  const hits = n.hitCount ?? 0;
  if (!hits) continue;
  all += hits;
  self.set(label(n), (self.get(label(n)) ?? 0) + hits);
  // Every distinct frame on the stack gets the hits once (recursion counted once).
  const seen = new Set<string>();
  for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
    const l = label(byId.get(id)!);
    if (!seen.has(l)) total.set(l, (total.get(l) ?? 0) + hits);
    seen.add(l);
  }
}
const top = Number(values.top);
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (of ${all} samples)`);
  for (const [l, h] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * h) / all).toFixed(1).padStart(5)}%  ${l}`);
};
show('self time', self);
show('total time', total);
