// Answer checkers on hostile input: 10,000 reference answers and a 100 KB prediction per checker
// (the case that took 1.5–3.4 s a call), and a seeded fuzz of malformed targets. Prints JSON.
import { getAnswerChecker, listAnswerCheckers, createRng } from '../dist/index.js';

const answers = Array.from({ length: 10_000 }, (_, index) => `answer ${index}`);
const prediction = 'the answer is 12.5 because '.repeat(4_000).slice(0, 100_000);
const perChecker = {};
for (const name of listAnswerCheckers()) {
  const checker = getAnswerChecker(name);
  const started = performance.now();
  try {
    checker(prediction, { answer: answers });
  } catch {
    // Box checkers refuse a list of words as a box: refused in the same time bound.
  }
  perChecker[name] = Math.round((performance.now() - started) * 10) / 10;
}

const rng = createRng(23);
const fuzzCount = 100_000;
const values = [undefined, null, 5, true, 'abc', { a: 1 }, [], [1, 'a'], [null]];
const names = listAnswerCheckers();
let checks = 0;
let refused = 0;
let other = 0;
const fuzzStarted = performance.now();
for (let index = 0; index < fuzzCount; index++) {
  const target = { answer: String(rng.int(0, 99)), choices: ['1', '2', 'cat'] };
  if (rng.next() < 0.3) target[['answer', 'choices', 'question', 'metadata'][rng.int(0, 3)]] = values[rng.int(0, values.length - 1)];
  try {
    getAnswerChecker(names[rng.int(0, names.length - 1)])(String(rng.int(0, 99)), target);
    checks++;
  } catch (error) {
    if (error?.name === 'Saccade_InvalidArgumentError') refused++;
    else other++;
  }
}
const slowest = Object.entries(perChecker).sort((a, b) => b[1] - a[1])[0];
console.log(JSON.stringify({ answers: answers.length, predictionChars: prediction.length, msPerCall: perChecker, slowest, fuzz: { seed: 23, count: fuzzCount, checks, refused, otherErrors: other, ms: Math.round(performance.now() - fuzzStarted) } }));
