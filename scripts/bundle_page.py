#!/usr/bin/env python3
"""Joins the page's ES modules into the one classic script the page carries.

usage: bundle_page.py OUTPUT ENTRY.mjs [MODULE.mjs ...]
       bundle_page.py --self-test

The report page is one self-contained file with a strict Content-Security-
Policy (its own inline script, hashed; no network), so it cannot load
modules at run time. The modules under templates/page/ are real ES modules
(node imports them for the unit tests); the build joins them here, in the
order an ES module loader evaluates them (depth first from ENTRY, each
module after its imports), inside one function scope: the import lines go,
`export ` prefixes go, and every module's top-level names share that scope.

So that the joined script means what the modules mean, it fails when:
- a module has an import or export this script does not rewrite (only
  `import { a, b } from './x.mjs';` and `export` before a declaration);
- an import names something its module does not export;
- two modules declare the same top-level name;
- a module uses another module's top-level name without importing it (it
  would run joined, not as a module): a word-level check, so a local that
  reuses such a name is reported too; rename the local;
- the modules given are not exactly those ENTRY reaches (the build lists
  them all so that a change to any rebuilds the page).
"""
import os
import re
import sys
import tempfile

IMPORT = re.compile(r"^import\s*\{([^}]*)\}\s*from\s*'\./([\w-]+\.mjs)';[ \t]*\n",
                    re.M)
DECL = re.compile(r'^(?:export\s+)?(?:async\s+)?(function\*?|const|let|class)'
                  r'\s+([A-Za-z_$][\w$]*)(.*)$', re.M)
WORD = r'[A-Za-z_$][\w$]*'


class BundleError(Exception):
    pass


def code_only(text):
    """The text without comments and string contents, for the word checks."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r"'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"", "''", text)
    text = re.sub(r'`(?:\\.|[^`\\])*`', "''", text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def top_names(body):
    """The names a module declares at its top level (column 0)."""
    names = []
    for kind, name, rest in DECL.findall(body):
        names.append(name)
        if kind in ('const', 'let'):
            # `let a = [], b = '';`: the later names of one statement
            names += re.findall(r',\s*(' + WORD + r')\s*=', rest)
    return names


def parse(path):
    name = os.path.basename(path)
    with open(path, encoding='utf-8') as f:
        text = f.read()
    imports = [(mod, [n.strip() for n in names.split(',') if n.strip()])
               for names, mod in IMPORT.findall(text)]
    body = IMPORT.sub('', text)
    exports = set(re.findall(r'^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+('
                             + WORD + ')', body, re.M))
    body = re.sub(r'^export\s+(?=(?:async\s+)?(?:function|const|let|class)\b)', '',
                  body, flags=re.M)
    for n, line in enumerate(code_only(body).split('\n'), 1):
        if re.match(r'\s*(import|export)\b', line) or re.search(r'\bimport\s*\(', line):
            raise BundleError(f'{name}: an import or export this script cannot '
                              f'rewrite: {line.strip()[:60]}')
    for _, names in imports:
        for n in names:
            if not re.fullmatch(WORD, n):
                raise BundleError(f'{name}: import "{n}": only plain names, no "as"')
    return {'name': name, 'path': path, 'imports': imports, 'exports': exports,
            'body': body.strip('\n') + '\n', 'tops': top_names(body)}


def evaluation_order(entry, mods):
    """Depth first from entry, each module after its imports (ES order)."""
    order, seen = [], set()

    def visit(name, via):
        if name in seen:
            return
        if name not in mods:
            raise BundleError(f'{via}: imports {name}, which is not among the '
                              f'modules given')
        seen.add(name)
        for dep, _ in mods[name]['imports']:
            visit(dep, name)
        order.append(name)

    visit(entry, 'the command line')
    left = sorted(set(mods) - seen)
    if left:
        raise BundleError(f'{", ".join(left)}: given but not reached from {entry}')
    return order


def check_names(mods):
    owner = {}
    for m in mods.values():
        for n in m['tops']:
            if n in owner:
                raise BundleError(f'{m["name"]}: top-level "{n}" is declared in '
                                  f'{owner[n]} too; one scope holds them all')
            owner[n] = m['name']
    for m in mods.values():
        imported = set()
        for dep, names in m['imports']:
            for n in names:
                if n not in mods[dep]['exports']:
                    raise BundleError(f'{m["name"]}: imports "{n}", which '
                                      f'{dep} does not export')
                imported.add(n)
        code = code_only(m['body'])
        for n, where in owner.items():
            if where == m['name'] or n in imported:
                continue
            # a use: not a property (.n) and not an object key (n:)
            if re.search(r'(?<![\w$.])' + re.escape(n) + r'(?![\w$])(?!\s*:)', code):
                raise BundleError(f'{m["name"]}: uses "{n}" of {where} without '
                                  f'importing it (or a local of that name: '
                                  f'rename it)')


def bundle(paths):
    mods = {}
    for p in paths:
        m = parse(p)
        mods[m['name']] = m
    entry = os.path.basename(paths[0])
    order = evaluation_order(entry, mods)
    check_names(mods)
    out = ["/* heapscope's report page script, generated by scripts/bundle_page.py",
           ' * from templates/page/*.mjs: edit those. */',
           "'use strict';", '(function () {']
    for name in order:
        out.append(f'/* ==== {name} ==== */')
        out.append(mods[name]['body'])
    out.append('})();\n')
    return '\n'.join(out)


# Module sets for --self-test: None where the bundle must be made, else a
# word of the error it must fail with. `a.mjs` is the entry.
SELF_TESTS = [
    ({'a.mjs': "import { f } from './b.mjs';\nf();\n",
      'b.mjs': "export function f() { return 1; }\n"}, None),
    ({'a.mjs': "import { g } from './b.mjs';\ng();\n",
      'b.mjs': "export function f() {}\n"}, 'does not export'),
    ({'a.mjs': "import { f } from './b.mjs';\nconst x = 1;\n",
      'b.mjs': "export function f() {}\nconst x = 2;\n"}, 'declared in'),
    ({'a.mjs': "import './b.mjs';\nf();\n",
      'b.mjs': "export function f() {}\n"}, 'cannot rewrite'),
    ({'a.mjs': "import { f as g } from './b.mjs';\ng();\n",
      'b.mjs': "export function f() {}\n"}, 'no "as"'),
    ({'a.mjs': "export default 1;\n"}, 'cannot rewrite'),
    ({'a.mjs': "import { f } from './b.mjs';\nf(h);\n",
      'b.mjs': "export function f() {}\nexport function h() {}\n"}, 'without importing'),
    ({'a.mjs': "import { f } from './b.mjs';\nf();\n",
      'b.mjs': "export function f() {}\n", 'c.mjs': "let y;\n"}, 'not reached'),
    ({'a.mjs': "import { f } from './z.mjs';\nf();\n"}, 'not among'),
]


def self_test():
    """Shows that each rule fails a bad module set and a good one passes."""
    bad = 0
    for k, (files, want) in enumerate(SELF_TESTS):
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                with open(os.path.join(d, name), 'w') as f:
                    f.write(text)
            paths = [os.path.join(d, n) for n in sorted(files)]
            try:
                bundle(paths)
                got = None
            except BundleError as e:
                got = str(e)
            if (want is None) != (got is None) or (want and want not in got):
                print(f'self-test {k}: wanted {want!r}, got {got!r}')
                bad += 1
    print(f'{len(SELF_TESTS) - bad} of {len(SELF_TESTS)} self-tests passed')
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ['--self-test']:
        sys.exit(self_test())
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().split('\n\n')[1])
    dst, paths = sys.argv[1], sys.argv[2:]
    try:
        text = bundle(paths)
    except (BundleError, OSError) as e:
        sys.exit(f'bundle_page.py: {e}')
    tmp = dst + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(tmp, dst)


if __name__ == '__main__':
    main()
