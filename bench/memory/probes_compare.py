"""Compare two ``probes_run`` outputs: better / worse / same-right / same-wrong per probe.

  python bench/memory/probes_compare.py OLD.json NEW.json [ok|lenient_ok] [better worse ...]

The optional classes after the key print each such probe with both ledgers.
"""
import json
import sys
from collections import Counter


def _rows(path: str) -> dict:
    with open(path, encoding="utf-8") as handle:
        return {r["id"]: r for r in json.load(handle)["rows"]}


old, new = _rows(sys.argv[1]), _rows(sys.argv[2])
key = sys.argv[3] if len(sys.argv) > 3 else "ok"
cls: dict[str, str] = {}
for i in old:
    o, n = old[i][key], new[i][key]
    cls[i] = ("same-right" if o and n else "same-wrong" if not o and not n
              else "better" if n else "worse")
c = Counter(cls.values())
print(f"[{key}]", dict(c), "crashes old", sum("crash" in r for r in old.values()),
      "new", sum("crash" in r for r in new.values()))
bycat = Counter((old[i]["probe"]["cat"], v) for i, v in cls.items() if v in ("better", "worse"))
print("by category:", dict(bycat))


def show(i: str) -> None:
    p = old[i]["probe"]
    print(f"== {i} [{cls[i]}]")
    for m in p["msgs"]:
        print("   ", ("assistant: " + m[3:]) if m.startswith("A: ") else ("user: " + m))
    print(f"   expected: current {p['cur']}, replaced {p['stale']}, "
          f"must not become current {p['sugg']}")
    for tag, r in (("OLD", old[i]), ("NEW", new[i])):
        print(f"   {tag}: {'right' if r[key] else 'WRONG'} {r['problems']}")
        for line in r["ledger"]:
            print("       ", line)
        if "crash" in r:
            print(r["crash"])


for want in sys.argv[4:]:
    for i, v in cls.items():
        if v == want:
            show(i)
