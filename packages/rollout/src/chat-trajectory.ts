import { IMAGE_PLACEHOLDER, InvalidArgumentError, type ImageData, type MessageRole, type Trajectory, type Turn } from '@saccade/spec';
import { storeObservation } from './store-observation';

/** A chat message as SFT files hold it: text with one `<image>` placeholder per image it shows. */
export interface ChatTextMessage {
  role: MessageRole;
  content: string;
}

/** The ids and metadata chatTrajectory puts on the trajectory it makes from a chat. */
export interface ChatTrajectoryOptions {
  id: string;
  envId?: string;
  agentId?: string;
  metadata?: Record<string, unknown>;
}

/**
 * A chat (SFT data: LLaVA conversations, `saccade data generate` chains, converted task files with
 * their answers) as a trajectory, so that it is tokenised like a played episode: the system message
 * becomes the system prompt, each user message (or run of them) and the assistant message after it
 * one turn. `images` fill the placeholders in order. A user message no assistant answers is left out.
 */
export function chatTrajectory(messages: readonly ChatTextMessage[], images: readonly ImageData[], options: ChatTrajectoryOptions): { trajectory: Trajectory; images: Map<string, ImageData> } {
  const placeholders = messages.reduce((count, message) => count + message.content.split(IMAGE_PLACEHOLDER).length - 1, 0);
  if (placeholders !== images.length) {
    throw new InvalidArgumentError({ argument: `chat ${options.id}`, expected: `one image per ${IMAGE_PLACEHOLDER} placeholder (${placeholders})`, value: `${images.length} images` });
  }
  const stored = new Map<string, ImageData>();
  const turns: Turn[] = [];
  let systemPrompt: string | undefined;
  let pending: { text: string[]; images: ImageData[] } = { text: [], images: [] };
  let next = 0;
  for (const message of messages) {
    const count = message.content.split(IMAGE_PLACEHOLDER).length - 1;
    const own = images.slice(next, next + count);
    next += count;
    if (message.role === 'system') systemPrompt = systemPrompt === undefined ? message.content : `${systemPrompt}\n${message.content}`;
    else if (message.role === 'user') pending = { text: [...pending.text, message.content], images: [...pending.images, ...own] };
    else {
      turns.push({
        observation: storeObservation({ text: pending.text.join('\n'), images: pending.images }, stored),
        action: message.content,
        reward: 0,
        rewardTerms: {},
        terminated: false,
        truncated: false,
        info: {},
        timing: { agentMs: 0, envMs: 0 },
        finishReason: 'stop',
      });
      pending = { text: [], images: [] };
    }
  }
  const last = turns.at(-1);
  if (last) last.terminated = true;
  const now = new Date(0).toISOString();
  const trajectory: Trajectory = {
    id: options.id,
    envId: options.envId ?? 'chat',
    seed: null,
    agentId: options.agentId ?? 'demonstration',
    turns,
    totalReward: 0,
    terminated: turns.length > 0,
    truncated: false,
    startedAt: now,
    endedAt: now,
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
    ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
  };
  return { trajectory, images: stored };
}
