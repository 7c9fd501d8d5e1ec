import { expect, test } from 'vitest';
import * as spec from './index';

// Besides constants and errors, spec holds the one media-type sniffer: it has no dependencies, so
// core and image (a leaf otherwise) share it.
test('runtime exports are the constants, the errors and the media-type sniffer only', () => {
  expect(Object.keys(spec).sort()).toEqual([
    'ConformanceError',
    'EnvAlreadyRegisteredError',
    'EnvNotFoundError',
    'FileFormatError',
    'IMAGE_PLACEHOLDER',
    'InvalidActionError',
    'InvalidArgumentError',
    'InvalidStateError',
    'SPECIFICATION_VERSION',
    'SaccadeError',
    'TimeoutError',
    'ToolExecutionError',
    'detectImageMediaType',
  ]);
  expect(spec.detectImageMediaType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
  expect(spec.detectImageMediaType(new Uint8Array([0x47, 0x49, 0x46, 0x38]))).toBeUndefined();
  expect(spec.IMAGE_PLACEHOLDER).toBe('<image>');
  expect(spec.SPECIFICATION_VERSION).toBe('v1');
});
