import { extractTagContent, listTools, ToolUseWrapper } from '@saccade/core';
import type { Env, ImageData, StepResult, Tool } from '@saccade/spec';
import { z } from 'zod';
import { createHttpService, type SaccadeServer, type ServiceOptions } from '../http/create-http-service';
import { fromDataUrl, toDataUrl } from '../http/data-url';
import { parseBody } from '../http/parse-body';
import { SessionStore } from '../http/session-store';
import { withDeadline } from '../http/with-deadline';

/**
 * The tools createToolServer runs and its limits on calls, time and trajectories held, besides the
 * options every service takes.
 */
export interface ToolServerOptions extends ServiceOptions {
  /** Tools the model may call, or names of registered tools (default: every registered tool). The caller picks them: this package names none. */
  tools?: ReadonlyArray<Tool | string>;
  /** Tool calls per trajectory; later ones are refused with a message (default 10). */
  maxToolCalls?: number;
  /** Tool calls read from one action (default 4). */
  maxCallsPerTurn?: number;
  /** Longest one tool call may run (default 30,000 ms). */
  toolTimeoutMs?: number;
  /** Most trajectories held at once; more are answered 503 (default 4096). */
  maxTrajectories?: number;
}

/** One verl-tool observation: text, or text with images as data URLs. */
export type VerlToolObservation = string | { obs: string; image: string | string[] };

const NO_TOOL_CALL =
  'Your response has no <tool_call> to run and no <answer>. Call a tool as <tool_call>{"name": …, "arguments": {…}}</tool_call> or give your final <answer>.';

/** A trajectory's images and nothing else: the tool wrapper runs the calls, an `<answer>` ends it. */
class TrajectoryEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id = 'saccade/ToolTrajectory-v1';
  readonly #images: ImageData[];

  constructor(images: ImageData[]) {
    this.#images = images;
  }

  async reset() {
    return { observation: { text: '', images: this.#images }, info: {} };
  }

  async step(action: string): Promise<StepResult> {
    const answered = extractTagContent(action, 'answer') !== undefined;
    return {
      observation: { text: answered ? '' : NO_TOOL_CALL, images: [] },
      reward: 0,
      terminated: answered,
      truncated: false,
      info: { valid: answered },
    };
  }

  systemPrompt(): string {
    return 'Answer the question about the image(s); call tools to look closer.';
  }

  async close(): Promise<void> {}
}

interface Trajectory {
  env: ToolUseWrapper;
  done: boolean;
}

const trajectoryId = z.union([z.string().min(1).max(256), z.number()]).transform(String);
const observationBody = z
  .object({
    trajectory_ids: z.array(trajectoryId),
    actions: z.array(z.string()),
    extra_fields: z.array(z.record(z.string(), z.unknown()).nullable()).optional(),
    finish: z.array(z.boolean()).optional(),
    is_last_step: z.array(z.boolean()).optional(),
  })
  .refine(
    (body) => [body.actions, body.extra_fields, body.finish, body.is_last_step].every((list) => list === undefined || list.length === body.trajectory_ids.length),
    { message: 'expected actions, extra_fields, finish and is_last_step to have one entry per trajectory id' },
  );

function originalImages(extra: Record<string, unknown> | null | undefined, index: number): ImageData[] {
  const value = extra?.images ?? extra?.image;
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((item, at) => fromDataUrl(typeof item === 'object' && item !== null && 'url' in item ? (item as { url: unknown }).url : item, `extra_fields[${index}].images[${at}]`));
}

/**
 * The tool service: verl-tool's `POST /get_observation`, so that verl (on Ray) trains a VLM with
 * Saccade's tools. Each trajectory id keeps its images (from `extra_fields[i].images`, data URLs,
 * on its first action) and its tool-call count; an action's `<tool_call>`s run and their results
 * come back as `<tool_response>` text with the crops as data URLs; an `<answer>` ends the
 * trajectory; a bad call is answered with text saying what was wrong and `valids: false`;
 * `finish: true` frees the trajectory without running its action. Tools that read calls from the
 * response text (`textCalls`, e.g. python_code's ```python blocks) answer in their own shape, as
 * verl-tool's text tools do. Responses carry verl-tool's `processing_time_ms` and `queue_time_ms`.
 */
export function createToolServer(options: ToolServerOptions = {}): SaccadeServer {
  const requestTimeoutMs = options.requestTimeoutMs ?? 120_000;
  const tools = new Map<string, Tool | string>();
  for (const tool of options.tools ?? listTools()) {
    const name = typeof tool === 'string' ? tool : tool.name;
    if (!tools.has(name)) tools.set(name, tool);
  }
  const trajectories = new SessionStore<Trajectory>({
    kind: 'trajectory',
    idleTimeoutMs: options.idleTimeoutMs ?? 30 * 60_000,
    maxEntries: options.maxTrajectories ?? 4096,
    dispose: (trajectory) => trajectory.env.close(),
    onExpire: (expired, idleMs) => server.app.log.info({ trajectory: expired, idleMs }, 'trajectory expired'),
  });
  const wrapperOptions = {
    tools: [...tools.values()],
    maxToolCalls: options.maxToolCalls ?? 10,
    maxCallsPerTurn: options.maxCallsPerTurn ?? 4,
    timeoutMs: options.toolTimeoutMs ?? 30_000,
    // verl's trainer bounds the turns; the wrapper must not cut a trajectory first.
    maxTurns: 1_000_000,
  };
  // Resolve names now: an unknown tool name fails at start-up, not on the first request.
  new ToolUseWrapper(new TrajectoryEnv([]), wrapperOptions);

  const server = createHttpService({
    ...options,
    name: 'tool service',
    defaultBodyLimit: 64 * 1024 * 1024,
    requestTimeoutMs,
    errorBody: (_status, message) => ({ error: message }),
    health: () => ({ tools: [...tools.keys()], active_trajectories: trajectories.size }),
    shutdown: () => trajectories.clear(),
  });
  const { app } = server;

  app.post('/get_observation', async (request) => {
    const received = performance.now();
    const body = parseBody(observationBody, request.body, '{"trajectory_ids": [...], "actions": [...], "extra_fields"?: [{...}], "finish"?: [bool], "is_last_step"?: [bool]}');
    const ids = body.trajectory_ids;
    const fresh = ids.filter((id, index) => !trajectories.has(id) && body.finish?.[index] !== true);
    trajectories.assertRoom(fresh.length);
    // Decode new trajectories' images before locking, so a bad image refuses the request untouched.
    const images = new Map(ids.map((id, index) => [id, trajectories.has(id) ? [] : originalImages(body.extra_fields?.[index], index)]));
    const release = trajectories.acquire(ids, { allowMissing: true });
    const started = performance.now();
    const running = Promise.all(
      ids.map(async (id, index): Promise<{ observation: VerlToolObservation; done: boolean; valid: boolean }> => {
        if (body.finish?.[index] === true) {
          await trajectories.delete(id);
          return { observation: '', done: true, valid: true };
        }
        let trajectory = trajectories.has(id) ? trajectories.get(id) : undefined;
        if (trajectory === undefined) {
          trajectory = { env: new ToolUseWrapper(new TrajectoryEnv(images.get(id) ?? []), wrapperOptions), done: false };
          await trajectory.env.reset();
          await trajectories.set(id, trajectory);
        }
        if (trajectory.done) return { observation: 'This trajectory has ended; no more actions are run.', done: true, valid: false };
        const result = await trajectory.env.step(body.actions[index] ?? '');
        const done = result.terminated || result.truncated || body.is_last_step?.[index] === true;
        trajectory.done = done;
        const { text, images: shown } = result.observation;
        const observation: VerlToolObservation = shown.length === 0 ? text : { obs: text, image: shown.length === 1 ? toDataUrl(shown[0]!) : shown.map(toDataUrl) };
        return { observation, done, valid: result.info.valid !== false };
      }),
    ).finally(release);
    const results = await withDeadline(requestTimeoutMs, `POST /get_observation (${ids.length} trajectories)`, () => running);
    // verl-tool's AgentResponse carries the two timings as well.
    const milliseconds = (from: number, to: number) => Math.round((to - from) * 1000) / 1000;
    return {
      observations: results.map((result) => result.observation),
      dones: results.map((result) => result.done),
      valids: results.map((result) => result.valid),
      processing_time_ms: milliseconds(started, performance.now()),
      queue_time_ms: milliseconds(received, started),
    };
  });

  return server;
}
