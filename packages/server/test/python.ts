/** Finding a Python 3 that has the modules a test's client needs. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What the Debian packages of the modules are called, for the skip message. */
const DEBIAN: Record<string, string> = { httpx: 'python3-httpx', PIL: 'python3-pil', fastapi: 'python3-fastapi', uvicorn: 'python3-uvicorn' };

/**
 * The first of `python3` (PATH) and `/usr/bin/python3` that imports every module, or the reason
 * none does (a pyenv `python3` on PATH often lacks Debian's packages, which `/usr/bin/python3` has).
 */
export async function findPython(modules: readonly string[]): Promise<{ python: string } | { skip: string }> {
  const candidates = ['python3', '/usr/bin/python3'];
  for (const python of candidates) {
    try {
      await run(python, ['-c', `import ${modules.join(', ')}`], { timeout: 20_000 });
      return { python };
    } catch {
      // try the next one
    }
  }
  const packages = modules.map((name) => DEBIAN[name] ?? name).join(' ');
  return { skip: `skipped: needs a Python 3 that imports ${modules.join(', ')} (tried ${candidates.join(', ')}); on Debian: apt-get install -y ${packages}` };
}
