"""Safety: path confinement, policy, sandbox, snapshots and secret redaction."""
