// Saccade as a user gets it: every publishable package packed with `pnpm pack` and the tarballs
// installed from npm into an empty Node project. Packed and installed once per test run (the global
// setup), then shared by the checks that need it.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { listPublishablePackages } from './workspace-packages';

/** The installed project: its folder and each package's tarball by name. */
export interface InstalledProject {
  project: string;
  tarballs: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    installedProject: InstalledProject;
  }
}

const commandEnvironment = (environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_loglevel: 'error', ...environment });

/** Runs a command quietly, with what an offline machine needs (no onnxruntime download). */
export function run(command: string, args: string[], cwd: string, environment: NodeJS.ProcessEnv = {}): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: commandEnvironment(environment) });
}

const execFileAsync = promisify(execFile);

/** {@link run} without blocking: checks that each start a process can run side by side. Rejects with the command's output when it fails. */
export async function runAsync(command: string, args: string[], cwd: string, environment: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    return (await execFileAsync(command, args, { cwd, encoding: 'utf8', env: commandEnvironment(environment), maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${(error as Error).message}${stdout ? `\nstdout:\n${stdout}` : ''}${stderr ? `\nstderr:\n${stderr}` : ''}`, { cause: error });
  }
}

/** Packs every publishable package of the workspace at `root` and installs the tarballs into `scratch`/project. */
export function packAndInstall(root: string, scratch: string): InstalledProject {
  const packDir = join(scratch, 'tarballs');
  // One `pnpm pack` over the workspace, each package named by a filter: what `pnpm pack` in each
  // package's folder gives, without starting pnpm 30 times.
  const names = listPublishablePackages(root).map((pkg) => pkg.name);
  const printed = run('pnpm', ['--recursive', ...names.map((name) => `--filter=${name}`), 'pack', '--pack-destination', packDir, '--json'], root);
  const packed = JSON.parse(printed) as { name: string; filename: string } | { name: string; filename: string }[];
  const filenames = new Map((Array.isArray(packed) ? packed : [packed]).map(({ name, filename }) => [name, join(packDir, basename(filename))]));
  const missing = names.filter((name) => !filenames.has(name));
  if (missing.length > 0) throw new Error(`expected pnpm pack to print a tarball for each of ${names.join(', ')}; it printed none for ${missing.join(', ')}:\n${printed}`);
  const tarballs = Object.fromEntries(names.map((name) => [name, filenames.get(name)!]));
  const project = join(scratch, 'project');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty-project', private: true, type: 'module' }));
  // Install scripts are skipped: the optional GPU backend's script downloads libtensorflow,
  // which an offline machine cannot do; the package must work without it.
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', ...Object.values(tarballs)], project);
  return { project, tarballs };
}
