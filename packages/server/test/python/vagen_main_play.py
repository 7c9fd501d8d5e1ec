"""Plays episodes through VAGEN main's GymImageEnvClient (vagen_main/, the fetched files, unchanged).

Usage: python3 vagen_main_play.py PLAN.json
PLAN: {"base_urls": str | [str], "token"?: str, "episodes": [{"env_config": {...}, "seed": int,
"actions": [str], "reset_again"?: bool}]}. Each episode is one client, as VAGEN's agent loop uses
it: reset(seed) (which connects), system_prompt(), step(action) for each action, close(). With
reset_again the client resets a second time on the same session (the /call reset path) and plays
the actions again. Prints one JSON object: what the client returned, each image as its size, mode
and the SHA-256 of its RGBA pixels, or {"error": "..."} for an episode whose client raised.
"""
import asyncio
import hashlib
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "vagen_main"))

from vagen.envs_remote.gym_image_env_client import GymImageEnvClient  # noqa: E402


def images_of(obs):
    images = obs.get("multi_modal_input", {}).get("<image>", [])
    return [{"size": list(image.size), "mode": image.mode, "sha256": hashlib.sha256(image.tobytes()).hexdigest()} for image in images]


def observation(obs):
    return {"obs_str": obs["obs_str"], "images": images_of(obs)}


async def play_actions(env, actions):
    steps = []
    for action in actions:
        obs, reward, done, info = await env.step(action)
        steps.append({**observation(obs), "reward": reward, "done": done, "info": info})
    return steps


async def play(plan, episode):
    config = {"base_urls": plan["base_urls"], "timeout": 60, "retries": plan.get("retries", 0), "backoff": 0.05, "log_retries": False, **episode["env_config"]}
    if "token" in plan:
        config["token"] = plan["token"]
    env = GymImageEnvClient(config)
    try:
        obs, info = await env.reset(seed=episode["seed"])
        report = {"reset": {**observation(obs), "info": info}}
        report["system_prompt"] = (await env.system_prompt())["obs_str"]
        report["steps"] = await play_actions(env, episode["actions"])
        if episode.get("reset_again"):
            obs, info = await env.reset(seed=episode["seed"])
            report["reset_again"] = {**observation(obs), "info": info}
            report["steps_again"] = await play_actions(env, episode["actions"])
        return report
    except Exception as error:  # the report says what the client raised
        return {"error": f"{type(error).__name__}: {error}"}
    finally:
        await env.close()


async def main():
    with open(sys.argv[1]) as file:
        plan = json.load(file)
    reports = await asyncio.gather(*(play(plan, episode) for episode in plan["episodes"]))
    print(json.dumps({"episodes": reports}))


asyncio.run(main())
