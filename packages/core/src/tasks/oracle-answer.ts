import { choiceLetter, expectedChoiceIndex } from '../checkers/choices';
import { parseBox } from '../checkers/grounding-checkers';
import { normalizeVqaAnswer } from '../checkers/normalize-answer';
import type { VisionQATask } from './vision-qa-task';

/** The answer an oracle gives for a task, written as the task's answer type asks (a letter, a point, a box, the majority answer). */
export function oracleAnswer(task: VisionQATask): string {
  const { answer, answerType } = task;
  if (answerType === 'multiple-choice') return choiceLetter(expectedChoiceIndex(task) ?? 0);
  if (answerType === 'point') {
    const [x1, y1, x2, y2] = parseBox(answer)!;
    return `(${(x1 + x2) / 2}, ${(y1 + y2) / 2})`;
  }
  if (answerType === 'box') return `[${parseBox(answer)!.join(', ')}]`;
  if (typeof answer === 'boolean') return answer ? 'yes' : 'no';
  if (!Array.isArray(answer)) return String(answer);
  if (answerType === 'list') return answer.join(', ');
  // Several annotators: the answer most of them gave.
  const counts = new Map<string, { count: number; text: string }>();
  for (const value of answer) {
    const key = normalizeVqaAnswer(String(value));
    const entry = counts.get(key) ?? { count: 0, text: String(value) };
    entry.count++;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count)[0]!.text;
}
