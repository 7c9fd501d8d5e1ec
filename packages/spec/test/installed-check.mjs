// Runs inside an empty Node project where only the packed tarballs are installed (tools/package-check).
import assert from 'node:assert/strict';
import { EnvNotFoundError, IMAGE_PLACEHOLDER, InvalidActionError, SaccadeError, SPECIFICATION_VERSION } from '@saccade/spec';

assert.equal(SPECIFICATION_VERSION, 'v1');
assert.equal(IMAGE_PLACEHOLDER, '<image>');
const error = new InvalidActionError({ action: 'Jump', expected: 'one of Left, Down, Right, Up' });
assert.equal(error.name, 'Saccade_InvalidActionError');
assert.ok(InvalidActionError.isInstance(error));
assert.ok(SaccadeError.isInstance(error));
assert.ok(!EnvNotFoundError.isInstance(error));
console.log('@saccade/spec works when installed alone');
