// Runs inside an empty Node project where only the packed tarballs are installed (tools/package-check).
import assert from 'node:assert/strict';
import { getAnswerChecker } from '@saccade/core';
import { distinctPoints, formatChain, linearizeTree, runMcts, scoreGroundedEpisode } from '@saccade/grounding';

// A reward set on a hand-written response.
const scored = scoreGroundedEpisode('vigorl-single-turn', {
  responses: ['<think>\nThe sign at (120, 45) is green.\n</think>\n<answer>B</answer>'],
  imageSize: { width: 800, height: 600 },
  target: { answer: 'green', choices: ['red', 'green', 'blue'] },
  answerType: 'multiple-choice',
  checker: getAnswerChecker('V*Bench'),
});
assert.deepEqual([scored.reward, scored.terms], [1, { accuracy: 0.5, groundedFormat: 0.5 }]);
assert.deepEqual(distinctPoints([{ x: 0, y: 0 }, { x: 5, y: 5 }, { x: 10, y: 0 }]), [{ x: 0, y: 0 }, { x: 10, y: 0 }]);

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
console.log('@saccade/grounding installed check passed');
