"""``python -m bench.memory.tagger [--rules corrections.json] [--out result.json]``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench.memory.tagger.probe import run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", type=Path, default=Path("/tmp/tagger-s/corrections-t.json"),
                        help="the corrections scorer's JSON (only its dev rows are read)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    results = run(args.rules)
    for r in results:
        mode = "lexical+rules" if r["stacked"] else "lexical"
        print(f"\n== test {r['half']} ({mode}), train {r['train']}, test {r['test']}")
        for key, value in r.items():
            if key in ("half", "stacked", "train", "test"):
                continue
            if isinstance(value, tuple):
                value = "P {:.2f} R {:.2f} F1 {:.2f}".format(*value)
            print(f"  {key}: {value}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1, default=list), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
