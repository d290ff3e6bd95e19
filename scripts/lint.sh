#!/usr/bin/env bash
# Runs clang-tidy-14 with the repository's .clang-tidy (function size, cognitive complexity,
# bug-prone patterns) on the project's .cpp files and prints the offenders, one line each,
# deduplicated (a header's finding is reported once, not once per file that includes it),
# then a count per check. Exits 1 if there is any finding, 0 otherwise.
#
#   bash scripts/lint.sh [BUILD_DIR] [FILE ...]
#
# BUILD_DIR: a build folder with compile_commands.json (default build-lint). The top-level
# CMakeLists.txt does not set CMAKE_EXPORT_COMPILE_COMMANDS, so when BUILD_DIR has no database
# it is configured here (configure only, nothing is built: CPU only, clang++-14, so that the
# database holds no GCC-only flags):
#   cmake -S . -B BUILD_DIR -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DMBSWEEP_ENABLE_CUDA=OFF \
#         -DCMAKE_CXX_COMPILER=clang++-14
# A database made by GCC (e.g. `cmake --preset cpu -DCMAKE_EXPORT_COMPILE_COMMANDS=ON`) works
# too: flags clang does not know (-fno-tree-loop-distribute-patterns, --param=...) are dropped
# from a copy. FILE: only these files (default: every .cpp of common, cpu, studies, bench and
# tests in the database; CUDA files are not checked: the database has no clang commands for
# them).
# Environment: MBSWEEP_JOBS (parallel clang-tidy processes, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
BUILD_DIR="${1:-build-lint}"
[ $# -gt 0 ] && shift
JOBS="${MBSWEEP_JOBS:-2}"
TIDY="${CLANG_TIDY:-clang-tidy-14}"
command -v "$TIDY" >/dev/null || { echo "lint.sh: $TIDY not found (apt-get install clang-tidy-14)" >&2; exit 2; }

if [ ! -f "$BUILD_DIR/compile_commands.json" ]; then
  echo "lint.sh: configuring $BUILD_DIR for a compile database (nothing is built)" >&2
  cmake -S . -B "$BUILD_DIR" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DMBSWEEP_ENABLE_CUDA=OFF \
        -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Release >/dev/null
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# A copy of the database without GCC-only flags, and the list of files to check.
python3 - "$BUILD_DIR/compile_commands.json" "$WORK" "$ROOT" "$@" <<'EOF'
import json, os, re, sys
db_path, work, root, only = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
db = json.load(open(db_path))
gcc_only = re.compile(r"^(-fno-tree-loop-distribute-patterns|--param=.*|-fno-fat-lto-objects)$")
seen, files = set(), []
for e in db:
    if "arguments" in e:
        e["arguments"] = [a for a in e["arguments"] if not gcc_only.match(a)]
    else:
        e["command"] = " ".join(a for a in e["command"].split() if not gcc_only.match(a))
    f = os.path.realpath(os.path.join(e.get("directory", ""), e["file"]))
    rel = os.path.relpath(f, root)
    if not rel.endswith(".cpp") or rel.split(os.sep)[0] not in ("common", "cpu", "studies", "bench", "tests"):
        continue
    if only and rel not in [os.path.normpath(o) for o in only]:
        continue
    if f not in seen:
        seen.add(f)
        files.append(f)
json.dump(db, open(os.path.join(work, "compile_commands.json"), "w"))
open(os.path.join(work, "files.txt"), "w").write("\n".join(sorted(files)) + "\n")
EOF
n=$(grep -c . "$WORK/files.txt" || true)
[ "$n" -gt 0 ] || { echo "lint.sh: no files to check" >&2; exit 2; }
echo "lint.sh: $TIDY on $n files, $JOBS at a time" >&2
tr '\n' '\0' <"$WORK/files.txt" |
  xargs -0 -P "$JOBS" -I{} sh -c '"$0" -p "$1" --quiet "$2" >"$1/$(echo "$2" | tr / _).log" 2>/dev/null || true' \
        "$TIDY" "$WORK" {}

python3 - "$WORK" "$ROOT" <<'EOF'
import collections, glob, os, re, sys
work, root = sys.argv[1], sys.argv[2]
pat = re.compile(r"^(/[^:]+):(\d+):(\d+): warning: (.*) \[([a-z0-9.,-]+)\]$")
note = re.compile(r"^/[^:]+:\d+:\d+: note: (\d+ lines including whitespace and comments)")
found = {}
for log in glob.glob(os.path.join(work, "*.log")):
    last = None
    for line in open(log, errors="replace"):
        line = re.sub(r"\x1b\[[0-9;]*m", "", line.rstrip("\n"))
        n = note.match(line)
        if n and last in found and "exceeds" in found[last]:
            found[last] = found[last].split(": ")[0] + ": " + n.group(1)
            continue
        m = pat.match(line)
        if not m:
            continue
        path, ln, col, msg, check = m.groups()
        if check.startswith("clang-diagnostic"):
            continue
        rel = os.path.relpath(path, root)
        if rel.startswith(".."):
            continue  # system and third-party headers
        last = (rel, int(ln), check)
        if last not in found or "lines including" not in found[last]:
            found[last] = msg
counts = collections.Counter(check for (_, _, check) in found)
for (rel, ln, check), msg in sorted(found.items()):
    print(f"{rel}:{ln}: {msg} [{check}]")
for check, c in counts.most_common():
    print(f"{c:5d} {check}", file=sys.stderr)
print(f"lint.sh: {len(found)} finding(s)", file=sys.stderr)
sys.exit(1 if found else 0)
EOF
