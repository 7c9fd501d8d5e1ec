import { MockAgent } from '@saccade/agents';
import { describe, expect, it } from 'vitest';
import { CountEnv, seedImage } from './__fixtures__/count-env';
import { lastObservation, playEpisode } from './testing';

describe('@saccade/rollout/testing', () => {
  it("plays an episode through the rollout manager and gives the env's step results, images restored", async () => {
    const seen: { text: string; images: number }[] = [];
    const agent = new MockAgent({
      responses: ['ok', 'no', 'ok'].map((answer) => ({ messages }: { messages: Parameters<typeof lastObservation>[0] }) => {
        const { text, images } = lastObservation(messages);
        seen.push({ text, images: images.length });
        return answer;
      }),
    });
    const steps = await playEpisode(new CountEnv({ withImage: true }), agent, { seed: 4 });
    expect(steps.map((step) => [step.reward, step.terminated, step.observation.text])).toEqual([
      [1, false, 'Turn 1: <image>'],
      [0, false, 'Turn 2: <image>'],
      [1, true, 'Turn 3: <image>'],
    ]);
    expect(steps[0]!.observation.images[0]!.data).toEqual(seedImage(4).data);
    // The agent's chat has the image in place of its placeholder.
    expect(seen).toEqual([
      { text: 'Turn 0: ', images: 1 },
      { text: 'Turn 1: ', images: 1 },
      { text: 'Turn 2: ', images: 1 },
    ]);
  });

  it('stops at maxTurns and throws for an episode that failed', async () => {
    expect(await playEpisode(new CountEnv({ length: 5 }), new MockAgent({ responses: ['ok', 'ok'] }), { maxTurns: 2 })).toHaveLength(2);
    await expect(playEpisode(new CountEnv({ throwOnTurn: 1 }), new MockAgent({ responses: ['ok', 'ok'] }))).rejects.toThrow('The episode failed: Error: CountEnv broke on turn 1');
  });

  it('reads the last message, whether text or parts, and an empty chat', () => {
    const image = seedImage(1);
    expect(lastObservation([{ role: 'system', content: 'Answer ok.' }, { role: 'user', content: 'Turn 0.' }])).toEqual({ text: 'Turn 0.', images: [] });
    expect(
      lastObservation([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look: ' },
            { type: 'image', image },
            { type: 'text', text: 'then answer.' },
          ],
        },
      ]),
    ).toEqual({ text: 'Look: then answer.', images: [image] });
    expect(lastObservation([])).toEqual({ text: '', images: [] });
  });
});
