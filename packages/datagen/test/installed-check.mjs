// Runs inside an empty Node project where only the packed tarballs are installed (tools/package-check).
import assert from 'node:assert/strict';
import { formatChain, linearizeTree, runMcts } from '@saccade/datagen';

// MCTS with an agent that always steps once, then answers B.
const agent = {
  specificationVersion: 'v1',
  id: 'check',
  async act({ messages, n = 1, stop = [] }) {
    const prefix = messages.at(-1).role === 'assistant' ? messages.at(-1).content : '';
    const text = prefix.includes('(1, 1)') ? '</think><answer>B</answer>' : 'Look at (1, 1).\n</think><answer>B</answer>';
    return { outputs: Array.from({ length: n }, () => ({ text: stop.includes('\n') && text.includes('\n') ? text.slice(0, text.indexOf('\n') + 1) : text })) };
  },
};
const { root, usage } = await runMcts(agent, { messages: [{ role: 'user', content: 'Q?' }], score: (answer) => (answer === 'B' ? 1 : 0) }, { simulations: 2 });
assert.ok(usage.generations > 0);
assert.equal(formatChain(linearizeTree(root)[0]), '<think>\nLook at (1, 1).\n</think>\n<answer>B</answer>');
console.log('@saccade/datagen installed check passed');
