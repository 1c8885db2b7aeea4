"""A sampler: a command run every interval for a bounded time, each sample headed '@ <unix time>'.
bash's own clock ($EPOCHREALTIME) and wait (`read -t`) keep it to one process per sample, which
matters in a TCG guest, where every fork costs tens of milliseconds."""


def every(interval_s, duration_s, sample, name):
    samples = int(duration_s / interval_s) + 1
    script = (f"# {name}\n"
              "exec 3<> <(:)\n"              # a pipe nobody writes to: `read -t` on it is a sleep
              f"for ((i = 0; i < {samples}; i++)); do echo \"@ $EPOCHREALTIME\"; {sample}; "
              f"read -t {interval_s:g} -u 3; done")
    return ["bash", "-c", script]
