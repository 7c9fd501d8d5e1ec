import { findAnswerChecker, listAnswerCheckers, parseFinalAnswer, type AnswerChecker, type AnswerTarget } from '@saccade/core';
import { z } from 'zod';
import { createHttpService, type SaccadeServer, type ServiceOptions } from '../http/create-http-service';
import { parseBody } from '../http/parse-body';
import { ServerRequestError } from '../http/server-request-error';

/**
 * The answer checkers createRewardServer scores with, the reward for a response with no answer, and
 * its batch limit, besides the options every service takes.
 */
export interface RewardServerOptions extends ServiceOptions {
  /** Checkers by data source, looked up before core's registry (`registerAnswerChecker`). */
  checkers?: Readonly<Record<string, AnswerChecker>>;
  /** Reward when the response has no answer to check (default 0). */
  noAnswerScore?: number;
  /** Most items in one request (default 4096). */
  maxItems?: number;
}

/** One scored response: what verl's compute_score returns (`score`) and why. */
export interface RewardScore {
  score: number;
  correct: boolean;
  /** The answer read from the response (`<answer>`, `## FINAL_ANSWER:`, `Answer:`), or null. */
  answer: string | null;
  /** The checker that scored it, by name. */
  checker: string | null;
  detail: string;
}

const item = z.object({
  data_source: z.string().min(1).max(200),
  solution_str: z.string().max(1_000_000),
  ground_truth: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]).nullish(),
  extra_info: z.record(z.string(), z.unknown()).nullish(),
});
const scoreBody = z.object({ items: z.array(item).min(1) });
type Item = z.infer<typeof item>;

const targetSchema = z.object({
  answer: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]),
  choices: z.array(z.string()).optional(),
  question: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** The target of an item: `extra_info.target` (what `saccade data export verl` writes), else the ground truth. */
function targetOf(entry: Item, index: number): AnswerTarget {
  const written = entry.extra_info?.target;
  if (written !== undefined && written !== null) {
    let parsed: unknown = written;
    if (typeof written === 'string') {
      try {
        parsed = JSON.parse(written);
      } catch {
        throw new ServerRequestError({ statusCode: 400, message: `items[${index}].extra_info.target: expected JSON of {answer, choices?, metadata?}, received ${JSON.stringify(written.slice(0, 80))}.` });
      }
    }
    const result = targetSchema.safeParse(parsed);
    if (!result.success) throw new ServerRequestError({ statusCode: 400, message: `items[${index}].extra_info.target: expected {answer, choices?, question?, metadata?}; ${result.error.issues[0]?.message ?? 'invalid'}.` });
    return result.data as AnswerTarget;
  }
  if (entry.ground_truth === undefined || entry.ground_truth === null) {
    throw new ServerRequestError({ statusCode: 400, message: `items[${index}]: expected a ground_truth or an extra_info.target to check the answer against, received neither.` });
  }
  return { answer: entry.ground_truth };
}

/**
 * The reward service: Saccade's answer checkers over HTTP for verl's `custom_reward_function`
 * (see `python/saccade_reward.py`). `POST /score {items: [{data_source, solution_str,
 * ground_truth, extra_info}]}` → `{scores: [{score, correct, answer, checker, detail}]}`, in order.
 * The answer is read as VISTA-Gym accepts it; the checker is the data source's (ChartQA, CLEVR, …),
 * else the one for `extra_info.answer_type`; a data source with neither is a 400 naming the known ones.
 */
export function createRewardServer(options: RewardServerOptions = {}): SaccadeServer {
  const maxItems = options.maxItems ?? 4096;
  const noAnswerScore = options.noAnswerScore ?? 0;
  const own = new Map(Object.entries(options.checkers ?? {}).map(([name, checker]) => [name.toLowerCase(), { name, checker }]));
  const server = createHttpService({
    ...options,
    name: 'reward service',
    defaultBodyLimit: 64 * 1024 * 1024,
    errorBody: (_status, message) => ({ error: message }),
    health: () => ({ checkers: [...[...own.values()].map(({ name }) => name), ...listAnswerCheckers()] }),
    shutdown: async () => {},
  });

  const checkerOf = (entry: Item, index: number): { name: string; checker: AnswerChecker } => {
    const mine = own.get(entry.data_source.toLowerCase());
    if (mine !== undefined) return mine;
    const byDataset = findAnswerChecker(entry.data_source);
    if (byDataset !== undefined) return { name: entry.data_source, checker: byDataset };
    const answerType = entry.extra_info?.answer_type;
    const byType = typeof answerType === 'string' ? findAnswerChecker(answerType) : undefined;
    if (byType !== undefined) return { name: answerType as string, checker: byType };
    throw new ServerRequestError({
      statusCode: 400,
      message: `items[${index}]: no answer checker for data_source "${entry.data_source.slice(0, 100)}"${typeof answerType === 'string' ? ` or answer_type "${answerType.slice(0, 100)}"` : ''}; expected one of ${[...own.values()].map(({ name }) => name).concat(listAnswerCheckers()).join(', ')}.`,
    });
  };

  server.app.post('/score', async (request) => {
    const { items } = parseBody(scoreBody, request.body, '{"items": [{"data_source": string, "solution_str": string, "ground_truth": string, "extra_info"?: {...}}]}');
    if (items.length > maxItems) throw new ServerRequestError({ statusCode: 413, message: `${items.length} items in one request; the limit is ${maxItems}. Send fewer per request.` });
    // Resolve every checker and target first: one bad item refuses the request before any is scored.
    const plans = items.map((entry, index) => ({ entry, ...checkerOf(entry, index), target: targetOf(entry, index) }));
    const scores: RewardScore[] = plans.map(({ entry, name, checker, target }) => {
      const parsed = parseFinalAnswer(entry.solution_str);
      if (parsed === undefined) return { score: noAnswerScore, correct: false, answer: null, checker: name, detail: 'no answer found (expected <answer>…</answer>, "## FINAL_ANSWER:" or "Answer:")' };
      const check = checker(parsed.answer, target);
      return { score: check.score, correct: check.correct, answer: parsed.answer, checker: name, detail: check.detail };
    });
    return { scores };
  });

  return server;
}
