import { registerEnv } from '@saccade/core';
import { encodePng } from '@saccade/image';
import type { Env, EnvInfo, ImageData, Observation, ResetResult, StepResult } from '@saccade/spec';

// A small env of the tests' own, so that the trainers are tested on an env they know nothing about.

export const COLOUR_STEPS_ID = 'test/ColourSteps-v1';
export const COLOURS = { red: [220, 30, 30], green: [30, 200, 40], blue: [30, 40, 220] } as const;
export type Colour = keyof typeof COLOURS;
const NAMES = Object.keys(COLOURS) as Colour[];

const encoded = new Map<string, Uint8Array>();
const keyOf = (size: number, [r, g, b]: readonly number[]): string => `${size}:${r},${g},${b}`;

/** A square PNG of one colour, encoded by @saccade/image (sharp) once a size and colour. */
export async function encodeSolidPng(size: number, rgb: readonly number[]): Promise<Uint8Array> {
  const key = keyOf(size, rgb);
  let png = encoded.get(key);
  if (png === undefined) {
    const pixels = new Uint8Array(size * size * 3);
    for (let index = 0; index < size * size; index++) pixels.set(rgb, index * 3);
    png = (await encodePng({ data: pixels, width: size, height: size, channels: 3 })).data;
    encoded.set(key, png);
  }
  return png;
}

// The sizes a test's tool shows synchronously, encoded when this module loads.
await Promise.all([8, 16].flatMap((size) => Object.values(COLOURS).map((rgb) => encodeSolidPng(size, rgb))));

/** The PNG of {@link encodeSolidPng} for a size and colour already encoded (8 and 16 px in the three colours always are). */
export function solidPng(size: number, rgb: readonly number[]): Uint8Array {
  const png = encoded.get(keyOf(size, rgb));
  if (png === undefined) throw new Error(`expected a ${size} px PNG of rgb(${rgb.join(', ')}) encoded already, but none was: await encodeSolidPng(${size}, …) first`);
  return png;
}

/** The colour of turn `turn` of the episode on `seed`. */
export function colourAt(seed: number, turn: number): Colour {
  return NAMES[(seed * 7 + turn * 5) % NAMES.length]!;
}

/**
 * Each turn shows a square of one colour; the answer names it (`<answer>red</answer>`). Two turns;
 * +1 a right answer; success when both are right. The oracle answers right.
 */
export class ColourStepsEnv implements Env {
  readonly specificationVersion = 'v1' as const;
  readonly id = COLOUR_STEPS_ID;
  #seed = 0;
  #turn = 0;
  #right = 0;
  readonly turns: number;

  constructor(options: { turns?: number } = {}) {
    this.turns = options.turns ?? 2;
  }

  systemPrompt(): string {
    return 'Name the colour.';
  }

  async reset(options: { seed?: number } = {}): Promise<ResetResult> {
    this.#seed = options.seed ?? 0;
    this.#turn = 0;
    this.#right = 0;
    return { observation: this.#observation(), info: {} };
  }

  async step(action: string): Promise<StepResult> {
    const answer = /^<answer>(\w+)<\/answer>$/.exec(action.trim())?.[1];
    const right = answer === colourAt(this.#seed, this.#turn);
    if (right) this.#right++;
    this.#turn++;
    const terminated = this.#turn >= this.turns;
    const info: EnvInfo = { formatCorrect: answer !== undefined, rewardTerms: { correct: right ? 1 : 0 }, metrics: { success: terminated && this.#right === this.turns } };
    return { observation: terminated ? { text: 'Done.', images: [] } : this.#observation(), reward: right ? 1 : 0, terminated, truncated: false, info };
  }

  oracleResponse(): string {
    return `<answer>${colourAt(this.#seed, this.#turn)}</answer>`;
  }

  async close(): Promise<void> {}

  #observation(): Observation {
    const image: ImageData = { data: solidPng(16, COLOURS[colourAt(this.#seed, this.#turn)]), mediaType: 'image/png' };
    return { text: `Turn ${this.#turn + 1}: <image>`, images: [image] };
  }
}

export function registerColourSteps(): void {
  registerEnv({ id: COLOUR_STEPS_ID, create: (options: { turns?: number }) => new ColourStepsEnv(options), maxTurns: 4 }, { override: true });
}
