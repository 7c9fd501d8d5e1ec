import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { PythonRandom, vagenSeeds } from './python-random';

const python = (code: string) => JSON.parse(execFileSync('python3', ['-c', code], { encoding: 'utf8' })) as number[];

it("gives CPython's random.sample(range(...)) for VAGEN's generate_seeds, checked against python3", () => {
  for (const size of [3, 100, 1000]) {
    expect(vagenSeeds(size)).toEqual(python(`import random, json; random.seed(0); print(json.dumps(random.sample(range(0, 20000 + ${size}), ${size})))`));
  }
  // Small populations take the pool branch of sample; large seeds take several key words.
  expect(new PythonRandom(2 ** 40 + 7).sampleRange(0, 10, 10)).toEqual(python('import random, json; random.seed(2**40 + 7); print(json.dumps(random.sample(range(0, 10), 10)))'));
  expect(vagenSeeds(3)).toEqual([12623, 13781, 1326]);
});
