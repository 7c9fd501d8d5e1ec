import { useState } from 'react';
import { api, type RunInfo } from './api';
import { episodeHash } from './app';
import { percent } from './format';
import { usePoll } from './use-poll';

/** Every run under the folder: name, env, agent, status, success with its interval; live. */
export function RunsPage() {
  const [runs, setRuns] = useState<RunInfo[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  usePoll(
    async () => {
      try {
        setRuns((await api.runs()).runs);
        setError(undefined);
      } catch (caught) {
        setError((caught as Error).message);
      }
    },
    2000,
    [],
  );
  if (error !== undefined) return <p className="error">{error}</p>;
  if (runs === undefined) return <p className="muted">Loading runs…</p>;
  if (runs.length === 0) return <p className="muted">No runs here: a run folder has events.jsonl or trajectories/.</p>;
  return (
    <main className="page">
      <table className="runs" data-testid="runs">
        <thead>
          <tr>
            <th>run</th>
            <th>kind</th>
            <th>env</th>
            <th>agent / model</th>
            <th>status</th>
            <th className="number">episodes</th>
            <th className="number">success</th>
            <th>95% interval</th>
            <th className="number">tool calls</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.name} data-run={run.name}>
              <td>
                <a href={episodeHash(run.name)}>{run.name}</a>
              </td>
              <td>{run.kind}</td>
              <td>{run.envIds.join(', ')}</td>
              <td>{run.agentIds.join(', ')}</td>
              <td className={`status ${run.status}`}>{run.status}</td>
              <td className="number">{run.episodes}</td>
              <td className="number">{run.episodes > 0 ? percent(run.successes / run.episodes) : '–'}</td>
              <td>{run.successInterval ? `${percent(run.successInterval[0])} – ${percent(run.successInterval[1])}` : '–'}</td>
              <td className="number">{run.toolCalls}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
