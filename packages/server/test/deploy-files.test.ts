import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { ALLOCATOR_ENV, SERVER_ENTRY } from '../../../scripts/launcher.mjs';
import { describeSettings } from '../src/config.js';

/**
 * Docker cannot run on every machine that runs the tests, so the deployment files are kept true by reading them:
 * every setting config.ts reads is wired (and nothing it does not read), as the settings page
 * (docs/guide/configuration.md) is checked.
 */
const root = new URL('../../../', import.meta.url);
const read = (file: string) => fs.readFileSync(new URL(file, root), 'utf8');
const settings = describeSettings()
  .map((s) => s.name)
  .sort();

describe('compose.yaml', () => {
  const text = read('compose.yaml');
  const compose = parse(text, { merge: true }) as {
    services: Record<string, { environment?: Record<string, unknown>; build?: unknown; depends_on?: unknown }>;
  };
  const instances = Object.entries(compose.services).filter(([, s]) => s.build);

  it('runs two instances behind a proxy, with PostgreSQL and Redis', () => {
    expect(instances.length).toBe(2);
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['proxy', 'postgres', 'redis']));
  });

  it('wires every setting from config.ts into each instance, and nothing else', () => {
    for (const [name, s] of instances) expect(Object.keys(s.environment ?? {}).sort(), name).toEqual(settings);
  });

  it('explains every setting with a comment on the line above', () => {
    const lines = text.split('\n');
    for (const name of settings) {
      const i = lines.findIndex((l) => new RegExp(`^\\s+${name}:`).test(l));
      expect(i, `${name} in compose.yaml`).toBeGreaterThan(0);
      // A comment directly above, or a comment block above a group of closely related settings.
      const above = lines
        .slice(Math.max(0, i - 3), i)
        .reverse()
        .find((l) => !/^\s+[A-Z_]+:/.test(l));
      expect(above?.trim().startsWith('#'), `comment above ${name}`).toBe(true);
    }
  });

  it('the proxy sends to the instances the compose file starts', () => {
    const nginx = read('deploy/nginx.conf');
    for (const [name] of instances) expect(nginx).toContain(`server ${name}:3000`);
  });
});

describe('Kubernetes manifests', () => {
  const docs = ['configmap.yaml', 'secret.yaml', 'deployment.yaml', 'service.yaml'].flatMap((f) =>
    parseAllDocuments(read(`deploy/kubernetes/${f}`)).map((d) => d.toJS()),
  );
  const byKind = (kind: string) => docs.find((d) => d.kind === kind);

  it('the ConfigMap and the Secret together hold every setting once, secrets in the Secret', () => {
    const config = Object.keys(byKind('ConfigMap').data);
    const secret = Object.keys(byKind('Secret').stringData);
    expect([...config, ...secret].sort()).toEqual(settings);
    expect(secret).toEqual(expect.arrayContaining(['JWT_SECRET', 'ADMIN_PASSWORD', 'DATABASE_URL']));
  });

  it('the Deployment probes /readyz and /healthz on the configured port, and takes its settings from both', () => {
    const container = byKind('Deployment').spec.template.spec.containers[0];
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(String(container.ports[0].containerPort)).toBe(byKind('ConfigMap').data.PORT);
    expect(container.envFrom.map((e: Record<string, { name: string }>) => Object.keys(e)[0]).sort()).toEqual([
      'configMapRef',
      'secretRef',
    ]);
    expect(byKind('Deployment').spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(10);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  it('builds and runs on the current Node.js LTS, every stage on the same image', () => {
    const images = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(image).toMatch(/^node:(22|24)-slim$/);
    expect(new Set(images).size).toBe(1);
  });

  it('ships the built documentation site beside the apps', () => {
    expect(dockerfile).toContain('COPY --from=build /app/docs/.vitepress/dist docs/.vitepress/dist');
  });

  it('runs as a non-root user, checks /readyz, and starts the built server', () => {
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/readyz/m);
    expect(dockerfile).toContain('packages/server/dist/server.js');
    // The files the runtime stage copies from the build must be what the build produces.
    const server = JSON.parse(read('packages/server/package.json')) as { main: string };
    expect(dockerfile).toContain(`packages/server/${server.main}`);
  });

  it('starts the server as npm start does: the same command, no node flags, the same allocator setting', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toBe('node scripts/start.mjs');
    // scripts/start.mjs runs SERVER_ENTRY through the launcher, which adds no node flag (start-launcher.test.ts).
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile);
    expect(cmd, 'a CMD line in exec form').not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(['node', SERVER_ENTRY]);
    for (const [name, value] of Object.entries(ALLOCATOR_ENV))
      expect(dockerfile, name).toMatch(new RegExp(`^\\s*(ENV )?${name}=${value}\\b`, 'm'));
  });
});
