import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A tree file in `saccade data generate`'s format (docs/grounding.md): a root, two children, one grandchild. */
export function writeMctsTree(folder: string): string {
  const tree = {
    format: 'saccade-mcts-tree',
    version: 1,
    task: { id: 'visual-search-7', dataset: 'Procedural-VisualSearch', question: 'What colour is the ring?', answer: 'green', imageSize: { width: 2048, height: 2048 } },
    agentId: 'noisy-grounding',
    settings: { simulations: 4 },
    usage: { actCalls: 4, generations: 9 },
    root: {
      step: '', points: [], depth: 0, terminal: false, value: 0.5, visits: 4, rollouts: [],
      children: [
        {
          step: 'No ring around (1314, 1263).', points: [{ x: 1314, y: 1263 }], depth: 1, terminal: false, value: 0.25, visits: 2,
          rollouts: [{ steps: ['No ring around (1314, 1263).', 'The ring is red.'], answer: 'red', reward: 0, forced: false }],
          children: [{ step: 'A green ring at (400, 380).', points: [{ x: 400, y: 380 }], depth: 2, terminal: true, value: 1, visits: 1, rollouts: [], children: [] }],
        },
        { step: 'A green ring at (410, 390).', points: [{ x: 410, y: 390 }], depth: 1, terminal: true, value: 1, visits: 2, rollouts: [{ steps: ['A green ring at (410, 390).'], answer: 'green', reward: 1, forced: false }], children: [] },
      ],
    },
  };
  const trees = join(folder, 'vs-mcts.jsonl.trees');
  mkdirSync(trees, { recursive: true });
  writeFileSync(join(trees, 'visual-search-7.json'), JSON.stringify(tree));
  writeFileSync(join(trees, 'notes.json'), '{"not": "a tree"}');
  return trees;
}
