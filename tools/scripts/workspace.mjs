#!/usr/bin/env node
// The README's entry points. Needs only Node and npm: it fetches the pinned pnpm from the npm
// registry through npx when pnpm is not installed, installs the workspace, builds it with nx,
// then runs the main job (`start`) or the whole check suite (`test`).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpmSpec = manifest.packageManager; // e.g. "pnpm@10.34.8"
const pnpmVersion = pnpmSpec.split('@')[1];

const binDir = join(root, 'node_modules', '.bin');
// nx runs package scripts through `pnpm`, which the workspace installs as a dev dependency. nx
// drops the workspace's node_modules folders from PATH before it runs a script, so the pinned
// pnpm is reached through a shim in a folder of its own.
const shimDir = join(root, '.saccade', 'bin');
const env = {
  ...process.env,
  PATH: [shimDir, binDir, process.env.PATH ?? ''].join(delimiter),
  NX_TUI: 'false',
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  ONNXRUNTIME_NODE_INSTALL: 'skip',
  ORT_DISABLE_TELEMETRY: '1',
};

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env, ...options });
  if (result.error) throw result.error;
  // 130: the user pressed Ctrl-C and the command already said how it stopped.
  if (result.status === 130) process.exit(130);
  if (result.status !== 0) {
    const reason = result.signal ? `signal ${result.signal}` : `exit code ${result.status}`;
    console.error(`\nsaccade: \`${command} ${args.join(' ')}\` failed (${reason}).`);
    process.exit(result.status ?? 1);
  }
}

function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8', env });
  if (probe.status === 0 && probe.stdout.trim() === pnpmVersion) return ['pnpm', []];
  return ['npx', ['--yes', pnpmSpec]];
}

function install() {
  const [command, prefix] = pnpmCommand();
  const frozen = process.env.CI ? ['--frozen-lockfile'] : [];
  run(command, [...prefix, 'install', ...frozen]);
  writePnpmShim();
}

function writePnpmShim() {
  const entry = join(root, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
  if (!existsSync(entry)) throw new Error(`pnpm was not installed at ${entry}; is it still in devDependencies?`);
  mkdirSync(shimDir, { recursive: true });
  const shim = join(shimDir, 'pnpm');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${entry}" "$@"\n`);
  chmodSync(shim, 0o755);
}

const nx = join(binDir, 'nx');

/** The workspace's package folders, as pnpm-workspace.yaml lists them (`dir/*` or one folder). */
function packageFolders() {
  const listed = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').split('\n');
  const start = listed.findIndex((line) => line.trim() === 'packages:');
  const folders = [];
  for (const line of listed.slice(start + 1)) {
    const entry = /^\s+-\s+['"]?([^'"#\s]+)['"]?/.exec(line);
    if (!entry) break;
    const pattern = entry[1];
    if (pattern.endsWith('/*')) {
      const base = join(root, pattern.slice(0, -2));
      if (existsSync(base)) for (const name of readdirSync(base)) folders.push(join(base, name));
    } else folders.push(join(root, pattern));
  }
  return folders;
}

// Sums the per-package vitest JSON reports (restored from the nx cache on a cache hit).
function printTestTotals() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const folder of packageFolders()) {
    const report = join(folder, '.test-results', 'results.json');
    if (!existsSync(report)) continue;
    const results = JSON.parse(readFileSync(report, 'utf8'));
    passed += results.numPassedTests;
    failed += results.numFailedTests;
    skipped += results.numPendingTests + (results.numTodoTests ?? 0);
  }
  console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
}
const [task = 'test', ...rest] = process.argv.slice(2);

switch (task) {
  case 'setup':
    install();
    run(nx, ['run-many', '-t', 'build']);
    break;
  case 'test':
    install();
    run(nx, ['run-many', '-t', 'build', 'typecheck', 'lint', 'test', '--outputStyle=static']);
    printTestTotals();
    break;
  case 'start':
    install();
    run(nx, ['run-many', '-t', 'build', '--outputStyle=static']);
    // Ctrl-C reaches the trainer too, which stops after its current step: this process must
    // outlive it rather than return the prompt while the run is still winding down.
    process.on('SIGINT', () => {});
    run(process.execPath, [join(root, 'apps', 'runner', 'dist', 'cli.js'), 'train', ...rest]);
    break;
  default:
    console.error(`saccade: unknown workspace task "${task}"; expected one of: setup, test, start.`);
    process.exit(2);
}
