import { answerStrings, metadataField, type AnswerTarget } from './answer-checker';
import { MAX_ANSWER_LENGTH, normalizeAnswer } from './normalize-answer';
import { parseNumericAnswer } from './parse-number';

/** `A` → 0, `B` → 1, … */
export const choiceLetter = (index: number): string => String.fromCharCode(65 + index);

const SINGLE_LETTER = /^[([]?([a-z])[)\]]?[.:]?$/iu;
const LEADING_LETTER = /^(?:[([]([A-Z])[)\]]|([A-Z])[.:)])(?:\s|$)/u;
const NAMED = String.raw`^(?:[Tt]he\s+)?(?:[Cc]orrect\s+)?(?:[Oo]ption|[Cc]hoice|[Aa]nswer)(?:\s+is)?\s*:?\s*`;
// After "the answer is": "(b)" or a final "b", or a capital letter before a break ("B, since…");
// not "a" in "the answer is a dog".
const NAMED_LETTER = new RegExp(`${NAMED}(?:[([]([a-z])[)\\]]|([a-z])[.:]?$)`, 'iu');
const NAMED_CAPITAL = new RegExp(`${NAMED}([A-Z])(?=[\\s.,:;]|$)`, 'u');

/**
 * The option a prediction names by letter: `B`, `(B)`, `B.`, `(B) 3 cm`, `B: Mars`, `Option B`,
 * `The answer is (B)`. A lone lower-case letter counts; a capital letter at the start of a sentence
 * (`A cat`) does not. `undefined` when no letter is named or it is past the last option.
 */
export function parseChoiceLetter(prediction: string, choiceCount = 26): number | undefined {
  const text = String(prediction).slice(0, MAX_ANSWER_LENGTH).trim();
  const head = text.slice(0, 200);
  const match = SINGLE_LETTER.exec(head) ?? LEADING_LETTER.exec(head) ?? NAMED_LETTER.exec(head) ?? NAMED_CAPITAL.exec(head);
  const letter = match?.[1] ?? match?.[2];
  if (letter === undefined) return undefined;
  const index = letter.toUpperCase().charCodeAt(0) - 65;
  return index < choiceCount ? index : undefined;
}

/** The option whose text equals the prediction: normalised text first, then equal numbers. */
export function matchChoiceText(prediction: string, choices: readonly string[]): number | undefined {
  const normalized = normalizeAnswer(prediction);
  const byText = choices.findIndex((choice) => normalizeAnswer(choice) === normalized);
  if (byText !== -1) return byText;
  const value = parseNumericAnswer(prediction);
  if (value === undefined) return undefined;
  const byValue = choices.findIndex((choice) => {
    const choiceValue = parseNumericAnswer(choice);
    return choiceValue !== undefined && Math.abs(choiceValue - value) <= 1e-9 * Math.max(1, Math.abs(value));
  });
  return byValue === -1 ? undefined : byValue;
}

/**
 * The option a prediction picks: by its text (`Mars`) when it equals one, else by a letter
 * (`B`, `(B) Mars`). Text comes first so that an option whose text is a letter still matches.
 */
export function resolveChoice(prediction: string, choices: readonly string[]): number | undefined {
  return matchChoiceText(prediction, choices) ?? parseChoiceLetter(prediction, choices.length);
}

/**
 * The index of the right option: from `metadata.answer_index` (0-based) or `metadata.answer_letter`,
 * else from the answer itself (a letter such as `C`, the option's text, a number equal to an
 * option, or a 0-based index given as a number). `undefined` without choices or when none fits.
 */
export function expectedChoiceIndex(target: AnswerTarget): number | undefined {
  const choices = target.choices;
  if (choices === undefined || choices.length === 0) return undefined;
  const inRange = (index: number) => Number.isInteger(index) && index >= 0 && index < choices.length;
  const index = metadataField(target, 'answer_index', 'answerIndex', 'correct_choice_idx');
  if (typeof index === 'number' && inRange(index)) return index;
  const letter = metadataField(target, 'answer_letter', 'answerLetter');
  if (typeof letter === 'string') {
    const fromLetter = parseChoiceLetter(letter, choices.length);
    if (fromLetter !== undefined) return fromLetter;
  }
  const answer = answerStrings(target.answer)[0];
  if (answer === undefined) return undefined;
  const byText = matchChoiceText(answer, choices);
  if (byText !== undefined) return byText;
  if (typeof target.answer === 'number' && inRange(target.answer)) return target.answer;
  if (/^[([]?[A-Za-z][)\]]?$/.test(answer.trim())) return parseChoiceLetter(answer, choices.length);
  return undefined;
}
