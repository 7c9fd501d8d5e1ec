"""PyTorch peer of @saccade/models' architecture, for bench.mjs: same weights, same batch, same
loss. Reads one command a line on stdin ("step" or "quit") so that bench.mjs can interleave its
steps with ours on a shared machine; answers each step with a JSON line {loss, seconds, ...}."""
import json, math, os, sys, time
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


def block(x, p, batch, length, bias):
    h = ln(x, f"{p}.norm1")
    q, k, v = (h @ w[f"{p}.attention.qkv.weight"] + w[f"{p}.attention.qkv.bias"]).split(d, dim=-1)
    split = lambda t: t.reshape(batch, length, heads, d // heads).transpose(1, 2)
    scores = split(q * (1 / math.sqrt(d // heads))) @ split(k).transpose(-1, -2)
    if bias is not None:
        scores = scores + bias
    context = (scores.softmax(-1) @ split(v)).transpose(1, 2).reshape(batch * length, d)
    x = x + context @ w[f"{p}.attention.output.weight"] + w[f"{p}.attention.output.bias"]
    h = ln(x, f"{p}.norm2")
    h = F.gelu(h @ w[f"{p}.mlp.up.weight"] + w[f"{p}.mlp.up.bias"], approximate="tanh")
    return x + h @ w[f"{p}.mlp.down.weight"] + w[f"{p}.mlp.down.bias"]


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


def loss_fn():
    per = grid * grid
    n = patches.shape[0] // per
    x = ln(patches @ w["image.patch.weight"] + w["image.patch.bias"], "image.patchNorm")
    x = (x.reshape(n, per, d) + w["image.row"][rows] + w["image.column"][cols]).reshape(n * per, d)
    for layer in range(config["encoderLayers"]):
        x = block(x, f"encoder.{layer}", n, per, None)
    features = ln(x, "image.outputNorm")
    if grid_layers > 0:
        features = grid_propagation(features, n)
    table = torch.cat([torch.zeros(1, d), features], 0)
    positions = torch.arange(T).repeat(B)
    x = w["token.embedding"][tokens.reshape(-1)] + w["position.embedding"][positions] + table[slots]
    for layer in range(config["decoderLayers"]):
        x = block(x, f"decoder.{layer}", B, T, causal)
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


info = {
    "torch": torch.__version__,
    "threads": torch.get_num_threads(),
    # Debian's torch calls libblas.so.3, which the alternatives system points at OpenBLAS or the reference BLAS.
    "blas": os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3"),
    "tokens": B * T,
}
for line in sys.stdin:
    if line.strip() != "step":
        break
    start = time.perf_counter()
    loss = step()
    print(json.dumps({**info, "loss": loss, "seconds": time.perf_counter() - start}), flush=True)
