import { expect, test } from 'vitest';
import * as spec from './index';

// Besides constants and errors, spec holds the one media-type sniffer (it has no dependencies, so
// core and image, a leaf otherwise, share it), the continuation convention every agent reads, and
// the mask RLE codec that tools, envs and the viewer share, and the placeholder split every
// SequenceTokenizer makes (the models package implements one with spec alone).
test('runtime exports are the constants, the errors, the media-type sniffer, the continuation convention, the mask codec, the placeholder split and the format-correct reader only', () => {
  expect(Object.keys(spec).sort()).toEqual([
    'ConformanceError',
    'EnvAlreadyRegisteredError',
    'EnvNotFoundError',
    'FileFormatError',
    'IMAGE_PLACEHOLDER',
    'InvalidActionError',
    'InvalidArgumentError',
    'InvalidStateError',
    'MASK_COLOURS',
    'QUOTED_IMAGE_PLACEHOLDER',
    'SPECIFICATION_VERSION',
    'SaccadeError',
    'TimeoutError',
    'ToolExecutionError',
    'TrajectoryFileError',
    'decodeMaskRle',
    'describeMask',
    'detectImageMediaType',
    'encodeMaskRle',
    'formatCorrectOf',
    'partialAssistantText',
    'quoteModelText',
    'splitOnImages',
  ]);
  expect(spec.detectImageMediaType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
  expect(spec.detectImageMediaType(new Uint8Array([0x47, 0x49, 0x46, 0x38]))).toBeUndefined();
  expect(spec.IMAGE_PLACEHOLDER).toBe('<image>');
  expect(spec.SPECIFICATION_VERSION).toBe('v1');
});

test('a last assistant message is the partial answer to continue; its text parts are joined', () => {
  const question = { role: 'user' as const, content: 'Where?' };
  expect(spec.partialAssistantText([question, { role: 'assistant', content: [{ type: 'text', text: '<think>' }, { type: 'text', text: '\n(1' }] }])).toBe('<think>\n(1');
  expect(spec.partialAssistantText([question, { role: 'assistant', content: '' }])).toBe('');
  expect(spec.partialAssistantText([question])).toBeUndefined();
  expect(spec.partialAssistantText([])).toBeUndefined();
});

test('splitOnImages gives the text around each <image> placeholder and refuses a count that differs from the images', () => {
  const image = { hash: 'a'.repeat(64), mediaType: 'image/png' as const, width: 2, height: 2 };
  expect(spec.splitOnImages({ role: 'user', text: 'Look: <image>!', images: [image] }, 0)).toEqual(['Look: ', '!']);
  expect(spec.splitOnImages({ role: 'assistant', text: 'Left', images: [] }, 3)).toEqual(['Left']);
  let thrown: unknown;
  try {
    spec.splitOnImages({ role: 'user', text: '<image><image>', images: [image] }, 2);
  } catch (error) {
    thrown = error;
  }
  expect(spec.InvalidArgumentError.isInstance(thrown)).toBe(true);
  expect((thrown as Error).message).toBe(
    'Invalid argument messages[2]: its text has 2 <image> placeholder(s) but 1 image reference(s); expected one placeholder per image.',
  );
});
