"""A sampler: a command run every interval for a bounded time, each sample headed '@ <unix time>'.
bash's own clock ($EPOCHREALTIME) and wait (`read -t`) keep it to one process per sample, which
matters in a TCG guest, where every fork costs tens of milliseconds.

It waits by reading its stdin, which nobody writes to: when the harness closes it, the read ends
at once (status 1, where a timeout is > 128) and so does the sampler. A signal is the fallback."""

# Not SIGINT: a bash script that gets SIGINT while a command of its runs waits for that command, and
# when the command did not die of it, goes on (bash's "wait and cooperative exit"). SIGTERM ends it.
STOP_SIGNAL = "TERM"


def every(interval_s, duration_s, sample, name, stamp=True):
    """stamp=False: the sample stamps its own output."""
    samples = int(duration_s / interval_s) + 1
    header = 'echo "@ $EPOCHREALTIME"; ' if stamp else ""
    script = (f"# {name}\n"
              f"for ((i = 0; i < {samples}; i++)); do {header}{sample}; "
              f"read -r -t {interval_s:g}; (( $? > 128 )) || break; done")
    return ["bash", "-c", script]
