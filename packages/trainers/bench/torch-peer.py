"""PyTorch peer of @saccade/models' architecture, for bench.mjs: same weights, same batch, same
loss, and the same KV-cached generation. Reads one command a line on stdin ("step", "generate N",
"matmul M K N REPEATS" or "quit") so that bench.mjs can interleave its steps and generations with ours on a shared
machine; answers each with a JSON line ({loss, seconds, ...} or {rows, tokens, seconds, ...})."""
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
unsupported = [key for key in ("stem", "readout") if vision.get(key)] + (["pointer"] if vision.get("pointer") else []) + (["spatialMerge"] if vision.get("spatialMerge", 1) != 1 else [])
if unsupported:
    sys.exit(f"torch-peer.py: the peer does not implement vision.{', vision.'.join(unsupported)}; bench a config without them")

tokens = torch.tensor(spec["tokens"], dtype=torch.long)
B, T = tokens.shape
slots = torch.tensor(spec["slots"], dtype=torch.long)
patches = torch.tensor(spec["patches"], dtype=torch.float32).reshape(len(spec["patches"]) // (config["patchSize"] ** 2 * 3), -1)
mask = torch.tensor(spec["mask"], dtype=torch.float32)


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


def encode_images(patches):
    """Patch rows [images·patches, values] → image tokens [images·patches, d]."""
    per = grid * grid
    n = patches.shape[0] // per
    x = ln(patches @ w["image.patch.weight"] + w["image.patch.bias"], "image.patchNorm")
    x = (x.reshape(n, per, d) + w["image.row"][rows] + w["image.column"][cols]).reshape(n * per, d)
    for layer in range(config["encoderLayers"]):
        x = block(x, f"encoder.{layer}", n, per, None)[0]
    features = ln(x, "image.outputNorm")
    if grid_layers > 0:
        features = grid_propagation(features, n)
    return features


def loss_fn():
    table = torch.cat([torch.zeros(1, d), encode_images(patches)], 0)
    positions = torch.arange(T).repeat(B)
    x = w["token.embedding"][tokens.reshape(-1)] + w["position.embedding"][positions] + table[slots]
    for layer in range(config["decoderLayers"]):
        x = block(x, f"decoder.{layer}", B, T, causal)[0]
    logits = ln(x, "decoder.norm") @ w["head.weight"] + w["head.bias"]
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
        table = torch.cat([torch.zeros(1, d), encode_images(g["patches"])], 0)
        x = w["token.embedding"][g["tokens"]] + w["position.embedding"][g["positions"]] + table[g["slots"]]
        caches = []
        for layer in layers:
            x, k, v = block(x, f"decoder.{layer}", P, L, g["bias"])
            caches.append((k.repeat_interleave(n, 0), v.repeat_interleave(n, 0)))
        last = x.reshape(P, L, d)[:, -1]
        logits = (ln(last, "decoder.norm") @ w["head.weight"] + w["head.bias"]).repeat_interleave(n, 0)
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
            R = len(active)
            fed = torch.tensor([samples[sample][-1] if sample >= 0 else g["padId"] for sample in active])
            position = torch.tensor([prompt_lengths[sample] + len(samples[sample]) - 1 if sample >= 0 else 0 for sample in active])
            key_bias = torch.cat([key_bias, torch.zeros(R, 1)], 1)
            x = w["token.embedding"][fed] + w["position.embedding"][position]
            bias = key_bias.reshape(R, 1, 1, -1)
            for layer in layers:
                x, k, v = block(x, f"decoder.{layer}", R, 1, bias, caches[layer])
                caches[layer] = (k, v)
            logits = ln(x, "decoder.norm") @ w["head.weight"] + w["head.bias"]
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
