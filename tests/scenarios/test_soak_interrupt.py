"""Four runs, each interrupted at a random moment (make soak-interrupt does twenty)."""
import io
import random

from harness import soak


def test_runs_interrupted_at_random_moments_all_end_cleanly():
    seed = random.SystemRandom().randrange(10**6)
    print(f"seed {seed} (replay: make soak-interrupt RUNS=4 SEED={seed})")
    out = io.StringIO()
    results = soak.soak(4, seed, out)
    print(out.getvalue())
    assert all(r["ok"] for r in results), out.getvalue()
