"""VAGEN's BatchEnvClient calls (vagen/server/client.py), sent with the standard library.

Each call sends what BatchEnvClient._make_request sends through `requests.post(url, headers=
{"Content-Type": "application/json"}, json=data)`: a new connection per call, the body as
json.dumps(data) in UTF-8, requests' default headers. Prints one JSON object of what came back.
Usage: python3 vagen_batch_client.py BASE_URL
"""
import json
import sys
import urllib.request

BASE_URL = sys.argv[1].rstrip("/")


def make_request(endpoint, method="POST", data=None):
    body = None if data is None else json.dumps(data, allow_nan=False).encode("utf-8")
    request = urllib.request.Request(
        f"{BASE_URL}/{endpoint}",
        data=body,
        method=method,
        headers={
            "Content-Type": "application/json",
            "User-Agent": "python-requests/2.32.3",
            "Accept-Encoding": "gzip, deflate",
            "Accept": "*/*",
            "Connection": "keep-alive",
        },
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read().decode("utf-8"))


def image_count(observation):
    return sum(len(images) for images in observation.get("multi_modal_data", {}).values())


report = {}
report["health"] = make_request("health", method="GET")["status"]

# VAGEN's rollout manager: {id: {"env_name", "env_config", "seed"}} (rollout_manager_service.reset).
config = {
    "render_mode": "vision",
    "max_actions_per_step": 3,
    "action_sep": ",",
    "prompt_format": "grounding_symbolic",
    "format_reward": 0.5,
    "is_slippery": False,
    "desc": ["SFFF", "FFFF", "FFFF", "FFFG"],
}
ids2configs = {
    "fl-0": {"env_name": "frozenlake", "env_config": config, "seed": 0},
    "fl-1": {"env_name": "frozenlake", "env_config": config, "seed": 1},
}
report["create"] = make_request("environments", "POST", {"ids2configs": ids2configs})

prompts = make_request("batch/system_prompt", "POST", {"env_ids": ["fl-0", "fl-1"]})["system_prompts"]
report["system_prompt_last_line"] = prompts["fl-0"].splitlines()[-1]

reset = make_request("batch/reset", "POST", {"ids2seeds": {"fl-0": 0, "fl-1": 1}})["results"]
report["reset"] = {env_id: {"images": image_count(obs), "info_keys": sorted(info)} for env_id, (obs, info) in reset.items()}

answer = lambda actions: "<think><observation>P___\n____\n____\n___G</observation><reasoning>go</reasoning></think><answer>" + ",".join(actions) + "</answer>"
turns = [
    {"fl-0": answer(["Down", "Down", "Down"]), "fl-1": answer(["Right", "Right", "Right"])},
    {"fl-0": answer(["Right", "Right", "Right"]), "fl-1": answer(["Down", "Down", "Down"])},
    # Both episodes are over: VAGEN's service answers each id in its own result; "ghost" was never made.
    {"fl-0": answer(["Up"]), "ghost": answer(["Up"])},
]
report["steps"] = []
for ids2actions in turns:
    results = make_request("batch/step", "POST", {"ids2actions": ids2actions})["results"]
    report["steps"].append({
        env_id: {
            "reward": reward,
            "done": done,
            "images": image_count(obs),
            "obs_str": obs["obs_str"] if not obs.get("multi_modal_data") else None,
            "error": info.get("error"),
            "llm_raw_response_matches": info.get("llm_raw_response") == ids2actions[env_id],
            "metrics": info["metrics"],
        }
        for env_id, (obs, reward, done, info) in sorted(results.items())
    })

report["rewards"] = make_request("batch/reward", "POST", {"env_ids": ["fl-0", "fl-1"]})["rewards"]
report["close"] = make_request("batch/close", "POST", {"env_ids": ["fl-0", "fl-1"]})
report["active_after_close"] = make_request("health", method="GET")["active_environments"]
print(json.dumps(report, sort_keys=True))
