"""make workshop-check's verdicts and its screen (harness/workshop/check.py), without a lab: an
answer beside the committed one, a line of at most 80 columns per exercise, and what a machine
needs as this one reads it."""
from harness.measure import summary_record
from harness.workshop import check, exercises, record
from tests.unit.test_workshop_docs import summary_of


def test_a_run_is_new_agrees_or_differs_from_the_committed_answer():
    ex = next(e for e in exercises.all_exercises() if e.kernel == "host")
    committed = record.entry(ex, summary_record.read(summary_of(ex, 13.4, True)), {"where": {"where": "host"}}, 60.0)
    same = record.entry(ex, summary_record.read(summary_of(ex, 13.7, True)), {"where": {"where": "host"}}, 58.0)
    off = record.entry(ex, summary_record.read(summary_of(ex, 30.0, False)), {"where": {"where": "host"}}, 58.0)
    assert check.verdict(ex, same, {})[0] == "new"
    assert check.verdict(ex, same, {ex.number: committed}) == ("agrees", "the committed answer stands")
    word, detail = check.verdict(ex, off, {ex.number: committed})
    assert word == "DIFFERS" and "now 30.0 s" in detail


def test_every_line_of_the_screen_fits_80_columns():
    for ex in exercises.all_exercises():
        text = check.line(ex, 3725.0, "DIFFERS", "r3.detect: 6.6 s now 13.6 s; " * 5)
        assert len(text) <= 80 and text.startswith(f"{ex.number:>2}. ") and "62:05" in text
    detail = "small-nginx.statuses: 200×8, 504×32 now 200×8, 502×2, 504×30; " * 2
    lines = check.screen_lines(ex, 77.0, "DIFFERS", detail)
    assert len(lines) > 1 and all(len(text) <= 80 for text in lines)
    assert " ".join(text.strip() for text in lines[1:]) == detail.strip()     # what differs, whole
    assert check.screen_lines(ex, 77.0, "agrees", "the committed answer stands") == [
        check.line(ex, 77.0, "agrees", "the committed answer stands")]
    for text in check.needs(2 * 2 ** 20, "/nonexistent"):
        assert len(text) <= 80 and ("CPUs" in text or "images" in text)


class Terminal:
    def isatty(self):
        return True


def test_explain_on_an_80_column_terminal_reflows_its_paragraphs_and_leaves_its_tables(monkeypatch):
    import os
    from harness.cli.explain import to_terminal
    from harness.answer import explain
    monkeypatch.setattr("shutil.get_terminal_size", lambda fallback: os.terminal_size((80, 24)))
    text = explain.explain(explain.parse_knobs(["TCP_RETRIES2=5", "TCP_USER_TIMEOUT_MS=30000"]))
    shown = to_terminal(text, Terminal())
    assert max(map(len, shown.splitlines())) <= 80 < max(map(len, text.splitlines()))
    assert " ".join(shown.split()) == " ".join(text.split())             # the same words, in the same order
    table = [line for line in text.splitlines() if "RTO #1" in line]
    assert table and table[0] in shown.splitlines()                    # a table's row as it was
    assert to_terminal(text, open(os.devnull, "w")) == text            # into a file: as it is


def test_counts_with_no_model_agree_within_one_or_a_quarter_and_their_words_must_match():
    ex = next(e for e in exercises.all_exercises() if e.scenario == "backlog-overflow")
    key = next(f"{c}.{f}" for c, f in record.answers.placeholders(ex.teaches) if f == "statuses")
    committed = {"figures": {key: "200×8, 504×32"}, "verdicts": {}}
    assert record.differences(committed, {"figures": {key: "200×7, 504×33"}, "verdicts": {}}) == []
    assert record.differences(committed, {"figures": {key: "200×20, 504×20"}, "verdicts": {}})
    assert record.differences(committed, {"figures": {key: "200×8, 502×1, 504×31"}, "verdicts": {}})


def test_when_the_lb_noticed_agrees_by_its_model_and_a_stalls_tail_by_its_size():
    """Two 6.12 runs of exercises 11 and 12 on one machine: keepalived noticed 3.3-3.5 s, then
    4.8-5.0 s after the death (its model: 3.0-5.5 s), a median 12 ms, then 3 ms, beside a 1 s stall."""
    inside = {"r5": {"detect_s": 14.1, "within_window": True, "lb_within_model": True}}
    before = {"figures": {"r5.lb_noticed": "3.3–3.5 s", "r5.client_noticed": "10.7–10.8 s"}, "verdicts": inside}
    now = {"figures": {"r5.lb_noticed": "4.8–5.0 s", "r5.client_noticed": "8.8–9.1 s"}, "verdicts": inside}
    assert record.differences(before, now) == []
    outside = {"r5": {**inside["r5"], "lb_within_model": False}}
    assert {k for k, _, _ in record.differences(before, {**now, "verdicts": outside})} == {"r5.lb_noticed",
                                                                                           "r5.client_noticed"}
    late = {"r5": {**inside["r5"], "within_window": False}}
    assert [k for k, _, _ in record.differences(before, {**now, "verdicts": late})] == ["r5.client_noticed"]
    unrecorded = {"r5": {"detect_s": 14.1, "within_window": True}}        # an answer recorded before the rule
    assert record.differences({**before, "verdicts": unrecorded}, now)
    tail = {"figures": {"r5.connect_p50": "12 ms", "r5.connect_p99_9": "1088 ms"}, "verdicts": {}}
    assert record.differences(tail, {"figures": {"r5.connect_p50": "3 ms", "r5.connect_p99_9": "1009 ms"},
                                     "verdicts": {}}) == []
    assert [k for k, _, _ in record.differences(tail, {"figures": {"r5.connect_p50": "3 ms",
                                                                   "r5.connect_p99_9": "40 ms"}, "verdicts": {}})] \
        == ["r5.connect_p99_9"]                                            # the stall gone from the tail
