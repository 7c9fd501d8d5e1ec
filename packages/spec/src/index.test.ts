import { expect, test } from 'vitest';
import * as spec from './index';

test('runtime exports are the constants and the errors only', () => {
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
  ]);
  expect(spec.IMAGE_PLACEHOLDER).toBe('<image>');
  expect(spec.SPECIFICATION_VERSION).toBe('v1');
});
