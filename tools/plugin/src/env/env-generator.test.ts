import { readJson, type Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { packageFiles } from '../package-files.js';
import { RUNNER_MANIFEST } from '../tool/tool-generator.js';
import { envGenerator, normalizeEnvOptions } from './env-generator.js';

let tree: Tree;
beforeEach(() => {
  tree = createTreeWithEmptyWorkspace();
  // The Saccade workspace (it has packages/core): Saccade's packages are workspace dependencies.
  tree.write('packages/core/package.json', JSON.stringify({ name: '@saccade/core' }));
  tree.write('packages/envs/grid/package.json', JSON.stringify({ name: '@saccade/env-grid' }));
  tree.write(RUNNER_MANIFEST, JSON.stringify({ name: '@saccade/runner', dependencies: { '@saccade/core': 'workspace:^', '@saccade/env-grid': 'workspace:^' } }));
});

const written = (prefix: string) =>
  tree
    .listChanges()
    .map((change) => change.path)
    .filter((path) => path.startsWith(prefix))
    .sort();

describe('nx g @saccade/plugin:env', () => {
  it('writes the package: skeleton from the shared template, env, tests, README and example', async () => {
    await envGenerator(tree, { name: 'line-walk', description: 'Walk to the flag.', skipInstall: true });
    const folder = 'packages/envs/line-walk';
    expect(written(folder)).toEqual([
      `${folder}/README.md`,
      `${folder}/examples/line-walk.mjs`,
      `${folder}/package.json`,
      `${folder}/src/index.ts`,
      `${folder}/src/line-walk-env.test.ts`,
      `${folder}/src/line-walk-env.ts`,
      `${folder}/tsconfig.json`,
      `${folder}/vitest.config.ts`,
    ]);
    const skeleton = JSON.parse(packageFiles({ folder, name: '@saccade/env-line-walk', description: 'Walk to the flag.' })[`${folder}/package.json`]!);
    expect(readJson(tree, `${folder}/package.json`)).toEqual({
      ...skeleton,
      files: ['dist', 'examples', 'README.md'],
      dependencies: { '@saccade/core': 'workspace:^', '@saccade/spec': 'workspace:^' },
      saccade: { envs: ['registerLineWalkEnvs'] },
    });
    expect(tree.read(`${folder}/src/index.ts`, 'utf-8')).toBe(
      "export { LINE_WALK_ID, LineWalkEnv, registerLineWalkEnvs } from './line-walk-env';\nexport type { LineWalkEnvOptions } from './line-walk-env';\n",
    );
    const source = tree.read(`${folder}/src/line-walk-env.ts`, 'utf-8')!;
    expect(source).toContain("export const LINE_WALK_ID = 'saccade/LineWalk-v1';");
    expect(source).toContain('export class LineWalkEnv implements Env {');
    expect(source).toContain('description: "Walk to the flag."');
    expect(source).not.toMatch(/<%|%>|__fileName__/);
    expect(tree.read(`${folder}/src/line-walk-env.test.ts`, 'utf-8')).toContain('expect(await checkEnv(() => makeEnv(LINE_WALK_ID))).toMatchObject({ ok: true, failures: [] });');
    expect(tree.read(`${folder}/README.md`, 'utf-8')).toMatch(/^# @saccade\/env-line-walk\n\nWalk to the flag\.\n/);
    expect(tree.read(`${folder}/examples/line-walk.mjs`, 'utf-8')).toContain("import { LineWalkEnv } from '../dist/index.js';");
  });

  it('adds the package to the runner, sorted, where `saccade envs list` finds its envs; register: false leaves it alone', async () => {
    await envGenerator(tree, { name: 'dial', skipInstall: true });
    expect(Object.keys(readJson(tree, RUNNER_MANIFEST).dependencies)).toEqual(['@saccade/core', '@saccade/env-dial', '@saccade/env-grid']);
    const before = tree.read(RUNNER_MANIFEST, 'utf-8');
    expect(typeof (await envGenerator(tree, { name: 'gauge', register: false }))).toBe('function');
    expect(tree.read(RUNNER_MANIFEST, 'utf-8')).toBe(before);
  });

  it('derives the names, and refuses names it cannot use, an existing folder and a taken package name', async () => {
    expect(normalizeEnvOptions({ name: 'env-Colour Steps' as string })).toBeDefined();
    expect(normalizeEnvOptions({ name: 'line-walk' })).toMatchObject({ className: 'LineWalk', constantName: 'LINE_WALK', envId: 'saccade/LineWalk-v1', packageName: '@saccade/env-line-walk', folder: 'packages/envs/line-walk' });
    expect(() => normalizeEnvOptions({ name: '' })).toThrow('expected an env name such as line-walk, received none');
    expect(() => normalizeEnvOptions({ name: '9lives' })).toThrow(/expected an env name of letters, digits and dashes that starts with a letter/);
    await expect(envGenerator(tree, { name: 'grid', skipInstall: true })).rejects.toThrow('expected packages/envs/grid not to exist');
    tree.write('packages/envs/other/package.json', JSON.stringify({ name: '@saccade/env-mine' }));
    await expect(envGenerator(tree, { name: 'mine', skipInstall: true })).rejects.toThrow('packages/envs/other/package.json is @saccade/env-mine already');
  });
});
