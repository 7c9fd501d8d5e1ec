import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

export default mergeConfig(shared, {
  test: {
    // Components are .tsx, so their tests are too.
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    // Frames compared as plain text: no colour codes, whatever the runner (nx forces colour).
    env: { FORCE_COLOR: '0' },
  },
});
