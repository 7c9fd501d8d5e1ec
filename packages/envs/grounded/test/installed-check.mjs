// Runs inside an empty Node project where only the packed tarballs are installed (tools/package-check).
import assert from 'node:assert/strict';
import { checkEnv, getAnswerChecker, makeEnv, registerTool } from '@saccade/core';
import { distinctPoints, GROUNDED_VISUAL_SEARCH_ID, registerGroundingEnvs, scoreGroundedEpisode } from '@saccade/env-grounded';
import { registerProceduralTaskSources } from '@saccade/env-procedural';
import { createPointCropTool, pointCropTool } from '@saccade/tool-zoom';

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

// The registered procedural env passes the conformance check; it crops with the registered point
// crop and builds its tasks with env-procedural's registered visual-search source.
registerTool(pointCropTool, { create: createPointCropTool });
registerProceduralTaskSources();
registerGroundingEnvs();
const report = await checkEnv(() => makeEnv(GROUNDED_VISUAL_SEARCH_ID, { split: 'test' }), { timeoutMs: 30_000 });
assert.equal(report.ok, true, JSON.stringify(report.failures));
console.log('@saccade/env-grounded installed check passed');
