/** How `splitActions` splits an answer into actions: the separator and the cap. */
export interface SplitActionsOptions {
  /** The separator between actions; `null` keeps the answer as one action. Default `','`. */
  separator?: string | null;
  /** At most this many actions per turn; the rest are dropped. Default 1000. */
  maxActions?: number;
}

/** The actions of an answer, and those dropped past the cap. */
export interface SplitActionsResult {
  actions: string[];
  /** Actions beyond `maxActions`, in order (the first 100 of them). */
  droppedActions: string[];
}

const MAX_DROPPED_KEPT = 100;

/**
 * Splits an answer into trimmed, non-empty actions (VAGEN's `action_sep`), keeping at most
 * `maxActions`. Works lazily, so a huge answer costs no more than the actions it keeps.
 */
export function splitActions(answer: string, { separator = ',', maxActions = 1000 }: SplitActionsOptions = {}): SplitActionsResult {
  const cap = Math.max(0, Math.floor(maxActions));
  const actions: string[] = [];
  const droppedActions: string[] = [];
  const keep = (part: string) => {
    const action = part.trim();
    if (action.length === 0) return;
    if (actions.length < cap) actions.push(action);
    else droppedActions.push(action);
  };
  if (separator === null || separator === '') {
    keep(answer);
    return { actions, droppedActions };
  }
  let start = 0;
  while (droppedActions.length < MAX_DROPPED_KEPT) {
    const end = answer.indexOf(separator, start);
    keep(answer.slice(start, end === -1 ? answer.length : end));
    if (end === -1) break;
    start = end + separator.length;
  }
  return { actions, droppedActions };
}
