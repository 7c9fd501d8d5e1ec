import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** An MCTS tree file of `saccade data generate` as the trees list shows it. */
export interface TreeSummary {
  /** Path relative to the run folder. */
  file: string;
  taskId: string;
  dataset?: string;
  question?: string;
  answer?: string;
  agentId?: string;
  nodes: number;
  rootValue?: number;
  rootVisits?: number;
}

interface TreeNode {
  children?: TreeNode[];
  value?: number;
  visits?: number;
}

interface TreeFile {
  format?: unknown;
  task?: { id?: unknown; dataset?: unknown; question?: unknown; answer?: unknown };
  agentId?: unknown;
  root?: TreeNode;
}

/** Folders of a run that hold tree files: the run itself, `trees/` and every `*.trees/` (`--trees`' default). */
function treeFolders(path: string): string[] {
  const folders = [path];
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory() && (entry.name === 'trees' || entry.name.endsWith('.trees'))) folders.push(join(path, entry.name));
  }
  return folders;
}

/** Whether a folder holds MCTS tree files (`"format": "saccade-mcts-tree"`). */
export function hasTreeFiles(path: string): boolean {
  return treeFolders(path).some((folder) => readdirSync(folder).some((name) => name.endsWith('.json') && readTree(join(folder, name)) !== undefined));
}

/** The tree files of a run, sorted by path; files that are not trees are left out. */
export function listTrees(path: string): TreeSummary[] {
  const trees: TreeSummary[] = [];
  for (const folder of treeFolders(path)) {
    for (const name of readdirSync(folder).filter((entry) => entry.endsWith('.json')).sort()) {
      const tree = readTree(join(folder, name));
      if (tree === undefined) continue;
      const file = folder === path ? name : `${folder.slice(path.length + 1)}/${name}`;
      const summary: TreeSummary = { file, taskId: typeof tree.task?.id === 'string' ? tree.task.id : name, nodes: countNodes(tree.root) };
      if (typeof tree.task?.dataset === 'string') summary.dataset = tree.task.dataset;
      if (typeof tree.task?.question === 'string') summary.question = tree.task.question;
      if (typeof tree.task?.answer === 'string') summary.answer = tree.task.answer;
      if (typeof tree.agentId === 'string') summary.agentId = tree.agentId;
      if (typeof tree.root?.value === 'number') summary.rootValue = tree.root.value;
      if (typeof tree.root?.visits === 'number') summary.rootVisits = tree.root.visits;
      trees.push(summary);
    }
  }
  return trees;
}

/** One tree file's JSON, when `file` names a tree file of the run (no path outside it). */
export function readTreeFile(path: string, file: string): unknown {
  if (!listTrees(path).some((tree) => tree.file === file)) return undefined;
  return readTree(join(path, file));
}

function readTree(file: string): TreeFile | undefined {
  try {
    if (!existsSync(file) || !statSync(file).isFile()) return undefined;
    const value = JSON.parse(readFileSync(file, 'utf8')) as TreeFile;
    return value?.format === 'saccade-mcts-tree' ? value : undefined;
  } catch {
    return undefined;
  }
}

function countNodes(node: TreeNode | undefined): number {
  if (node === undefined) return 0;
  return 1 + (node.children ?? []).reduce((sum, child) => sum + countNodes(child), 0);
}
