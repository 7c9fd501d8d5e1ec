"""Calls python/saccade_reward.py as verl's reward managers do (verl/workers/reward_manager):
naive: compute_score(data_source=, solution_str=, ground_truth=, extra_info=) once per response,
with extra_info["num_turns"] and ["rollout_reward_scores"] added; batch: compute_score_batch(
data_sources=, solution_strs=, ground_truths=, extra_infos=). Prints the scores as JSON.
Usage: SACCADE_REWARD_URL=... python3 verl_reward_client.py PATH_TO_saccade_reward.py
"""
import importlib.util
import json
import sys

spec = importlib.util.spec_from_file_location("saccade_reward", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)

rows = [
    # As `saccade data export verl` writes them: ground truth, and the target as JSON in extra_info.
    ("ChartQA", "The bars add up. <answer>45%</answer>", "0.45", {"split": "train", "index": 0, "answer_type": "numeric", "target": json.dumps({"answer": "0.45"})}),
    ("AI2D", "## FINAL_ANSWER: B", "B", {"split": "train", "index": 1, "answer_type": "multiple-choice", "target": json.dumps({"answer": "the sun", "choices": ["the moon", "the sun", "a cloud"]})}),
    ("ChartQA", "I think it is 50.", "0.45", {"split": "train", "index": 2, "answer_type": "numeric", "target": json.dumps({"answer": "0.45"})}),
    ("my-dataset", "<answer>7</answer>", "7", {"answer_type": "numeric"}),
]
naive = []
for data_source, solution_str, ground_truth, extra_info in rows:
    extra_info = dict(extra_info, num_turns=None, rollout_reward_scores={})
    naive.append(module.compute_score(data_source=data_source, solution_str=solution_str, ground_truth=ground_truth, extra_info=extra_info))
batch = module.compute_score_batch(
    data_sources=[row[0] for row in rows],
    solution_strs=[row[1] for row in rows],
    ground_truths=[row[2] for row in rows],
    extra_infos=[dict(row[3], rollout_reward_scores={}) for row in rows],
)
try:
    module.compute_score(data_source="nowhere", solution_str="<answer>1</answer>", ground_truth="1", extra_info={})
    refused = None
except RuntimeError as error:
    refused = str(error)
print(json.dumps({"naive": naive, "batch": batch, "refused": refused}))
