"""The loop every role runs: assembly builds an Agent for a role and a job (the backend, the tools behind the
dispatcher, the snapshot guard, the window); agent runs its rounds, asking the model (pedro.modelcall), cutting each
reply where a call ends (cutreply) and feeding the results back; context renders what the model reads, window and
compaction keep it within the model's context, and endings decides when a run is over and why, a completion claim
counting only once the evidence (pedro.evidence) holds.
"""
