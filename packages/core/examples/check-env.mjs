// Registers a tiny env, makes it through the registry, parses a model's answer and runs the
// conformance checks. Run after building: node packages/core/examples/check-env.mjs
import {
  assertEnv,
  createRng,
  makeEnv,
  parseFormattedResponse,
  registerEnv,
} from '@saccade/core';

class GuessNumberEnv {
  specificationVersion = 'v1';
  id = 'example/GuessNumber-v1';
  #secret = 0;

  systemPrompt() {
    return 'Guess the number from 1 to 20. Think in <think>…</think>, then answer with <answer>N</answer>.';
  }

  async reset({ seed = 0 } = {}) {
    this.#secret = createRng(seed).int(1, 20);
    return { observation: { text: 'Guess a number from 1 to 20.', images: [] }, info: {} };
  }

  async step(action) {
    const parsed = parseFormattedResponse(action, { format: 'free_think', maxActions: 1 });
    const guess = Number(parsed.actions[0]);
    const valid = parsed.formatCorrect && Number.isInteger(guess);
    const success = valid && guess === this.#secret;
    const rewardTerms = { format: valid ? 0.5 : 0, success: success ? 10 : 0 };
    const text = !valid ? `Invalid answer: ${parsed.error ?? 'not a number'}` : success ? 'Correct!' : guess < this.#secret ? 'Higher.' : 'Lower.';
    return {
      observation: { text, images: [] },
      reward: rewardTerms.format + rewardTerms.success,
      terminated: success,
      truncated: false,
      info: { rewardTerms, metrics: { action_is_valid: valid, success } },
    };
  }

  async close() {}
}

registerEnv({ id: 'example/GuessNumber-v1', create: () => new GuessNumberEnv(), maxTurns: 5 });

const env = makeEnv('example/GuessNumber-v1');
const { observation } = await env.reset({ seed: 2 });
console.log('observation:', observation.text);
let low = 1;
let high = 20;
for (;;) {
  const guess = Math.floor((low + high) / 2);
  const step = await env.step(`<think>Halve the range ${low}..${high}.</think><answer>${guess}</answer>`);
  console.log(`guess ${guess}: ${step.observation.text} reward ${step.reward}`, step.info.rewardTerms);
  if (step.terminated || step.truncated) break;
  if (step.observation.text === 'Higher.') low = guess + 1;
  else high = guess - 1;
}
await env.close();

await assertEnv(() => makeEnv('example/GuessNumber-v1'), { seed: 2, actions: ['<think>t</think><answer>10</answer>'] });
console.log('checkEnv: example/GuessNumber-v1 passes');
