// A pnpm lockfile for a copy of part of the workspace, written from the workspace's own lockfile, so
// that the copy installs with `--frozen-lockfile --offline`: pnpm then resolves nothing and needs only
// the packages in the store, never package metadata (which a frozen install does not cache, so a
// fresh machine has none). Only the `importers` section changes; `packages` and `snapshots` stay
// as they are (pnpm installs what the importers reach).
import { posix } from 'node:path';

export interface Resolved {
  specifier: string;
  version: string;
}
/** A project of the copy: its folder relative to the workspace root (`.` for the root) and its package.json. */
export interface Project {
  folder: string;
  manifest: { name?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
}

const FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;

/** YAML scalars as pnpm writes them: plain, or single-quoted with '' for a quote. */
function unquote(text: string): string {
  const trimmed = text.trim();
  return trimmed.startsWith("'") && trimmed.endsWith("'") ? trimmed.slice(1, -1).replaceAll("''", "'") : trimmed;
}
const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

function importersSection(lockfile: string): { start: number; end: number } {
  if (!/^lockfileVersion: '9\.0'$/m.test(lockfile)) throw new Error(`expected a pnpm lockfile with lockfileVersion '9.0', received one starting ${JSON.stringify(lockfile.slice(0, 40))}`);
  const start = lockfile.indexOf('\nimporters:\n');
  const end = lockfile.indexOf('\npackages:\n', start);
  if (start < 0 || end < 0) throw new Error('expected an importers section followed by a packages section in the pnpm lockfile');
  return { start: start + 1, end: end + 1 };
}

/** The importers section: project folder → dependency field → name → specifier and resolved version. */
export function readImporters(lockfile: string): Map<string, Map<string, Map<string, Resolved>>> {
  const { start, end } = importersSection(lockfile);
  const importers = new Map<string, Map<string, Map<string, Resolved>>>();
  let fields: Map<string, Map<string, Resolved>> | undefined;
  let entries: Map<string, Resolved> | undefined;
  let entry: Partial<Resolved> & { name?: string } = {};
  const finish = () => {
    if (entry.name === undefined) return;
    if (entry.specifier === undefined || entry.version === undefined || entries === undefined) throw new Error(`expected a specifier and a version for ${entry.name} in the lockfile's importers`);
    entries.set(entry.name, { specifier: entry.specifier, version: entry.version });
    entry = {};
  };
  for (const line of lockfile.slice(start, end).split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const indent = line.length - line.trimStart().length;
    const [key = '', ...rest] = line.trim().split(/:(?: |$)/);
    const value = rest.join(': ');
    if (indent === 2) {
      finish();
      fields = new Map();
      importers.set(unquote(key), fields);
    } else if (indent === 4) {
      finish();
      entries = new Map();
      fields?.set(unquote(key), entries);
    } else if (indent === 6) {
      finish();
      entry = { name: unquote(key) };
    } else if (indent === 8 && (key === 'specifier' || key === 'version')) {
      entry[key] = unquote(value);
    } else {
      throw new Error(`unexpected line in the lockfile's importers: ${JSON.stringify(line)}`);
    }
  }
  finish();
  return importers;
}

/**
 * `lockfile` with its importers replaced by those of `projects`: each dependency gets the version the
 * workspace resolved for the same name and specifier (any project's), a `workspace:` one a link to
 * the project of that name. Throws, naming it, on a dependency the workspace never installed.
 */
export function lockfileForProjects(lockfile: string, projects: Project[]): string {
  const resolved = new Map<string, string>();
  for (const fields of readImporters(lockfile).values()) {
    for (const entries of fields.values()) for (const [name, { specifier, version }] of entries) resolved.set(`${name}@${specifier}`, version);
  }
  const folders = new Map(projects.flatMap(({ folder, manifest }) => (manifest.name === undefined ? [] : [[manifest.name, folder] as const])));
  const blocks = [...projects]
    .sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0))
    .map(({ folder, manifest }) => {
      const lines: string[] = [];
      for (const field of FIELDS) {
        const dependencies = Object.entries(manifest[field] ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        if (dependencies.length === 0) continue;
        lines.push(`    ${field}:`);
        for (const [name, specifier] of dependencies) {
          let version: string | undefined;
          if (specifier.startsWith('workspace:')) {
            const target = folders.get(name);
            if (target === undefined) throw new Error(`${folder}/package.json depends on ${name}@${specifier}, but no project of the copied workspace is named ${name}`);
            version = `link:${posix.relative(folder, target)}`;
          } else {
            version = resolved.get(`${name}@${specifier}`);
            if (version === undefined) throw new Error(`${folder}/package.json depends on ${name}@${specifier}, which no project of the workspace installs; an offline copy can only use what the workspace's lockfile resolved`);
          }
          lines.push(`      ${quote(name)}:`, `        specifier: ${quote(specifier)}`, `        version: ${quote(version)}`);
        }
      }
      return lines.length === 0 ? `  ${quote(folder)}: {}` : [`  ${quote(folder)}:`, ...lines].join('\n');
    });
  const { start, end } = importersSection(lockfile);
  return `${lockfile.slice(0, start)}importers:\n\n${blocks.join('\n\n')}\n\n${lockfile.slice(end)}`;
}
