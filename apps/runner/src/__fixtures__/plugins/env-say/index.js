// A plug-in env package: one env, registered by the export package.json names.
import { parseFinalAnswer, registerEnv } from '@saccade/core';

class SayEnv {
  specificationVersion = 'v1';
  id = 'fixture/Say-v1';
  #done = true;

  systemPrompt() {
    return 'Answer <answer>yes</answer>.';
  }

  async reset() {
    this.#done = false;
    return { observation: { text: 'Say yes.', images: [] }, info: {} };
  }

  async step(action) {
    if (this.#done) throw new Error('expected reset() before step(), the episode has ended');
    const success = parseFinalAnswer(typeof action === 'string' ? action : '')?.answer.trim() === 'yes';
    this.#done = true;
    return { observation: { text: success ? 'Right.' : 'Wrong.', images: [] }, reward: success ? 1 : 0, terminated: true, truncated: false, info: { rewardTerms: success ? { success: 1 } : {}, metrics: { success } } };
  }

  oracleResponse() {
    return '<answer>yes</answer>';
  }

  async close() {}
}

export function registerSayEnvs() {
  registerEnv({ id: 'fixture/Say-v1', create: () => new SayEnv(), maxTurns: 1, description: 'Say yes.' }, { override: true });
}
