// Runs inside an empty Node project where only the packed tarballs are installed (tools/package-check):
// the tiny test model loads through the installed @huggingface/transformers and onnxruntime-node, and answers.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransformersAgent, ModelFolderError } from '@saccade/agent-transformers';
import { writeTinySmolVlm } from '@saccade/agent-transformers/testing';
import { renderSvg } from '@saccade/image';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-installed-'));
const agent = await createTransformersAgent({ modelPath: writeTinySmolVlm(join(scratch, 'TinySmolVLM')) });
const white = await renderSvg('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#fff"/></svg>');
const { outputs } = await agent.act({ messages: [{ role: 'user', content: [{ type: 'image', image: white }, { type: 'text', text: 'Go' }] }] });
assert.equal(outputs[0].text, '<answer>Right</answer>');
await agent.dispose();

const error = await createTransformersAgent({ modelPath: join(scratch, 'missing') }).catch((caught) => caught);
assert.ok(ModelFolderError.isInstance(error));
console.log('@saccade/agent-transformers works when installed alone');
