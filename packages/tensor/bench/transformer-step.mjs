// The benchmark model: patch embedding (conv or matMul) + token embedding → one pre-norm
// transformer block (multi-head causal attention, GELU MLP, layer norm via moments) → vocabulary
// head, trained with Adam. Sizes of the built-in model: width 128, 4 heads, 128 positions.

/** Deterministic values in [-scale, scale). */
function uniform(tf, shape, seed, scale) {
  let state = seed >>> 0;
  const size = shape.reduce((a, b) => a * b, 1);
  const values = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    values[i] = (state / 4294967296 * 2 - 1) * scale;
  }
  return tf.tensor(values, shape);
}

export function createStep(tf, options) {
  const { batch = 16, width = 128, heads = 4, imageSize = 64, patch = 8, textTokens = 64, vocab = 64, patchEmbedding = 'conv' } = options;
  const imageTokens = (imageSize / patch) ** 2;
  const sequence = imageTokens + textTokens;
  const headWidth = width / heads;
  const shapes = {
    patchKernel: patchEmbedding === 'conv' ? [patch, patch, 3, width] : [patch * patch * 3, width],
    tokenEmbedding: [vocab, width],
    position: [sequence, width],
    qkv: [width, 3 * width],
    projection: [width, width],
    up: [width, 4 * width],
    down: [4 * width, width],
    head: [width, vocab],
  };
  const w = {};
  let seed = 1;
  for (const [name, shape] of Object.entries(shapes)) {
    w[name] = tf.variable(uniform(tf, shape, seed++, Math.sqrt(3 / shape.slice(0, -1).reduce((a, b) => a * b, 1))), true, `${name}_${Math.random()}`);
  }
  const images = uniform(tf, [batch, imageSize, imageSize, 3], 99, 1);
  const ids = tf.tensor2d(Array.from({ length: batch * textTokens }, (_, i) => (i * 7 + 3) % vocab), [batch, textTokens], 'int32');
  const causal = tf.keep(tf.cast(tf.linalg.bandPart(tf.ones([sequence, sequence]), -1, 0), 'bool'));
  const layerNorm = (x) => {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, 1e-5)));
  };
  const gelu = (x) => tf.mul(tf.mul(x, 0.5), tf.add(1, tf.erf(tf.mul(x, Math.SQRT1_2))));
  const loss = () => {
    let patches;
    if (patchEmbedding === 'conv') {
      patches = tf.reshape(tf.conv2d(images, w.patchKernel, patch, 'valid'), [batch, imageTokens, width]);
    } else {
      const grid = imageSize / patch;
      const blocks = tf.transpose(tf.reshape(images, [batch, grid, patch, grid, patch, 3]), [0, 1, 3, 2, 4, 5]);
      patches = tf.reshape(tf.matMul(tf.reshape(blocks, [batch * imageTokens, patch * patch * 3]), w.patchKernel), [batch, imageTokens, width]);
    }
    const x0 = tf.add(tf.concat([patches, tf.gather(w.tokenEmbedding, ids)], 1), w.position);
    const flat = (t) => tf.reshape(t, [batch * sequence, -1]);
    const qkv = tf.reshape(tf.matMul(flat(layerNorm(x0)), w.qkv), [batch, sequence, 3, heads, headWidth]);
    const [q, k, v] = [0, 1, 2].map((i) => tf.transpose(tf.reshape(tf.slice(qkv, [0, 0, i, 0, 0], [-1, -1, 1, -1, -1]), [batch, sequence, heads, headWidth]), [0, 2, 1, 3]));
    const scores = tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(headWidth));
    const attention = tf.softmax(tf.where(tf.broadcastTo(causal, scores.shape), scores, tf.fill(scores.shape, -1e9)));
    const mixed = tf.reshape(tf.transpose(tf.matMul(attention, v), [0, 2, 1, 3]), [batch * sequence, width]);
    const x1 = tf.add(flat(x0), tf.matMul(mixed, w.projection));
    const x2 = tf.add(x1, tf.matMul(gelu(tf.matMul(layerNorm(x1), w.up)), w.down));
    const logits = tf.reshape(tf.matMul(layerNorm(x2), w.head), [batch, sequence, vocab]);
    const predicting = tf.slice(logits, [0, imageTokens - 1, 0], [-1, textTokens, -1]);
    return tf.losses.softmaxCrossEntropy(tf.oneHot(ids, vocab), predicting);
  };
  const optimizer = tf.train.adam(1e-3);
  return {
    tokens: batch * sequence,
    step() {
      const value = optimizer.minimize(loss, true);
      const result = value.dataSync()[0];
      value.dispose();
      return result;
    },
    dispose() {
      optimizer.dispose();
      tf.dispose([images, ids, causal, ...Object.values(w)]);
    },
  };
}
