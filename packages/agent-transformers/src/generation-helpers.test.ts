import type { ImageData, Message } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { createStopWatcher, truncateAtStop } from './stop-strings';
import { taskPrompt, toProcessorChat } from './to-processor-chat';
import { applyTopP, applyTopPRows } from './top-p';

const image: ImageData = { data: new Uint8Array([1]), mediaType: 'image/png' };
const other: ImageData = { data: new Uint8Array([2]), mediaType: 'image/png' };

describe('truncateAtStop', () => {
  it('cuts after the stop string that ends first, keeping it', () => {
    expect(truncateAtStop('<answer>Left</answer> and more', ['</answer>'])).toEqual({ text: '<answer>Left</answer>', matched: '</answer>' });
    expect(truncateAtStop('<tool_call>{}</tool_call><answer>x</answer>', ['</answer>', '</tool_call>'])).toEqual({ text: '<tool_call>{}</tool_call>', matched: '</tool_call>' });
    expect(truncateAtStop('no stop here', ['</answer>'])).toEqual({ text: 'no stop here' });
  });
});

describe('createStopWatcher', () => {
  // Each id decodes to one letter: 0 → a, 1 → b, …
  const decode = (ids: readonly bigint[]) => ids.map((id) => String.fromCharCode(97 + Number(id))).join('');
  const ids = (text: string) => [...text].map((letter) => BigInt(letter.charCodeAt(0) - 97));

  it('stops a row once its generated text holds a stop string, ignoring the prompt', () => {
    const watch = createStopWatcher({ promptLength: 3, stop: ['cd'], decode });
    expect(watch([ids('cdx'), ids('cdxab'), ids('cdxabcd')])).toEqual([false, false, true]);
    expect(watch([ids('xxxc'), ids('xxxcd')])).toEqual([false, true]);
  });

  it('finds a stop string far into a long answer (only the tail is decoded)', () => {
    const seen: number[] = [];
    const watch = createStopWatcher({ promptLength: 0, stop: ['zz'], decode: (part) => (seen.push(part.length), decode(part)) });
    expect(watch([ids(`${'a'.repeat(500)}zz`)])).toEqual([true]);
    expect(Math.max(...seen)).toBeLessThan(20);
  });

  it('stops every row when the signal aborts, and none without stop strings', () => {
    const controller = new AbortController();
    const watch = createStopWatcher({ promptLength: 0, stop: [], decode, signal: controller.signal });
    expect(watch([ids('ab'), ids('cd')])).toEqual([false, false]);
    controller.abort();
    expect(watch([ids('ab'), ids('cd')])).toEqual([true, true]);
  });
});

describe('applyTopP', () => {
  it('keeps the fewest likeliest tokens reaching top-p', () => {
    // probabilities ≈ 0.64, 0.24, 0.09, 0.03
    const logits = Float32Array.from([3, 2, 1, 0]);
    expect(Array.from(applyTopP(logits.slice(), 0.5))).toEqual([3, -Infinity, -Infinity, -Infinity]);
    expect(Array.from(applyTopP(logits.slice(), 0.8))).toEqual([3, 2, -Infinity, -Infinity]);
    expect(Array.from(applyTopP(logits.slice(), 1))).toEqual([3, 2, 1, 0]);
  });

  it('works on each row of a batch, in any order', () => {
    const data = Float32Array.from([0, 5, 0, 9, 0, 0]);
    applyTopPRows(data, 3, 0.5);
    expect(Array.from(data)).toEqual([-Infinity, 5, -Infinity, 9, -Infinity, -Infinity]);
  });
});

describe('toProcessorChat', () => {
  it('makes every content a list of parts and collects the images in order', () => {
    const messages: Message[] = [
      { role: 'system', content: 'S' },
      { role: 'user', content: [{ type: 'text', text: 'a ' }, { type: 'image', image }, { type: 'image', image: other }] },
      { role: 'assistant', content: '<answer>Left</answer>' },
    ];
    expect(toProcessorChat(messages)).toEqual({
      chat: [
        { role: 'system', content: [{ type: 'text', text: 'S' }] },
        { role: 'user', content: [{ type: 'text', text: 'a ' }, { type: 'image' }, { type: 'image' }] },
        { role: 'assistant', content: [{ type: 'text', text: '<answer>Left</answer>' }] },
      ],
      images: [image, other],
    });
  });
});

describe('taskPrompt (Florence-2)', () => {
  it("reads the last user message's text and first image", () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'image', image: other }, { type: 'text', text: '<OCR>' }] },
      { role: 'assistant', content: 'x' },
      { role: 'user', content: [{ type: 'text', text: '<CAPTION_TO_PHRASE_GROUNDING>' }, { type: 'image', image }, { type: 'text', text: 'the red car ' }] },
    ];
    expect(taskPrompt(messages)).toEqual({ text: '<CAPTION_TO_PHRASE_GROUNDING>the red car', image });
  });

  it('needs an image in that message', () => {
    expect(() => taskPrompt([{ role: 'user', content: '<CAPTION>' }])).toThrow(/an image in the last user message/);
    expect(() => taskPrompt([{ role: 'system', content: 'S' }])).toThrow(/a user message/);
  });
});
