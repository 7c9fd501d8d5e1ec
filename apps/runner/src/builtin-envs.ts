import { FROZEN_LAKE_ID, SOKOBAN_ID } from '@saccade/env-grid';
import { SVG_RECONSTRUCTION_ID } from '@saccade/env-procedural';
import { registerToolsNamed } from './builtin-tools';
import { findSaccadePackages, runnerManifestPath } from './saccade-packages';

/** A dependency that ships envs: its package.json says `"saccade": {"envs": ["registerGridEnvs"]}`, the exports that register them. */
export interface EnvPackage {
  name: string;
  directory: string;
  /** The exports that register the package's envs. */
  register: string[];
  /** Tools its envs call through the registry (`saccade.usesTools`), registered with them. */
  usesTools?: string[];
}

const EXPORT_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * The packages among the dependencies of a package.json that declare envs (`saccade.envs`),
 * sorted by name; a malformed field is an Error that names the package.
 */
export function findEnvPackages(manifestPath: string): EnvPackage[] {
  return findSaccadePackages(manifestPath, 'envs').map(({ name, directory, field }) => {
    const register = field['envs'];
    if (!Array.isArray(register) || register.length === 0 || !register.every((entry) => typeof entry === 'string' && EXPORT_NAME.test(entry))) {
      throw new Error(`expected the package.json of ${name} to have "saccade": {"envs": ["<export that registers envs>", …]}, it has ${JSON.stringify(field)}`);
    }
    const usesTools = field['usesTools'];
    if (usesTools !== undefined && (!Array.isArray(usesTools) || !usesTools.every((entry) => typeof entry === 'string' && entry.length > 0))) {
      throw new Error(`expected saccade.usesTools of ${name} to be an array of tool names, it has ${JSON.stringify(usesTools)}`);
    }
    return { name, directory, register: register as string[], ...(usesTools === undefined ? {} : { usesTools: usesTools as string[] }) };
  });
}

/**
 * Registers the envs of the runner's dependencies that declare envs in their package.json (the
 * grid, VQA, procedural and grounded envs, and any package made with `nx g @saccade/plugin:env`),
 * so that `makeEnv(id)` and `saccade envs list` find them.
 */
export async function registerBuiltinEnvs(manifestPath: string = runnerManifestPath()): Promise<EnvPackage[]> {
  const packages = findEnvPackages(manifestPath);
  for (const found of packages) {
    const module = (await import(found.name)) as Record<string, unknown>;
    for (const exportName of found.register) {
      const register = module[exportName];
      if (typeof register !== 'function') throw new Error(`expected ${found.name} to export a function named ${exportName} (its package.json lists it in saccade.envs), received ${typeof register}`);
      (register as () => void)();
    }
  }
  // The tools the envs call through the registry (not the ones a user names with --tools: those are registered by the commands).
  await registerToolsNamed([...new Set(packages.flatMap((found) => found.usesTools ?? []))]);
  return packages;
}

/** VAGEN's env names and the envs `saccade serve env` creates for them (VAGEN's config keys apply). */
export const VAGEN_ENV_NAMES: Readonly<Record<string, string>> = { frozenlake: FROZEN_LAKE_ID, sokoban: SOKOBAN_ID, svg: SVG_RECONSTRUCTION_ID };
