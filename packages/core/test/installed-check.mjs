// Runs inside an empty Node project where only the packed tarballs are installed (tools/package-check).
import assert from 'node:assert/strict';
import { assertEnv, createRng, listEnvs, makeEnv, parseFormattedResponse, parseToolCalls, registerEnv } from '@saccade/core';

// Parsers.
const parsed = parseFormattedResponse('<think>go</think><answer>Left, Up</answer>', { format: 'free_think' });
assert.equal(parsed.formatCorrect, true);
assert.deepEqual(parsed.actions, ['Left', 'Up']);
const calls = parseToolCalls('<tool_call>{"name": "zoom", "arguments": {"bbox_2d": [1, 2, 3, 4]}}</tool_call>');
assert.deepEqual(calls.map((result) => result.ok && result.call), [{ name: 'zoom', arguments: { bbox_2d: [1, 2, 3, 4] } }]);

// Seeded random numbers: same seed, same sequence.
assert.deepEqual([1, 2, 3].map(() => createRng(7).next()), [1, 2, 3].map(() => createRng(7).next()));

// Registry and conformance: a text-only counting env.
class CountEnv {
  specificationVersion = 'v1';
  id = 'check/Count-v1';
  count = 0;
  async reset() {
    this.count = 0;
    return { observation: { text: 'Say a number.', images: [] }, info: {} };
  }
  async step(action) {
    const correct = action.trim() === String(this.count + 1);
    if (correct) this.count++;
    return { observation: { text: `Count is ${this.count}.`, images: [] }, reward: correct ? 1 : 0, terminated: this.count >= 3, truncated: false, info: {} };
  }
  systemPrompt() {
    return 'Count upwards from 1.';
  }
  async close() {}
}
registerEnv({ id: 'check/Count-v1', create: () => new CountEnv(), maxTurns: 5 });
assert.ok(listEnvs().includes('check/Count-v1'));
await assertEnv(() => makeEnv('check/Count-v1'), { seed: 0 });
console.log('@saccade/core works when installed alone');
