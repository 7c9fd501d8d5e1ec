#!/bin/sh
# verl-tool's trainer against Saccade's tool service (pixel-reasoner tool names), on the GPU node.
# On a CPU node first:  saccade serve tools --port 5500 --host 0.0.0.0
TOOL_HOST=${TOOL_HOST:-cpu-node-1}
python -m verl_tool.trainer.main_ppo \
  data.train_files=data/pixel_reasoner/train.parquet \
  data.val_files=data/pixel_reasoner/val.parquet \
  actor_rollout_ref.model.path=Qwen/Qwen2.5-VL-7B-Instruct \
  actor_rollout_ref.rollout.name=vllm \
  actor_rollout_ref.agent.tool_server_url=http://$TOOL_HOST:5500/get_observation \
  actor_rollout_ref.agent.action_stop_tokens=./action_stop_tokens.txt \
  actor_rollout_ref.agent.max_turns=4 \
  actor_rollout_ref.agent.enable_mtrl=True \
  custom_reward_function.path=$(pwd)/saccade_reward.py \
  custom_reward_function.name=compute_score \
  trainer.n_gpus_per_node=8 trainer.nnodes=1
