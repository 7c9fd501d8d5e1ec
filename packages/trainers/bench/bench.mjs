#!/usr/bin/env node
// Training throughput of the built-in model's small preset on this machine's backend: SFT steps
// (forward + backward + clipping + Adam) and generation (imports the BUILT dists of
// @saccade/models and @saccade/trainers: run `pnpm build` first). Prints one JSON object. Options: --steps N, --warmup N (steps of each route before the timed ones; default 8), --batch N, --torch (also run the
// PyTorch peer on the same weights and batch, and its greedy KV-cached generation), --preset tiny|small, --config '{"patchSize":16}',
// --workers N (data-parallel worker threads besides the main one; default: one per spare core).
// --profile: where the time of real SFT and GRPO steps goes instead (step-profile.mjs; options
// --runs default,visual-search-grid --sft-steps 3 --grpo-steps 2 --checkpoint RUN=FOLDER --skip-uniform).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { backendInfo, initTensor, nativeMatMulStatus, wasmKernelConfigs } from '@saccade/tensor';
import * as tf from '@tensorflow/tfjs-core';
import { applyChatTemplate, bannedTokenIds, createAdamOptimizer, createRandom, DataParallel, imageTokenCount, VisionLanguageModel } from '@saccade/models';
import { countTargets, maskedCrossEntropy, sftLossReference, sftStep } from '@saccade/trainers';

const argument = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
};
const preset = argument('preset', 'small');
const steps = Number(argument('steps', '4'));
const batchSize = Number(argument('batch', '32'));
const withTorch = process.argv.includes('--torch');
const warmupSteps = Number(argument('warmup', '8'));
if (!Number.isInteger(warmupSteps) || warmupSteps < 1) throw new RangeError(`--warmup must be a whole number ≥ 1; got ${argument('warmup', '8')}.`);

/**
 * The peer's OpenBLAS at its best on this CPU: Debian's OpenBLAS 0.3.21 does not know CPUs newer
 * than its release (a Sapphire Rapids Xeon comes up as the generic Prescott core: 30 GFLOP/s where
 * its SkylakeX kernels give 131 on one thread), so a CPU with AVX-512 or AVX2 gets the matching
 * kernel set unless OPENBLAS_CORETYPE is set. One BLAS thread under PyTorch's two (the measured
 * settings of the docs' tables) unless OPENBLAS_NUM_THREADS is set. The peer reports what it ran.
 */
function peerBlasEnvironment() {
  const flags = existsSync('/proc/cpuinfo') ? (readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1] ?? '').trim().split(/\s+/) : [];
  const core = flags.includes('avx512f') ? 'SkylakeX' : flags.includes('avx2') ? 'Haswell' : undefined;
  return {
    OPENBLAS_NUM_THREADS: process.env.OPENBLAS_NUM_THREADS ?? '1',
    OMP_NUM_THREADS: process.env.OMP_NUM_THREADS ?? '2',
    ...(process.env.OPENBLAS_CORETYPE === undefined && core !== undefined ? { OPENBLAS_CORETYPE: core } : {}),
  };
}

await initTensor();
if (process.argv.includes('--profile')) await profile();
else await throughput();

/** `--profile`: per-phase milliseconds and shares of SFT and GRPO steps (JSON on stdout, a table on stderr). */
async function profile() {
  const { profileSteps } = await import('./step-profile.mjs');
  const count = (name, fallback) => {
    const value = Number(argument(name, fallback));
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`--${name} must be a whole number ≥ 0; got ${argument(name, fallback)}.`);
    return value;
  };
  const workersArgument = argument('workers', undefined);
  const workers = workersArgument === undefined ? undefined : count('workers', '0');
  const checkpoints = Object.fromEntries(
    (argument('checkpoint', '') || '')
      .split(',')
      .filter((entry) => entry.length > 0)
      .map((entry) => {
        const at = entry.indexOf('=');
        if (at <= 0) throw new RangeError(`--checkpoint takes RUN=FOLDER (e.g. default=runs/x/checkpoints/400); got ${entry}.`);
        return [entry.slice(0, at), entry.slice(at + 1)];
      }),
  );
  const started = performance.now();
  const result = await profileSteps({
    runs: argument('runs', 'default,visual-search-grid').split(','),
    sftSteps: count('sft-steps', '3'),
    grpoSteps: count('grpo-steps', '2'),
    workers,
    // DataParallel's default on the single-threaded backends: one worker per spare core.
    threads: (workers ?? Math.max(0, availableParallelism() - 1)) + 1,
    checkpoints,
    ...(process.argv.includes('--skip-uniform') ? { skipUniformGroups: true } : {}),
  });
  console.log(JSON.stringify({ backend: backendInfo()?.name ?? tf.getBackend(), threads: (workers ?? Math.max(0, availableParallelism() - 1)) + 1, loadAverage: loadavg(), seconds: (performance.now() - started) / 1000, ...result }, null, 2));
}

async function throughput() {
  const model = VisionLanguageModel.create({ preset, seed: 0, config: JSON.parse(argument('config', '{}')) });
  const { tokenizer, config } = model;
  const random = createRandom(1);
  const colours = [[170, 210, 240], [20, 40, 90], [250, 200, 40], [210, 60, 60]];
  const actions = ['Left', 'Right', 'Up', 'Down'];

  /** A FrozenLake-like 4×4 board: one colour per cell. */
  function board() {
    const size = config.imageSize;
    const data = new Uint8Array(size * size * 3);
    const cells = Array.from({ length: 16 }, () => Math.floor(random() * 4));
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const cell = Math.floor((y * 4) / size) * 4 + Math.floor((x * 4) / size);
        data.set(colours[cells[cell] ?? 0] ?? [0, 0, 0], (y * size + x) * 3);
      }
    }
    return { width: size, height: size, data };
  }

  /** ~100 tokens: a short prompt, one image, an answer of three actions. */
  function example() {
    const answer = `<think>go to goal</think><answer>${[0, 1, 2].map(() => actions[Math.floor(random() * 4)]).join(',')}</answer>`;
    const sequence = applyChatTemplate(
      tokenizer,
      [
        { role: 'user', content: [{ type: 'image', image: { data: new Uint8Array(), mediaType: 'image/png' } }, { type: 'text', text: 'FrozenLake. Reach the goal, avoid holes. Actions?' }] },
        { role: 'assistant', content: answer },
      ],
      { imageTokens: imageTokenCount(config), addGenerationPrompt: false },
    );
    return { tokens: sequence.tokens, images: [board()], lossMask: sequence.assistantMask };
  }

  const shapeNames = ['star', 'cross', 'ring'];
  const imageSide = config.imageSize;
  /** A blank imageSide × imageSide RGB image and a painter of the pixels where `inside(x, y)` holds. */
  const canvas = (background) => {
    const data = new Uint8Array(imageSide * imageSide * 3);
    for (let at = 0; at < imageSide * imageSide; at++) data.set(background, at * 3);
    const paint = (colour, inside) => {
      for (let y = 0; y < imageSide; y++) for (let x = 0; x < imageSide; x++) if (inside(x, y)) data.set(colour, (y * imageSide + x) * 3);
    };
    return { image: { width: imageSide, height: imageSide, data }, paint };
  };
  const draws = (values) => values[Math.floor(random() * values.length)];
  const others = [[40, 90, 200], [60, 160, 70], [230, 200, 40], [150, 80, 180], [240, 140, 40]];
  const red = [220, 30, 30];
  /** A shape of radius `r` centred at (cx, cy): a cross, a ring, or a diamond for the star. */
  const shapeAt = (shape, cx, cy, r) => (x, y) => {
    const dx = Math.abs(x - cx);
    const dy = Math.abs(y - cy);
    if (shape === 'cross') return Math.max(dx, dy) <= r && Math.min(dx, dy) <= r / 4;
    if (shape === 'ring') return Math.abs(Math.hypot(dx, dy) - r * 0.75) <= r / 4;
    return dx + dy <= r;
  };

  /**
   * The visual-search recipes' episode (apps/runner/recipes/visual-search*.yaml) in miniature: a
   * scene with larger shapes of other colours and a 4-px red dot in one cell of the pointer's grid;
   * the oracle's call on that cell (ToolUseWrapper's `<tool_call>` JSON, `[c,r]` cell digits as
   * search_coordinate's `cells` take them), the tool's `<tool_response>` with the crop (the red
   * shape, larger), and the answer. Loss on both assistant turns: the call's digits are where the
   * pointer's terms meet the loss, the answer after the crop is where the readout does.
   */
  function searchExample() {
    const cells = config.imageSize / config.patchSize / config.vision.spatialMerge;
    const cell = imageSide / cells;
    const scene = canvas([235, 235, 225]);
    for (let shape = 0; shape < 6; shape++) scene.paint(draws(others), shapeAt(draws(shapeNames), random() * imageSide, random() * imageSide, 6 + random() * 6));
    const column = Math.floor(random() * cells);
    const row = Math.floor(random() * cells);
    const x = column * cell + Math.floor(random() * (cell - 4));
    const y = row * cell + Math.floor(random() * (cell - 4));
    scene.paint(red, (px, py) => px >= x && px < x + 4 && py >= y && py < y + 4);
    const shape = draws(shapeNames);
    const crop = canvas([235, 235, 225]);
    crop.paint(draws(others), shapeAt(draws(shapeNames), random() * imageSide, random() * imageSide, 16));
    crop.paint(red, shapeAt(shape, imageSide / 2 + (random() - 0.5) * imageSide * 0.5, imageSide / 2 + (random() - 0.5) * imageSide * 0.5, 12));
    const image = { type: 'image', image: { data: new Uint8Array(), mediaType: 'image/png' } };
    const call = `<tool_call>${JSON.stringify({ name: 'search_coordinate', arguments: { coordinate: [column, row] } })}</tool_call>`;
    const sequence = applyChatTemplate(
      tokenizer,
      [
        { role: 'user', content: [image, { type: 'text', text: 'There is exactly one red shape in this image; it is small. Is it a star, a cross or a ring?' }] },
        { role: 'assistant', content: call },
        { role: 'user', content: [{ type: 'text', text: `<tool_response>\nThe region around [${column}, ${row}].\n` }, image, { type: 'text', text: '\n</tool_response>' }] },
        { role: 'assistant', content: `<answer>${shape}</answer>` },
      ],
      { imageTokens: imageTokenCount(config), addGenerationPrompt: false },
    );
    return { tokens: sequence.tokens, images: [scene.image, crop.image], lossMask: sequence.assistantMask };
  }

  // The FrozenLake-like batch has no call: with the pointer, a batch of visual-search episodes.
  const batch = Array.from({ length: batchSize }, config.vision.pointer ? searchExample : example);
  const length = Math.max(...batch.map((item) => item.tokens.length));
  const initialLoss = tf.tidy(() => maskedCrossEntropy(model, batch).dataSync()[0]);

  /** Writes the model's current weights as one float32 file; returns where each one starts. */
  const writeWeights = async (file) => {
    const weights = model.getWeights();
    const manifest = [];
    let offset = 0;
    const chunks = [];
    for (const name of model.weightNames) {
      const values = weights.get(name);
      manifest.push({ name, shape: model.weight(name).shape, offset });
      offset += values.length;
      chunks.push(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
    }
    await writeFile(file, Buffer.concat(chunks));
    return manifest;
  };

  /**
   * With the pointer, what the peer points with, as our prepare built it: the masks and token
   * indices of inputs.pointer (grid-pointer.ts's PointerInputs) and the digit ids its terms go to.
   */
  const pointerSpec = (inputs) => {
    if (!inputs.pointer) return {};
    const masks = Object.entries(inputs.pointer).filter(([, value]) => value instanceof tf.Tensor);
    return {
      pointer: Object.fromEntries(masks.map(([name, value]) => [name, { shape: value.shape, values: Array.from(value.dataSync()) }])),
      digitIds: Array.from({ length: 10 }, (_, digit) => tokenizer.encode(String(digit))[0]),
    };
  };

  let folder;
  if (withTorch) {
    // Hand the exact initial weights and batch to the peer before training moves them.
    folder = await mkdtemp(join(tmpdir(), 'saccade-bench-'));
    const manifest = await writeWeights(join(folder, 'weights.bin'));
    const inputs = model.prepare(batch);
    await writeFile(
      join(folder, 'batch.json'),
      JSON.stringify({
        config,
        weights: manifest,
        tokens: inputs.tokens.arraySync(),
        slots: Array.from(inputs.imageSlots.dataSync()),
        patches: Array.from(inputs.patches.dataSync()),
        mask: batch.map((item) => Array.from({ length }, (_, column) => (column > 0 ? (item.lossMask[column] ?? 0) : 0))),
        ...pointerSpec(inputs),
        steps,
        learningRate: 1e-3,
      }),
    );
    inputs.dispose();
  }

  // The PyTorch peer runs as a child answering one step (or generation) per request: its steps
  // interleave with ours, so both see the same load on a shared machine.
  let peer;
  if (withTorch) {
    const script = join(dirname(fileURLToPath(import.meta.url)), 'torch-peer.py');
    // Debian's python3-torch lives under /usr/bin/python3 (a pyenv python may shadow it).
    const python = process.env.SACCADE_TORCH_PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
    const child = spawn(python, [script, folder], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, ...peerBlasEnvironment() },
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const request = async (command) => {
      child.stdin.write(`${command}\n`);
      const { value, done } = await lines.next();
      if (done) throw new Error('The PyTorch peer exited.');
      return JSON.parse(value);
    };
    peer = {
      step: () => request('step'),
      generate: (maxTokens) => request(`generate ${maxTokens}`),
      matMul: (m, k, n, repeats) => request(`matmul ${m} ${k} ${n} ${repeats}`),
      close: () => child.stdin.end(),
    };
  }

  const optimizer = createAdamOptimizer({ learningRate: 1e-3 });
  const cpuSeconds = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  // Our steps alternate one thread / every thread (DataParallel) / the peer, so all three see the
  // same load; the losses of consecutive steps continue one training run.
  const workersArgument = argument('workers', undefined);
  const parallel = await DataParallel.create(model, workersArgument === undefined ? {} : { workers: Number(workersArgument) });
  const context = { targetTokens: countTargets(batch) };
  // Warm-up (--warmup N, default 8): kernels, Adam's slots, the workers, and V8's optimizing
  // compiler, which compiles the hot JavaScript of the first dozen steps on background threads
  // that take cores from the measured ones; the peer's steps alternate as in the measured ones.
  const ours = [];
  const theirs = [];
  for (let step = 0; step < warmupSteps; step++) {
    ours.push(sftStep(model, optimizer, batch).loss);
    ours.push((await parallel.step(optimizer, sftLossReference(), batch, context)).loss);
    if (peer) theirs.push(await peer.step(), await peer.step());
  }
  let trainSeconds = 0;
  let trainCpu = 0;
  let parallelSeconds = 0;
  let torchSeconds = 0;
  for (let step = 0; step < steps; step++) {
    let start = performance.now();
    const cpu = cpuSeconds();
    ours.push(sftStep(model, optimizer, batch).loss);
    trainSeconds += (performance.now() - start) / 1000;
    trainCpu += cpuSeconds() - cpu;
    start = performance.now();
    ours.push((await parallel.step(optimizer, sftLossReference(), batch, context)).loss);
    parallelSeconds += (performance.now() - start) / 1000;
    if (peer) {
      for (let repeat = 0; repeat < 2; repeat++) {
        const answer = await peer.step();
        theirs.push(answer);
        torchSeconds += answer.seconds / 2;
      }
    }
  }

  // Generation: 8 prompts × 8 samples = 64 rows with a KV cache.
  // Each prompt is its example up to the first assistant turn, with the images it shows. A
  // visual-search prompt runs on to its call's `[` (the scene, not the crop): the first tokens
  // written are the cell's digits, where the pointer's terms (its cache, pointerStepTerms) decide.
  const opener = tokenizer.encode('[')[0];
  const prompts = batch.slice(0, 8).map((item) => {
    const start = item.tokens.indexOf(tokenizer.assistantId);
    const tokens = item.tokens.slice(0, (config.vision.pointer ? item.tokens.indexOf(opener, start) : start) + 1);
    return { tokens, images: item.images.slice(0, tokens.filter((id) => id === tokenizer.imagePadId).length / imageTokenCount(config)) };
  });
  const generateOnce = async (useCache, maxTokens, { temperature = 1, generator = model } = {}) => {
    const start = performance.now();
    const results = await generator.generate({ prompts, n: 8, maxTokens, temperature, seed: 0, useCache });
    const samples = results.flat().map((sample) => sample.tokens);
    const tokens = samples.reduce((sum, sample) => sum + sample.length, 0);
    return { tokens, seconds: (performance.now() - start) / 1000, samples };
  };
  await generateOnce(true, 4); // warm-up
  const cached = await generateOnce(true, 48);
  const uncached = await generateOnce(false, 8);

  // Greedy generation, the one timed against the peer: temperature 0 on both sides, so that both
  // write the same tokens (a row ends at <|end|>, kept, or after 48 tokens; only written tokens
  // count). The peer decodes with the weights our model holds now (see load_generation in
  // torch-peer.py) from the prompts as our generate prepares them (left padding, positions from
  // each row's first token, image slots and patches). One thread, every thread (DataParallel) and
  // the peer alternate, two generations each after a warm-up each, so all three see the same load.
  const greedyTokens = 48;
  if (peer) {
    const inputs = model.prepare(prompts, 'left');
    await writeFile(
      join(folder, 'generate.json'),
      JSON.stringify({
        weights: await writeWeights(join(folder, 'generate-weights.bin')),
        n: 8,
        lengths: inputs.lengths,
        tokens: inputs.tokens.arraySync(),
        positions: inputs.positions.arraySync(),
        slots: Array.from(inputs.imageSlots.dataSync()),
        patches: Array.from(inputs.patches.dataSync()),
        keyBias: inputs.keyBias.arraySync(),
        ...pointerSpec(inputs),
        endId: tokenizer.endId,
        padId: tokenizer.padId,
        bannedIds: bannedTokenIds(tokenizer),
      }),
    );
    inputs.dispose();
  }
  const greedy = { ours: [], parallel: [], torch: [] };
  const greedyOnce = {
    ours: (maxTokens) => generateOnce(true, maxTokens, { temperature: 0 }),
    parallel: (maxTokens) => generateOnce(true, maxTokens, { temperature: 0, generator: parallel }),
    ...(peer ? { torch: (maxTokens) => peer.generate(maxTokens) } : {}),
  };
  for (const run of Object.values(greedyOnce)) await run(4); // warm-up
  for (let repeat = 0; repeat < 2; repeat++) {
    for (const [side, run] of Object.entries(greedyOnce)) greedy[side].push(await run(greedyTokens));
  }
  // Our prefill alone: a generation of one token is the prefill and one sample (the peer reports its own).
  const prefill = { ours: [], parallel: [] };
  for (let repeat = 0; repeat < 3; repeat++) {
    prefill.ours.push((await greedyOnce.ours(1)).seconds);
    prefill.parallel.push((await greedyOnce.parallel(1)).seconds);
  }
  // The products alone, at the training step's shapes (rows = batch × length) and a decode step's
  // (64 rows): what the training ratio is made of, since products are most of a step on both sides.
  let matMul;
  if (peer) {
    const rows = batchSize * length;
    const width = config.modelDimension;
    const hidden = width * config.mlpRatio;
    const shapes = [[rows, width, 3 * width], [rows, width, hidden], [rows, hidden, width], [64, width, 3 * width], [64, width, hidden]];
    matMul = [];
    for (const [m, k, n] of shapes) {
      const repeats = Math.max(5, Math.round(4e8 / (2 * m * k * n)));
      const ourSeconds = [];
      const theirSeconds = [];
      const a = tf.randomNormal([m, k]);
      const b = tf.randomNormal([k, n]);
      for (let warm = 0; warm < 3; warm++) tf.matMul(a, b).dispose();
      for (let round = 0; round < 2; round++) {
        const start = performance.now();
        for (let repeat = 0; repeat < repeats; repeat++) tf.matMul(a, b).dispose();
        ourSeconds.push((performance.now() - start) / 1000 / repeats);
        theirSeconds.push((await peer.matMul(m, k, n, repeats)).seconds);
      }
      tf.dispose([a, b]);
      const gflops = (seconds) => (2 * m * k * n) / Math.min(...seconds) / 1e9;
      matMul.push({ m, k, n, oursGflops: gflops(ourSeconds), torchGflops: gflops(theirSeconds), ratio: gflops(ourSeconds) / gflops(theirSeconds) });
    }
  }
  peer?.close();
  await parallel.close();
  /** The first index where two token lists differ, -1 if they are the same. */
  const firstDifference = (a, b) => {
    for (let index = 0; index < Math.max(a.length, b.length); index++) if (a[index] !== b[index]) return index;
    return -1;
  };
  /** Tokens and seconds of one generation (the mean of the repetitions), tokens/s over all of them. */
  const summary = (runs) => {
    const tokens = runs.reduce((sum, run) => sum + run.tokens, 0);
    const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
    return { tokens: tokens / runs.length, seconds: seconds / runs.length, tokensPerSecond: tokens / seconds };
  };

  const result = {
    backend: backendInfo()?.name ?? tf.getBackend(),
    // Which of @saccade/tensor's wasm kernel fixes this build has (to tell builds apart in comparisons).
    wasmKernels: wasmKernelConfigs.map((kernel) => kernel.kernelName),
    // The native products (SACCADE_NATIVE_MATMUL): { available, isa, fused } or why not.
    nativeMatMul: nativeMatMulStatus(),
    preset,
    parameters: model.parameterCount,
    config,
    train: {
      batch: batchSize,
      length,
      steps,
      warmupSteps,
      secondsPerStep: trainSeconds / steps,
      cpuSecondsPerStep: trainCpu / steps,
      tokensPerSecond: (batchSize * length * steps) / trainSeconds,
      initialLoss,
      losses: ours,
    },
    dataParallel: {
      threads: parallel.threadCount,
      secondsPerStep: parallelSeconds / steps,
      tokensPerSecond: (batchSize * length * steps) / parallelSeconds,
    },
    generate: {
      rows: 64,
      cache: { tokens: cached.tokens, seconds: cached.seconds, tokensPerSecond: cached.tokens / cached.seconds },
      noCache: { tokens: uncached.tokens, seconds: uncached.seconds, tokensPerSecond: uncached.tokens / uncached.seconds },
      greedy: { maxTokens: greedyTokens, ...summary(greedy.ours), prefillSeconds: Math.min(...prefill.ours) },
      greedyDataParallel: { threads: parallel.threadCount, ...summary(greedy.parallel), prefillSeconds: Math.min(...prefill.parallel) },
    },
    tensors: tf.memory().numTensors,
  };

  if (peer) {
    const first = theirs[0];
    result.torch = {
      torch: first.torch,
      threads: first.threads,
      blas: first.blas,
      // OpenBLAS's kernel set and threads as the peer ran them (null for another BLAS).
      openblas: first.openblas ?? null,
      secondsPerStep: torchSeconds / steps,
      tokensPerSecond: (first.tokens * steps) / torchSeconds,
      losses: theirs.map((answer) => answer.loss),
    };
    result.torch.matMul = matMul;
    result.maxLossDifference = Math.max(...ours.map((loss, index) => Math.abs(loss - (theirs[index]?.loss ?? NaN))));
    result.ratioToTorch = result.train.tokensPerSecond / result.torch.tokensPerSecond;
    result.dataParallelRatioToTorch = result.dataParallel.tokensPerSecond / result.torch.tokensPerSecond;
    const prefillSeconds = greedy.torch.reduce((sum, run) => sum + run.prefillSeconds, 0) / greedy.torch.length;
    result.torch.generate = { rows: greedy.torch[0].rows, ...summary(greedy.torch), prefillSeconds };
    result.generateRatioToTorch = result.generate.greedy.tokensPerSecond / result.torch.generate.tokensPerSecond;
    result.dataParallelGenerateRatioToTorch = result.generate.greedyDataParallel.tokensPerSecond / result.torch.generate.tokensPerSecond;
    // Rows whose greedy tokens are identical in every repetition, ours (one thread) against the
    // peer's and against DataParallel's; the first few differences as {row, at, ours, torch}.
    const ourRows = greedy.ours[0].samples;
    const agree = (runs) => ourRows.filter((row, index) => runs.every((run) => firstDifference(row, run.samples[index]) < 0)).length;
    const identicalRows = agree([...greedy.ours.slice(1), ...greedy.torch]);
    const differences = ourRows.flatMap((row, index) => {
      const theirs = greedy.torch[0].samples[index];
      const at = firstDifference(row, theirs);
      return at < 0 ? [] : [{ row: index, at, ours: row.slice(at, at + 4), torch: theirs.slice(at, at + 4) }];
    });
    result.generateAgreement = {
      rows: ourRows.length,
      identicalRows,
      share: identicalRows / ourRows.length,
      dataParallelIdenticalRows: agree(greedy.parallel),
      differences: differences.slice(0, 4),
    };
    await rm(folder, { recursive: true, force: true });
  }

  console.log(JSON.stringify(result, null, 2));
}
