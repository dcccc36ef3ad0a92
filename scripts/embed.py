#!/usr/bin/env python3
"""Turns a text file into a C header holding it as one string constant.

usage: embed.py INPUT OUTPUT NAME [--sha256]
The build runs it (meson needs Python anyway), so templates/ stays plain
text that people edit, and the program carries it without installing it.
"""
import base64
import hashlib
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
    # --sha256 also writes NAME_sha256, the base64 SHA-256 of the bytes, for
    # a Content-Security-Policy that allows exactly this inline script.
    want_hash = '--sha256' in sys.argv[4:]
    with open(src, 'rb') as f:
        data = f.read()
    body = [f'    {c_literal(line)}' for line in data.splitlines(keepends=True)]
    text = (f'/* Generated from {src.rsplit("/", 1)[-1]} by scripts/embed.py. */\n'
            f'static const char {name}[] =\n' + '\n'.join(body or ['    ""']) + ';\n')
    if want_hash:
        digest = base64.b64encode(hashlib.sha256(data).digest()).decode()
        text += f'static const char {name}_sha256[] = "{digest}";\n'
    with open(dst, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
