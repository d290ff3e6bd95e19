#!/usr/bin/env python3
"""Lists functions longer than N lines in C++/CUDA sources, without a build.

Usage: python3 scripts/function_length.py [--max N] [PATH ...]
  PATH: files or folders (default: common cpu cuda studies tests bench); folders are searched
  for .h, .hpp, .cuh, .cpp, .cc and .cu files. Prints "file:line: name: L lines (max N)" for
  each offender, longest first, and exits 1 if there is any (0 otherwise).

A function's length is counted as clang-tidy's readability-function-size counts it: the line
of the body's closing brace minus the line of its opening brace (so both tools agree on the
threshold). Functions are found by brace matching over the source with comments, string and
character literals and preprocessor lines blanked out: a '{' outside any function whose
preceding declaration text ends in a parameter list (plus const, noexcept, override, a
trailing return type, ...) opens a function body; lambdas and local classes inside a
function count as part of it; a brace initializer (`= {`, a table) at namespace or class
scope is not a function.

Exemption (data tables, generated dispatch): put `NOLINT(readability-function-size)` in a
comment on the line of the function's name, or `NOLINTNEXTLINE(readability-function-size)`
on the line before it; clang-tidy honours the same markers. Say why next to it.
"""

import argparse
import os
import re
import sys

EXTENSIONS = (".h", ".hpp", ".cuh", ".cpp", ".cc", ".cu")
DEFAULT_ROOTS = ("common", "cpu", "cuda", "studies", "tests", "bench")
NOT_NAMES = {"if", "for", "while", "switch", "catch", "return", "sizeof", "alignas", "decltype",
             "__attribute__", "__launch_bounds__", "__declspec", "static_assert", "noexcept"}
QUALIFIERS = re.compile(r"^(\s*(const|volatile|noexcept|override|final|mutable|try|&&|&|->[^{;]*))*\s*$")
MARKER = "readability-function-size"


def blank(text):
    """Returns text with comments, string/char literals and preprocessor lines replaced by
    spaces (newlines kept, so line numbers stay)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":  # preprocessor line, with continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        line_start = False
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('"', i + 1) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i + m.end())
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):  # 1'000 is a digit separator
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else " " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_template_prefix(header):
    h = header.lstrip()
    while h.startswith("template"):
        k = h.find("<")
        if k < 0:
            break
        depth = 0
        for j in range(k, len(h)):
            if h[j] == "<":
                depth += 1
            elif h[j] == ">":
                depth -= 1
                if depth == 0:
                    h = h[j + 1:].lstrip()
                    break
        else:
            break
    return h


def top_level(header):
    """Yields (index, char) of characters outside parentheses, brackets and braces."""
    depth = 0
    for i, c in enumerate(header):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0:
            yield i, c


def has_top_level_assign(header):
    for i, c in top_level(header):
        if c == "=" and header[i - 1:i + 1] not in ("==", "!=", "<=", ">=") and header[i:i + 2] != "==":
            if not re.search(r"operator\s*\S?$", header[:i]):
                return True
    return False


def function_name(header):
    """Name before the parameter list if `header` declares a function, else None."""
    h = strip_template_prefix(header)
    if "(" not in h or has_top_level_assign(h):
        return None
    depth = 0
    start = None
    for i, c in enumerate(h):
        if c == "(":
            if depth == 0:
                m = re.search(r"((?:[A-Za-z_~]\w*|operator\s*[^\s\w(]+|operator\s*\(\s*\)|>)(?:\s*::\s*~?\w+)*)\s*$", h[:i])
                tok = m.group(1) if m else ""
                if tok and tok.split("::")[-1].strip() not in NOT_NAMES and start is None:
                    start = i
                    name = tok
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and start is not None:
                rest = h[i + 1:]
                if QUALIFIERS.match(rest) or re.match(r"^\s*:[^:]", rest):  # qualifiers or ctor initializers
                    return re.sub(r"\s+", "", name) if not name.startswith("operator") else re.sub(r"\s+", " ", name)
                if not rest.strip():
                    return name
    return None


def ctor_init_pending(header):
    """True if `header` is a constructor header inside its initializer list, before a member's
    brace initializer (`Foo(int a) : a_(a), b_`)."""
    h = strip_template_prefix(header)
    depth = 0
    for i, c in enumerate(h):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and re.match(r"^\s*(noexcept\s*)?:[^:]", h[i + 1:]):
                return bool(re.search(r"[\w>]\s*$", h))
    return False


def scan(path, max_lines):
    with open(path, encoding="utf-8", errors="replace") as f:
        raw = f.read()
    raw_lines = raw.split("\n")
    text = blank(raw)
    results = []
    # stack entries: ("scope" | "init" | "function", ...)
    stack = []
    header_start = 0
    line = 1
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        in_function = any(e[0] == "function" for e in stack)
        if in_function:
            if c == "{":
                stack.append(("inner",))
            elif c == "}":
                e = stack.pop()
                if e[0] == "function":
                    _, name, open_line, name_line = e
                    length = line - open_line
                    if length > max_lines and not exempt(raw_lines, name_line, open_line):
                        results.append((path, name_line, name, length))
                    header_start = i + 1
            i += 1
            continue
        if c == ";":
            header_start = i + 1
        elif c == "{":
            header = text[header_start:i]
            name = function_name(header) if not ctor_init_pending(header) else None
            if name in ("TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P"):
                m = re.search(r"\(([^)]*)\)\s*$", header)  # TEST(Suite, Name): name it so
                name = name + "(" + " ".join(m.group(1).split()) + ")" if m else name
            elif name:
                classes = [e[1] for e in stack if e[0] == "scope" and e[1]]
                if classes and "::" not in name:
                    name = "::".join(classes + [name])
            if name:
                stripped = header.rstrip()
                k = header_start + len(header) - len(header.lstrip())
                name_pos = text.find(name.split("::")[-1].strip(), k, header_start + len(stripped)) if name != ">" else k
                name_line = text.count("\n", 0, max(name_pos, k)) + 1
                stack.append(("function", name, line, name_line))
            elif ctor_init_pending(header):
                stack.append(("ctorinit",))
            elif has_top_level_assign(strip_template_prefix(header)) or re.search(r"(\breturn|[,(\[])\s*$", header):
                stack.append(("init",))
            else:
                m = re.search(r"\b(?:class|struct|union)\s+(?:\w+\s+)*?(\w+)\s*(?:final\s*)?(?::[^{]*)?$",
                              strip_template_prefix(header).strip())
                stack.append(("scope", m.group(1) if m else ""))
                header_start = i + 1
        elif c == "}":
            if stack:
                e = stack.pop()
                if e[0] == "scope":
                    header_start = i + 1
                elif e[0] == "init":
                    pass  # the declaration goes on to its ';'
            else:
                print(f"{path}:{line}: warning: unbalanced '}}' (preprocessor branches?)", file=sys.stderr)
                header_start = i + 1
        i += 1
    if stack:
        print(f"{path}: warning: {len(stack)} unclosed braces (preprocessor branches?)", file=sys.stderr)
    return results


def exempt(raw_lines, name_line, open_line):
    lines = raw_lines[max(0, name_line - 2):open_line]
    return any(MARKER in l and "NOLINT" in l for l in lines)


def files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not d.startswith("build"))
                for name in sorted(names):
                    if name.endswith(EXTENSIONS):
                        yield os.path.join(root, name)
        elif p.endswith(EXTENSIONS):
            yield p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max", type=int, default=80, help="longest allowed body, in lines (default 80)")
    ap.add_argument("paths", nargs="*", default=list(DEFAULT_ROOTS))
    args = ap.parse_args()
    found = []
    for path in files(args.paths):
        found.extend(scan(path, args.max))
    found.sort(key=lambda r: (-r[3], r[0], r[1]))
    for path, line, name, length in found:
        print(f"{path}:{line}: {name}: {length} lines (max {args.max})")
    print(f"{len(found)} function(s) over {args.max} lines", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
