#!/usr/bin/env node
// The README's entry points. Needs Node and npm (and for `test`, python3 with the client tests'
// modules: checked first): it fetches the pinned pnpm from the npm registry through npx when pnpm is
// not installed, installs the workspace, builds it with nx, then runs the main job (`start`) or the
// whole check suite (`test`). `fresh-check` runs the
// README's test command in a clone of HEAD as a fresh machine would: empty caches, only node and npm.
// nx replays cached task results; NX_SKIP_NX_CACHE=true (what .ci/run sets) runs every task.
import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
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

// The Python modules the client tests import (VAGEN's, verl-tool's and verl's files run unchanged),
// with the Debian packages and pip names that provide them.
const PYTHON_MODULES = [
  { module: 'httpx', debian: 'python3-httpx', pip: 'httpx' },
  { module: 'PIL', debian: 'python3-pil', pip: 'pillow' },
  { module: 'fastapi', debian: 'python3-fastapi', pip: 'fastapi' },
  { module: 'uvicorn', debian: 'python3-uvicorn', pip: 'uvicorn' },
];

/**
 * What `npm test` needs besides Node and npm and cannot install itself, one line each, empty when
 * all is there: python3 on PATH (tests call it) with the client tests' modules (it or Debian's
 * /usr/bin/python3, which a pyenv python3 on PATH often hides), and a Chromium where the one that
 * ships in the @sparticuz/chromium npm package does not run (it is Linux x64 and arm64 only).
 */
function missingTestRequirements() {
  const missing = [];
  const runs = (command, args) => spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;
  const debian = ['python3', ...PYTHON_MODULES.map((entry) => entry.debian)].join(' ');
  const pip = PYTHON_MODULES.map((entry) => entry.pip).join(' ');
  const imports = ['-c', `import ${PYTHON_MODULES.map((entry) => entry.module).join(', ')}`];
  if (!runs('python3', ['--version'])) {
    missing.push(`python3 on PATH, with httpx, Pillow, FastAPI and uvicorn (the Python client tests): on Debian or Ubuntu \`sudo apt-get install -y ${debian}\`; elsewhere install Python 3, then \`python3 -m pip install ${pip}\``);
  } else if (!runs('python3', imports) && !runs('/usr/bin/python3', imports)) {
    missing.push(`the Python modules httpx, Pillow, FastAPI and uvicorn for python3 (the Python client tests): on Debian or Ubuntu \`sudo apt-get install -y ${debian}\`; elsewhere \`python3 -m pip install ${pip}\``);
  }
  const systemChromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].some((path) => path !== undefined && path !== '' && existsSync(path));
  const packagedChromium = process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64');
  if (!systemChromium && !packagedChromium) {
    missing.push(`Chromium (the viewer's browser tests; the one in the @sparticuz/chromium npm package runs on Linux x64 and arm64 only, this is ${process.platform} ${process.arch}): install Chromium or Chrome and set CHROMIUM_PATH to it`);
  }
  return missing;
}

/** Stops at once, naming what to install, when `npm test` cannot pass on this machine. */
function checkTestRequirements() {
  const missing = missingTestRequirements();
  if (missing.length === 0) return;
  console.error(`saccade: npm test needs more than this machine has (nothing was installed or run):\n${missing.map((line) => `  - ${line}`).join('\n')}`);
  process.exit(1);
}

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

/** The README's test command (the line of its "Two commands" block that runs every test), e.g. `npm test`. */
function readmeTestCommand() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const line = /^(npm [a-z][a-z-]*)[ \t]+#[^\n]*\bevery test\b/m.exec(readme);
  if (!line?.[1]) throw new Error('expected README.md to name its test command on a line such as "npm test     # … runs every test"; found none');
  return line[1].split(' ');
}

/** The folder on PATH that holds `name` (not resolving links: that folder is what PATH needs). */
function folderOnPath(name) {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    try {
      accessSync(join(folder, name), constants.X_OK);
      return folder;
    } catch {
      // not here
    }
  }
  throw new Error(`expected ${name} on PATH (${process.env.PATH ?? ''}); found none`);
}

function git(args) {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (result.error) throw new Error(`fresh-check needs git to clone the repository: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`\`git ${args.join(' ')}\` failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

function formatDuration(milliseconds) {
  const seconds = Math.round(milliseconds / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * The README's test command as on a fresh machine: a clone of HEAD in a temporary folder (with a
 * copy of ../shared beside it when there is one), empty npm, pnpm and nx caches, store and state
 * (HOME stays: it holds the registry settings), and only node's and npm's folders on PATH.
 * Options: `--keep` keeps the folder after a pass (a failure always keeps it); `-- <command …>`
 * runs that command in the clone instead, to look at the set-up.
 */
function freshCheck(args) {
  const separator = args.indexOf('--');
  const options = separator < 0 ? args : args.slice(0, separator);
  const unknown = options.filter((option) => option !== '--keep');
  if (unknown.length > 0) {
    console.error(`saccade: fresh-check takes --keep and -- <command …>; received ${unknown.join(' ')}`);
    process.exit(2);
  }
  const keep = options.includes('--keep');
  const command = separator < 0 ? readmeTestCommand() : args.slice(separator + 1);
  if (command.length === 0) {
    console.error('saccade: fresh-check expected a command after --');
    process.exit(2);
  }

  const head = git(['rev-parse', 'HEAD']);
  const uncommitted = git(['status', '--porcelain', '--untracked-files=no']);
  const folder = mkdtempSync(join(tmpdir(), 'saccade-fresh-'));
  const clone = join(folder, basename(root));
  git(['clone', '--quiet', '--no-checkout', root, clone]);
  const checkout = spawnSync('git', ['-C', clone, 'checkout', '--quiet', '--detach', head], { encoding: 'utf8' });
  if (checkout.status !== 0) throw new Error(`could not check out ${head} in ${clone}: ${checkout.stderr.trim()}`);
  const shared = join(root, '..', 'shared');
  if (existsSync(shared)) cpSync(shared, join(folder, 'shared'), { recursive: true });

  const homes = {};
  for (const [variable, name] of [
    ['XDG_CACHE_HOME', 'cache'],
    ['XDG_DATA_HOME', 'data'],
    ['XDG_STATE_HOME', 'state'],
    ['npm_config_cache', 'npm-cache'],
    ['NX_CACHE_DIRECTORY', 'nx-cache'],
  ]) {
    homes[variable] = join(folder, 'home', name);
    mkdirSync(homes[variable], { recursive: true });
  }
  const path = [...new Set([dirname(process.execPath), folderOnPath('npm')])].join(delimiter);
  // Nothing of the shell or package manager that started this check: no npm, pnpm, nx or test
  // variables (npm run sets dozens), the temporary homes, and the reduced PATH.
  const freshEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(NX_|npm_|PNPM_|VITEST|INIT_CWD$|NODE_OPTIONS$)/i.test(key))),
    ...homes,
    PATH: path,
  };

  console.log(`fresh-check: HEAD ${head} cloned into ${clone}`);
  if (uncommitted !== '') console.log('fresh-check: uncommitted changes in the working tree are not part of this check');
  console.log(`fresh-check: caches, store and state under ${join(folder, 'home')}; HOME=${process.env.HOME ?? ''}; PATH=${path}`);
  console.log(`fresh-check: running \`${command.join(' ')}\`\n`);
  const started = Date.now();
  const result = spawnSync(command[0], command.slice(1), { cwd: clone, env: freshEnv, stdio: 'inherit' });
  const took = formatDuration(Date.now() - started);
  const passed = !result.error && result.status === 0;
  const outcome = result.error ? `could not start (${result.error.message})` : result.signal ? `stopped by ${result.signal}` : `exit code ${result.status}`;
  console.log(`\nfresh-check: \`${command.join(' ')}\` ${passed ? 'passed' : 'FAILED'} (${outcome}) in ${took}, in ${clone}`);
  if (passed && !keep) {
    rmSync(folder, { recursive: true, force: true });
    console.log(`fresh-check: removed ${folder} (--keep keeps it)`);
  } else console.log(`fresh-check: kept ${folder}`);
  process.exit(passed ? 0 : (result.status ?? 1));
}

const [task = 'test', ...rest] = process.argv.slice(2);

switch (task) {
  case 'setup':
    install();
    run(nx, ['run-many', '-t', 'build']);
    break;
  case 'test':
    checkTestRequirements();
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
  case 'fresh-check':
    freshCheck(rest);
    break;
  case 'architecture-map':
    // The map's check is a package-check test; in this mode it rewrites docs/architecture.md's map instead.
    run(join(binDir, 'vitest'), ['run', '--project', 'workspace', 'src/architecture-map.test.ts'], {
      cwd: join(root, 'tools', 'package-check'),
      env: { ...env, SACCADE_WRITE_ARCHITECTURE_MAP: '1' },
    });
    break;
  default:
    console.error(`saccade: unknown workspace task "${task}"; expected one of: setup, test, start, fresh-check, architecture-map.`);
    process.exit(2);
}
