#!/usr/bin/env python3
"""Timing harness of Scripts/bench-ingest (standard library only).

Runs `dictee events FILE --now ISO --tz IANA --json`, the Python baseline
(baseline_events.py) and, with --bare-libical, libical's bare parse of the
whole file (bare_libical.c) several times each on the same calendar, one run
of each in turn (dictee, bare parse, Python; then again), so that a change of
load on the machine during the benchmark weighs on all of them alike. Every run is one child process; its wall time is
measured around spawn + os.wait4, and its peak RSS is the ru_maxrss of that
child from os.wait4 (the maximum over the runs is reported). Linux folds the
harness's own footprint at spawn time (~20 MB) into the child's ru_maxrss, so
a value that small is a floor, not a reading; above it the value is exact.

Then it compares dictee's and Python's outputs on their sets of (uid, start)
pairs (starts compared as instants, all-day starts as dates), prints the
summary block and checks the targets:

  * ratio median(baseline) / median(dictee) >= --min-ratio (default 20)
  * ratio median(dictee) / median(bare libical) <= --max-libical-ratio
    (default 1.0; only with --bare-libical)
  * peak RSS of dictee < --max-rss-mb (default 300)

A missed target exits 1 only with --enforce-targets (bench-ingest passes it for
the full-size calendar; a small smoke calendar is dominated by start-up costs).
A failing run (non-zero exit, unreadable JSON) always exits 1. Output
differences are reported but fail nothing: the libraries' semantics differ in
corner cases.

With --dictee omitted, only the baseline is measured (no targets checked).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass


@dataclass
class Run:
    seconds: float
    max_rss_mb: float
    exit_code: int
    stdout_path: str
    stderr_path: str


def run_once(cmd: list[str], stdout_path: str, stderr_path: str) -> Run:
    """Run cmd as a child process; wall time and rusage of exactly that child."""
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: keep Popen from waiting
    # Linux reports ru_maxrss in KiB.
    return Run(seconds, usage.ru_maxrss / 1024, proc.returncode, stdout_path, stderr_path)


def measure_alternately(jobs: list[tuple[str, list[str], int, str]], workdir: str) -> list[list[Run]]:
    """Runs of several commands, one of each in turn: (label, cmd, runs, tag) -> runs per job."""
    for label, cmd, runs, _ in jobs:
        print(f"[bench] {label}: {runs} run(s) of: {' '.join(cmd)}", file=sys.stderr, flush=True)
    results: list[list[Run]] = [[] for _ in jobs]
    failed = [False] * len(jobs)
    for i in range(max(runs for _, _, runs, _ in jobs)):
        for k, (label, cmd, runs, tag) in enumerate(jobs):
            if i >= runs or failed[k]:
                continue
            r = run_once(cmd, os.path.join(workdir, f"{tag}-{i}.json"),
                         os.path.join(workdir, f"{tag}-{i}.stderr"))
            print(f"[bench]   {label} run {i + 1}: {r.seconds:.3f} s, peak RSS {r.max_rss_mb:.0f} MB, "
                  f"exit {r.exit_code}", file=sys.stderr, flush=True)
            results[k].append(r)
            failed[k] = r.exit_code != 0
    return results


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def tail(path: str, lines: int = 15) -> str:
    with open(path, "rb") as f:
        return "\n".join(f.read().decode("utf-8", "replace").splitlines()[-lines:])


def load(path: str) -> dict:
    with open(path, "rb") as f:
        data = json.load(f)
    if not isinstance(data, dict) or not isinstance(data.get("occurrences"), list):
        raise ValueError('top level is not {"occurrences": [...], ...}')
    return data


def digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def start_key(start: str):
    """Comparable form of a start value: the date itself, or the UTC instant."""
    if len(start) == 10:
        return start
    value = dt.datetime.fromisoformat(start.replace("Z", "+00:00"))
    if value.tzinfo is None:
        return "floating " + value.isoformat()
    return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def pairs(data: dict) -> dict:
    """(uid, start) -> occurrence."""
    return {(o["uid"], start_key(o["start"])): o for o in data["occurrences"]}


def compare(dictee: dict, baseline: dict, examples: int) -> tuple[int, list[str]]:
    a, b = pairs(dictee), pairs(baseline)
    only_a = sorted(a.keys() - b.keys(), key=lambda k: (k[1], k[0]))
    only_b = sorted(b.keys() - a.keys(), key=lambda k: (k[1], k[0]))
    lines = []
    for name, keys, source in (("only in dictee", only_a, a), ("only in baseline", only_b, b)):
        if keys:
            lines.append(f"  {name}: {len(keys)}")
        for key in keys[:examples]:
            o = source[key]
            lines.append(f"    {o['start']}  {o['uid']}  {o.get('summary', '')!r}"
                         f"{'  (recurring)' if o.get('recurring') else ''}")
    matched = a.keys() & b.keys()
    styled = [k for k in matched if a[k]["start"] != b[k]["start"]]
    if styled:
        k = min(styled)
        lines.append(f"  note: {len(styled)} matching starts are written differently, e.g. "
                     f"dictee {a[k]['start']!r} vs baseline {b[k]['start']!r}")
    return len(only_a) + len(only_b), lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calendar", required=True)
    ap.add_argument("--now", required=True)
    ap.add_argument("--tz", required=True)
    ap.add_argument("--dictee", help="dictee binary; omit to measure the baseline only")
    ap.add_argument("--python", required=True, help="python of the baseline venv")
    ap.add_argument("--baseline-script", required=True)
    ap.add_argument("--baseline-label", default="Python icalendar + recurring-ical-events")
    ap.add_argument("--bare-libical", help="bare libical parse binary (bare_libical.c); omit to skip")
    ap.add_argument("--bare-libical-label", default="libical bare parse")
    ap.add_argument("--dictee-runs", type=int, default=5)
    ap.add_argument("--libical-runs", type=int, default=5)
    ap.add_argument("--python-runs", type=int, default=3)
    ap.add_argument("--min-ratio", type=float, default=20.0)
    ap.add_argument("--max-libical-ratio", type=float, default=1.0)
    ap.add_argument("--max-rss-mb", type=float, default=300.0)
    ap.add_argument("--enforce-targets", action="store_true",
                    help="exit 1 when a target is missed (otherwise only report)")
    ap.add_argument("--examples", type=int, default=5, help="differences shown per side")
    ap.add_argument("--workdir", required=True, help="where run outputs are written")
    args = ap.parse_args(argv)
    if args.dictee_runs < 1 or args.python_runs < 1 or args.libical_runs < 1:
        ap.error("run counts must be >= 1")

    query = [args.calendar, "--now", args.now, "--tz", args.tz]
    failures: list[str] = []

    jobs = []
    if args.dictee:
        jobs.append(("dictee", [args.dictee, "events", *query, "--json"], args.dictee_runs, "dictee"))
    if args.bare_libical:
        jobs.append(("bare libical", [args.bare_libical, args.calendar], args.libical_runs, "libical"))
    jobs.append(("baseline", [args.python, args.baseline_script, *query], args.python_runs, "baseline"))
    measured = measure_alternately(jobs, args.workdir)
    dictee_runs = measured[0] if args.dictee else []
    bare_runs = measured[-2] if args.bare_libical else []
    base_runs = measured[-1]
    for label, runs in (("dictee", dictee_runs), ("bare libical", bare_runs), ("baseline", base_runs)):
        if runs and runs[-1].exit_code != 0:
            r = runs[-1]
            print(f"[bench] {label} failed (exit {r.exit_code}); stderr:\n{tail(r.stderr_path)}",
                  file=sys.stderr)
            return 1
    bare_median = statistics.median(r.seconds for r in bare_runs) if bare_runs else None
    bare_events = None
    if bare_runs:
        with open(bare_runs[0].stdout_path, "rb") as f:
            bare_events = f.read().decode("ascii", "replace").strip()

    base = load(base_runs[0].stdout_path)
    base_median = statistics.median(r.seconds for r in base_runs)
    base_rss = max(r.max_rss_mb for r in base_runs)
    report = [""]
    if args.dictee:
        try:
            dictee = load(dictee_runs[0].stdout_path)
        except ValueError as exc:
            print(f"[bench] dictee output {dictee_runs[0].stdout_path} is not the expected "
                  f"JSON: {exc}", file=sys.stderr)
            return 1
        if len({digest(r.stdout_path) for r in dictee_runs}) > 1:
            report.append("warning: dictee printed different outputs across runs")
        d_median = statistics.median(r.seconds for r in dictee_runs)
        d_rss = max(r.max_rss_mb for r in dictee_runs)
        ratio = base_median / d_median if d_median > 0 else float("inf")
        n_diff, diff_lines = compare(dictee, base, args.examples)

        report.append(f"occurrences: dictee {len(dictee['occurrences'])}, "
                      f"baseline {len(base['occurrences'])}; errors: dictee "
                      f"{len(dictee.get('errors') or [])}, baseline {len(base['errors'])}")
        report.append("outputs agree on (uid, start) pairs: "
                      + ("yes" if n_diff == 0 else f"no, symmetric difference {n_diff}"))
        report.extend(diff_lines)
        report.append("")
        report.append(f"dictee events: median {d_median:.2f} s, peak RSS {d_rss:.0f} MB "
                      f"({plural(len(dictee_runs), 'run')})")
        report.append(f"baseline ({args.baseline_label}): median {base_median:.1f} s, "
                      f"peak RSS {base_rss:.0f} MB ({plural(len(base_runs), 'run')})")
        if bare_median is not None:
            report.append(f"{args.bare_libical_label}: median {bare_median:.2f} s, peak RSS "
                          f"{max(r.max_rss_mb for r in bare_runs):.0f} MB "
                          f"({plural(len(bare_runs), 'run')}, {bare_events} VEVENTs)")
        ratio_ok = ratio >= args.min_ratio
        rss_ok = d_rss < args.max_rss_mb
        report.append(f"ratio to the Python stack: {ratio:.1f}x faster (target >= {args.min_ratio:g}x): "
                      f"{'ok' if ratio_ok else 'MISSED'}")
        if bare_median is not None:
            bare_ratio = d_median / bare_median if bare_median > 0 else float("inf")
            bare_ok = bare_ratio <= args.max_libical_ratio
            report.append(f"ratio to libical's bare parse: {bare_ratio:.2f}x its time "
                          f"(target <= {args.max_libical_ratio:g}x): {'ok' if bare_ok else 'MISSED'}")
            if not bare_ok:
                failures.append("ratio to libical's bare parse")
        report.append(f"peak RSS target < {args.max_rss_mb:g} MB: "
                      f"{'ok' if rss_ok else f'MISSED ({d_rss:.0f} MB)'}")
        if not ratio_ok:
            failures.append("speed ratio")
        if not rss_ok:
            failures.append("peak RSS")
    else:
        report.append(f"occurrences: baseline {len(base['occurrences'])} "
                      f"({sum(o['recurring'] for o in base['occurrences'])} recurring); "
                      f"errors: {len(base['errors'])}")
        report.append(f"baseline ({args.baseline_label}): median {base_median:.1f} s, "
                      f"peak RSS {base_rss:.0f} MB ({plural(len(base_runs), 'run')})")
        if bare_median is not None:
            report.append(f"{args.bare_libical_label}: median {bare_median:.2f} s "
                          f"({plural(len(bare_runs), 'run')}, {bare_events} VEVENTs)")
        report.append("dictee: not measured (baseline only)")

    print("\n".join(report))
    if failures and args.enforce_targets:
        print(f"bench-ingest: FAILED ({', '.join(failures)})")
        return 1
    if failures:
        print(f"bench-ingest: targets missed ({', '.join(failures)}), not enforced "
              "at this calendar size")
    return 0


if __name__ == "__main__":
    sys.exit(main())
