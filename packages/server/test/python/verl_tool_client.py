"""verl-tool's agent loop calls (verl_tool/agent_loop/verltool_agent_loop.py), sent with the standard library.

interact_with_tool_server posts {"trajectory_ids", "actions", "finish", "is_last_step", "extra_fields"}
with one trajectory per request (aiohttp's json=payload); the episode's images ride in
extra_fields[0]["images"] as data URLs next to the row's extra_info; the closing call sends
finish [true] with an empty action. Prints one JSON object of what came back.
Usage: python3 verl_tool_client.py BASE_URL IMAGE_DATA_URL
"""
import json
import sys
import urllib.request

BASE_URL = sys.argv[1].rstrip("/")
IMAGE = sys.argv[2]


def post(payload):
    request = urllib.request.Request(
        f"{BASE_URL}/get_observation",
        data=json.dumps(payload).encode("utf-8"),
        method="POST",
        headers={"Content-Type": "application/json", "Accept": "*/*", "Accept-Encoding": "gzip, deflate"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read().decode("utf-8"))


def summary(response):
    observation = response["observations"][0]
    if isinstance(observation, dict):
        images = observation["image"] if isinstance(observation["image"], list) else [observation["image"]]
        observation = {"obs": observation["obs"], "images": [image.split(",")[0] for image in images]}
    return {"observation": observation, "done": response["dones"][0], "valid": response["valids"][0]}


extra_fields = {"index": 0, "split": "train", "images": [IMAGE]}
crop = '<think>The sign is small.</think>\n<tool_call>\n{"name": "crop_image", "arguments": {"bbox_2d": [0.5, 0.2, 0.9, 0.8], "target_image": 1}}\n</tool_call>'
again = '<tool_call>\n{"name": "crop_image", "arguments": {"bbox_2d": [0, 0, 10, 10], "target_image": 5}}\n</tool_call>'
report = {"turns": []}
for action in [crop, again]:
    report["turns"].append(summary(post({"trajectory_ids": ["traj-0"], "actions": [action], "finish": [False], "is_last_step": [False], "extra_fields": [extra_fields]})))
report["finish"] = summary(post({"trajectory_ids": ["traj-0"], "actions": [""], "finish": [True], "is_last_step": [True]}))
print(json.dumps(report, sort_keys=True))
