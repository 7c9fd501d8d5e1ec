import { dirname, join, basename, extname } from 'node:path';
import { type VisionQATask } from '@saccade/env-vqa';
import { createContinuingOpenAIAgent } from '@saccade/agents';
import { createNoisyGroundingAgent, generateSftData, TaskLookup, type GenerateSftDataResult, type MctsSettings, type SftForm } from '@saccade/datagen';
import { GROUNDING_TASK_ENV_IDS, groundingTaskSource } from '@saccade/env-grounded';
import { createContinuingModelAgent } from '@saccade/models';
import type { PointCropPresetName } from '@saccade/tool-zoom';
import { SaccadeError, type Agent } from '@saccade/spec';
import { Command } from 'commander';
import { EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

interface GenerateFlags {
  method?: string;
  env?: string;
  taskFile?: string;
  agent: string;
  baseUrl?: string;
  model?: string;
  checkpoint?: string;
  output?: string;
  tasks: number;
  start: number;
  n: number;
  form: string;
  seed: number;
  simulations?: number;
  children?: number;
  rollouts?: number;
  maxDepth?: number;
  exploration?: number;
  trees?: string;
  maxPerTask: number;
  temperature?: number;
  maxTokens?: number;
  split?: string;
  difficulty?: number;
  preset: string;
  maxCrops: number;
  json?: boolean;
}

const integer = (value: string): number => (/^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN);
const AGENTS = ['noisy', 'openai', 'policy'] as const;

class UsageError extends Error {}

/** The flags checked, or a usage error saying which one is wrong. */
function checkFlags(flags: GenerateFlags): void {
  const fail = (message: string): never => {
    throw new UsageError(message);
  };
  if (flags.method !== 'mcts' && flags.method !== 'best-of-n') fail(`--method: expected mcts or best-of-n, received ${JSON.stringify(flags.method ?? '(none)')}`);
  if (flags.env === undefined) fail(`--env: expected one of ${GROUNDING_TASK_ENV_IDS.join(', ')}`);
  if (flags.output === undefined) fail('--output: expected the SFT file to write (JSONL), e.g. data/grounding-sft.jsonl');
  if (!AGENTS.includes(flags.agent as (typeof AGENTS)[number])) fail(`--agent: expected ${AGENTS.join(' | ')}, received ${JSON.stringify(flags.agent)}`);
  if (flags.agent === 'openai' && (flags.baseUrl === undefined || flags.model === undefined)) fail('--agent openai needs --base-url (e.g. http://localhost:8000/v1) and --model');
  if (flags.agent === 'policy' && flags.checkpoint === undefined) fail('--agent policy needs --checkpoint <folder>');
  if (flags.form !== 'single-turn' && flags.form !== 'multi-turn') fail(`--form: expected single-turn or multi-turn, received ${JSON.stringify(flags.form)}`);
  if (flags.preset !== 'auto' && flags.preset !== 'visual-search' && flags.preset !== 'web') fail(`--preset: expected auto, visual-search or web, received ${JSON.stringify(flags.preset)}`);
  for (const [name, value, minimum] of [
    ['--tasks', flags.tasks, 1],
    ['--start', flags.start, 0],
    ['--n', flags.n, 1],
    ['--seed', flags.seed, 0],
    ['--max-per-task', flags.maxPerTask, 1],
    ['--max-crops', flags.maxCrops, 0],
    ['--simulations', flags.simulations, 1],
    ['--children', flags.children, 1],
    ['--rollouts', flags.rollouts, 0],
    ['--max-depth', flags.maxDepth, 1],
    ['--max-tokens', flags.maxTokens, 1],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= minimum)) fail(`${name}: expected an integer ≥ ${minimum}, received ${String(value)}`);
  }
  for (const [name, value] of [['--exploration', flags.exploration], ['--temperature', flags.temperature], ['--difficulty', flags.difficulty]] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) fail(`${name}: expected a number ≥ 0, received ${String(value)}`);
  }
}

async function createAgent(flags: GenerateFlags, tasks: readonly VisionQATask[]): Promise<{ agent: Agent; close: () => void }> {
  if (flags.agent === 'openai') {
    const agent = createContinuingOpenAIAgent({
      baseURL: flags.baseUrl!,
      model: flags.model!,
      ...(flags.temperature === undefined ? {} : { temperature: flags.temperature }),
      ...(flags.maxTokens === undefined ? {} : { maxTokens: flags.maxTokens }),
    });
    return { agent, close: () => {} };
  }
  if (flags.agent === 'policy') {
    const [{ initTensor }, { loadCheckpoint }] = await Promise.all([import('@saccade/tensor'), import('@saccade/models')]);
    await initTensor();
    const { model } = await loadCheckpoint(flags.checkpoint!);
    const agent = createContinuingModelAgent({ model, id: 'policy', seed: flags.seed, maxTokens: flags.maxTokens ?? 256, ...(flags.temperature === undefined ? {} : { temperature: flags.temperature }) });
    return { agent, close: () => model.dispose() };
  }
  const lookup = await TaskLookup.fromTasks(tasks);
  if (lookup.size < tasks.length) {
    const missing = tasks.length - lookup.size;
    throw new UsageError(`--agent noisy knows where the answer lies only from a target box (a click's answer, metadata.targetBox or metadata.bbox); ${missing} of the ${tasks.length} tasks have none`);
  }
  return { agent: createNoisyGroundingAgent({ lookup, seed: flags.seed }), close: () => {} };
}

/** Where tree files go by default: `<output without extension>.trees/` beside the SFT file. */
export function defaultTreesFolder(output: string): string {
  return join(dirname(output), `${basename(output, extname(output))}.trees`);
}

/**
 * `generate`: grounded-reasoning SFT data (ViGoRL). Best-of-n samples `--n` responses per task
 * and keeps the correct ones; MCTS grows a tree of thought steps per task (saved as JSON) and
 * linearises it into chains with the "Wait, this seems off…" backtracking pattern. Either way the
 * result is an SFT file (JSONL + images/) the built-in model trains on. Meant to sit under `saccade data`.
 */
export function dataGenerateCommand(output: Output, setExitCode: (code: number) => void): Command {
  return new Command('generate')
    .description('make grounded-reasoning SFT data (ViGoRL): best-of-n sampling or MCTS over thought steps, saved as an SFT file')
    .option('--method <method>', 'mcts | best-of-n')
    .option('--env <id>', `where the tasks come from: ${GROUNDING_TASK_ENV_IDS.join(', ')}`)
    .option('--task-file <file>', 'a task file in @saccade/env-vqa format (V*Bench, ScreenSpot, …), for saccade/GroundedSearch-v1 or saccade/VisionQA-v1')
    .option('--agent <agent>', 'noisy (scripted, knows the target boxes) | openai (vLLM/SGLang, continues partial answers) | policy (the built-in model)', 'noisy')
    .option('--base-url <url>', 'openai: the server, e.g. http://localhost:8000/v1')
    .option('--model <name>', 'openai: the model name the server knows')
    .option('--checkpoint <folder>', 'policy: a checkpoint folder of the built-in model')
    .option('--output <file>', 'the SFT file to write (JSONL; images go to images/ beside it)')
    .option('--tasks <n>', 'how many tasks', integer, 8)
    .option('--start <index>', 'first task index', integer, 0)
    .option('--n <samples>', 'best-of-n: samples per task', integer, 8)
    .option('--form <form>', 'single-turn | multi-turn (crops as turns)', 'single-turn')
    .option('--seed <n>', "seed of the noisy agent's and the policy's draws and of the per-task selection", integer, 0)
    .option('--simulations <n>', 'mcts: simulations per task (default 8)', integer)
    .option('--children <n>', 'mcts: children per expansion (default 3)', integer)
    .option('--rollouts <n>', 'mcts: rollouts per child (default 2)', integer)
    .option('--max-depth <n>', 'mcts: most thought steps per chain (default 10)', integer)
    .option('--exploration <c>', 'mcts: the UCT constant (default 2.0)', Number)
    .option('--trees <folder>', 'mcts: where the tree files (JSON) go (default: <output>.trees/ beside the output)')
    .option('--max-per-task <k>', 'most examples kept per task (balance)', integer, 8)
    .option('--temperature <x>', 'sampling temperature (default 1)', Number)
    .option('--max-tokens <n>', 'openai/policy: most tokens per generation', integer)
    .option('--split <split>', 'procedural envs: train | test')
    .option('--difficulty <x>', 'procedural envs: 0 (easy) to 1 (hard)', Number)
    .option('--preset <preset>', 'crop preset: auto | visual-search (182/672) | web (100/512, red dot)', 'auto')
    .option('--max-crops <n>', 'multi-turn: crops per episode (the image budget is the original + this)', integer, 4)
    .option('--json', 'print the summary as JSON on stdout (progress goes to stderr)')
    .action(async (flags: GenerateFlags) => {
      const say = flags.json ? (line: string) => output.error(line) : (line: string) => output.log(line);
      let close = (): void => {};
      try {
        checkFlags(flags);
        const sourceOptions: Record<string, unknown> = {};
        if (flags.taskFile !== undefined) sourceOptions.taskFile = flags.taskFile;
        if (flags.split !== undefined) sourceOptions.split = flags.split;
        if (flags.difficulty !== undefined) sourceOptions.difficulty = flags.difficulty;
        let source;
        try {
          source = groundingTaskSource(flags.env!, sourceOptions);
        } catch (error) {
          if (SaccadeError.isInstance(error)) throw new UsageError(`--env: ${error.message}`);
          throw error;
        }
        const size = await source.size();
        if (flags.start >= size) throw new UsageError(`--start: expected an index below ${size} (the source has ${size} tasks)`);
        const taskIndices = Array.from({ length: Math.min(flags.tasks, size - flags.start) }, (_, index) => flags.start + index);
        const tasks = await Promise.all(taskIndices.map((index) => source.get(index)));
        const created = await createAgent(flags, tasks);
        close = created.close;
        const mcts: Partial<MctsSettings> = {};
        if (flags.simulations !== undefined) mcts.simulations = flags.simulations;
        if (flags.children !== undefined) mcts.childrenPerExpansion = flags.children;
        if (flags.rollouts !== undefined) mcts.rolloutsPerChild = flags.rollouts;
        if (flags.maxDepth !== undefined) mcts.maxDepth = flags.maxDepth;
        if (flags.exploration !== undefined) mcts.explorationConstant = flags.exploration;
        const treesFolder = flags.method === 'mcts' ? (flags.trees ?? defaultTreesFolder(flags.output!)) : undefined;
        say(`${flags.method} on ${taskIndices.length} task${taskIndices.length === 1 ? '' : 's'} of ${source.description} with the ${created.agent.id} agent (${flags.form})`);
        const result: GenerateSftDataResult = await generateSftData({
          method: flags.method as 'mcts' | 'best-of-n',
          source,
          taskIndices,
          agent: created.agent,
          output: flags.output!,
          form: flags.form as SftForm,
          n: flags.n,
          mcts,
          ...(treesFolder === undefined ? {} : { treesFolder }),
          ...(flags.temperature === undefined ? {} : { temperature: flags.temperature }),
          ...(flags.maxTokens === undefined ? {} : { maxTokens: flags.maxTokens }),
          maxPerTask: flags.maxPerTask,
          seed: flags.seed,
          preset: flags.preset as PointCropPresetName | 'auto',
          maxCrops: flags.maxCrops,
          onTask: (task) => say(`  ${task.taskId}: ${task.generations} generations, ${task.correct} correct, ${task.kept} kept`),
        });
        await source.close?.();
        const summary = { output: result.output, method: result.method, form: result.form, tasks: result.tasks, records: result.records, generations: result.generations, actCalls: result.actCalls, ...(treesFolder ? { trees: treesFolder } : {}) };
        if (flags.json) output.log(JSON.stringify(summary));
        else say(`wrote ${result.records} example${result.records === 1 ? '' : 's'} to ${result.output}${treesFolder ? ` (trees in ${treesFolder})` : ''}; ${result.generations} generations`);
        setExitCode(EXIT_SUCCESS);
      } catch (error) {
        if (error instanceof UsageError) {
          output.error(error.message);
          setExitCode(EXIT_USAGE);
          return;
        }
        output.error(`generate failed: ${(error as Error).message}`);
        setExitCode(EXIT_FAILURE);
      } finally {
        close();
      }
    });
}
