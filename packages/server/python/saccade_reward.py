"""verl's custom_reward_function over Saccade's answer checkers (`saccade serve reward`).

Standard library only. In a verl config:
    custom_reward_function.path=/path/to/saccade_reward.py
    custom_reward_function.name=compute_score          # one response per call (naive reward manager)
    # or name=compute_score_batch with reward_model.reward_manager=batch
The service address comes from SACCADE_REWARD_URL (default http://127.0.0.1:8002).
Rows written by `saccade data export verl` carry what the checkers need: data_source (the
dataset, which picks the checker), reward_model.ground_truth, extra_info.target and answer_type.
"""
import json
import os
import urllib.request

REWARD_URL = os.environ.get("SACCADE_REWARD_URL", "http://127.0.0.1:8002").rstrip("/")
TIMEOUT_S = float(os.environ.get("SACCADE_REWARD_TIMEOUT_S", "60"))


def _plain(value):
    """numpy scalars and arrays (what verl's non_tensor_batch holds) as JSON values."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _score(items):
    body = json.dumps({"items": items}).encode("utf-8")
    request = urllib.request.Request(f"{REWARD_URL}/score", data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            return json.loads(response.read().decode("utf-8"))["scores"]
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"saccade reward service at {REWARD_URL} refused the request ({error.code}): {error.read().decode('utf-8', 'replace')}") from None


def _item(data_source, solution_str, ground_truth, extra_info):
    return {"data_source": str(data_source), "solution_str": solution_str, "ground_truth": _plain(ground_truth), "extra_info": _plain(extra_info or {})}


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """The reward of one response: the checker's score (1.0 correct, 0.0 wrong or no answer)."""
    return _score([_item(data_source, solution_str, ground_truth, extra_info)])[0]["score"]


def compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos=None, **kwargs):
    """verl's batch reward manager: lists in, one score per response out, in one request."""
    extra_infos = extra_infos if extra_infos is not None else [None] * len(solution_strs)
    items = [_item(*entry) for entry in zip(data_sources, solution_strs, ground_truths, extra_infos)]
    return [result["score"] for result in _score(items)]


if __name__ == "__main__":
    # A self-check against a running service: python3 saccade_reward.py
    print(compute_score("ChartQA", "The bars add up. <answer>45%</answer>", "0.45", {"answer_type": "numeric"}))
