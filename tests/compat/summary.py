#!/usr/bin/env python3
"""Print the compatibility matrix (docs/compat-matrix.json) in a form a
terminal holds: one line per program or attack, naming only the settings
where a program does not simply work, or where an attack is stopped.

A setting is a policy label ("force=ptrace", "write=self"); the kernels
it was measured on follow it in brackets when the value is not the same
on all of them (the stock control on Debian's 6.1, for instance).

    tests/compat/summary.py [MATRIX.json]
"""
import json
import sys
import textwrap

# What is worth naming, per kind of subject, in the order shown.
NOTABLE = {
    "program": ("breaks", "fallback", "n/a"),
    "attack": ("blocked",),
}


def kernel_of(cfg):
    return cfg["kernel"]


def summarise(matrix):
    configs = {c["id"]: c for c in matrix["configs"]}
    cells = {}
    for c in matrix["cells"]:
        cells.setdefault(c["subject"], []).append(c)
    for subj in matrix["subjects"]:
        notable = NOTABLE.get(subj["kind"], ())
        # An attack with one value wherever it runs (the injections
        # without /proc/PID/mem): no setting to name, only that value.
        mine = cells.get(subj["id"], [])
        values = {c["value"] for c in mine if c["value"] != "n/a"}
        if subj["kind"] == "attack" and len(values) == 1:
            na = sorted({kernel_of(configs[c["config"]]) for c in mine if c["value"] == "n/a"})
            parts = ["%s everywhere%s" % (values.pop(), " it runs" if na else "")]
            if na:
                parts.append("n/a on %s" % ", ".join(na))
            yield subj["title"], parts
            continue
        # label -> value -> kernels; label -> every kernel it was run on
        by_label, measured = {}, {}
        for cell in cells.get(subj["id"], []):
            cfg = configs[cell["config"]]
            measured.setdefault(cfg["label"], []).append(kernel_of(cfg))
            if cell["value"] in notable:
                by_label.setdefault(cfg["label"], {}).setdefault(
                    cell["value"], []).append(kernel_of(cfg))
        parts = []
        for value in notable:
            where = []
            for label, values in by_label.items():
                kernels = values.get(value)
                if not kernels:
                    continue
                if len(kernels) == len(measured[label]):
                    where.append(label)
                else:
                    where.append("%s [%s]" % (label, ", ".join(kernels)))
            if where:
                parts.append("%s at %s" % (value, "; ".join(where)))
        if not parts:
            parts.append("works everywhere" if subj["kind"] == "program"
                         else "allowed everywhere")
        elif parts == [p for p in parts if p.startswith("n/a ")]:
            parts.insert(0, "works everywhere it runs")
        yield subj["title"], parts


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "docs/compat-matrix.json"
    with open(path, encoding="utf-8") as f:
        matrix = json.load(f)
    kernels = sorted({kernel_of(c) for c in matrix["configs"]})
    print("Compatibility matrix, summarised (%d settings on %s):"
          % (len(matrix["configs"]), ", ".join(kernels)))
    for title, parts in summarise(matrix):
        print("- " + title)
        for p in parts:
            print(textwrap.fill(p, width=78, initial_indent="    ",
                                subsequent_indent="      "))
    print("The whole matrix: docs/compat-matrix.md, "
          "the picture: docs/compat-matrix.svg")


if __name__ == "__main__":
    main()
