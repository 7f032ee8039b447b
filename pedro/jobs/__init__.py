"""The one service every front end runs a job through (service), and what it needs around a run.

`pedro build`, `debug`, `review` and `triage`, an interactive session and `pedro mcp`'s tools all hand a JobSpec and
a JobHooks to service.run_job, which opens the job (new, or resumed) in its record (pedro.jobstore), assembles the
agent, runs it within one Deadline, and settles what it leaves (settle: the job's commit and branch). tasks builds
each role's task variables from what was asked; facts reads a recorded job back (its snapshots, changes and diff).
"""
