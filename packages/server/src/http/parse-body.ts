import type { z } from 'zod';
import { ServerRequestError } from './server-request-error';

/** Validates a request body with zod; a 400 naming each bad field (at most 5) when it does not fit. */
export function parseBody<SCHEMA extends z.ZodType>(schema: SCHEMA, body: unknown, shape: string): z.infer<SCHEMA> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path.length > 0 ? `${path}: ${issue.message}` : issue.message;
  });
  const more = result.error.issues.length > 5 ? ` (and ${result.error.issues.length - 5} more)` : '';
  const received = body === undefined || body === null ? ' (received no JSON body)' : '';
  throw new ServerRequestError({ statusCode: 400, message: `Invalid request body: expected ${shape}${received}; ${problems.join('; ')}${more}.` });
}
