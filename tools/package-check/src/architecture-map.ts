import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAYERS, layerOf, readLayerPackages, runtimeDependencyBreak, type LayerPackage } from './package-layers';

/** The command that rewrites the map; the check's error names it. */
export const ARCHITECTURE_MAP_COMMAND = 'node tools/scripts/workspace.mjs architecture-map';
/** The page that holds the map, relative to the workspace root. */
export const ARCHITECTURE_PAGE = 'docs/architecture.md';

const START = `<!-- architecture-map:start (generated from the package.json files by \`${ARCHITECTURE_MAP_COMMAND}\`; edits here are overwritten) -->`;
const END = '<!-- architecture-map:end -->';
const START_PREFIX = '<!-- architecture-map:start';

/** A subgraph's title where the layer name alone does not say the rule. */
const LAYER_TITLES: Record<string, string> = { 'plug-ins': 'plug-ins (side by side: none uses another)' };
/** A line lists its targets one layer at a time once it names more than this many. */
const LONG_LINE = 10;

const short = (name: string) => name.replace(/^@saccade\//, '');
const layerId = (name: string) => name.replace(/[^a-z]/g, '');

/** Where a package sits in the drawing: its layer, then its place among the layer's patterns, then its name. */
function drawingOrder(name: string): [number, number, string] {
  const layer = layerOf(name);
  const patterns = (LAYERS[layer]?.packages ?? []) as readonly string[];
  const pattern = patterns.findIndex((entry) => (entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : name === entry));
  // Top down: the apps first, the base last.
  return [-layer, pattern, name];
}

function compareNames(a: string, b: string): number {
  const [la, pa, na] = drawingOrder(a);
  const [lb, pb, nb] = drawingOrder(b);
  return la - lb || pa - pb || na.localeCompare(nb);
}

type Arrow = '-->' | '-.->' | '==>';

/**
 * The workspace's package graph as a mermaid flowchart: one subgraph a layer (top down), and an
 * arrow `a → b` for each runtime dependency between published packages (`dependencies`,
 * `peerDependencies`, `optionalDependencies`). Dashed (`-.->`): an optional peer; thick (`==>`): a
 * dependency that breaks the layers (the allow-listed exceptions, since the layers test fails on
 * any other). Packages with the same arrows share a line. Private workspace tooling is left out.
 */
export function architectureMap(packages: readonly LayerPackage[]): string {
  const drawn = packages.filter((pkg) => !pkg.private && layerOf(pkg.name) >= 0);
  const names = new Set(drawn.map((pkg) => pkg.name));
  const lines = ['flowchart TD'];
  for (let layer = LAYERS.length - 1; layer >= 0; layer -= 1) {
    const members = drawn.map((pkg) => pkg.name).filter((name) => layerOf(name) === layer).sort(compareNames);
    if (members.length === 0) continue;
    const { name } = LAYERS[layer]!;
    const title = LAYER_TITLES[name] ?? name;
    lines.push(layerId(name) === title ? `  subgraph ${title}` : `  subgraph ${layerId(name)}["${title}"]`);
    for (const member of members) lines.push(`    ${short(member)}`);
    lines.push('  end');
  }
  lines.push('');
  // Each package's arrows, grouped by kind; packages whose arrows of a kind match share a line.
  const groups = new Map<string, { arrow: Arrow; sources: string[]; targets: string[] }>();
  for (const pkg of [...drawn].sort((a, b) => compareNames(a.name, b.name))) {
    const byArrow = new Map<Arrow, string[]>();
    for (const dependency of new Set(pkg.runtime)) {
      if (!names.has(dependency)) continue;
      const arrow: Arrow = runtimeDependencyBreak(pkg.name, dependency) !== undefined ? '==>' : pkg.optionalPeers?.includes(dependency) ? '-.->' : '-->';
      byArrow.set(arrow, [...(byArrow.get(arrow) ?? []), dependency]);
    }
    for (const arrow of ['-->', '-.->', '==>'] as const) {
      const targets = (byArrow.get(arrow) ?? []).sort(compareNames);
      if (targets.length === 0) continue;
      const key = `${arrow} ${targets.join(' ')}`;
      const group = groups.get(key);
      if (group) group.sources.push(pkg.name);
      else groups.set(key, { arrow, sources: [pkg.name], targets });
    }
  }
  for (const { arrow, sources, targets } of groups.values()) {
    const from = sources.map(short).join(' & ');
    const chunks = targets.length > LONG_LINE ? chunkByLayer(targets) : [targets];
    for (const chunk of chunks) lines.push(`  ${from} ${arrow} ${chunk.map(short).join(' & ')}`);
  }
  return lines.join('\n');
}

function chunkByLayer(targets: readonly string[]): string[][] {
  const chunks: string[][] = [];
  for (const target of targets) {
    const last = chunks.at(-1);
    if (last && layerOf(last[0]!) === layerOf(target)) last.push(target);
    else chunks.push([target]);
  }
  return chunks;
}

/** The map's block as it stands in the page: the marker lines and the fenced mermaid between them. */
export function architectureMapBlock(packages: readonly LayerPackage[]): string {
  return [START, '', '```mermaid', architectureMap(packages), '```', '', END].join('\n');
}

/**
 * The page with its map block replaced by `block`. Throws when the page lacks the markers, or has
 * them out of order or twice: the map would otherwise land in the wrong place or not at all.
 */
export function replaceArchitectureMap(page: string, block: string): string {
  const start = page.indexOf(START_PREFIX);
  const end = page.indexOf(END);
  if (start < 0 || end < start || page.indexOf(START_PREFIX, start + 1) >= 0 || page.indexOf(END, end + 1) >= 0) {
    throw new Error(
      `expected ${ARCHITECTURE_PAGE} to hold one "${START_PREFIX} … -->" line followed by one "${END}" line around the package map; found ${start < 0 ? 'no start marker' : end < 0 ? 'no end marker' : 'markers out of order or repeated'}`,
    );
  }
  return page.slice(0, start) + block + page.slice(end + END.length);
}

/** Reads the package graph under `root` and rewrites the page's map; returns whether the page changed. */
export function writeArchitectureMap(root: string): boolean {
  const path = join(root, ARCHITECTURE_PAGE);
  const page = readFileSync(path, 'utf8');
  const updated = replaceArchitectureMap(page, architectureMapBlock(readLayerPackages(root)));
  if (updated === page) return false;
  writeFileSync(path, updated);
  return true;
}
