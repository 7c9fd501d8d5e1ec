/**
 * A data-parallel worker thread: holds a replica of the model and, at the weights the main thread
 * sends with every request, returns the gradients of a shard loss or samples for a share of the
 * prompts. Started by DataParallel.
 */
import { parentPort, workerData } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs-core';
import { initTensor, type BackendName } from '@saccade/tensor';
import type { ModelConfig } from '../model-config';
import { initialParameterValues } from '../model-parameters';
import { PhaseTimer, setPhaseTimer, timePhase, type PhaseTotals } from '../phase-timer';
import { Tokenizer, type TokenizerJson } from '../tokenizer';
import { VisionLanguageModel } from '../vision-language-model';
import { assignFlat, flattenTensors, sharedFloats, totalSize } from './flat-weights';
import { resolveLoss } from './resolve-loss';
import { shardGradients } from './shard-gradients';
import type { WorkerReply, WorkerRequest } from './worker-messages';

interface WorkerSetup {
  config: ModelConfig;
  tokenizer: TokenizerJson;
  backend: BackendName;
}

const port = parentPort;
if (!port) throw new Error('gradient-worker must run in a worker thread (DataParallel starts it).');
const setup = workerData as WorkerSetup;
await initTensor({ backend: setup.backend });
const model = new VisionLanguageModel(setup.config, new Tokenizer(setup.tokenizer), initialParameterValues(setup.config, 0));
// This worker's gradients, in memory the main thread shares: written here, read there before the
// main thread sends this worker its next request (so never both at once).
const gradientBuffer = sharedFloats(totalSize(model.trainableVariables));

port.on('message', (request: WorkerRequest) => {
  void (async () => {
    // The main thread profiles: time this request's phases and send them with the reply.
    const timer = request.profile ? new PhaseTimer() : undefined;
    setPhaseTimer(timer);
    const profile = (): { profile?: PhaseTotals } => {
      if (!timer) return {};
      setPhaseTimer(undefined);
      timer.close();
      return { profile: timer.take().phases };
    };
    try {
      timePhase('weights.assign', () => assignFlat(model.trainableVariables, request.weights));
      if (request.kind === 'generate') {
        const samples = await timePhase('generate', () => model.generate(request.options));
        const reply: WorkerReply = { id: request.id, ok: true, samples, ...profile() };
        port.postMessage(reply);
        return;
      }
      const loss = await resolveLoss(request.loss);
      const result = shardGradients(model, loss, request.shard, request.context);
      const gradients = timePhase('gradients.flatten', () => flattenTensors(result.gradients, gradientBuffer));
      tf.dispose(result.gradients);
      const reply: WorkerReply = { id: request.id, ok: true, gradients, loss: result.loss, metrics: result.metrics, ...profile() };
      port.postMessage(reply);
    } catch (error) {
      if (timer) {
        setPhaseTimer(undefined);
        timer.close();
      }
      const reply: WorkerReply = { id: request.id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
      port.postMessage(reply);
    }
  })();
});
port.postMessage({ id: 0, ok: true, ready: true });
