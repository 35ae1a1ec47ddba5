/**
 * Vitest's global setup: builds what the selected test files serve (the web apps, the documentation site) once, in
 * the main process, before any worker starts, and only what is stale. `vitest run` of a server unit test builds
 * nothing; the first browser run of a fresh clone builds the apps here, not inside its test files' hooks.
 */
import type { TestProject } from 'vitest/node';
import { BUILDS, isStale, runBuild } from './builds.js';

export default async function setup(project: TestProject): Promise<void> {
  // The file filters given on the command line (`vitest run apps/admin`), none meaning every test file. Vitest keeps
  // them in a field it does not export a type for; should it go, every stale build is made (slower, still right).
  const pattern: unknown = Reflect.get(project.vitest, 'filenamePattern');
  const filters = Array.isArray(pattern) ? pattern.map(String) : [];
  const { testFiles } = await project.globTestFiles(filters);
  for (const b of Object.values(BUILDS)) {
    if (!testFiles.some((f) => b.usedBy.test(f.split('\\').join('/'))) || !isStale(b)) continue;
    const started = Date.now();
    await runBuild(b);
    console.log(`[tianji tests] built ${b.title} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}
