#!/usr/bin/env python3
"""Turns a text file into a C header holding it as one string constant.

usage: embed.py INPUT OUTPUT NAME
The build runs it (meson needs Python anyway), so templates/ stays plain
text that people edit, and the program carries it without installing it.
"""
import sys


def c_literal(line: bytes) -> str:
    # Three-digit octal escapes for everything outside printable ASCII
    # (UTF-8 included) and for the characters C treats specially.
    out = []
    for b in line:
        c = chr(b)
        if 0x20 <= b < 0x7f and c not in '"\\?':
            out.append(c)
        else:
            out.append(f'\\{b:03o}')
    return '"' + ''.join(out) + '"'


def main():
    src, dst, name = sys.argv[1:4]
    with open(src, 'rb') as f:
        data = f.read()
    body = [f'    {c_literal(line)}' for line in data.splitlines(keepends=True)]
    text = (f'/* Generated from {src.rsplit("/", 1)[-1]} by scripts/embed.py. */\n'
            f'static const char {name}[] =\n' + '\n'.join(body or ['    ""']) + ';\n')
    with open(dst, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
