"""PyTorch peer of @saccade/models' architecture, for bench.mjs: same weights, same batch, same
loss, and the same KV-cached generation. Reads one command a line on stdin ("step", "generate N",
"matmul M K N REPEATS" or "quit") so that bench.mjs can interleave its steps and generations with ours on a shared
machine; answers each with a JSON line ({loss, seconds, ...} or {rows, tokens, seconds, ...}).
Covers the default run's model (grid layers) and the visual-search recipes' (the pixel stem with
mean or smooth-max pooling, the grid pointer on the latest or first image, the 'pointer', 'max' and
'conv' readouts); the pointer's masks come from our prepare (batch.json's `pointer`)."""
import ctypes, json, math, os, sys, time
import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(2)
folder = sys.argv[1]
spec = json.load(open(f"{folder}/batch.json"))
config = spec["config"]
raw = np.fromfile(f"{folder}/weights.bin", dtype=np.float32)
weights = {}
for entry in spec["weights"]:
    size = int(np.prod(entry["shape"]))
    tensor = torch.tensor(raw[entry["offset"]:entry["offset"] + size].reshape(entry["shape"]))
    weights[entry["name"]] = tensor.requires_grad_(True)
w = weights
d, heads, eps = config["modelDimension"], config["headCount"], config["layerNormEpsilon"]
grid = config["imageSize"] // config["patchSize"]
# The grouped config (vision.grid: {layers, cellPatches}); checkpoints before it were flat.
vision = config.get("vision") or {}
grid_layers = (vision.get("grid") or {}).get("layers", config.get("gridLayers", 0))
grid_merge = (vision.get("grid") or {}).get("cellPatches", config.get("gridMerge", 1))
stem, pointing, readout = vision.get("stem"), bool(vision.get("pointer")), vision.get("readout")
unsupported = (["spatialMerge"] if vision.get("spatialMerge", 1) != 1 else []) + (["inhibitionOfReturn"] if vision.get("inhibitionOfReturn") else []) + (["readoutImages"] if vision.get("readoutImages", "latest") != "latest" else [])
if unsupported:
    sys.exit(f"torch-peer.py: the peer does not implement vision.{', vision.'.join(unsupported)}; bench a config without them")
# β of the stem's smooth maximum (STEM_MAX_SHARPNESS, vision-language-model.ts) and of the readout's
# (READOUT_SHARPNESS, image-readout.ts); the pointer's probability floor (FLOOR, grid-pointer.ts).
STEM_SHARPNESS, READOUT_SHARPNESS, FLOOR = 30, 10, 1e-6

tokens = torch.tensor(spec["tokens"], dtype=torch.long)
B, T = tokens.shape
slots = torch.tensor(spec["slots"], dtype=torch.long)
patches = torch.tensor(spec["patches"], dtype=torch.float32).reshape(len(spec["patches"]) // (config["patchSize"] ** 2 * 3), -1)
mask = torch.tensor(spec["mask"], dtype=torch.float32)


def pointer_inputs(spec):
    """The pointer's masks and token indices as our prepare built them (PointerInputs, grid-pointer.ts)."""
    if not pointing:
        return None
    long = ("lastImageTokens", "pointerImageTokens", "imageTokens")
    return {name: torch.tensor(m["values"], dtype=torch.long if name in long else torch.float32).reshape(m["shape"]) for name, m in spec["pointer"].items()}


pointer = pointer_inputs(spec)
digit_ids = torch.tensor(spec.get("digitIds", [])[:grid], dtype=torch.long)


def ln(x, p):
    return F.layer_norm(x, (d,), w[f"{p}.gain"], w[f"{p}.bias"], eps)


def block(x, p, batch, length, bias, past=None):
    """A pre-LN transformer block on [batch·length, d]; returns (output, keys, values), the keys and
    values [batch, heads, past + length, d/heads] with `past` (cached keys, values) in front."""
    h = ln(x, f"{p}.norm1")
    q, k, v = (h @ w[f"{p}.attention.qkv.weight"] + w[f"{p}.attention.qkv.bias"]).split(d, dim=-1)
    split = lambda t: t.reshape(batch, length, heads, d // heads).transpose(1, 2)
    k, v = split(k), split(v)
    if past is not None:
        k, v = torch.cat([past[0], k], 2), torch.cat([past[1], v], 2)
    scores = split(q * (1 / math.sqrt(d // heads))) @ k.transpose(-1, -2)
    if bias is not None:
        scores = scores + bias
    context = (scores.softmax(-1) @ v).transpose(1, 2).reshape(batch * length, d)
    x = x + context @ w[f"{p}.attention.output.weight"] + w[f"{p}.attention.output.bias"]
    h = ln(x, f"{p}.norm2")
    h = F.gelu(h @ w[f"{p}.mlp.up.weight"] + w[f"{p}.mlp.up.bias"], approximate="tanh")
    return x + h @ w[f"{p}.mlp.down.weight"] + w[f"{p}.mlp.down.bias"], k, v


rows = torch.arange(grid * grid) // grid
cols = torch.arange(grid * grid) % grid
causal = torch.triu(torch.full((T, T), -1e9), diagonal=1)


def grid_propagation(x, n):
    """Local layers over cells of gridMerge × gridMerge patches (grid-propagation.ts)."""
    m = grid_merge
    c = grid // m
    cells = x.reshape(n * c, m, c, m * d).transpose(1, 2).reshape(n * c * c, m * m * d)
    h = cells @ w["grid.input.weight"] + w["grid.input.bias"]
    for layer in range(grid_layers):
        p = f"grid.{layer}"
        g = ln(h, f"{p}.norm").reshape(n, c, c, d)
        padded = F.pad(g, (0, 0, 1, 1, 1, 1))
        above, below = padded[:, :-2, 1:-1], padded[:, 2:, 1:-1]
        left, right = padded[:, 1:-1, :-2], padded[:, 1:-1, 2:]
        local = torch.cat([g, above, right, below, left], -1).reshape(n * c * c, 5 * d)
        hidden = F.gelu(local @ w[f"{p}.up.weight"] + w[f"{p}.up.bias"], approximate="tanh")
        h = h + hidden @ w[f"{p}.down.weight"] + w[f"{p}.down.bias"]
    out = ln(h, "grid.outputNorm") @ w["grid.output.weight"] + w["grid.output.bias"]
    spread = out.reshape(n, c, 1, c, 1, d).expand(n, c, m, c, m, d).reshape(n * grid * grid, d)
    return x + spread


def smooth_max(x, dims, sharpness):
    """(1/β)·log mean exp(β·x) over dims: a maximum whose gradient goes to what lit it."""
    count = math.prod(x.shape[dim] for dim in dims)
    return (torch.logsumexp(x * sharpness, dims) - math.log(count)) / sharpness


def patch_features(patches):
    """What the patch projection reads: the raw pixels, or the pixel stem's per-pixel features
    (relu(p·W + b)) pooled over pool × pool blocks, by a mean or a smooth maximum (the
    smoothMaxStem kernel's math), blocks row-major and channels last."""
    if not stem:
        return patches
    side, pool, channels, n = config["patchSize"], stem["pool"], stem["channels"], patches.shape[0]
    kernel = stem.get("kernel", 1)
    if kernel > 1:
        # The convolutional stem (convStem): whole images, zero padding, the same pooling.
        images, size, b = n // (grid * grid), grid * side, side // pool
        image = patches.reshape(images, grid, grid, side, side, 3).permute(0, 5, 1, 3, 2, 4).reshape(images, 3, size, size)
        weight = w["image.stem.weight"].reshape(kernel, kernel, 3, channels).permute(3, 2, 0, 1)
        features = torch.relu(F.conv2d(image, weight, w["image.stem.bias"], padding=kernel // 2))
        blocks = features.reshape(images, channels, size // pool, pool, size // pool, pool)
        pooled = smooth_max(blocks, (3, 5), STEM_SHARPNESS) if stem["pooling"] == "max" else blocks.mean((3, 5))
        return pooled.reshape(images, channels, grid, b, grid, b).permute(0, 2, 4, 3, 5, 1).reshape(n, -1)
    features = torch.relu(patches.reshape(-1, 3) @ w["image.stem.weight"] + w["image.stem.bias"])
    if pool == 1:
        return features.reshape(n, -1)
    blocks = features.reshape(n, side // pool, pool, side // pool, pool, channels)
    pooled = smooth_max(blocks, (2, 4), STEM_SHARPNESS) if stem["pooling"] == "max" else blocks.mean((2, 4))
    return pooled.reshape(n, -1)


def conv_readout_values(features, n):
    """The 'conv' readout's per-token values (convReadoutValues): each image's stem blocks as one
    map, a ReLU 'same' convolution over it, each patch's smooth maximum of its blocks' features."""
    b = config["patchSize"] // stem["pool"]
    kernel = w["readout.conv.weight"]
    out = kernel.shape[3]
    image = features.reshape(n, grid, grid, b, b, stem["channels"]).permute(0, 5, 1, 3, 2, 4).reshape(n, stem["channels"], grid * b, grid * b)
    convolved = torch.relu(F.conv2d(image, kernel.permute(3, 2, 0, 1), w["readout.conv.bias"], padding=kernel.shape[0] // 2))
    per_patch = convolved.reshape(n, out, grid, b, grid, b).permute(0, 2, 4, 3, 5, 1).reshape(n * grid * grid, b * b, out)
    return smooth_max(per_patch, (1,), READOUT_SHARPNESS)


def encode_images(patches):
    """Patch rows [images·patches, values] → image tokens [images·patches, d]; with the pointer
    also each token's own projected, normed patch (its keys) and the readout's per-token values."""
    per = grid * grid
    n = patches.shape[0] // per
    features = patch_features(patches)
    local = ln(features @ w["image.patch.weight"] + w["image.patch.bias"], "image.patchNorm")
    x = (local.reshape(n, per, d) + w["image.row"][rows] + w["image.column"][cols]).reshape(n * per, d)
    for layer in range(config["encoderLayers"]):
        x = block(x, f"encoder.{layer}", n, per, None)[0]
    encoded = ln(x, "image.outputNorm")
    if grid_layers > 0:
        encoded = grid_propagation(encoded, n)
    return encoded, local, conv_readout_values(features, n) if readout == "conv" else encoded


def place(slots, features):
    """Image-token rows at their sequence slots (slot k+1 takes row k), zeros elsewhere."""
    return torch.cat([torch.zeros(1, features.shape[1]), features], 0)[slots]


def embed(tokens, positions, slots, patches):
    """Token, position and image embeddings; with the pointer, its key and value states at the slots."""
    encoded, local, values = encode_images(patches)
    x = w["token.embedding"][tokens] + w["position.embedding"][positions] + place(slots, encoded)
    return x, (place(slots, local), place(slots, values)) if pointing else None


def readout_of(summary, valid):
    """The readout's MLP on an image summary, zero where no image came before."""
    hidden = F.gelu(summary @ w["readout.up.weight"] + w["readout.up.bias"], approximate="tanh")
    return (hidden @ w["readout.down.weight"]) * valid


def pool_images(tokens):
    """Each image's summary from its tokens' values: 'max' projects then smooth-maximises, 'conv' the reverse."""
    if readout == "conv":
        return smooth_max(tokens.reshape(-1, grid * grid, tokens.shape[1]), (1,), READOUT_SHARPNESS) @ w["readout.value.weight"] + w["readout.value.bias"]
    return smooth_max((tokens @ w["readout.value.weight"] + w["readout.value.bias"]).reshape(-1, grid * grid, d), (1,), READOUT_SHARPNESS)


def digit_terms(normed, column, row, valid):
    """[rows, G] pointer terms of the digits 0…G−1: the gated, centred log-marginals of where it points."""
    centred = lambda p: (lambda log: log - log.mean(-1, keepdim=True))(torch.log(p + FLOOR))
    gates = normed @ w["pointer.gate.weight"] + w["pointer.gate.bias"]
    return (gates[:, :1] * centred(column) + gates[:, 1:] * centred(row)) * valid


def pointer_terms(normed, states, p, batch, length):
    """The pointer's digit terms and readout at every position (pointerTerms): an attention from
    each position over the pointed-at image's keys, its column and row marginals."""
    h = w["pointer.query.weight"].shape[1]
    query = (normed @ w["pointer.query.weight"]).reshape(batch, length, h)
    key = (states[0] @ w["pointer.key.weight"]).reshape(batch, length, h)
    scores = query @ key.transpose(1, 2) / math.sqrt(h)
    image = p["pointerImage"] @ p["keyImage"].transpose(1, 2)
    masked = scores + (image - 1) * 1e9
    # The max cancels in the marginals: no gradient through it (expShiftedByMax).
    weights = torch.exp(masked - masked.detach().amax(-1, keepdim=True)) * image
    has = p["hasImage"]
    total = weights.sum(-1, keepdim=True) + (1 - has.reshape(batch, length, 1))
    column = (weights @ p["keyColumn"] / total).reshape(batch * length, grid)
    row = (weights @ p["keyRow"] / total).reshape(batch * length, grid)
    digits = digit_terms(normed, column, row, has)
    if readout == "pointer":
        return digits, readout_of((weights @ states[1].reshape(batch, length, d) / total).reshape(batch * length, d), has)
    if readout:
        # 'max' and 'conv' read each position's latest complete image (queryImage).
        pooled = pool_images(states[1][p["imageTokens"]]).reshape(batch, -1, d)
        return digits, readout_of((p["queryImage"] @ pooled).reshape(batch * length, d), has)
    return digits, None


def pointer_cache(states, p, batch):
    """What a decoding step points with (pointerCacheOf): each row's pointed-at image's keys, whether
    it has one, and the readout's part of its last image."""
    keys = (states[0][p["pointerImageTokens"]] @ w["pointer.key.weight"]).reshape(batch, grid * grid, -1)
    values = None
    if readout == "pointer":
        values = states[1][p["lastImageTokens"]].reshape(batch, grid * grid, d)
    elif readout:
        values = pool_images(states[1][p["lastImageTokens"]]).reshape(batch, 1, d)
    return [keys, p["rowHasImage"], values]


def each_row(cache, select):
    """A pointer cache with `select` applied to its tensors (rows repeated, kept or dropped)."""
    return [None if t is None else select(t) for t in cache]


def pointer_step_terms(normed, cache):
    """The pointer's terms of one new position per row against the cached keys (pointerStepTerms)."""
    keys, valid, values = cache
    rows, h = normed.shape[0], keys.shape[2]
    scores = ((normed @ w["pointer.query.weight"]).reshape(rows, 1, h) @ keys.transpose(1, 2) / math.sqrt(h)).reshape(rows, grid * grid)
    probabilities = scores.softmax(-1).reshape(rows, grid, grid)
    valid = valid.reshape(rows, 1)
    digits = digit_terms(normed, probabilities.sum(1), probabilities.sum(2), valid)
    if readout == "pointer":
        return digits, readout_of((probabilities.reshape(rows, 1, grid * grid) @ values).reshape(rows, d), valid)
    return digits, readout_of(values.reshape(rows, d), valid) if readout else None


def lm_head(x, terms=None):
    """Final norm and LM head; the pointer's readout joins the state the head reads, its digit terms the digits' logits."""
    normed = ln(x, "decoder.norm")
    if not pointing:
        return normed @ w["head.weight"] + w["head.bias"]
    digits, read = terms(normed)
    logits = (normed if read is None else normed + read) @ w["head.weight"] + w["head.bias"]
    return logits.index_add(1, digit_ids, digits)


def loss_fn():
    x, states = embed(tokens.reshape(-1), torch.arange(T).repeat(B), slots, patches)
    for layer in range(config["decoderLayers"]):
        x = block(x, f"decoder.{layer}", B, T, causal)[0]
    logits = lm_head(x, lambda normed: pointer_terms(normed, states, pointer, B, T))
    logp = logits.reshape(B, T, -1)[:, :-1].log_softmax(-1)
    picked = logp.gather(-1, tokens[:, 1:].unsqueeze(-1)).squeeze(-1)
    m = mask[:, 1:]
    return -(picked * m).sum() / m.sum().clamp(min=1)


params = [p for name, p in weights.items() if not name.startswith("value.")]
optimizer = torch.optim.Adam(params, lr=spec["learningRate"], eps=1e-8)


def step():
    optimizer.zero_grad()
    loss = loss_fn()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    optimizer.step()
    return loss.item()


def openblas_settings(path):
    """OpenBLAS's kernel set (its name for the core it tuned for) and its thread count, or None for
    another BLAS: a CPU newer than the OpenBLAS release falls back to a generic core (Prescott)."""
    try:
        library = ctypes.CDLL(path)
        library.openblas_get_corename.restype = ctypes.c_char_p
        return {"core": library.openblas_get_corename().decode(), "threads": library.openblas_get_num_threads()}
    except (OSError, AttributeError):
        return None


BLAS_PATH = os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3")
info = {
    "torch": torch.__version__,
    "threads": torch.get_num_threads(),
    # Debian's torch calls libblas.so.3, which the alternatives system points at OpenBLAS or the reference BLAS.
    "blas": BLAS_PATH,
    "openblas": openblas_settings(BLAS_PATH),
    "tokens": B * T,
}
generation = None


def load_generation():
    """generate.json (the prompts as our model.generate prepares them: left-padded to the longest,
    positions counted from each row's first real token, -1e9 on padded keys, image slots and
    patches) and generate-weights.bin: the weights our model holds when it generates. Ours, not
    this peer's after its own training steps: Adam turns float-rounding differences of near-zero
    gradients into weight differences up to the learning rate, enough to flip near-tied greedy
    picks, while the point here is the speed of the same decode on the same weights."""
    global w
    spec = json.load(open(f"{folder}/generate.json"))
    raw = np.fromfile(f"{folder}/generate-weights.bin", dtype=np.float32)
    w = {entry["name"]: torch.tensor(raw[entry["offset"]:entry["offset"] + int(np.prod(entry["shape"]))].reshape(entry["shape"])) for entry in spec["weights"]}
    prompts, length = len(spec["lengths"]), len(spec["tokens"][0])
    return {
        **spec,
        "prompts": prompts,
        "length": length,
        "tokens": torch.tensor(spec["tokens"], dtype=torch.long).reshape(-1),
        "positions": torch.tensor(spec["positions"], dtype=torch.long).reshape(-1),
        "slots": torch.tensor(spec["slots"], dtype=torch.long),
        "patches": torch.tensor(spec["patches"], dtype=torch.float32).reshape(-1, config["patchSize"] ** 2 * 3),
        # [prompts, 1, length, length]: causal and padded keys, as our forward adds them.
        "bias": torch.triu(torch.full((length, length), -1e9), diagonal=1) + torch.tensor(spec["keyBias"], dtype=torch.float32).reshape(prompts, 1, 1, length),
        "banned": torch.tensor(spec["bannedIds"], dtype=torch.long),
        "pointer": pointer_inputs(spec),
    }


def generate(max_tokens):
    """Greedy decode of every prompt's n rows with a KV cache, as our generate does it: prefill the
    prompts once and repeat each row's cache n times; per step, feed each row its last token at its
    next position, pick the most likely non-banned id; a row ends at <|end|> (kept) or its limit;
    finished rows are fed padding until a quarter of the rows have finished, then dropped in one go."""
    g, n, vocabulary = generation, generation["n"], config["vocabularySize"]
    P, L, layers = g["prompts"], g["length"], range(config["decoderLayers"])
    start = time.perf_counter()
    with torch.inference_mode():
        x, states = embed(g["tokens"], g["positions"], g["slots"], g["patches"])
        caches = []
        for layer in layers:
            x, k, v = block(x, f"decoder.{layer}", P, L, g["bias"])
            caches.append((k.repeat_interleave(n, 0), v.repeat_interleave(n, 0)))
        if pointing:
            # The pointer's terms read every position (as our prefill does); the last one's logits are kept.
            logits = lm_head(x, lambda normed: pointer_terms(normed, states, g["pointer"], P, L)).reshape(P, L, -1)[:, -1]
            pointed = each_row(pointer_cache(states, g["pointer"], P), lambda t: t.repeat_interleave(n, 0))
        else:
            logits = lm_head(x.reshape(P, L, d)[:, -1])
        logits = logits.repeat_interleave(n, 0)
        key_bias = torch.tensor(g["keyBias"], dtype=torch.float32).reshape(P, L).repeat_interleave(n, 0)
        prefill_seconds = time.perf_counter() - start
        prompt_lengths = [length for length in g["lengths"] for _ in range(n)]
        limits = [max(0, min(max_tokens, config["maxSequenceLength"] - length)) for length in prompt_lengths]
        samples = [[] for _ in prompt_lengths]
        # The sample each cache row decodes, or -1 once it finished.
        active = [sample for sample, limit in enumerate(limits) if limit > 0]
        logits = logits[active]
        caches = [(k[active], v[active]) for k, v in caches]
        key_bias = key_bias[active]
        if pointing:
            pointed = each_row(pointed, lambda t: t[active])
        while True:
            logits[:, g["banned"]] = -math.inf
            picked = logits.argmax(-1).tolist()
            for row, sample in enumerate(active):
                if sample < 0:
                    continue
                samples[sample].append(picked[row])
                if picked[row] == g["endId"] or len(samples[sample]) >= limits[sample]:
                    active[row] = -1
            keep = [row for row, sample in enumerate(active) if sample >= 0]
            if not keep:
                break
            if len(active) - len(keep) >= max(1, len(active) / 4):
                index = torch.tensor(keep)
                active = [active[row] for row in keep]
                caches = [(k.index_select(0, index), v.index_select(0, index)) for k, v in caches]
                key_bias = key_bias.index_select(0, index)
                if pointing:
                    pointed = each_row(pointed, lambda t: t.index_select(0, index))
            R = len(active)
            fed = torch.tensor([samples[sample][-1] if sample >= 0 else g["padId"] for sample in active])
            position = torch.tensor([prompt_lengths[sample] + len(samples[sample]) - 1 if sample >= 0 else 0 for sample in active])
            key_bias = torch.cat([key_bias, torch.zeros(R, 1)], 1)
            x = w["token.embedding"][fed] + w["position.embedding"][position]
            bias = key_bias.reshape(R, 1, 1, -1)
            for layer in layers:
                x, k, v = block(x, f"decoder.{layer}", R, 1, bias, caches[layer])
                caches[layer] = (k, v)
            logits = lm_head(x, lambda normed: pointer_step_terms(normed, pointed))
    seconds = time.perf_counter() - start
    produced = sum(len(sample) for sample in samples)
    return {"rows": len(samples), "tokens": produced, "seconds": seconds, "prefillSeconds": prefill_seconds, "tokensPerSecond": produced / seconds, "samples": samples}


for line in sys.stdin:
    command = line.split()
    if command[:1] == ["step"]:
        start = time.perf_counter()
        loss = step()
        print(json.dumps({**info, "loss": loss, "seconds": time.perf_counter() - start}), flush=True)
    elif command[:1] == ["matmul"]:
        # The products alone at one of the model's shapes (the same two threads as its steps).
        m, k, n, repeats = (int(value) for value in command[1:5])
        a, b = torch.randn(m, k), torch.randn(k, n)
        for _ in range(3):
            a @ b
        start = time.perf_counter()
        for _ in range(repeats):
            a @ b
        print(json.dumps({"seconds": (time.perf_counter() - start) / repeats}), flush=True)
    elif command[:1] == ["generate"]:
        # Loading is not timed; training is over once generation starts (the weights are replaced).
        generation = generation or load_generation()
        print(json.dumps(generate(int(command[1]) if len(command) > 1 else 48)), flush=True)
    else:
        break
