"""Jobs: the record of each run (store), and the one service every front end runs a job through (service).

`pedro build`, `debug`, `review` and `triage`, an interactive session, `pedro mcp`'s tools and `pedro serve` all
hand a JobSpec and a JobHooks to service.run_job, which opens the job (new, or resumed), assembles the agent, runs
it within one Deadline, and settles what it leaves (settle: the job's commit and branch). tasks builds each role's
task variables from what was asked; facts reads a recorded job back (its snapshots, changed files and diff).
"""

from pedro.jobs.store import Job, JobStore

__all__ = ["Job", "JobStore"]
