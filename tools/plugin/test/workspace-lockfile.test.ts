import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { lockfileForProjects, readImporters } from './workspace-lockfile.js';

const LOCKFILE = `lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    devDependencies:
      vitest:
        specifier: 4.1.12
        version: 4.1.12(@types/node@20.19.43)

  packages/core:
    dependencies:
      '@saccade/spec':
        specifier: workspace:^
        version: link:../spec
      zod:
        specifier: ^4.1.0
        version: 4.6.7

  packages/spec: {}

packages:

  zod@4.6.7:
    resolution: {integrity: sha512-x}
`;

test('reads the importers of a pnpm 9 lockfile', () => {
  const importers = readImporters(LOCKFILE);
  expect([...importers.keys()]).toEqual(['.', 'packages/core', 'packages/spec']);
  expect(importers.get('packages/core')?.get('dependencies')?.get('zod')).toEqual({ specifier: '^4.1.0', version: '4.6.7' });
  expect(importers.get('packages/spec')?.size).toBe(0);
});

test("writes importers for the copy's projects from the versions the workspace resolved, links for workspace packages", () => {
  const written = lockfileForProjects(LOCKFILE, [
    { folder: 'packages/tools/probe', manifest: { name: '@saccade/tool-probe', dependencies: { zod: '^4.1.0', '@saccade/spec': 'workspace:^' } } },
    { folder: 'packages/spec', manifest: { name: '@saccade/spec' } },
    { folder: '.', manifest: { name: 'root', devDependencies: { vitest: '4.1.12' } } },
  ]);
  expect(written).toBe(`lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  '.':
    devDependencies:
      'vitest':
        specifier: '4.1.12'
        version: '4.1.12(@types/node@20.19.43)'

  'packages/spec': {}

  'packages/tools/probe':
    dependencies:
      '@saccade/spec':
        specifier: 'workspace:^'
        version: 'link:../../spec'
      'zod':
        specifier: '^4.1.0'
        version: '4.6.7'

packages:

  zod@4.6.7:
    resolution: {integrity: sha512-x}
`);
  // What it writes reads back the same way.
  expect(readImporters(written).get('packages/tools/probe')?.get('dependencies')?.get('@saccade/spec')).toEqual({ specifier: 'workspace:^', version: 'link:../../spec' });
});

test('names a dependency the workspace never resolved, and a workspace package the copy lacks', () => {
  expect(() => lockfileForProjects(LOCKFILE, [{ folder: 'a', manifest: { dependencies: { zod: '^3.0.0' } } }])).toThrow(
    "a/package.json depends on zod@^3.0.0, which no project of the workspace installs; an offline copy can only use what the workspace's lockfile resolved",
  );
  expect(() => lockfileForProjects(LOCKFILE, [{ folder: 'a', manifest: { dependencies: { '@saccade/core': 'workspace:^' } } }])).toThrow(
    'a/package.json depends on @saccade/core@workspace:^, but no project of the copied workspace is named @saccade/core',
  );
});

test("reads the repository's own lockfile", () => {
  const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const importers = readImporters(readFileSync(join(repo, 'pnpm-lock.yaml'), 'utf8'));
  const manifest = JSON.parse(readFileSync(join(repo, 'tools', 'plugin', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  expect(importers.get('tools/plugin')?.get('dependencies')?.get('@nx/devkit')?.specifier).toBe(manifest.dependencies['@nx/devkit']);
});
