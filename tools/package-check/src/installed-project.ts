// Saccade as a user gets it: every publishable package packed with `pnpm pack` and the tarballs
// installed from npm into an empty Node project. Packed and installed once per test run (the global
// setup), then shared by the checks that need it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** Runs a command quietly, with what an offline machine needs (no onnxruntime download). */
export function run(command: string, args: string[], cwd: string, environment: NodeJS.ProcessEnv = {}): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_loglevel: 'error', ...environment },
  });
}

/** Packs every publishable package of the workspace at `root` and installs the tarballs into `scratch`/project. */
export function packAndInstall(root: string, scratch: string): InstalledProject {
  const packDir = join(scratch, 'tarballs');
  const tarballs: Record<string, string> = {};
  for (const pkg of listPublishablePackages(root)) {
    const before = new Set(existsSync(packDir) ? readdirSync(packDir) : []);
    run('pnpm', ['pack', '--pack-destination', packDir], pkg.dir);
    const created = readdirSync(packDir).find((file) => !before.has(file));
    if (!created) throw new Error(`pnpm pack produced no tarball for ${pkg.name}`);
    tarballs[pkg.name] = join(packDir, created);
  }
  const project = join(scratch, 'project');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty-project', private: true, type: 'module' }));
  // Install scripts are skipped: the optional GPU backend's script downloads libtensorflow,
  // which an offline machine cannot do; the package must work without it.
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', ...Object.values(tarballs)], project);
  return { project, tarballs };
}
