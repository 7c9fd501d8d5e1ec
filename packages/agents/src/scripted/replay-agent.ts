import { InvalidArgumentError, InvalidStateError, type Agent, type AgentActOptions, type AgentResponse, type Trajectory } from '@saccade/spec';
import { readTrajectoriesSync } from './read-trajectories';

/** The trajectories a replay agent plays back: from a JSONL file or given directly. */
export interface ReplayAgentSettings {
  /** A trajectory JSONL file (one trajectory per line), read when the agent is created. */
  file?: string;
  /** Trajectories given directly. */
  trajectories?: readonly Trajectory[];
  id?: string;
}

/**
 * An Agent that answers with the recorded actions of stored trajectories in order, to re-run an
 * episode exactly; `episode` plays one of them alone.
 */
export interface ReplayAgent extends Agent {
  readonly trajectories: readonly Trajectory[];
  /** Actions not played yet, over all trajectories. */
  readonly remaining: number;
  /** An agent that plays only one trajectory (by index or id), from its first turn. */
  episode(which: number | string): Agent;
}

function player(actions: readonly string[], id: string, label: string): Agent & { readonly remaining: number } {
  let cursor = 0;
  return {
    specificationVersion: 'v1',
    id,
    get remaining() {
      return actions.length - cursor;
    },
    async act({ n = 1, signal }: AgentActOptions): Promise<AgentResponse> {
      signal?.throwIfAborted();
      const text = actions[cursor];
      if (text === undefined) {
        throw new InvalidStateError({
          operation: 'act()',
          expected: `an action left to replay`,
          actual: `all ${actions.length} action${actions.length === 1 ? '' : 's'} of ${label} were played`,
        });
      }
      cursor++;
      return { outputs: Array.from({ length: n }, () => ({ text, finishReason: 'stop' as const })) };
    },
  };
}

/**
 * An agent that plays back the actions of recorded trajectories, turn after turn: the first
 * trajectory's actions, then the next one's. Run the episodes in the same order (same env ids and
 * seeds) to reproduce them, or use `episode(i)` to replay one trajectory on its own. Messages are
 * ignored; `n` samples are `n` copies.
 *
 * @example
 * const agent = createReplayAgent({ file: 'runs/eval/trajectories/frozen-lake.jsonl' });
 * const first = agent.episode(0);
 */
export function createReplayAgent({ file, trajectories, id = 'replay' }: ReplayAgentSettings): ReplayAgent {
  if ((file === undefined) === (trajectories === undefined)) {
    throw new InvalidArgumentError({ argument: 'file, trajectories', expected: 'exactly one of file or trajectories', value: { file, trajectories: trajectories === undefined ? undefined : `${trajectories.length} trajectories` } });
  }
  const loaded = trajectories ?? readTrajectoriesSync(file!);
  const all = player(
    loaded.flatMap((trajectory) => trajectory.turns.map((turn) => turn.action)),
    id,
    `${loaded.length} trajector${loaded.length === 1 ? 'y' : 'ies'}`,
  );
  return {
    specificationVersion: 'v1',
    id,
    trajectories: loaded,
    get remaining() {
      return all.remaining;
    },
    act: (options) => all.act(options),
    episode(which) {
      const index = typeof which === 'number' ? which : loaded.findIndex((trajectory) => trajectory.id === which);
      const trajectory = loaded[index];
      if (trajectory === undefined) {
        throw new InvalidArgumentError({
          argument: 'which',
          expected: `an index below ${loaded.length} or the id of a loaded trajectory`,
          value: which,
        });
      }
      return player(trajectory.turns.map((turn) => turn.action), id, `trajectory ${trajectory.id}`);
    },
  };
}
