import { readFile } from 'node:fs/promises';
import { DatasetFormatError, type SourceLocation } from '../dataset-format-error';

/** The 1-based line of a character position, for JSON parse errors. */
function lineAt(text: string, position: number): number {
  let line = 1;
  for (let index = 0; index < position && index < text.length; index++) if (text.charCodeAt(index) === 10) line++;
  return line;
}

/**
 * Reads a JSON file that is one document (an array or an object of records, as most datasets
 * ship their annotations). A file that cannot be read or parsed throws a `DatasetFormatError`
 * naming the file and, for a syntax error, the line.
 */
export async function readJsonDocument(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new DatasetFormatError({ location: { file }, field: '(file)', expected: 'a readable JSON file', received: (error as Error).message, cause: error });
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const location: SourceLocation = position === null ? { file } : { file, line: lineAt(text, Number(position[1])) };
    throw new DatasetFormatError({ location, field: '(file)', expected: 'a JSON document', received: `text that is not JSON (${message})`, cause: error });
  }
}
