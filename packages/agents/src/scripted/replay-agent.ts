import { InvalidArgumentError, InvalidStateError, partialAssistantText, type Agent, type AgentActOptions, type AgentResponse, type Trajectory } from '@saccade/spec';
import { readTrajectoriesSync } from './read-trajectories';

/** What a replay agent plays back: trajectories from a JSONL file or given directly, or actions. */
export interface ReplayAgentSettings {
  /** A trajectory JSONL file (one trajectory per line), read when the agent is created. */
  file?: string;
  /** Trajectories given directly. */
  trajectories?: readonly Trajectory[];
  /** Actions given directly (a demonstration written as turns, e.g. a linearised search chain). */
  actions?: readonly string[];
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
    async act({ messages, n = 1, signal }: AgentActOptions): Promise<AgentResponse> {
      signal?.throwIfAborted();
      const action = actions[cursor];
      if (action === undefined) {
        throw new InvalidStateError({
          operation: 'act()',
          expected: `an action left to replay`,
          actual: `all ${actions.length} action${actions.length === 1 ? '' : 's'} of ${label} were played`,
        });
      }
      cursor++;
      // Asked to continue a forced prefix (the episode loop puts it back before the text): a recorded
      // action holds it already, so only the rest is the agent's.
      const prefix = partialAssistantText(messages);
      const text = prefix !== undefined && prefix.length > 0 && action.startsWith(prefix) ? action.slice(prefix.length) : action;
      return { outputs: Array.from({ length: n }, () => ({ text, finishReason: 'stop' as const })) };
    },
  };
}

/**
 * An agent that plays back the actions of recorded trajectories, turn after turn: the first
 * trajectory's actions, then the next one's (or the `actions` given). Run the episodes in the same
 * order (same env ids and seeds) to reproduce them, or use `episode(i)` to replay one trajectory on
 * its own. Messages are ignored but for a forced prefix (a prompt that ends with an assistant
 * message): an action that starts with it is answered without it, since the episode loop puts it
 * back; `n` samples are `n` copies.
 *
 * @example
 * const agent = createReplayAgent({ file: 'runs/eval/trajectories/frozen-lake.jsonl' });
 * const first = agent.episode(0);
 */
export function createReplayAgent({ file, trajectories, actions, id = 'replay' }: ReplayAgentSettings): ReplayAgent {
  if ([file, trajectories, actions].filter((source) => source !== undefined).length !== 1) {
    throw new InvalidArgumentError({
      argument: 'file, trajectories, actions',
      expected: 'exactly one of file, trajectories or actions',
      value: { file, trajectories: trajectories === undefined ? undefined : `${trajectories.length} trajectories`, actions: actions === undefined ? undefined : `${actions.length} actions` },
    });
  }
  if (actions !== undefined && !(Array.isArray(actions) && actions.every((action) => typeof action === 'string'))) {
    throw new InvalidArgumentError({ argument: 'actions', expected: 'an array of action strings', value: actions });
  }
  const loaded = actions !== undefined ? [] : (trajectories ?? readTrajectoriesSync(file!));
  const all = player(
    actions ?? loaded.flatMap((trajectory) => trajectory.turns.map((turn) => turn.action)),
    id,
    actions !== undefined ? `the ${actions.length} given` : `${loaded.length} trajector${loaded.length === 1 ? 'y' : 'ies'}`,
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
