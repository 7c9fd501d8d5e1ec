import { findActionSpace } from '@saccade/core';
import { beforeAll, expect, test } from 'vitest';
import { makeTaskFolder, SAMPLE_TASKS } from '@saccade/core/testing';
import type { VisionQATaskInput } from '@saccade/core';
import { VisionQAEnv } from './vision-qa-env';

let folder: string;
beforeAll(() => {
  folder = makeTaskFolder();
});

test('the action space follows the task: option letters, yes/no, else the answer type', async () => {
  const tasks = SAMPLE_TASKS.map((task) => ({ ...task })) as unknown as VisionQATaskInput[];
  const env = new VisionQAEnv({ tasks, baseDirectory: folder, format: 'free_think' });
  expect(() => env.actionSpace()).toThrow(/reset\(\) to be called first/);
  const spaces: Record<string, unknown> = {};
  for (let index = 0; index < tasks.length; index++) {
    const { info } = await env.reset({ seed: index, options: { taskIndex: index } });
    spaces[String(info['taskId'] ?? index)] = findActionSpace(env);
  }
  expect(Object.values(spaces)).toContainEqual({ kind: 'text', choices: ['A', 'B', 'C'], answerType: 'multiple-choice', format: 'free_think' });
  expect(Object.values(spaces)).toContainEqual({ kind: 'text', choices: ['yes', 'no'], answerType: 'yes-no', format: 'free_think' });
  expect(Object.values(spaces)).toContainEqual({ kind: 'text', answerType: 'number', format: 'free_think' });
  await env.close();
});
