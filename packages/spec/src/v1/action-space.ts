/**
 * Discrete text actions: the answer names 1 to `maxActionsPerTurn` of `actions`, joined by
 * `separator` (FrozenLake's `Left, Down`).
 */
export interface DiscreteActionSpace {
  kind: 'discrete';
  actions: readonly string[];
  maxActionsPerTurn: number;
  separator: string;
  /** The output format the env reads the response in (core's format names, e.g. `free_think`). */
  format: string;
}

/**
 * Free text: the answer is any text. `choices`, when given, are the answers that make sense in
 * this state (a multiple-choice task's letters, `yes`/`no`); `answerType` names what else is
 * expected (e.g. `number`).
 */
export interface TextActionSpace {
  kind: 'text';
  choices?: readonly string[];
  answerType?: string;
  /** The output format the env reads the response in (`final-answer` or one of core's format names). */
  format: string;
}

/** Tool calls: the agent may call these tools before it answers in the `answer` space. */
export interface ToolCallActionSpace {
  kind: 'tool-calls';
  tools: readonly string[];
  answer: DiscreteActionSpace | TextActionSpace;
}

/**
 * What an env accepts as an action in its current state, declared by the env (`Env.actionSpace`)
 * so that a random agent, `checkEnv` and a UI need not know the env family.
 */
export type ActionSpace = DiscreteActionSpace | TextActionSpace | ToolCallActionSpace;
