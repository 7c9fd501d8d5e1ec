import { z } from 'zod';

const tokenLogprobSchema = z.looseObject({
  token: z.string(),
  logprob: z.number().nullable(),
});

const choiceSchema = z.looseObject({
  index: z.number().int().nonnegative().optional(),
  message: z.looseObject({
    role: z.string().optional(),
    content: z.string().nullable().optional(),
  }),
  finish_reason: z.string().nullable().optional(),
  logprobs: z
    .looseObject({ content: z.array(tokenLogprobSchema).nullable().optional() })
    .nullable()
    .optional(),
  /** vLLM: the stop string (or token id) that ended generation. */
  stop_reason: z.union([z.string(), z.number()]).nullable().optional(),
  /** SGLang: the same. */
  matched_stop: z.union([z.string(), z.number()]).nullable().optional(),
});

/** The part of an OpenAI chat-completions response Saccade reads (other fields pass through). */
export const chatCompletionSchema = z.looseObject({
  choices: z.array(choiceSchema).min(1),
  usage: z
    .looseObject({
      prompt_tokens: z.number().optional(),
      completion_tokens: z.number().optional(),
    })
    .nullable()
    .optional(),
});

export type ChatCompletion = z.infer<typeof chatCompletionSchema>;
export type ChatCompletionChoice = ChatCompletion['choices'][number];

/** What the schema expects, in words, for error messages. */
export const CHAT_COMPLETION_SHAPE = 'a chat completion: {"choices": [{"message": {"content": string}, "finish_reason": string}, ...], "usage"?: {...}}';
