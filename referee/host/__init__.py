"""What the host runs: publishing, watching, replay, status, history, export, checkup, init."""
