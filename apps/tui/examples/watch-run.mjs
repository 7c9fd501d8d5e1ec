#!/usr/bin/env node
// Watch a run folder in the terminal UI:
//   node apps/tui/examples/watch-run.mjs <run folder>
// With no folder, starts simulate-run.mjs in a temporary folder and watches that.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { watchRunFolder } from '@saccade/tui';

let folder = process.argv[2];
let simulator;
if (!folder) {
  folder = mkdtempSync(join(tmpdir(), 'saccade-run-'));
  writeFileSync(join(folder, 'events.jsonl'), '');
  simulator = spawn(process.execPath, [fileURLToPath(new URL('simulate-run.mjs', import.meta.url)), folder], { stdio: 'ignore' });
}
const tui = watchRunFolder(folder);
const { stopRequested } = await tui.waitUntilExit();
simulator?.kill();
console.log(`left ${folder}${stopRequested ? ' (asked the run to stop)' : ''}`);
