"""The Python side of `recorded-vs-python-jsonschema`: the reference approach, a JSONL loop
with jsonschema, timed in CPU seconds around the loop only (interpreter start excluded, as
on the Node side).

usage: python3 python_validate.py TOOLS_JSON JSONL_FILE
prints one JSON object: rows, calls, invalid, unknown, corrupt, seconds, versions.
"""
import json
import sys
import time

from jsonschema import Draft202012Validator


def call_of(row):
    """(name, arguments) of the two shapes the benchmark file uses."""
    if row.get("type") == "tool_use":
        return row["name"], row["input"]
    return row["name"], row["arguments"]


def compiled(tools, path):
    validators = {t["name"]: Draft202012Validator(t["input_schema"]) for t in tools}
    counts = {"rows": 0, "calls": 0, "invalid": 0, "unknown": 0, "corrupt": 0}
    start = time.process_time()
    with open(path, "rb") as lines:
        for line in lines:
            if not line.strip():
                continue
            counts["rows"] += 1
            try:
                row = json.loads(line)
            except ValueError:
                counts["corrupt"] += 1
                continue
            name, args = call_of(row)
            counts["calls"] += 1
            validator = validators.get(name)
            if validator is None:
                counts["unknown"] += 1
            elif not validator.is_valid(args):
                counts["invalid"] += 1
    counts["seconds"] = time.process_time() - start
    return counts


def main():
    tools_file, path = sys.argv[1], sys.argv[2]
    with open(tools_file, encoding="utf-8") as f:
        tools = json.load(f)
    result = compiled(tools, path)
    from importlib.metadata import version
    result["versions"] = "Python %s, jsonschema %s" % (sys.version.split()[0], version("jsonschema"))
    print(json.dumps(result))


main()
