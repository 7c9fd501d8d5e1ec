import { readAnswer } from '@saccade/core';

/** A linear grounded reasoning chain: thought steps (one point each, as a rule) and the answer. */
export interface ReasoningChain {
  steps: string[];
  answer: string;
}

/** The partial answer a chain's first steps make: `<think>\n` and one line per step. */
export function thinkPrefix(steps: readonly string[]): string {
  return `<think>\n${steps.map((step) => `${step}\n`).join('')}`;
}

/** A chain as ViGoRL's single-turn response: `<think>\n{steps, one per line}\n</think>\n<answer>{answer}</answer>`. */
export function formatChain({ steps, answer }: ReasoningChain): string {
  return `<think>\n${steps.join('\n')}\n</think>\n<answer>${answer}</answer>`;
}

/** The non-empty lines of a text, trimmed. */
export const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);

/** What a continuation of a `<think>` prefix holds: new steps, and the answer when it reached one. */
export interface ReadContinuation {
  steps: string[];
  /** The thinking ended (`</think>` or an `<answer>` came). */
  ended: boolean;
  answer?: string;
}

/** Reads a continuation written after `thinkPrefix(...)`: lines before `</think>` (or `<answer>`) are steps. */
export function readContinuation(text: string): ReadContinuation {
  const close = text.indexOf('</think>');
  const open = text.indexOf('<answer>');
  const end = close !== -1 ? close : open;
  const steps = lines(end === -1 ? text : text.slice(0, end)).filter((line) => !line.startsWith('<think>'));
  const answer = end === -1 ? undefined : readAnswer(text.slice(end));
  return { steps, ended: end !== -1, ...(answer === undefined ? {} : { answer }) };
}

/** The key chains are deduplicated by: whitespace collapsed, case kept. */
export const chainKey = ({ steps, answer }: ReasoningChain): string => `${steps.map((step) => step.replace(/\s+/g, ' ')).join('\n')}\n=> ${answer.replace(/\s+/g, ' ')}`;
