import { useEffect, useState } from 'react';
import { api, type TreeSummary } from './api';
import { number } from './format';
import { usePoll } from './use-poll';

interface TreeNode {
  step?: string;
  points?: { x: number; y: number }[];
  depth?: number;
  terminal?: boolean;
  value?: number;
  visits?: number;
  rollouts?: { steps?: string[]; answer?: string; reward?: number; forced?: boolean }[];
  children?: TreeNode[];
}

/** The MCTS trees of a `saccade data generate` run: a list of tasks, the picked one as a tree. */
export function MctsTrees({ run }: { run: string }) {
  const [trees, setTrees] = useState<TreeSummary[]>([]);
  const [picked, setPicked] = useState<string | undefined>();
  const [tree, setTree] = useState<{ root?: TreeNode; task?: { question?: string; answer?: string } } | undefined>();
  usePoll(async () => setTrees((await api.trees(run)).trees), 2000, [run]);
  useEffect(() => {
    if (picked === undefined) return;
    void api.tree(run, picked).then((value) => setTree(value as typeof tree));
  }, [run, picked]);
  return (
    <div className="browser">
      <aside className="side">
        <p className="muted">{trees.length} MCTS trees</p>
        <div className="episode-list" data-testid="tree-list">
          {trees.map((summary) => (
            <button key={summary.file} className={`tree-row ${summary.file === picked ? 'selected' : ''}`} onClick={() => setPicked(summary.file)}>
              {summary.taskId} · {summary.nodes} nodes{summary.rootValue !== undefined && ` · value ${number(summary.rootValue)}`}
            </button>
          ))}
        </div>
      </aside>
      <section className="detail" data-testid="tree">
        {tree?.root === undefined ? (
          <p className="muted">Pick a tree.</p>
        ) : (
          <>
            <p>
              {tree.task?.question} <strong>answer: {tree.task?.answer}</strong>
            </p>
            <ul className="mcts">
              <NodeView node={tree.root} />
            </ul>
          </>
        )}
      </section>
    </div>
  );
}

function NodeView({ node }: { node: TreeNode }) {
  const children = node.children ?? [];
  return (
    <li data-testid="tree-node">
      <details open={(node.depth ?? 0) < 2}>
        <summary>
          <span className="node-step">{node.step === '' || node.step === undefined ? '(root)' : node.step}</span>
          <span className="muted">
            {' '}
            value {number(node.value ?? 0)} · visits {node.visits ?? 0}
            {node.points && node.points.length > 0 && ` · ${node.points.map((point) => `(${point.x}, ${point.y})`).join(' ')}`}
            {node.terminal && ' · terminal'}
          </span>
        </summary>
        {(node.rollouts ?? []).map((rollout, index) => (
          <div key={index} className={`rollout ${rollout.reward !== undefined && rollout.reward > 0 ? 'success' : 'failure'}`}>
            rollout {index + 1}: answer {rollout.answer ?? '–'} · reward {number(rollout.reward ?? 0)}
            {rollout.forced && ' · forced'} · {(rollout.steps ?? []).length} steps
          </div>
        ))}
        {children.length > 0 && (
          <ul className="mcts">
            {children.map((child, index) => (
              <NodeView key={index} node={child} />
            ))}
          </ul>
        )}
      </details>
    </li>
  );
}
