"""A sampler: a command run every interval for a bounded time, each sample headed '@ <unix time>'.
bash's own clock ($EPOCHREALTIME) and wait (`read -t`) keep it to one process per sample, which
matters in a TCG guest, where every fork costs tens of milliseconds.

It waits by reading its stdin, which nobody writes to: when the harness closes it, the read ends
at once (status 1, where a timeout is > 128) and so does the sampler, after one last sample where
asked. A signal is the fallback."""
import shlex
from collections.abc import Sequence

# Not SIGINT: a bash script that gets SIGINT while a command of its runs waits for that command, and
# when the command did not die of it, goes on (bash's "wait and cooperative exit"). SIGTERM ends it.
STOP_SIGNAL = "TERM"


def every_in_namespaces(interval_s: float, duration_s: float, command: str, namespaces: Sequence[tuple[str, str | None]],
                        name: str, once_more_at_stop: bool = False) -> list[str]:
    """every() of a command run in each of several network namespaces of one container
    (namespaces: [(tag, the file of its network namespace or None), ...]): each one's samples
    headed '<tag>\t@ <unix time>' and its lines '<tag>\t<line>' (the run writes each tag's
    lines to that namespace's file, as it does a probe group's)."""
    sample = "; ".join(["nl=$'\\n'"] + [_sample_one(tag, netns_file, command) for tag, netns_file in namespaces])
    return every(interval_s, duration_s, sample, name, stamp=False, once_more_at_stop=once_more_at_stop)


def _sample_one(tag: str, netns_file: str | None, command: str) -> str:
    enter = f"nsenter --net={shlex.quote(netns_file)} -- " if netns_file else ""
    # stamped before the command runs; every line of its output gets the tag (bash's own replacement, no fork)
    return (f"tag={shlex.quote(tag)}$'\\t'; printf '%s@ %s\\n' \"$tag\" \"$EPOCHREALTIME\"; "
            f"out=$({enter}{command}); [[ -z $out ]] || printf '%s%s\\n' \"$tag\" \"${{out//$nl/$nl$tag}}\"")


def every(interval_s: float, duration_s: float, sample: str, name: str, stamp: bool = True,
          once_more_at_stop: bool = False) -> list[str]:
    """stamp=False: the sample stamps its own output; once_more_at_stop: a closed stdin gets one
    last sample before the end (what the run's stop found, not what was there up to half an
    interval before it)."""
    samples = int(duration_s / interval_s) + 1
    header = 'echo "@ $EPOCHREALTIME"; ' if stamp else ""
    last = f"{header}{sample}; " if once_more_at_stop else ""
    script = (f"# {name}\n"
              f"for ((i = 0; i < {samples}; i++)); do {header}{sample}; "
              f"read -r -t {interval_s:g}; (( $? > 128 )) || {{ {last}break; }}; done")
    return ["bash", "-c", script]
