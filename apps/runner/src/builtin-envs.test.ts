import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTool, listEnvs, unregisterTool } from '@saccade/core';
import { afterAll, describe, expect, test } from 'vitest';
import { findEnvPackages, registerBuiltinEnvs } from './builtin-envs';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-env-packages-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const writeJson = (path: string, value: unknown) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
};

describe('env packages are found through their package.json', () => {
  test('the runner registers the envs of its dependencies that declare "saccade": {"envs"}', async () => {
    const manifest = join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
    expect(findEnvPackages(manifest).map(({ name, register }) => ({ name, register }))).toEqual([
      { name: '@saccade/env-grid', register: ['registerGridEnvs'] },
      { name: '@saccade/env-grounded', register: ['registerGroundingEnvs'] },
      { name: '@saccade/env-procedural', register: ['registerProceduralEnvs'] },
      { name: '@saccade/env-remote', register: ['registerRemoteEnvs'] },
      { name: '@saccade/env-vqa', register: ['registerVqaEnvs'] },
    ]);
    await registerBuiltinEnvs(manifest);
    const ids = listEnvs();
    expect(ids).toEqual(expect.arrayContaining(['saccade/FrozenLake-v1', 'saccade/VisualSearch-v1', 'saccade/VisionQA-v1', 'saccade/GroundedVisualSearch-v1', 'saccade/Remote-v1']));
  });

  test('the tools env packages call through the registry (saccade.usesTools) are registered with their factories', async () => {
    const manifest = join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
    expect(findEnvPackages(manifest).find(({ name }) => name === '@saccade/env-grounded')?.usesTools).toEqual(['search_coordinate']);
    unregisterTool('search_coordinate');
    await registerBuiltinEnvs(manifest);
    // The grounded envs make the crop of each task's preset (web: 512 px) from the factory tool-zoom's package.json names.
    expect(createTool('search_coordinate', { offset: 100, cropSize: 512, dot: { radius: 7 } }).description).toBe(
      'Look closely at a point of the original image: returns the region around coordinate [x, y] (pixels of the image), enlarged to 512 × 512.',
    );
  });

  test('packages without the field are skipped; a malformed field names the package', () => {
    const project = join(scratch, 'project');
    writeJson(join(project, 'package.json'), { dependencies: { 'my-env': '1.0.0', 'a-tool': '1.0.0', missing: '1.0.0' } });
    writeJson(join(project, 'node_modules', 'my-env', 'package.json'), { name: 'my-env', saccade: { envs: ['registerMyEnvs'] } });
    writeJson(join(project, 'node_modules', 'a-tool', 'package.json'), { name: 'a-tool', saccade: { tools: ['aTool'] } });
    expect(findEnvPackages(join(project, 'package.json'))).toEqual([{ name: 'my-env', directory: join(project, 'node_modules', 'my-env'), register: ['registerMyEnvs'] }]);
    writeJson(join(project, 'node_modules', 'my-env', 'package.json'), { name: 'my-env', saccade: { envs: 'registerMyEnvs' } });
    expect(() => findEnvPackages(join(project, 'package.json'))).toThrow('expected the package.json of my-env to have "saccade": {"envs": ["<export that registers envs>", …]}, it has {"envs":"registerMyEnvs"}');
    writeJson(join(project, 'node_modules', 'my-env', 'package.json'), { name: 'my-env', saccade: { envs: ['registerMyEnvs'], usesTools: 'crop' } });
    expect(() => findEnvPackages(join(project, 'package.json'))).toThrow('expected saccade.usesTools of my-env to be an array of tool names, it has "crop"');
  });
});
