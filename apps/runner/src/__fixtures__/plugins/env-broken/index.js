// An env that breaks the contract: its observation names an image it does not send.
import { registerEnv } from '@saccade/core';

class BrokenEnv {
  specificationVersion = 'v1';
  id = 'fixture/Broken-v1';

  systemPrompt() {
    return 'Look.';
  }

  async reset() {
    return { observation: { text: '<image> What is it?', images: [] }, info: {} };
  }

  async step() {
    return { observation: { text: 'Done.', images: [] }, reward: 0, terminated: true, truncated: false, info: {} };
  }

  async close() {}
}

export function registerBrokenEnvs() {
  registerEnv({ id: 'fixture/Broken-v1', create: () => new BrokenEnv(), maxTurns: 1 }, { override: true });
}
