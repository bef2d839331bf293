"""The main-job benchmark's output reads well where it is piped or logged.

One run of `benches/bench.py --smoke --suite special` (its smallest
configuration: size 16, 2 rounds, token extras; about 25 s here, most of it
imports) with stdout and stderr piped, as CI and `... > log` see it: one
progress line per routine and path on stderr, the Markdown report on stdout at
full width with every row complete, the machine block in results.json, a PNG.
`--load-threshold 0` makes the load warning certain, so that its path is
exercised too. The plot's data preparation, the report's table and the
terminal rendering are checked on a synthetic results dict, timing nothing.
A second run, `--smoke --suite dask` (about 30 s: two LocalClusters of
subprocess workers on a tiny array and a 256x256 image), checks the dask
suite's progress, its report sections and its block in results.json.
No assertion depends on how fast anything ran.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import re
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benches" / "bench.py"
SPECIAL = ["erf", "erfc", "expit", "logit", "gammaln", "ndtr", "betainc", "stdtr", "jv", "kv", "wofz", "exp1", "hyp2f1",
           "lambertw"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_under_test", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


bench = load_bench()


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["COLUMNS"] = "80"  # what squeezed the old report's table, were it still rendered by rich
    done = subprocess.run(
        [sys.executable, str(BENCH), "--smoke", "--suite", "special", "--out", str(out), "--load-threshold", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600, env=env,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return done, out


def assert_png(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC, f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 100 and height > 100
    assert data[-8:-4] == b"IEND"
    return width, height


def markdown_rows(report: str, heading: str) -> list[list[str]]:
    """The table under `heading`: a list of cell lists, header first (separator left out)."""
    lines = report.splitlines()
    start = lines.index(heading)
    table = []
    for line in lines[start + 1:]:
        if line.startswith("|"):
            table.append(line)
        elif table:
            break
    assert len(table) >= 3, f"no table under {heading!r}"
    assert set(table[1]) <= set("|-: "), table[1]
    return [bench.split_row(line) for line in [table[0]] + table[2:]]


# ---------------------------------------------------------------- the piped run


def test_progress_lines_one_per_routine_and_path_with_elapsed_time(smoke):
    done, _ = smoke
    lines = done.stderr.splitlines()
    progress = [line for line in lines if re.match(r"^\[\s*\d+/\d+ +\d+\.\d s\] ", line)]
    for routine in SPECIAL:
        in_process = [line for line in progress if f"] special.{routine} n=16: native " in line]
        assert len(in_process) == 1, f"special.{routine}: {in_process}"
        assert "tb(numpy)" in in_process[0] and "tb(torch)" in in_process[0]
        assert re.search(r"\(\d+\.\d s\)$", in_process[0]), in_process[0]
        array_api = [line for line in progress if f"] special.{routine} n=16 (SCIPY_ARRAY_API=1 subprocess): "
                     in line]
        assert len(array_api) == 1, f"special.{routine} array-API: {array_api}"
    # a cell per routine in process, one in the array-API subprocess, 6 extras; counted up to the total, in order
    counts = [tuple(map(int, re.match(r"^\[\s*(\d+)/(\d+)", line).groups())) for line in progress]
    total = 2 * len(SPECIAL) + 6
    assert counts == [(k, total) for k in range(1, total + 1)]
    for extra in ("overhead, 1 element", "per-call time by container, 1 element", "conversion round trip",
                  "two threads against one",
                  "import torchbridge, fresh process", "import torch, fresh process"):
        assert sum(f"] {extra}: " in line for line in progress) == 1, extra
    elapsed = [float(re.match(r"^\[[^\]]* (\d+\.\d) s\]", line).group(1)) for line in progress]
    assert elapsed == sorted(elapsed)
    assert "\x1b[" not in done.stderr, "terminal escapes in piped progress"


def test_stdout_is_the_markdown_report_at_full_width(smoke):
    done, out = smoke
    report = (out / "report.md").read_text()
    assert done.stdout == report
    assert "…" not in report and "\x1b[" not in report
    rows = markdown_rows(report, "## Per routine")
    header = rows[0]
    assert header[:4] == ["suite", "routine", "n", "native"]
    assert [c for c in header if c in bench.PATHS] == ["native", "array-API", "tb(numpy)", "tb(torch)"]
    assert len(header) == 4 + 3 * 3
    body = rows[1:]
    assert [r[1] for r in body] == SPECIAL
    for r in body:
        assert len(r) == len(header), r
        assert r[0] == "special" and r[2] == "16"
        assert all(cell for cell in r), f"an empty cell in {r}"
    assert max(len(line) for line in report.splitlines() if line.startswith("| special")) > 120
    for heading in ("## Per-call overhead, 1-element float64", "## Conversion is O(1)",
                    "## Per-call time by container, 1-element float64 `special.erf`"):
        table = markdown_rows(report, heading)
        assert all(len(r) == len(table[0]) for r in table)
    containers = markdown_rows(report, "## Per-call time by container, 1-element float64 `special.erf`")
    assert containers[0] == ["path", "median", "reference", "ratio", "floor", "holds"]
    floors = {r[0]: r for r in containers[1:] if r[4]}
    assert set(floors) == set(bench.CONTAINER_FLOORS)  # jax and array-api-strict are in the dev requirements
    assert all(r[5] in ("yes", "**no**") and float(r[3]) > 0 for r in floors.values())


def test_the_machine_is_recorded_with_load_averages_and_the_warning(smoke):
    done, out = smoke
    results = json.loads((out / "results.json").read_text())
    m = results["machine"]
    assert m["os_cpu_count"] == os.cpu_count()
    assert m["affinity_cores"] == len(os.sched_getaffinity(0))
    for key in ("loadavg_before", "loadavg_after"):
        assert len(m[key]) == 3 and all(isinstance(x, float) and x >= 0 for x in m[key]), m[key]
    assert m["loadavg_1min_samples"] and m["loadavg_1min_max_during"] >= m["loadavg_after"][0]
    assert m["torch_intra_op_threads"] >= 1
    assert set(bench.THREAD_VARIABLES) <= set(m["thread_env"])
    assert set(m["versions"]) >= {"torch", "numpy", "scipy", "python"}
    # threshold 0: any load warns, in the report (above the tables) and on stderr
    assert m["high_load"] and m["load_threshold"] == 0
    report = (out / "report.md").read_text()
    assert report.index("> **WARNING: high machine load") < report.index("## Machine")
    assert "WARNING: high machine load" in done.stderr
    assert f"`os.cpu_count()` {os.cpu_count()}" in report


def test_the_plot_is_a_png(smoke):
    _, out = smoke
    assert_png(out / "speedup.png")


# ---------------------------------------------------------------- synthetic results


def timing(median, lo, hi, rounds=3):
    return {"median": median, "min": lo, "max": hi, "rounds": rounds, "samples": [lo, median, hi]}


@pytest.fixture
def synthetic():
    """Two routines, paths faster, slower, inaccurate and unsupported; no timing."""
    rows = [
        {"suite": "special", "routine": "erf", "size": 1000, "tol": 1e-10,
         "timings": {"native": timing(1.0, 0.9, 1.2), "array-API": timing(0.25, 0.2, 0.3),
                     "tb(numpy)": timing(0.5, 0.45, 0.6), "tb(torch)": timing(3.0, 2.5, 4.0)},
         "max_rel_error": {"array-API": 1.0, "tb(numpy)": 1e-16, "tb(torch)": 2e-16}},
        {"suite": "linalg", "routine": "solve", "size": 64, "tol": 1e-10,
         "timings": {"native": timing(2.0, 2.0, 2.0), "tb(numpy)": timing(2.0, 1.9, 2.1),
                     "tb(torch)": timing(1.0, 1.0, 1.0)},
         "max_rel_error": {"tb(numpy)": 1e-15, "tb(torch)": 1e-15},
         "unsupported": {"array-API": "TypeError: returned ndarray, not a torch tensor | odd"}},
    ]
    load = {"loadavg_before": [0.5, 0.4, 0.3], "loadavg_after": [1.5, 0.9, 0.5], "loadavg_1min_max_during": 1.5,
            "loadavg_1min_samples": [[1.0, 1.5]], "load_threshold": 2.0, "load_threshold_rule": "...",
            "benchmark_busy_cores": 1.0, "wall_s": 10.0, "high_load": False}
    machine = {"cpu": "a CPU", "os_cpu_count": 2, "affinity_cores": 2, "affinity": [0, 1], **load,
               "torch_intra_op_threads": 2, "torch_inter_op_threads": 2, "thread_env": {"OMP_NUM_THREADS": None},
               "versions": {"torch": "2.11.0"}, "platform": "Linux"}
    environment = {"date": "2026-12-02 00:00", "cpu": "a CPU", "cores": 2, "numpy": "2", "scipy": "1",
                   "torch": "2.11.0", "torch_threads": 2}
    return {"environment": environment, "machine": machine, "config": "synthetic", "rows": rows,
            "overhead": {k: timing(t, t, t) for k, t in (
                ("scipy.special.erf", 2e-7), ("torch.special.erf (torch tensor)", 1e-6), ("tb.special.erf", 2e-6),
                ("manual: np.from_dlpack(torch.special.erf(torch.from_dlpack(x)))", 4e-6))},
            "conversion": {"10": timing(1e-6, 1e-6, 1e-6)},
            "threads": {"size": 1000, "one_thread_s": 1.0, "two_threads_s": 0.5, "speedup": 2.0},
            "imports": {"runs": 1, "import torch": 1.0}}


def entry(data, group, path):
    (found,) = [e for e in data if e["group"] == group and e["path"] == path]
    return found


def test_bars_diverge_from_one(synthetic):
    data = bench.plot_data(synthetic)
    assert [(e["group"], e["path"]) for e in data] == [
        (g, p) for g in ("erf  n=1,000", "solve  n=64x64") for p in ("array-API", "tb(numpy)", "tb(torch)")]
    faster = entry(data, "erf  n=1,000", "tb(numpy)")
    assert faster["kind"] == "bar" and faster["ratio"] == pytest.approx(2.0) and faster["direction"] == 1
    slower = entry(data, "erf  n=1,000", "tb(torch)")
    assert slower["ratio"] == pytest.approx(1 / 3) and slower["direction"] == -1
    assert slower["label"] == "0.33x" and faster["label"] == "2x"
    even = entry(data, "solve  n=64x64", "tb(numpy)")
    assert even["ratio"] == pytest.approx(1.0) and even["direction"] == 0


def test_whiskers_bracket_the_median_ratio(synthetic):
    bars = [e for e in bench.plot_data(synthetic) if e["kind"] == "bar"]
    assert len(bars) == 5
    for e in bars:
        assert e["lo"] <= e["ratio"] <= e["hi"], e
    slower = entry(bars, "erf  n=1,000", "tb(torch)")
    assert (slower["lo"], slower["hi"]) == (pytest.approx(0.9 / 4.0), pytest.approx(1.2 / 2.5))
    constant = entry(bars, "solve  n=64x64", "tb(torch)")
    assert constant["lo"] == constant["ratio"] == constant["hi"] == pytest.approx(2.0)


def test_accuracy_and_unsupported_rows_are_marked(synthetic):
    data = bench.plot_data(synthetic)
    wrong = entry(data, "erf  n=1,000", "array-API")
    assert wrong["inaccurate"] and "err 1.0e+00 > tol 1e-10" in wrong["label"]
    assert not entry(data, "erf  n=1,000", "tb(numpy)")["inaccurate"]
    missing = entry(data, "solve  n=64x64", "array-API")
    assert missing["kind"] == "unsupported"
    assert missing["label"] == "not supported by SciPy array-API (returned ndarray)"


def test_plot_of_synthetic_results_is_a_png(synthetic, tmp_path):
    assert bench.plot(synthetic, tmp_path / "speedup.png")
    assert_png(tmp_path / "speedup.png")
    synthetic["machine"].update(high_load=True, warning="busy")
    assert bench.plot(synthetic, tmp_path / "busy.png")
    assert_png(tmp_path / "busy.png")


def test_replot_of_a_results_json_from_before_the_machine_block(synthetic, tmp_path):
    del synthetic["machine"]
    for row in synthetic["rows"]:
        del row["tol"]
    (tmp_path / "old.json").write_text(json.dumps(synthetic))
    assert bench.main(["--replot", str(tmp_path / "old.json"), "--out", str(tmp_path / "re")]) == 0
    assert_png(tmp_path / "re" / "speedup.png")
    assert entry(bench.plot_data(synthetic), "erf  n=1,000", "array-API")["inaccurate"]  # the suite's tolerance


def test_report_table_rows_are_complete_with_a_bar_in_a_reason(synthetic):
    report = bench.markdown(synthetic)
    rows = markdown_rows(report, "## Per routine")
    assert all(len(r) == len(rows[0]) == 13 for r in rows)
    assert "not a torch tensor \\| odd" in rows[2][4]
    assert "1.0e+00 **> tol**" in rows[1][6]
    assert "WARNING" not in report


def test_load_warning_threshold():
    monitor = bench.LoadMonitor()
    monitor.sample()
    quiet = monitor.finish(threshold=1e6)
    assert not quiet["high_load"] and "warning" not in quiet
    busy = monitor.finish(threshold=0)
    assert busy["high_load"] == (busy["loadavg_1min_max_during"] > 0)


def test_load_warning_under_own_load_counts_only_other_processes():
    """--load raises the load average on purpose: the rule is then the other processes' CPU use."""
    monitor = bench.LoadMonitor()
    deadline = time.perf_counter() + 0.2
    while time.perf_counter() < deadline:  # the benchmark's own work, which must not count
        pass
    own = monitor.finish(threshold=1e6, own_load=True)
    assert own["other_busy_cores"] is not None and own["other_busy_cores"] >= 0
    assert own["benchmark_busy_cores"] > 0.5
    assert not own["high_load"] and "other processes' CPU use" in own["load_threshold_rule"]
    strict = monitor.finish(threshold=0, own_load=True)
    assert strict["high_load"] == (strict["other_busy_cores"] > 0)
    if strict["high_load"]:
        assert "other processes kept" in strict["warning"]


def test_terminal_rendering_never_cuts_a_cell(synthetic):
    """Narrow: cells wrap, none ends in an ellipsis; wide enough: every cell whole on its line."""
    from rich.console import Console

    report = bench.markdown(synthetic)
    for width in (50, 60, 80):
        narrow = Console(width=width, record=True, color_system=None, force_terminal=True)
        bench.render_terminal(report, synthetic, narrow)
        assert "…" not in narrow.export_text()
    wide = Console(width=140, record=True, color_system=None, force_terminal=True)
    bench.render_terminal(report, synthetic, wide)
    text = wide.export_text()
    for part in ("0.33x", "2.00x", "1e+00 > tol", "not in SciPy array-API (returned ndarray)",
                 "manual: np.from_dlpack(torch.special.erf(torch.from_dlpack(x)))", "Machine"):
        assert part in text, part


# ---------------------------------------------------------------- the dask suite

DASK_CLUSTERS = ["1 worker x 1 thread, libtorch 1 thread (baseline)",
                 "2 workers x 1 thread, `configure(client)`: libtorch 1 thread each",
                 "1 worker x 1 thread, `configure(client)`: libtorch 2 threads",
                 "1 worker x 1 thread, libtorch 1 thread, started **without** `WORKER_CONFIG`",
                 "2 workers x 1 thread, libtorch 1 thread each, started **without** `WORKER_CONFIG`",
                 "1 in-process worker x 1 thread (`processes=False`), libtorch 1 thread",
                 "2 in-process workers x 1 thread (`processes=False`; GIL released in the kernel), libtorch 1 thread"]


@pytest.fixture(scope="module")
def dask_smoke(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench-dask")
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    done = subprocess.run(
        [sys.executable, str(BENCH), "--smoke", "--suite", "dask", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600, env=env,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return done, out, env


def tables_under(report: str, heading: str) -> list[list[list[str]]]:
    """Every table of the section under `heading` (to the next `## `), each as header + rows."""
    lines = report.splitlines()
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    tables: list[list[str]] = []
    for k in range(start, end):
        if lines[k].startswith("|"):
            if not lines[k - 1].startswith("|"):
                tables.append([])
            tables[-1].append(lines[k])
    for table in tables:
        assert len(table) >= 3 and set(table[1]) <= set("|-: "), table
    return [[bench.split_row(line) for line in [t[0]] + t[2:]] for t in tables]


def test_dask_suite_progress_is_eight_cells(dask_smoke):
    done, _, _ = dask_smoke
    progress = [line for line in done.stderr.splitlines() if re.match(r"^\[\s*\d+/\d+ +\d+\.\d s\] ", line)]
    counts = [tuple(map(int, re.match(r"^\[\s*(\d+)/(\d+)", line).groups())) for line in progress]
    assert counts == [(k, 8) for k in range(1, 9)]
    assert all("] dask: " in line and re.search(r"\(\d+\.\d s\)$", line) for line in progress), progress
    assert "scaling" in progress[2] and "np.sin" in progress[3] and "per chunk" in progress[4]
    assert "bit-identical" in progress[5] and "scaling" in progress[6] and "per chunk" in progress[7]
    assert "\x1b[" not in done.stderr


def test_dask_suite_report_section(dask_smoke):
    done, out, _ = dask_smoke
    report = (out / "report.md").read_text()
    assert done.stdout == report
    assert report.index("## Machine") < report.index("## dask") and "## Per routine" not in report
    assert "bit-identical to the eager call" in report and "Scaling, 2 workers over 1: **" in report
    assert "Without `WORKER_CONFIG` (libtorch's allocator" in report
    clusters, references, per_task = tables_under(report, "## dask")
    assert clusters[0] == ["cluster", "time", "elements/s", "vs baseline"]
    assert references[0] == ["routine", "1 worker", "2 workers", "scaling"]
    assert [r[0] for r in references[1:]] == ["`special.gammaln`", "`np.sin (numpy, map_blocks)`"]
    assert [r[0] for r in clusters[1:]] == DASK_CLUSTERS
    assert clusters[1][3] == "1.00x" and all(all(cell for cell in r) for r in clusters)
    assert per_task[0] == ["graph", "per chunk", "graph tasks"]
    assert [r[0] for r in per_task[1:]] == ["`tb.special.erf(x)`", "`x.map_blocks(tb.special.erf)`",
                                            "`x.map_blocks(np.negative)`"]
    assert not (out / "speedup.png").exists()  # no per-routine rows: no plot
    assert report.index("## dask") < report.index("## dask: stencil")
    stencil, stencil_tasks = tables_under(report, "## dask: stencil")
    assert stencil[0] == ["cluster", "time", "pixels/s", "vs baseline"]
    assert [r[0] for r in stencil[1:]] == ["1 worker x 1 thread (baseline)", "2 workers x 1 thread",
                                           "1 in-process worker x 1 thread",
                                           "2 in-process workers x 1 thread (GIL released in the kernel)"]
    assert stencil[1][3] == "1.00x" and stencil_tasks[0] == ["graph", "per chunk", "graph tasks"]
    assert len(stencil_tasks) == 4


def test_dask_suite_results_json(dask_smoke):
    _, out, env = dask_smoke
    results = json.loads((out / "results.json").read_text())
    d = results["dask"]
    n, chunks, tiny, rounds = bench.DASK_SIZES["smoke"]
    assert (d["elements"], d["chunks"], d["chunk_elements"], d["rounds"]) == (n, chunks, n // chunks, rounds)
    assert d["bit_identical_to_eager"] is True
    cores = len(os.sched_getaffinity(0))
    assert sorted(d["configure"]["two"].values()) == [max(1, cores // 2)] * 2
    assert list(d["configure"]["one"].values()) == [1] and list(d["configure"]["one, share"].values()) == [cores]
    assert set(d["timings"]) == {"one worker", "two workers", "one worker, 2 libtorch threads",
                                 "one in-process worker", "two in-process workers",
                                 "one worker, plain", "two workers, plain"}
    assert list(d["configure"]["one, plain"].values()) == [1]
    assert sorted(d["configure"]["two, plain"].values()) == [max(1, cores // 2)] * 2
    assert d["scaling_plain"] == pytest.approx(
        d["timings"]["one worker, plain"]["median"] / d["timings"]["two workers, plain"]["median"])
    assert set(d["faults_per_chunk"]) == {"WORKER_CONFIG", "plain"}
    assert all(isinstance(f, int) and f >= 0 for f in d["faults_per_chunk"].values())
    assert d["scaling_in_process"] == pytest.approx(
        d["timings"]["one in-process worker"]["median"] / d["timings"]["two in-process workers"]["median"])
    assert list(d["configure"]["in-process one"].values()) == [1]
    assert list(d["configure"]["in-process two"].values()) == [1, 1]
    assert all(t["rounds"] == rounds and 0 < t["min"] <= t["median"] <= t["max"] for t in d["timings"].values())
    assert d["scaling"] == pytest.approx(d["timings"]["one worker"]["median"] / d["timings"]["two workers"]["median"])
    assert d["scaling_worst"] <= d["scaling"] <= d["scaling_best"]
    tasks = d["per_task"]["graph_tasks"]
    assert tasks["x.map_blocks(np.negative)"] == tasks["x.map_blocks(tb.special.erf)"] == tiny
    assert tasks["tb.special.erf(x)"] >= tiny
    assert len(d["loadavg_before"]) == len(d["loadavg_after"]) == 3
    st = d["stencil"]
    side, chunk, _, stencil_rounds = bench.DASK_STENCIL_SIZES["smoke"]
    assert (st["side"], st["chunk"], st["rounds"]) == (side, chunk, stencil_rounds)
    assert st["bit_identical_to_eager"] is True and st["graph_tasks"] > st["chunks"]
    medians = {name: t["median"] for name, t in st["timings"].items()}
    assert st["scaling"] == pytest.approx(medians["one worker"] / medians["two workers"])
    in_process = medians["one in-process worker"] / medians["two in-process workers"]
    assert st["scaling_in_process"] == pytest.approx(in_process)
    # the nannies set OMP_NUM_THREADS=1 & co. in the benchmark's environment; the suite put them back
    assert results["machine"]["thread_env"] == {k: env.get(k) for k in bench.THREAD_VARIABLES}
    assert results["rows"] == [] and "speedup" not in results


def test_dask_section_beside_the_routines(synthetic, dask_smoke):
    _, out, _ = dask_smoke
    synthetic["dask"] = json.loads((out / "results.json").read_text())["dask"]
    report = bench.markdown(synthetic)
    assert report.index("## Per routine") < report.index("## Import time") < report.index("## dask")
    assert [r[0] for r in tables_under(report, "## dask")[0][1:]] == DASK_CLUSTERS


# ---------------------------------------------------------------- the scipy.fft backend rows


def test_fft_backend_rows_set_against_unset():
    """fftconvolve and welch with torchbridge.fft as scipy.fft's backend and
    without: every path gives SciPy's answer, and `forced` really ran the
    transforms in torchbridge (served counts), whatever the timings."""
    rows = bench.fft_backend([4096], 1)
    assert [r["routine"] for r in rows] == ["fftconvolve", "fftconvolve rows", "welch"]
    for r in rows:
        assert set(r["timings"]) == {"unset", "set", "forced"}
        assert r["served"]["forced"] > 0, r
        assert 0 <= r["served"]["set"] <= r["served"]["forced"]
        assert max(r["max_rel_error"].values()) < 1e-8, r


def test_fft_backend_table_in_the_report(synthetic):
    t = timing(1.0, 1.0, 1.0)
    synthetic["fft_backend"] = [
        {"routine": "welch", "size": 100000, "timings": {"unset": t, "set": timing(0.5, 0.5, 0.5), "forced": t},
         "served": {"set": 2, "forced": 2}, "max_rel_error": {"set": 1e-16, "forced": 1e-16}},
    ]
    report = bench.markdown(synthetic)
    rows = markdown_rows(report, "## scipy.fft backend: SciPy routines with `set_backend(torchbridge.fft)`")
    assert rows[0] == ["routine", "n", "unset", "set", "x", "served", "forced", "x", "served", "err"]
    assert rows[1][:6] == ["welch", "100000", "1 s", "500 ms", "2.00", "2"]
    del synthetic["fft_backend"]
    assert "scipy.fft backend" not in bench.markdown(synthetic)


def test_quiet_vs_loaded_section(synthetic):
    """`--load`: each cell's tb(numpy) speedup quiet and under each load, side by side, with the floors."""
    rows = synthetic["rows"]
    rows[0]["loaded"] = {"1": {"native": timing(1.0, 1.0, 1.0), "tb(numpy)": timing(0.8, 0.8, 0.8)},
                         "2": {"native": timing(1.0, 1.0, 1.0), "tb(numpy)": timing(0.4, 0.4, 0.4)}}
    rows[1]["loaded"] = {"1": {"native": timing(2.0, 2.0, 2.0), "tb(numpy)": timing(5.0, 5.0, 5.0)},
                         "2": {"native": timing(2.0, 2.0, 2.0), "tb(numpy)": timing(2.0, 2.0, 2.0)}}
    report = bench.markdown(synthetic)
    header, *table = markdown_rows(report, "## Quiet vs loaded")
    assert len(table) == 2 and all(len(r) == len(header) == 10 for r in table)
    # erf: quiet 2x, 1.25x and 2.5x loaded: both floors hold; solve: quiet 1x, 0.4x under load 1
    assert table[0][3:6] == ["2.00", "1.25", "2.50"] and table[0][-1] == "ok"
    assert table[1][3:6] == ["1.00", "0.40", "1.00"] and table[1][-1] == "**below**"
    assert "1 of 2 cells hold both floors" in report
    assert bench.load_floor_holds(2.0, 1.0) and not bench.load_floor_holds(2.0, 0.99)
    assert not bench.load_floor_holds(0.6, 0.45)


def test_load_option_is_checked():
    with pytest.raises(SystemExit):
        bench.main(["--load", "0"])
    with pytest.raises(SystemExit):
        bench.main(["--load", str((len(os.sched_getaffinity(0)) or 1) + 1)])


def test_slower_routines_are_listed_with_their_reason(synthetic):
    results = copy.deepcopy(synthetic)
    erf, solve = results["rows"]
    erf.update(suite="fft", routine="dct")
    erf["timings"]["tb(numpy)"] = timing(4.0, 4.0, 4.0)  # native 1.0: 0.25x
    solve.update(routine="qr")  # a routine without a reason on record
    solve["timings"]["tb(numpy)"] = timing(4.0, 4.0, 4.0)  # native 2.0: 0.5x
    report = bench.markdown(results)
    section = report[report.index("## Slower than SciPy") :]
    assert f"| fft.dct | 1000: 0.25x | {bench.WHY_SLOWER['fft.dct']} |" in section
    assert "linalg.qr" not in bench.WHY_SLOWER
    assert "| linalg.qr | 64: 0.50x | not investigated |" in section
    assert "## Slower than SciPy" not in bench.markdown(synthetic)  # nothing slower, no section


def test_summary_has_one_line_per_routine(synthetic):
    lines = bench.summary_markdown(synthetic).splitlines()
    assert lines[0].startswith("| suite | routine | n | speedup quiet")
    assert len(lines) == 2 + len({(r["suite"], r["routine"]) for r in synthetic["rows"]})
    assert lines[3] == "| linalg | solve | 64 | 1.00 |"
