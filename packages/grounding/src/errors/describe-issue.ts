import type { z } from 'zod';

/** A short description of a value for messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** The first zod issue as field, expected and received. */
export function describeIssue(issues: readonly z.core.$ZodIssue[], raw: unknown): { field: string; expected: string; received: string } {
  const issue = issues[0]!;
  let value: unknown = raw;
  for (const key of issue.path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  const field = issue.path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : name.length === 0 ? String(key) : `${name}.${String(key)}`), '');
  return { field: field || '(root)', expected: issue.message, received: describeValue(value) };
}
