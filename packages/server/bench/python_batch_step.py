"""Batch step latency of a Python client over loopback, in the ways Python clients send.

Usage: python3 python_batch_step.py BASE_URL ENVS BATCHES PREFIX
Prints one JSON object: p50/p99 ms per variant, and the server-side share of each call.
Variants: a new connection per call (what requests.post does, and urllib), a kept-alive
http.client connection with the default socket (Nagle on) and with TCP_NODELAY (what urllib3 sets).
"""
import http.client
import json
import socket
import sys
import time
import urllib.parse
import urllib.request

BASE_URL, ENVS, BATCHES, PREFIX = sys.argv[1].rstrip("/"), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
parsed = urllib.parse.urlparse(BASE_URL)
HEADERS = {"Content-Type": "application/json", "Accept": "*/*", "Accept-Encoding": "gzip, deflate"}
ACTIONS = ["<think>x</think><answer>Left</answer>", "<think>x</think><answer>Up</answer>", "<think>x</think><answer>Right</answer>"]
ids = [f"{PREFIX}-{index}" for index in range(ENVS)]


def fresh_connection(path, payload):
    request = urllib.request.Request(BASE_URL + path, data=json.dumps(payload).encode("utf-8"), method="POST", headers=HEADERS)
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


class KeptAlive:
    def __init__(self, nodelay):
        self.connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
        self.connection.connect()
        if nodelay:
            self.connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def __call__(self, path, payload):
        self.connection.request("POST", path, body=json.dumps(payload).encode("utf-8"), headers=HEADERS)
        return json.loads(self.connection.getresponse().read())


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def run(send):
    latencies = []
    for batch in range(BATCHES):
        body = {"ids2actions": {env_id: ACTIONS[(batch + index) % len(ACTIONS)] for index, env_id in enumerate(ids)}}
        begun = time.perf_counter()
        results = send("/batch/step", body)["results"]
        latencies.append((time.perf_counter() - begun) * 1000)
        done = [env_id for env_id in ids if results[env_id][2]]
        if done:
            send("/batch/reset", {"ids2seeds": {env_id: index + batch * ENVS for index, env_id in enumerate(done)}})
    return {"p50Ms": round(percentile(latencies, 50), 2), "p99Ms": round(percentile(latencies, 99), 2)}


fresh_connection("/environments", {"ids2configs": {env_id: {"env_name": "frozenlake", "env_config": {"render_mode": "vision"}} for env_id in ids}})
fresh_connection("/batch/reset", {"ids2seeds": {env_id: index for index, env_id in enumerate(ids)}})
report = {
    "newConnectionPerCall": run(fresh_connection),
    "keepAliveNagle": run(KeptAlive(False)),
    "keepAliveNoDelay": run(KeptAlive(True)),
}
fresh_connection("/batch/close", {"env_ids": ids})
print(json.dumps(report))
