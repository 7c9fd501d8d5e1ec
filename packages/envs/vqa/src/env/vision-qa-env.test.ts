import { join } from 'node:path';
import { checkEnv, makeEnv } from '@saccade/core';
import type { Env } from '@saccade/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTaskFolder, SAMPLE_TASKS, TASK_IMAGES, writeJsonLines } from '@saccade/core/testing';
import { VISION_QA_ID, registerVqaEnvs } from '../register-vqa-envs';
import type { VisionQATaskInput } from '@saccade/core';
import { VisionQAEnv, type VisionQAEnvOptions } from './vision-qa-env';

let folder: string;
let tasks: VisionQATaskInput[];

beforeAll(() => {
  folder = makeTaskFolder();
  tasks = SAMPLE_TASKS.map((task) => ({ ...task })) as unknown as VisionQATaskInput[];
});

const env = (options: Partial<VisionQAEnvOptions> = {}) => new VisionQAEnv({ tasks, baseDirectory: folder, ...options });

/** The oracle's response, found through makeEnv's wrappers. */
function oracle(wrapped: Env): string {
  let current: unknown = wrapped;
  while (!(current instanceof VisionQAEnv)) current = (current as { env: unknown }).env;
  return current.oracleResponse();
}

describe('VisionQAEnv: one turn', () => {
  it('shows the images, the question and the options; the seed picks the task', async () => {
    const vqa = env();
    const { observation, info } = await vqa.reset({ seed: 6 }); // 6 mod 5 = task 1
    expect(observation.text).toBe(
      [
        '<image>',
        'Which planet is shown?',
        'Choices:',
        '(A) Mercury',
        '(B) Venus',
        '(C) Mars',
        'Answer with the letter of the correct option.',
        'Put your final answer, and nothing else, inside <answer>…</answer>.',
      ].join('\n'),
    );
    expect(observation.images).toHaveLength(1);
    expect(observation.images[0]).toMatchObject({ mediaType: 'image/png', width: 4, height: 4 });
    expect(new Uint8Array(observation.images[0]!.data)).toEqual(TASK_IMAGES.blue.data);
    expect(info).toMatchObject({ taskId: 'ai2d-1', dataset: 'AI2D', taskFamily: 'science', taskIndex: 1, seed: 6, attemptsLeft: 1 });
    expect((await vqa.reset({ seed: -1 })).info.taskId).toBe('vizwiz-1'); // -1 mod 5 = 4
    expect((await vqa.reset({ seed: 0, options: { taskIndex: 2 } })).observation.text.startsWith('<image>\n<image>\nIs red the first image?')).toBe(true);
  });

  it("says where the answer is when the task's metadata has a targetBox (V*-style), and nothing otherwise", async () => {
    const boxed = [{ ...tasks[0]!, metadata: { targetBox: [1, 2, 3, 4] } }, { ...tasks[0]!, metadata: { targetBox: [1, 2, 'x', 4] } }];
    const vqa = new VisionQAEnv({ tasks: boxed, baseDirectory: folder });
    expect((await vqa.reset({ seed: 0 })).info['targetBox']).toEqual([1, 2, 3, 4]);
    expect('targetBox' in (await vqa.reset({ seed: 1 })).info).toBe(false);
    expect('targetBox' in (await env().reset({ seed: 0 })).info).toBe(false);
  });

  it("passes on the boxes of every object the question names (metadata.targetBoxes), when each is a box", async () => {
    const boxed = [
      { ...tasks[0]!, metadata: { targetBox: [1, 2, 3, 4], targetBoxes: [[1, 2, 3, 4], [5, 6, 7, 8]] } },
      { ...tasks[0]!, metadata: { targetBox: [1, 2, 3, 4], targetBoxes: [[1, 2, 3, 4], [5, 6, 7]] } },
      { ...tasks[0]!, metadata: { targetBoxes: [] } },
    ];
    const vqa = new VisionQAEnv({ tasks: boxed, baseDirectory: folder });
    expect((await vqa.reset({ seed: 0 })).info).toMatchObject({ targetBox: [1, 2, 3, 4], targetBoxes: [[1, 2, 3, 4], [5, 6, 7, 8]] });
    expect('targetBoxes' in (await vqa.reset({ seed: 1 })).info).toBe(false);
    expect('targetBoxes' in (await vqa.reset({ seed: 2 })).info).toBe(false);
  });

  it('scores with the dataset checker: correct 1, wrong 0, both end the episode', async () => {
    const vqa = env();
    await vqa.reset({ seed: 0 });
    const right = await vqa.step('The top bar reads 45.\n## FINAL_ANSWER: 45.0');
    expect(right).toMatchObject({ reward: 1, terminated: true, truncated: false, observation: { text: 'Your answer is correct.', images: [] } });
    expect(right.info).toMatchObject({
      rewardTerms: { correct: 1 },
      metrics: { success: true, action_is_valid: true, format_correct: true, answer_score: 1, attempt: 1 },
      prediction: '45.0',
      check: { correct: true, score: 1 },
    });
    await vqa.reset({ seed: 0 });
    const wrong = await vqa.step('<answer>40</answer>');
    expect(wrong).toMatchObject({ reward: 0, terminated: true, truncated: false, info: { rewardTerms: { wrong: 0 }, metrics: { success: false } } });
    expect(wrong.observation.text).toBe("Your answer '40' is incorrect. No attempts remain.");
    await expect(vqa.step('<answer>45</answer>')).rejects.toThrow('Cannot call step(): expected an episode in progress, but the episode has ended; call reset().');
  });

  it('a response without an answer on the last turn is truncated (−0.1); without retries it is a format error (−0.1)', async () => {
    const vqa = env();
    await vqa.reset({ seed: 0 });
    const cut = await vqa.step('I am not sure.');
    expect(cut).toMatchObject({ reward: -0.1, terminated: false, truncated: true, info: { rewardTerms: { truncated: -0.1 }, metrics: { action_is_valid: false } } });
    expect(cut.info.formatError).toBe('expected <answer>…</answer>, "## FINAL_ANSWER: …" or "Answer: …"');
    const strict = env({ maxAttempts: 3, retryOnFormatError: false });
    await strict.reset({ seed: 0 });
    expect(await strict.step('no idea')).toMatchObject({ reward: -0.1, terminated: true, truncated: false, info: { rewardTerms: { formatError: -0.1 } } });
  });

  it('reads strict VAGEN formats when asked', async () => {
    const vqa = env({ format: 'free_think' });
    expect(vqa.systemPrompt()).toContain('Respond exactly in the format <think>…</think><answer>…</answer>');
    await vqa.reset({ seed: 0 });
    expect(vqa.oracleResponse()).toBe('<think>I look at the image and read it.</think><answer>45</answer>');
    const loose = await vqa.step('Answer: 45');
    expect(loose).toMatchObject({ reward: -0.1, truncated: true });
    expect(loose.info.formatError).toBe('expected <think>…</think><answer>…</answer>: missing <think> at the start; the response ends');
    await vqa.reset({ seed: 0 });
    expect((await vqa.step('<think>the top bar</think><answer>45</answer>')).reward).toBe(1);
  });
});

describe('VisionQAEnv: reflection', () => {
  it('a wrong answer with attempts left gets feedback with hints, reward 0, and the episode goes on', async () => {
    const vqa = env({ maxAttempts: 3 });
    await vqa.reset({ seed: 0 }); // ChartQA, answer 45
    const first = await vqa.step('<answer>40</answer>');
    expect(first).toMatchObject({ reward: 0, terminated: false, truncated: false, info: { rewardTerms: { wrong: 0 }, attempt: 1, attemptsLeft: 2 } });
    expect(first.observation).toEqual({
      text: [
        "Your answer '40' is incorrect.",
        'The correct answer is higher than 40.',
        'You have 2 attempts remaining.',
        'Look at the image again, reconsider your reasoning, and answer again. Put your final answer, and nothing else, inside <answer>…</answer>.',
      ].join('\n'),
      images: [],
    });
    const second = await vqa.step('Hmm, let me think.');
    expect(second).toMatchObject({ reward: -0.05, terminated: false, truncated: false, info: { rewardTerms: { formatError: -0.05 }, attemptsLeft: 1 } });
    expect(second.observation.text).toBe(
      [
        'I could not read an answer from your response (expected <answer>…</answer>, "## FINAL_ANSWER: …" or "Answer: …").',
        'You have 1 attempt remaining. This is your LAST attempt.',
        'Put your final answer, and nothing else, inside <answer>…</answer>.',
      ].join('\n'),
    );
    const third = await vqa.step('<answer>46</answer>'); // within ChartQA's 5%
    expect(third).toMatchObject({ reward: 1, terminated: true, info: { rewardTerms: { correct: 1 }, attempt: 3, attemptsLeft: 0 } });
  });

  it('hints name the wrong option for multiple choice; the last wrong answer ends the episode', async () => {
    const vqa = env({ maxAttempts: 2, resendImages: true });
    await vqa.reset({ seed: 1 });
    const first = await vqa.step('<answer>C</answer>');
    expect(first.observation.text.split('\n').slice(0, 3)).toEqual([
      "Your answer 'C' is incorrect.",
      'Option C is not the right one; consider the other options.',
      'You have 1 attempt remaining. This is your LAST attempt.',
    ]);
    expect(first.observation.text.endsWith('\n<image>')).toBe(true);
    expect(first.observation.images).toHaveLength(1);
    expect(await vqa.step('<answer>A</answer>')).toMatchObject({ reward: 0, terminated: true });
  });

  it('hints can be turned off', async () => {
    const vqa = env({ maxAttempts: 2, hints: false });
    await vqa.reset({ seed: 0 });
    expect((await vqa.step('<answer>50</answer>')).observation.text).not.toContain('lower');
  });
});

describe('VisionQAEnv: reward sets', () => {
  const looping = `${'I check the bar again. '.repeat(6)}<answer>45</answer>`;

  it('the VISTA set takes an optional repetition penalty', async () => {
    const vqa = env({ repetitionPenalty: true, maxAttempts: 2 });
    await vqa.reset({ seed: 0 });
    expect(await vqa.step(looping)).toMatchObject({ reward: -2, info: { rewardTerms: { correct: 1, repetition: -3 }, repetition: 'severe' } });
    await vqa.reset({ seed: 0 });
    expect(await vqa.step('loop '.repeat(50))).toMatchObject({ reward: -3.05, info: { rewardTerms: { formatError: -0.05, repetition: -3 } } });
  });

  it('VISTA-R1: R_rep + R_format + R_correct at the end of the episode', async () => {
    const vqa = env({ rewardSet: 'vista-r1', maxAttempts: 3 });
    await vqa.reset({ seed: 0 });
    expect(await vqa.step('<answer>45</answer>')).toMatchObject({ reward: 2, info: { rewardTerms: { repetition: 0, format: 1, correct: 1 } } });
    await vqa.reset({ seed: 0 });
    expect(await vqa.step('no answer here')).toMatchObject({ reward: 0, terminated: false, info: { rewardTerms: { repetition: 0, format: 0, correct: 0 } } });
    expect(await vqa.step('<answer>45</answer>')).toMatchObject({ reward: -1, terminated: true, info: { rewardTerms: { repetition: 0, format: -1, correct: 0 } } });
    await vqa.reset({ seed: 0 });
    expect(await vqa.step(looping)).toMatchObject({ reward: -2, info: { rewardTerms: { repetition: -3, format: 1, correct: 0 } } });
  });

  it('reward values can be changed', async () => {
    const vqa = env({ rewards: { wrong: -0.5 } });
    await vqa.reset({ seed: 0 });
    expect((await vqa.step('<answer>1</answer>')).reward).toBe(-0.5);
  });
});

describe('VisionQAEnv: options and errors', () => {
  it('needs exactly one task source and sane options', () => {
    expect(() => new VisionQAEnv({})).toThrow('Invalid argument options: expected exactly one of {taskFile}, {tasks} or {source}, received none.');
    expect(() => new VisionQAEnv({ tasks, taskFile: 'x.jsonl' })).toThrow(/received taskFile and tasks\.$/);
    expect(() => env({ maxAttempts: 0 })).toThrow('Invalid argument maxAttempts: expected a positive integer, received 0.');
    expect(() => env({ format: 'json' as never })).toThrow(/Invalid argument format: expected final-answer \| free_think/);
    expect(() => env({ checker: 'NoSuchDataset' })).toThrow(/Invalid argument dataset: expected one of/);
    expect(() => env({ zzz: 1 } as never)).toThrow(
      'Invalid argument zzz: expected an option of saccade/VisionQA-v1: taskFile, tasks, source, baseDirectory, format, maxAttempts, retryOnFormatError, rewardSet, rewards, repetitionPenalty, hints, checker, resendImages, maxPixels, id, received 1.',
    );
  });

  it('a missing image fails the reset with the file, line and field', async () => {
    const file = writeJsonLines(folder, [{ ...SAMPLE_TASKS[0], images: ['images/gone.png'] }], 'gone.jsonl');
    const vqa = new VisionQAEnv({ taskFile: file });
    await expect(vqa.reset({ seed: 0 })).rejects.toThrow(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1: field "images\\[0\\]": expected a readable PNG, JPEG or WebP image, received "${join(folder, 'images', 'gone.png').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`));
    await vqa.close();
  });

  it('the oracle answers every task correctly', async () => {
    const vqa = env();
    for (let seed = 0; seed < tasks.length; seed++) {
      await vqa.reset({ seed });
      const response = vqa.oracleResponse();
      expect((await vqa.step(response)).reward, `${vqa.task.id}: ${response}`).toBe(1);
    }
    await vqa.reset({ seed: 3 });
    expect(vqa.oracleResponse()).toBe('<answer>(4, 3)</answer>');
    await vqa.reset({ seed: 4 });
    expect(vqa.oracleResponse()).toBe('<answer>blue</answer>');
  });
});

describe('registerVqaEnvs', () => {
  it(`${VISION_QA_ID} from {tasks} and from {taskFile} passes checkEnv`, async () => {
    registerVqaEnvs();
    registerVqaEnvs();
    const file = writeJsonLines(folder, SAMPLE_TASKS as unknown as object[]);
    for (const options of [{ tasks, baseDirectory: folder }, { taskFile: file }, { taskFile: file, maxAttempts: 3, rewardSet: 'vista-r1' }]) {
      const probe = makeEnv(VISION_QA_ID, options);
      await probe.reset({ seed: 0 });
      const actions = ['<answer>40</answer>', oracle(probe)];
      await probe.close();
      const report = await checkEnv(() => makeEnv(VISION_QA_ID, options), { actions });
      expect(report.failures, JSON.stringify(options).slice(0, 80)).toEqual([]);
      expect(report.envId).toBe(VISION_QA_ID);
    }
  });
});
