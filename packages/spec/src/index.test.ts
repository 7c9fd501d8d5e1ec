import { expect, test } from 'vitest';
import { specificationVersion } from './index';
test('version', () => expect(specificationVersion).toBe('v1'));
