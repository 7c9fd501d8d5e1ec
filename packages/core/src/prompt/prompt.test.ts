import { InvalidArgumentError, type ImageData, type Message } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { applyHistoryWindow } from './apply-history-window';
import { buildMessages } from './build-messages';
import { observationToContent } from './observation-to-content';
import { messageText } from './message-text';

const imageA: ImageData = { data: new Uint8Array([1]), mediaType: 'image/png' };
const imageB: ImageData = { data: new Uint8Array([2]), mediaType: 'image/png' };

describe('observationToContent', () => {
  it('splits text on <image> into text and image parts in order', () => {
    expect(observationToContent({ text: 'A <image> B <image><image>', images: [imageA, imageB, imageA] })).toEqual([
      { type: 'text', text: 'A ' },
      { type: 'image', image: imageA },
      { type: 'text', text: ' B ' },
      { type: 'image', image: imageB },
      { type: 'image', image: imageA },
    ]);
  });

  it('refuses a count mismatch, saying both counts', () => {
    const mismatch = () => observationToContent({ text: 'one <image>', images: [imageA, imageB] });
    expect(mismatch).toThrow(InvalidArgumentError);
    expect(mismatch).toThrow(/1 <image> placeholder but 2 images/);
  });
});

describe('buildMessages', () => {
  const turn = (index: number) => ({ observation: { text: `o${index} <image>`, images: [imageA] }, action: `a${index}` });

  it('builds system, history pairs and the current observation', () => {
    const messages = buildMessages({ systemPrompt: 'S', history: [turn(0)], observation: { text: 'now', images: [] } });
    expect(messages).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: [{ type: 'text', text: 'o0 ' }, { type: 'image', image: imageA }] },
      { role: 'assistant', content: 'a0' },
      { role: 'user', content: [{ type: 'text', text: 'now' }] },
    ]);
  });

  it('prompt views: no-system keeps all but the system prompt, image keeps only the images; others are refused', () => {
    const options = { systemPrompt: 'S', history: [turn(0)], observation: { text: 'now <image>', images: [imageB] } };
    expect(buildMessages({ ...options, view: 'no-system' })).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'o0 ' }, { type: 'image', image: imageA }] },
      { role: 'assistant', content: 'a0' },
      { role: 'user', content: [{ type: 'text', text: 'now ' }, { type: 'image', image: imageB }] },
    ]);
    expect(buildMessages({ ...options, view: 'image' })).toEqual([
      { role: 'user', content: [{ type: 'image', image: imageA }] },
      { role: 'assistant', content: 'a0' },
      { role: 'user', content: [{ type: 'image', image: imageB }] },
    ]);
    expect(() => buildMessages({ ...options, view: 'text' as never })).toThrow("view: expected 'full' | 'image' | 'no-system'");
  });

  it('keeps only the last historyWindow turns', () => {
    const messages = buildMessages({ systemPrompt: 'S', history: [turn(0), turn(1), turn(2)], observation: { text: 'now', images: [] }, historyWindow: 2 });
    expect(messages.filter((message) => message.role === 'assistant').map((message) => message.content)).toEqual(['a1', 'a2']);
    expect(messages[0]).toEqual({ role: 'system', content: 'S' });
    expect(messages).toHaveLength(6);
  });
});

describe('applyHistoryWindow', () => {
  const chat: Message[] = [
    { role: 'system', content: 'S' },
    { role: 'user', content: 'u0' },
    { role: 'assistant', content: 'a0' },
    { role: 'user', content: 'u1' },
    { role: 'user', content: 'u1b' },
    { role: 'assistant', content: 'a1' },
    { role: 'user', content: 'u2' },
  ];
  const texts = (messages: Message[]) => messages.map((message) => message.content);

  it('keeps the system message, the last K exchanges and the current turn', () => {
    expect(texts(applyHistoryWindow(chat, 1))).toEqual(['S', 'u1', 'u1b', 'a1', 'u2']);
    expect(texts(applyHistoryWindow(chat, 0))).toEqual(['S', 'u2']);
    expect(applyHistoryWindow(chat, Infinity)).toEqual(chat);
  });

  it('refuses a negative window', () => {
    expect(() => applyHistoryWindow(chat, -1)).toThrow(/historyWindow/);
  });
});

describe('messageText', () => {
  it('is the content of a plain message and the text parts of one with images, in order', () => {
    expect(messageText({ role: 'user', content: 'Where is it?' })).toBe('Where is it?');
    expect(messageText({ role: 'user', content: [{ type: 'text', text: 'Look: ' }, { type: 'image', image: imageA }, { type: 'text', text: 'then answer.' }] })).toBe('Look: then answer.');
  });
});
