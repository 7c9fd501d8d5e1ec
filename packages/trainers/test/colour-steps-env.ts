import { deflateSync, crc32 } from 'node:zlib';
import { registerEnv } from '@saccade/core';
import type { Env, EnvInfo, ImageData, Observation, ResetResult, StepResult } from '@saccade/spec';

// A small env of the tests' own, so that the trainers are tested on an env they know nothing about.

export const COLOUR_STEPS_ID = 'test/ColourSteps-v1';
export const COLOURS = { red: [220, 30, 30], green: [30, 200, 40], blue: [30, 40, 220] } as const;
export type Colour = keyof typeof COLOURS;
const NAMES = Object.keys(COLOURS) as Colour[];

/** A PNG of one colour (8-bit RGB, no filter), written by hand: the tests need no image library. */
export function solidPng(size: number, [r, g, b]: readonly number[]): Uint8Array {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r!, g!, b!]).flat())]);
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return new Uint8Array(
    Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))), chunk('IEND', Buffer.alloc(0))]),
  );
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
