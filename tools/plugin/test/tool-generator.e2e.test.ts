// End to end: `nx g @saccade/plugin:tool` for real, in a copy of the workspace in a temporary
// folder (root config, the plugin, spec and core with their builds), installed offline from the pnpm
// store the workspace install filled. The generated package must install, build, typecheck, lint,
// pass its own tests, and export, under the names its package.json lists, tools that pass
// checkTool. Nothing is written in the repository, whether the test passes or fails.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const pnpm = join(repo, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
// vitest.shared.js's global setup lives in tools/scripts.
const ROOT_FILES = ['package.json', 'pnpm-workspace.yaml', 'pnpm-lock.yaml', 'nx.json', 'tsconfig.base.json', 'vitest.shared.js', 'eslint.config.js', 'tools/scripts/test-temp-folder.mjs'];
const FOLDERS = ['tools/plugin', 'packages/spec', 'packages/core'];
const SKIPPED = /[/\\](node_modules|\.test-results|\.nx)$/;

// The child processes must see the copy as their workspace: no nx, npm, pnpm or vitest variables
// of the run that started this test (NX_WORKSPACE_ROOT_PATH would point nx at the repository).
const childEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(NX_|npm_|PNPM_|VITEST|FORCE_COLOR$|INIT_CWD$|TEST$|NODE_ENV$)/i.test(key))),
  NO_COLOR: '1',
  NX_DAEMON: 'false',
  NX_TUI: 'false',
  NX_NO_CLOUD: 'true',
  NX_SKIP_NX_CACHE: 'true',
};

let workspace: string;
const run = (args: string[], cwd = workspace) =>
  stripVTControlCharacters(execFileSync(process.execPath, args, { cwd, env: childEnv, encoding: 'utf8', stdio: 'pipe', timeout: 120_000 }));
const runAsync = async (args: string[], cwd: string) =>
  stripVTControlCharacters((await promisify(execFile)(process.execPath, args, { cwd, env: childEnv, encoding: 'utf8', timeout: 120_000 })).stdout);
// Offline: everything comes from the store; the copied lockfile is updated in the copy only.
const install = () => run([pnpm, 'install', '--offline', '--ignore-scripts', '--no-frozen-lockfile', '--reporter=silent']);

beforeAll(() => {
  if (!existsSync(join(repo, 'packages', 'core', 'dist', 'index.js'))) throw new Error('expected @saccade/core to be built (nx runs its build before this test)');
  workspace = mkdtempSync(join(tmpdir(), 'saccade-tool-generator-'));
  for (const file of ROOT_FILES) {
    mkdirSync(dirname(join(workspace, file)), { recursive: true });
    cpSync(join(repo, file), join(workspace, file));
  }
  for (const folder of FOLDERS) cpSync(join(repo, folder), join(workspace, folder), { recursive: true, filter: (source) => !SKIPPED.test(source) });
  // A runner to register with: its dependencies are where `saccade tools list` looks.
  mkdirSync(join(workspace, 'apps', 'runner'), { recursive: true });
  writeFileSync(join(workspace, 'apps', 'runner', 'package.json'), JSON.stringify({ name: '@saccade/runner', version: '0.1.0', private: true, type: 'module', dependencies: {} }, null, 2));
  install();
}, 120_000);

afterAll(() => {
  if (workspace !== undefined) rmSync(workspace, { recursive: true, force: true });
});

test('a generated tool package installs, builds, passes its tests and checkTool, and is registered with the runner', { timeout: 240_000 }, async () => {
  const generated = run([join('node_modules', 'nx', 'dist', 'bin', 'nx.js'), 'g', '@saccade/plugin:tool', 'probe-reader', '--description=Reads probes.', '--skipInstall', '--no-interactive']);
  expect(generated).toContain('CREATE packages/tools/probe-reader/src/probe-reader-tool.ts');
  expect(generated).toContain('UPDATE apps/runner/package.json');
  install();

  const folder = join(workspace, 'packages', 'tools', 'probe-reader');
  // The build first (the check below imports dist); typecheck, lint and the package's tests side by side.
  run([pnpm, 'run', '--silent', 'build'], folder);
  const [, , tested] = await Promise.all(['typecheck', 'lint', 'test'].map((script) => runAsync([pnpm, 'run', '--silent', script], folder)));
  expect(tested).toMatch(/Tests\s+4 passed \(4\)/);

  // What the runner does: follow its dependencies to the package.json that lists tools, import them, check each.
  const runnerLink = join(workspace, 'apps', 'runner', 'node_modules', '@saccade', 'tool-probe-reader', 'package.json');
  expect(JSON.parse(readFileSync(runnerLink, 'utf8')).saccade).toEqual({ tools: ['probeReaderTool'] });
  const check = `
    import { readFileSync } from 'node:fs';
    import { checkTool } from '@saccade/core';
    const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
    const module = await import('./dist/index.js');
    const image = { data: Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC', 'base64')), mediaType: 'image/png', width: 1, height: 1 };
    const reports = [];
    for (const name of manifest.saccade.tools) reports.push(await checkTool(module[name], { sampleInput: { image: 0 }, images: [image] }));
    console.log(JSON.stringify(reports));`;
  expect(JSON.parse(run(['--input-type=module', '-e', check], folder))).toEqual([{ ok: true, toolName: 'probe_reader', failures: [] }]);
});
