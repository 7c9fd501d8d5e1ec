import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { ConfigError, describeIssues } from './config-error';
import { trainConfigSchema, type TrainConfig } from './train-config';

/**
 * Reads a YAML (or JSON) config file over a recipe's (when one is named), applies flag overrides,
 * validates the result.
 */
export async function loadTrainConfig(file: string | undefined, overrides: Record<string, unknown>, recipe?: string): Promise<TrainConfig> {
  const base = recipe === undefined ? {} : await readRecipe(recipe);
  return validate(mergeDeep(mergeDeep(base, file === undefined ? {} : await readConfigFile(file)), overrides), file ?? (recipe === undefined ? 'the command-line flags' : `the recipe ${recipe}`));
}

function validate(merged: Record<string, unknown>, source: string): TrainConfig {
  const result = trainConfigSchema.safeParse(merged);
  if (!result.success) throw new ConfigError({ source, issues: describeIssues(result.error) });
  return result.data;
}

/** A config file's mapping; a ConfigError that names the file when it cannot be read or parsed. */
export async function readConfigFile(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError({ source: file, issues: [`cannot read the file: ${(error as Error).message}`] });
  }
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    throw new ConfigError({ source: file, issues: [`not valid YAML: ${(error as Error).message}`] });
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError({ source: file, issues: [`(root): expected a mapping of keys, got ${Array.isArray(raw) ? 'a list' : typeof raw}`] });
  }
  return raw as Record<string, unknown>;
}

/** The folder of the recipes shipped with the runner (beside src/ and dist/). */
export const RECIPES_FOLDER = fileURLToPath(new URL('../recipes/', import.meta.url));

/** The recipes shipped with the runner: name and the first comment line of each (what it trains). */
export function listRecipes(): { name: string; description: string }[] {
  return readdirSync(RECIPES_FOLDER)
    .filter((entry) => entry.endsWith('.yaml'))
    .sort()
    .map((entry) => {
      const first = readFileSync(join(RECIPES_FOLDER, entry), 'utf8').split('\n')[0] ?? '';
      return { name: entry.slice(0, -'.yaml'.length), description: first.replace(/^#\s*/, '') };
    });
}

async function readRecipe(name: string): Promise<Record<string, unknown>> {
  const known = listRecipes().map((recipe) => recipe.name);
  if (!known.includes(name)) throw new ConfigError({ source: '--recipe', issues: [`no recipe is named ${JSON.stringify(name)}; expected one of: ${known.join(', ')}`] });
  return readConfigFile(join(RECIPES_FOLDER, `${name}.yaml`));
}

/** `overrides` merged into `base` key by key (mappings merge, anything else replaces; undefined keeps the base's). */
export function mergeDeep(base: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const current = result[key];
    result[key] =
      isPlainObject(value) && isPlainObject(current) ? mergeDeep(current, value) : value;
  }
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
