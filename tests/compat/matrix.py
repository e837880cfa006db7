#!/usr/bin/env python3
"""The compatibility matrix: render it, or check it.

  matrix.py generate   docs/compat-matrix.{json,md,svg} from the measurement
                       (build/compat/results/), the expectations and configs;
                       a configuration not measured keeps its committed cells
  matrix.py check      TAP: every measured cell against expected.tsv, and the
                       committed docs against the measurement

The JSON is the matrix; the Markdown and the SVG are rendered from it alone,
so `check` can tell whether the committed files are what `generate` makes.
Run from the repo root.
"""
import html
import json
import os
import re
import sys

HERE = "tests/compat"
RESULTS = "build/compat/results"
DOCS = "docs/compat-matrix"
VALUES = {  # value: (meaning, colour)
    "works": ("the program does its job", "#2f9e44"),
    "fallback": ("works, through its fallback path", "#94c94a"),
    "breaks": ("the program fails at its job", "#e03131"),
    "blocked": ("the attack's payload never ran", "#1c7ed6"),
    "allowed": ("the attack's payload ran (marker written)", "#f08c00"),
    "n/a": ("cannot run in the lab guest (see notes)", "#adb5bd"),
}
UNMEASURED = ("not measured", "#f1f3f5")


def rows(path):
    with open(path) as f:
        return [l.rstrip("\n").split("\t") for l in f if l.strip() and not l.startswith("#")]


# proc_mem.force_override's default per kernel: upstream's Kconfig
# default became ptrace in 7.1 (CONFIG_PROC_MEM_FORCE_PTRACE), and
# Debian's 7.x and our 7.2 builds keep it; the 6.x kernels default to always.
FORCE_DEFAULT = {"debian-7.2": "ptrace", "debian-latest": "ptrace",
                 "upstream-7.2": "ptrace", "patched-7.2": "ptrace"}


def short(param):
    """A boot parameter as a level label: proc_mem.force_override=always
    is force=always, proc_mem.restrict_write=self write=self."""
    m = re.fullmatch(r"proc_mem\.(?:force_override|restrict_(\w+))=(\w+)", param)
    return f"{m.group(1) or 'force'}={m.group(2)}" if m else param


def load_configs():
    out = []
    for cid, kernel, op, level, run, *more in rows(f"{HERE}/configs.tsv"):
        cg = [x for x in more[:1] if x not in ("", "-")]
        extra = more[1] if len(more) > 1 else ""
        if op == "-":
            cmdline, label = "", "defaults"
            if kernel in FORCE_DEFAULT:  # 7.2: force=ptrace by default
                label += f" (force={FORCE_DEFAULT[kernel]})"
        elif op == "force":
            cmdline, label = f"proc_mem.force_override={level}", f"force={level}"
        elif kernel.endswith("+enforcer"):
            flag = "--" + op.replace("_", "-")
            cmdline, label = f"procmem enforce {flag}={level}", f"{op}={level}"
            if cg:
                cmdline += f"; procmem enforce --cgroup /supervisor {flag}={cg[0]}"
                label += f", supervisor's cgroup {cg[0]}"
        else:
            cmdline, label = f"proc_mem.restrict_{op}={level}", f"{op}={level}"
        if extra:  # the seventh field: more of the kernel's command line
            label += ", " + ", ".join(short(p) for p in extra.split())
            cmdline = f"{extra}; {cmdline}" if cmdline else extra
        out.append({"id": cid, "kernel": kernel, "op": "defaults" if op == "-" else op,
                    "level": "" if level == "-" else level, "label": label,
                    "cmdline": cmdline, "default_run": run in ("yes", "matrix"),
                    "in_check": run == "yes",
                    "override": cg[0] if cg else ""})
        if extra:
            out[-1]["extra"] = extra
    return out


def force_level(c):
    """The force level a configuration boots with."""
    for p in (c.get("extra", "") + " " + c["cmdline"]).split():
        if p.startswith("proc_mem.force_override="):
            return p.split("=", 1)[1].rstrip(";")
    return FORCE_DEFAULT.get(c["kernel"].removesuffix("+enforcer"), "always")


def load_expected(configs):
    table = rows(f"{HERE}/expected.tsv")
    header, body = table[0], table[1:]
    ids = [c["id"] for c in configs]
    if header[2:] != ids:
        sys.exit(f"matrix.py: expected.tsv columns {header[2:]} are not configs.tsv's {ids}")
    subjects, expected = [], {}
    for r in body:
        if len(r) != len(header):
            sys.exit(f"matrix.py: expected.tsv row {r[0]} has {len(r)} fields, want {len(header)}")
        kind = "attack" if r[0].startswith("attack-") else "program"
        subjects.append({"id": r[0], "title": r[1], "kind": kind})
        for cid, v in zip(ids, r[2:]):
            if v not in VALUES and v != "?":
                sys.exit(f"matrix.py: expected.tsv: unknown value '{v}' ({r[0]}, {cid})")
            expected[(r[0], cid)] = v
    return subjects, expected


def clean(detail):
    detail = re.sub(r"/proc/[0-9]+/", "/proc/PID/", detail)
    return re.sub(r"0x[0-9a-f]{8,}", "0x…", detail).strip()


def load_results(configs):
    """{config id: {"cells": {subject: (value, detail)}, "info": {key: text}}}"""
    out = {}
    for c in configs:
        path = f"{RESULTS}/{c['id']}.tsv"
        if not os.path.exists(path):
            continue
        cells, info = {}, {}
        for r in rows(path):
            if r[0] == "CELL" and len(r) >= 3:
                cells[r[1]] = (r[2], clean(r[3]) if len(r) > 3 else "")
            elif r[0] == "INFO" and len(r) >= 3:
                info[r[1]] = r[2].strip()
        out[c["id"]] = {"cells": cells, "info": info}
    return out


def build(configs, subjects, expected, results):
    """The matrix as JSON.  A cell never measured (a row added since its
    configuration last ran) is left out of "cells": every cell there has
    a value, which is what procmem's reader (tools/procmem/matrix.c)
    requires; the Markdown and the SVG show it as not measured."""
    cells = []
    for s in subjects:
        for c in configs:
            got = results.get(c["id"], {}).get("cells", {}).get(s["id"])
            if not got:
                continue
            cells.append({"subject": s["id"], "config": c["id"],
                          "value": got[0], "detail": got[1],
                          "expected": expected[(s["id"], c["id"])]})
    # "force": the force level the configuration boots with (its parameter,
    # else the kernel's default), so that procmem finds the column that
    # measures a kernel at its default (Debian's 7.x: ptrace).
    confs = [dict(c, policy=results.get(c["id"], {}).get("info", {}).get("policy"),
                  force=force_level(c))
             for c in configs]
    return {"title": "/proc/PID/mem compatibility and attack matrix",
            "generated_by": "make matrix (tests/compat/)",
            "values": {k: v[0] for k, v in VALUES.items()},
            "configs": confs, "subjects": subjects, "cells": cells}


def head(c):
    return c["kernel"], c["label"]


def cell_map(m):
    """{(subject, config): cell}, a cell not measured as one with no value."""
    cell = {(s["id"], c["id"]): {"subject": s["id"], "config": c["id"], "value": None,
                                 "detail": "", "expected": None}
            for s in m["subjects"] for c in m["configs"]}
    cell.update({(x["subject"], x["config"]): x for x in m["cells"]})
    return cell


def render_md(m):
    with open(f"{HERE}/notes.md") as f:
        notes = f.read()
    cell = cell_map(m)
    out = [f"# {m['title']}", "",
           "Generated by `make matrix` from runs in lab guests (`tests/compat/`); "
           "do not edit by hand.  Expected values: `tests/compat/expected.tsv`; "
           "`make check` fails on any cell that differs.  Picture: "
           "[compat-matrix.svg](compat-matrix.svg).", "",
           "| program or attack | " + " | ".join("%s<br>%s" % head(c) for c in m["configs"]) + " |",
           "|---|" + "---|" * len(m["configs"])]
    for s in m["subjects"]:
        vals = []
        for c in m["configs"]:
            x = cell[(s["id"], c["id"])]
            v = x["value"] or "–"
            if x["value"] and x["expected"] != x["value"]:
                v = f"**{v}** (expected {x['expected']})"
            vals.append(v)
        out.append(f"| {s['title']} | " + " | ".join(vals) + " |")
    out += ["", "Values: " + "; ".join(f"**{k}**: {v}" for k, v in m["values"].items())
            + "; –: not measured.", "", "## Configurations", "",
            "| kernel | level | boot parameter or enforcer policy | policy the guest reported |",
            "|---|---|---|---|"]
    for c in m["configs"]:
        pol = c["policy"] or ("not measured" if not c["default_run"] else "–")
        if not c["default_run"]:
            pol += " (left out of the default run)"
        elif not c.get("in_check", True):
            pol += " (make matrix only, not make check)"
        out.append(f"| {c['kernel']} | {c['label']} | `{c['cmdline'] or '(none)'}` | {pol} |")
    out += ["", "## Why cells are not plain *works* or *allowed*", ""]
    for s in m["subjects"]:
        groups = {}
        for c in m["configs"]:
            x = cell[(s["id"], c["id"])]
            if x["value"] in (None, "works", "allowed"):
                continue
            groups.setdefault((x["value"], x["detail"]), []).append("%s %s" % head(c))
        for (v, d), where in groups.items():
            where = "every configuration" if len(where) == len(m["configs"]) else ", ".join(where)
            out.append(f"- {s['title']}, {v} on {where}: {d or '(no detail)'}")
    return "\n".join(out) + "\n\n" + notes


def render_svg(m):
    cell = cell_map(m)
    lw, cw, ch, top = 330, 74, 24, 78
    w = lw + cw * len(m["configs"]) + 10
    legend_y = top + ch * len(m["subjects"]) + 24
    h = legend_y + 22 * ((len(VALUES) + 3) // 3) + 20
    e = html.escape
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
         f'font-family="sans-serif" font-size="11">',
         f'<rect width="{w}" height="{h}" fill="white"/>',
         f'<text x="8" y="18" font-size="14" font-weight="bold">{e(m["title"])}</text>']
    for i, c in enumerate(m["configs"]):
        x = lw + i * cw + cw / 2
        lines = (c["op"], c["level"])
        if c["op"] == "defaults" and c["label"] != "defaults":  # "(force=ptrace)" on 7.2
            lines = ("defaults", c["label"].removeprefix("defaults "))
        if c.get("extra"):  # op=level, then the boot parameters
            lines = (f'{c["op"]}={c["level"]}', " ".join(short(p) for p in c["extra"].split()))
        for k, (line, style) in enumerate(((c["kernel"], ' font-weight="bold"'),
                                           (lines[0], ""), (lines[1], ""))):
            o.append(f'<text x="{x}" y="{top - 36 + 14 * k}" text-anchor="middle"{style}>'
                     f'{e(line)}</text>')
    for j, s in enumerate(m["subjects"]):
        y = top + j * ch
        o.append(f'<text x="8" y="{y + 16}">{e(s["title"])}</text>')
        for i, c in enumerate(m["configs"]):
            x = cell[(s["id"], c["id"])]
            v = x["value"]
            text, fill = (v, VALUES[v][1]) if v in VALUES else (v or "–", UNMEASURED[1])
            odd = v is not None and v != x["expected"]
            stroke = 'stroke="black" stroke-width="3"' if odd else 'stroke="white"'
            tip = e(f"{s['title']} on {c['kernel']} {c['label']}: {v or 'not measured'}"
                    + (f" (expected {x['expected']})" if odd else "")
                    + (f": {x['detail']}" if x["detail"] else ""))
            o.append(f'<g><title>{tip}</title><rect x="{lw + i * cw}" y="{y}" width="{cw}" '
                     f'height="{ch}" fill="{fill}" {stroke}/><text x="{lw + i * cw + cw / 2}" '
                     f'y="{y + 16}" text-anchor="middle" fill="{"black" if v in (None, "n/a", "fallback") else "white"}">'
                     f'{e(text)}</text></g>')
    items = list(VALUES.items()) + [("–", UNMEASURED)]
    for k, (name, (meaning, fill)) in enumerate(items):
        x, y = 8 + (k % 3) * 360, legend_y + (k // 3) * 22
        o.append(f'<rect x="{x}" y="{y}" width="16" height="16" fill="{fill}" stroke="#868e96"/>'
                 f'<text x="{x + 22}" y="{y + 12}"><tspan font-weight="bold">{e(name)}</tspan>: '
                 f'{e(meaning)}</text>')
    o.append(f'<text x="8" y="{h - 4}" fill="#495057">A black frame marks a cell that differs '
             f'from its expected value; hover a cell for details.</text>')
    o.append("</svg>")
    return "\n".join(o) + "\n"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def committed():
    """The committed docs' measurement, as load_results() gives one, for
    the configurations this run did not measure (make matrix ID...)."""
    try:
        with open(f"{DOCS}.json") as f:
            m = json.load(f)
    except (OSError, ValueError):
        return {}
    pol = {c["id"]: c.get("policy") for c in m["configs"]}
    out = {}
    for x in m["cells"]:
        if x["value"] and x["config"] in pol:
            r = out.setdefault(x["config"], {"cells": {}, "info": {}})
            r["cells"][x["subject"]] = (x["value"], x["detail"])
            if pol[x["config"]]:
                r["info"]["policy"] = pol[x["config"]]
    return out


def generate():
    configs = load_configs()
    subjects, expected = load_expected(configs)
    results = dict(committed(), **load_results(configs))
    m = build(configs, subjects, expected, results)
    write(f"{DOCS}.json", json.dumps(m, indent=1, ensure_ascii=False) + "\n")
    write(f"{DOCS}.md", render_md(m))
    write(f"{DOCS}.svg", render_svg(m))
    print(f"matrix.py: wrote {DOCS}.json, .md, .svg")


def check():
    configs = load_configs()
    subjects, expected = load_expected(configs)
    results = load_results(configs)
    known = {s["id"] for s in subjects}
    lines = []
    for c in configs:
        if c["id"] not in results:
            continue
        got = results[c["id"]]
        if "vm" in got["info"]:
            lines.append((False, f"{c['id']}: {got['info']['vm']}"))
        for s in subjects:
            want = expected[(s["id"], c["id"])]
            v, d = got["cells"].get(s["id"], (None, ""))
            desc = f"{s['id']} on {c['id']}: {v or 'no result'}"
            if v == want:
                lines.append((True, desc + (f" ({d})" if d else "")))
            elif want == "?":
                lines.append((False, desc + " but expected.tsv has no value yet ('?')"))
            else:
                lines.append((False, f"{desc}, expected {want}" + (f" ({d})" if d else "")))
        for extra in sorted(set(got["cells"]) - known):
            lines.append((False, f"{extra} on {c['id']}: measured but not in expected.tsv"))
    # One policy, two implementations: an enforcer column without a cgroup
    # override, on a kernel booted at force=always, is the patched kernel's
    # column for the same level, cell for cell, in expected.tsv and as
    # measured.  (At 7.2's default, force=ptrace, the enforcer's level
    # comes on top of the kernel's own: no patched column has that policy.)
    for c in configs:
        if not c["kernel"].endswith("+enforcer") or c["override"] or force_level(c) != "always":
            continue
        twin = [p for p in configs if p["kernel"] == "patched" and
                (p["op"], p["level"]) == (c["op"], c["level"])]
        if not twin:
            lines.append((False, f"{c['id']}: no patched configuration with {c['label']}"))
            continue
        p = twin[0]
        # a program that cannot run on one of the two kernels (n/a: CRIU
        # on 7.2) says nothing about the policy
        na = [s["id"] for s in subjects
              if "n/a" in (expected[(s["id"], c["id"])], expected[(s["id"], p["id"])])]
        both = [s for s in subjects if s["id"] not in na]
        diff = [s["id"] for s in both
                if expected[(s["id"], c["id"])] != expected[(s["id"], p["id"])]]
        if c["id"] in results and p["id"] in results:
            diff += [f"{s['id']} (measured)" for s in both
                     if results[c["id"]]["cells"].get(s["id"], (None,))[0]
                     != results[p["id"]]["cells"].get(s["id"], (None,))[0]]
        lines.append((not diff, f"{c['id']} agrees with {p['id']} cell for cell"
                      + (f" (n/a on one, left out: {', '.join(na)})" if na else "")
                      + (f" (differs: {', '.join(diff)})" if diff else "")))
    if not results:
        lines.append((False, f"no measurement in {RESULTS}/"))
    # The committed docs: rendered from their own JSON, showing the measurement.
    try:
        with open(f"{DOCS}.json") as f:
            m = json.load(f)
        same = all(open(f"{DOCS}.{ext}").read() == r(m)
                   for ext, r in (("md", render_md), ("svg", render_svg)))
        lines.append((same, f"{DOCS}.md and .svg are rendered from {DOCS}.json"))
        shown = {(x["subject"], x["config"]): x["value"] for x in m["cells"]}
        stale = [f"{s}/{c}" for c in results for s in known
                 if shown.get((s, c)) != results[c]["cells"].get(s, (None,))[0]]
        lines.append((not stale, f"{DOCS}.json shows the measured values"
                       + (f" (differs: {', '.join(sorted(stale)[:5])}; run make matrix)" if stale else "")))
    except (OSError, ValueError, KeyError) as err:
        lines.append((False, f"{DOCS}.*: cannot read or render ({err!r}); run make matrix"))
    print("TAP version 13")
    print(f"1..{len(lines)}")
    for n, (ok, desc) in enumerate(lines, 1):
        print(f"{'ok' if ok else 'not ok'} {n} - {desc}")
    return 0 if all(ok for ok, _ in lines) else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["generate"]:
        generate()
    elif sys.argv[1:] == ["check"]:
        sys.exit(check())
    else:
        sys.exit(__doc__)
