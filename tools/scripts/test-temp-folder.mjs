// vitest global setup for every package: the test run gets its own temporary folder (TMPDIR, which
// os.tmpdir() reads and the test workers inherit), removed when the run ends, so that the folders
// tests make with mkdtemp never pile up in the system's /tmp, whether or not each test cleans up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  const previous = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), 'saccade-test-'));
  process.env.TMPDIR = folder;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(folder, { recursive: true, force: true });
  };
}
