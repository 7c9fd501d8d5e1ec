import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { ConfigError, describeIssues } from './config-error';
import { trainConfigSchema, type TrainConfig } from './train-config';

/** Reads a YAML (or JSON) config file, applies flag overrides, validates the result. */
export async function loadTrainConfig(file: string | undefined, overrides: Record<string, unknown>): Promise<TrainConfig> {
  let raw: unknown = {};
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new ConfigError({ source: file, issues: [`cannot read the file: ${(error as Error).message}`] });
    }
    try {
      raw = parseYaml(text) ?? {};
    } catch (error) {
      throw new ConfigError({ source: file, issues: [`not valid YAML: ${(error as Error).message}`] });
    }
    if (typeof raw !== 'object' || Array.isArray(raw)) {
      throw new ConfigError({ source: file, issues: [`(root): expected a mapping of keys, got ${Array.isArray(raw) ? 'a list' : typeof raw}`] });
    }
  }
  const merged = mergeDeep(raw as Record<string, unknown>, overrides);
  const result = trainConfigSchema.safeParse(merged);
  if (!result.success) throw new ConfigError({ source: file ?? 'the command-line flags', issues: describeIssues(result.error) });
  return result.data;
}

function mergeDeep(base: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
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
