// The wrapper and tool tests import the reference env from here; it lives in the test kit
// (@saccade/core/testing).
export { GuessNumberEnv, RED_PIXEL_PNG } from '../testing';
export type { GuessNumberFaults } from '../testing';
