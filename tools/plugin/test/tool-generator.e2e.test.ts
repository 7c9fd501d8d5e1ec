// End to end: `nx g @saccade/plugin:tool` for real, in a copy of the workspace in a temporary
// folder (root config, the plugin, spec and core with their builds), installed offline from the pnpm
// store the workspace install filled. The generated package must install, build, typecheck, lint,
// pass its own tests, and export, under the names its package.json lists, tools that pass
// checkTool. Nothing is written in the repository, whether the test passes or fails.
//
// The copy installs with a frozen lockfile written from the workspace's (workspace-lockfile.ts), from
// the store the workspace's node_modules came from, with empty pnpm cache, data and state folders:
// it needs no package metadata, which only a machine that once resolved would have cached.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { lockfileForProjects, type Project } from './workspace-lockfile.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const pnpm = join(repo, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
// vitest.shared.js's global setup lives in tools/scripts.
const ROOT_FILES = ['package.json', 'pnpm-workspace.yaml', 'pnpm-lock.yaml', 'nx.json', 'tsconfig.base.json', 'vitest.shared.js', 'eslint.config.js', 'tools/scripts/test-temp-folder.mjs'];
const FOLDERS = ['tools/plugin', 'packages/spec', 'packages/core'];
const SKIPPED = /[/\\](node_modules|\.test-results|\.nx)$/;

// The child processes must see the copy as their workspace: no nx, npm, pnpm or vitest variables
// of the run that started this test (NX_WORKSPACE_ROOT_PATH would point nx at the repository).
// Its pnpm caches, data and state start empty (XDG_* folders beside the copy).
let childEnv: NodeJS.ProcessEnv;

let base: string;
let workspace: string;
// What `nx g` printed for each generated package (both are generated, then installed once, before the tests).
let generatedTool: string;
let generatedEnv: string;
const run = (args: string[], cwd = workspace) =>
  stripVTControlCharacters(execFileSync(process.execPath, args, { cwd, env: childEnv, encoding: 'utf8', stdio: 'pipe', timeout: 120_000 }));
const runAsync = async (args: string[], cwd: string) =>
  stripVTControlCharacters((await promisify(execFile)(process.execPath, args, { cwd, env: childEnv, encoding: 'utf8', timeout: 120_000 })).stdout);

/** The store the workspace's node_modules were installed from, as pnpm recorded it. */
function workspaceStore(): string {
  const modules = join(repo, 'node_modules', '.modules.yaml');
  if (!existsSync(modules)) throw new Error(`expected the workspace to be installed (${modules} is missing)`);
  const storeDir = (JSON.parse(readFileSync(modules, 'utf8')) as { storeDir?: unknown }).storeDir;
  if (typeof storeDir !== 'string') throw new Error(`expected a storeDir in ${modules}, received ${JSON.stringify(storeDir)}`);
  return storeDir;
}

/** The copy's projects, found as pnpm-workspace.yaml lists them (`dir/*` or one folder). */
function projects(): Project[] {
  const listed = readFileSync(join(workspace, 'pnpm-workspace.yaml'), 'utf8').split('\n');
  const patterns: string[] = [];
  for (const line of listed.slice(listed.findIndex((text) => text.trim() === 'packages:') + 1)) {
    const entry = /^\s+-\s+['"]?([^'"#\s]+)['"]?/.exec(line);
    if (!entry?.[1]) break;
    patterns.push(entry[1]);
  }
  const folders = patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return existsSync(join(workspace, parent)) ? readdirSync(join(workspace, parent)).map((name) => `${parent}/${name}`) : [];
  });
  return ['.', ...folders]
    .filter((folder) => existsSync(join(workspace, folder, 'package.json')))
    .map((folder) => ({ folder, manifest: JSON.parse(readFileSync(join(workspace, folder, 'package.json'), 'utf8')) as Project['manifest'] }));
}

// Offline and frozen: pnpm resolves nothing, so it needs no metadata, and takes every package from
// the workspace's store. The lockfile is the workspace's, with importers for the copy's projects.
const install = () => {
  writeFileSync(join(workspace, 'pnpm-lock.yaml'), lockfileForProjects(readFileSync(join(repo, 'pnpm-lock.yaml'), 'utf8'), projects()));
  run([pnpm, 'install', '--offline', '--frozen-lockfile', '--ignore-scripts', `--store-dir=${workspaceStore()}`, '--reporter=silent']);
};

beforeAll(() => {
  if (!existsSync(join(repo, 'packages', 'core', 'dist', 'index.js'))) throw new Error('expected @saccade/core to be built (nx runs its build before this test)');
  base = mkdtempSync(join(tmpdir(), 'saccade-tool-generator-'));
  workspace = join(base, 'workspace');
  const home = (name: string) => {
    const folder = join(base, name);
    mkdirSync(folder);
    return folder;
  };
  childEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(NX_|npm_|PNPM_|VITEST|FORCE_COLOR$|INIT_CWD$|TEST$|NODE_ENV$)/i.test(key))),
    NO_COLOR: '1',
    NX_DAEMON: 'false',
    NX_TUI: 'false',
    NX_NO_CLOUD: 'true',
    NX_SKIP_NX_CACHE: 'true',
    XDG_CACHE_HOME: home('cache'),
    XDG_DATA_HOME: home('data'),
    XDG_STATE_HOME: home('state'),
  };
  for (const file of ROOT_FILES) {
    mkdirSync(dirname(join(workspace, file)), { recursive: true });
    cpSync(join(repo, file), join(workspace, file));
  }
  for (const folder of FOLDERS) cpSync(join(repo, folder), join(workspace, folder), { recursive: true, filter: (source) => !SKIPPED.test(source) });
  // A runner to register with: its dependencies are where `saccade tools list` looks.
  mkdirSync(join(workspace, 'apps', 'runner'), { recursive: true });
  writeFileSync(join(workspace, 'apps', 'runner', 'package.json'), JSON.stringify({ name: '@saccade/runner', version: '0.1.0', private: true, type: 'module', dependencies: {} }, null, 2));
  install();
  // A tool package and an env package side by side, as a user adds them, then one install for both.
  generatedTool = run([join('node_modules', 'nx', 'dist', 'bin', 'nx.js'), 'g', '@saccade/plugin:tool', 'probe-reader', '--description=Reads probes.', '--skipInstall', '--no-interactive']);
  generatedEnv = run([join('node_modules', 'nx', 'dist', 'bin', 'nx.js'), 'g', '@saccade/plugin:env', 'line-walk', '--description=Walk to the flag.', '--skipInstall', '--no-interactive']);
  install();
}, 180_000);

afterAll(() => {
  if (base !== undefined) rmSync(base, { recursive: true, force: true });
});

test('a generated tool package installs, builds, passes its tests and checkTool, and is registered with the runner', { timeout: 240_000 }, async () => {
  expect(generatedTool).toContain('CREATE packages/tools/probe-reader/src/probe-reader-tool.ts');
  expect(generatedTool).toContain('UPDATE apps/runner/package.json');

  const folder = join(workspace, 'packages', 'tools', 'probe-reader');
  // The build first (the check below imports dist); typecheck, lint and the package's tests side by side.
  run([pnpm, 'run', '--silent', 'build'], folder);
  const [, , tested] = await Promise.all(['typecheck', 'lint', 'test'].map((script) => runAsync([pnpm, 'run', '--silent', script], folder)));
  expect(tested).toMatch(/Tests\s+5 passed \(5\)/);

  // What the runner does: follow its dependencies to the package.json that lists tools, import them, check each.
  const runnerLink = join(workspace, 'apps', 'runner', 'node_modules', '@saccade', 'tool-probe-reader', 'package.json');
  expect(JSON.parse(readFileSync(runnerLink, 'utf8')).saccade).toEqual({ tools: ['probeReaderTool'] });
  const check = `
    import { readFileSync } from 'node:fs';
    import { checkTool } from '@saccade/core';
    import { RED_PIXEL_PNG } from '@saccade/core/testing';
    const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
    const module = await import('./dist/index.js');
    const reports = [];
    for (const name of manifest.saccade.tools) reports.push(await checkTool(module[name], { sampleInput: { image: 0 }, images: [RED_PIXEL_PNG] }));
    console.log(JSON.stringify(reports));`;
  expect(JSON.parse(run(['--input-type=module', '-e', check], folder))).toEqual([{ ok: true, toolName: 'probe_reader', failures: [] }]);
});

test('a generated env package installs, builds, passes its tests and checkEnv, and is registered with the runner', { timeout: 240_000 }, async () => {
  expect(generatedEnv).toContain('CREATE packages/envs/line-walk/src/line-walk-env.ts');
  expect(generatedEnv).toContain('UPDATE apps/runner/package.json');

  const folder = join(workspace, 'packages', 'envs', 'line-walk');
  run([pnpm, 'run', '--silent', 'build'], folder);
  const [, , tested] = await Promise.all(['typecheck', 'lint', 'test'].map((script) => runAsync([pnpm, 'run', '--silent', script], folder)));
  expect(tested).toMatch(/Tests\s+4 passed \(4\)/);

  // What the runner does: follow its dependencies to the package.json that lists env registrations, call them, list and check the envs.
  const runnerLink = join(workspace, 'apps', 'runner', 'node_modules', '@saccade', 'env-line-walk', 'package.json');
  expect(JSON.parse(readFileSync(runnerLink, 'utf8')).saccade).toEqual({ envs: ['registerLineWalkEnvs'] });
  const check = `
    import { readFileSync } from 'node:fs';
    import { checkEnv, listEnvs, makeEnv } from '@saccade/core';
    const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
    const module = await import('./dist/index.js');
    for (const name of manifest.saccade.envs) module[name]();
    const report = await checkEnv(() => makeEnv('saccade/LineWalk-v1'));
    console.log(JSON.stringify({ ids: listEnvs(), ok: report.ok, failures: report.failures }));`;
  expect(JSON.parse(run(['--input-type=module', '-e', check], folder))).toEqual({ ids: ['saccade/LineWalk-v1'], ok: true, failures: [] });
});
