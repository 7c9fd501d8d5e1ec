"""VAGEN main's GymService and BaseGymHandler (the fixture files, unchanged) around an env written
here: a stand-in for VAGEN's Navigation, text and one image a step.

Usage: python3 line_walk_service.py [API_KEY]
Prints "listening on http://127.0.0.1:PORT", then serves until it is killed.

LineWalk: the agent is the red cell of a line of `length` cells (default 7) and walks to the green
one, `<answer>Left</answer>` or `<answer>Right</answer>` a turn. Reward 1 and done on arrival, 0 for
another move, -0.1 for a response without a move; done after `max_steps` moves (default 20).
"""
import asyncio
import os
import random
import re
import socket
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "server", "test", "python", "vagen_main"))

import uvicorn  # noqa: E402
from PIL import Image  # noqa: E402

from vagen.envs.gym_image_env import GymImageEnv  # noqa: E402
from vagen.envs_remote import BaseGymHandler, GymService  # noqa: E402


class LineWalk(GymImageEnv):
    def __init__(self, env_config):
        super().__init__(env_config)
        self.length = int(env_config.get("length", 7))
        self.max_steps = int(env_config.get("max_steps", 20))
        self.position = self.target = self.steps = 0

    async def system_prompt(self):
        return {"obs_str": f"You are the red cell on a line of {self.length} cells; walk to the green cell. Answer <answer>Left</answer> or <answer>Right</answer>."}

    async def reset(self, seed):
        rng = random.Random(seed)
        self.position = rng.randrange(self.length)
        self.target = (self.position + rng.randrange(1, self.length)) % self.length
        self.steps = 0
        return self._obs(f"You are at cell {self.position}."), {"target": self.target}

    async def step(self, action_str):
        match = re.search(r"<answer>\s*(left|right)", action_str, re.IGNORECASE)
        if match is None:
            info = {"success": False, "metrics": {"turn_metrics": {"action_is_valid": False}, "traj_metrics": {"success": False}}}
            return self._obs("Expected <answer>Left</answer> or <answer>Right</answer>."), -0.1, False, info
        move = -1 if match.group(1).lower() == "left" else 1
        self.position = min(self.length - 1, max(0, self.position + move))
        self.steps += 1
        success = self.position == self.target
        info = {"success": success, "metrics": {"turn_metrics": {"action_is_valid": True}, "traj_metrics": {"success": success}}}
        return self._obs(f"You are at cell {self.position}."), 1.0 if success else 0.0, success or self.steps >= self.max_steps, info

    async def close(self):
        pass

    def _obs(self, text):
        image = Image.new("RGB", (8 * self.length, 8), (255, 255, 255))
        for x in range(8):
            for y in range(8):
                image.putpixel((8 * self.target + x, y), (0, 160, 0))
                image.putpixel((8 * self.position + x, y), (220, 0, 0))
        return {"obs_str": f"{text} <image>", "multi_modal_input": {"<image>": [image]}}


class LineWalkHandler(BaseGymHandler):
    async def create_env(self, env_config):
        if env_config.get("env_name") != "line_walk":
            raise ValueError(f"unknown env_name {env_config.get('env_name')!r}: this server serves line_walk")
        return LineWalk(env_config)


async def main():
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # argv: [api_key] [port]; port 0 (the default) takes a free one. A fixed port lets a test restart a killed server where its clients look.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", int(sys.argv[2]) if len(sys.argv) > 2 else 0))
    app = GymService(LineWalkHandler(), api_key=sys.argv[1] if len(sys.argv) > 1 else "").build()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
    await server.serve(sockets=[sock])


asyncio.run(main())
