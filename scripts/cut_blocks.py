#!/usr/bin/env python3
"""cut_blocks.py: a threaded GHC eventlog cut down to a small seed for
the fuzz target fuzz_lanes (tests/fuzz/regress/lanes/), which still
takes the two lanes: every block keeps its marker (its size set to what
is left) and a few events of each repeated kind, the threads' and tasks'
events and the parallel GC's spinning dropped; events outside blocks
and the run's one-off events (cost centres, capabilities, the RTS's
identity) are kept whole, and heap samples whole or not at all.

    scripts/cut_blocks.py IN.eventlog OUT [--samples N] [--ticks N]

--samples: heap samples kept per block (default 3); --ticks: time-profile
samples kept per block (default 40). The bytes of the kept events are
the log's own.
"""
import argparse
import struct
import sys
from collections import Counter

BLOCK_MARKER = 18
HEAP_SAMPLE_BEGIN, HEAP_SAMPLE_CC, HEAP_SAMPLE_STRING, HEAP_SAMPLE_END = \
    162, 163, 164, 165
PROF_SAMPLE = 167
# repeated kinds kept a few per block: GC_START, GC_END, GC_STATS_GHC,
# HEAP_SIZE, HEAP_ALLOCATED, SPARK_COUNTERS, HEAP_LIVE
FEW = {9: 3, 10: 3, 53: 3, 50: 3, 49: 2, 34: 2, 51: 2}
# threads, tasks and the parallel GC's per-thread events
DROP = {0, 1, 2, 3, 4, 8, 12, 20, 21, 22, 54, 55, 56, 57}


class Log:
    def __init__(self, data):
        self.data = data
        self.pos = 0
        self.sizes = {}

    def expect(self, magic):
        got = self.data[self.pos:self.pos + len(magic)]
        if got != magic:
            sys.exit(f"cut_blocks: byte {self.pos}: {magic!r} expected, "
                     f"{got!r} found")
        self.pos += len(magic)

    def u(self, fmt, at):
        return struct.unpack_from('>' + fmt, self.data, at)[0]

    def header(self):
        self.expect(b'hdrb')
        self.expect(b'hetb')
        while self.data[self.pos:self.pos + 4] == b'etb\0':
            p = self.pos + 4
            tag, size = self.u('H', p), self.u('h', p + 2)
            p += 4
            p += 4 + self.u('I', p)  # description
            p += 4 + self.u('I', p)  # extra
            self.pos = p
            self.expect(b'ete\0')
            self.sizes[tag] = size
        self.expect(b'hete')
        self.expect(b'hdre')
        self.expect(b'datb')
        return self.data[:self.pos]

    def events(self):
        """(offset, tag, length) of every event up to the data-end mark."""
        out = []
        p = self.pos
        while True:
            tag = self.u('H', p)
            if tag == 0xFFFF:
                return out, p
            if tag not in self.sizes:
                sys.exit(f"cut_blocks: byte {p}: undeclared event type {tag}")
            size = self.sizes[tag]
            n = 12 + self.u('H', p + 10) if size == -1 else 10 + size
            out.append((p, tag, n))
            p += n


def cut(data, samples, ticks):
    log = Log(data)
    out = bytearray(log.header())
    events, end = log.events()
    few = {**FEW, PROF_SAMPLE: ticks}
    i = 0
    while i < len(events):
        at, tag, n = events[i]
        if tag != BLOCK_MARKER:
            if tag not in DROP:  # outside blocks: all but the dropped kinds
                out += data[at:at + n]
            i += 1
            continue
        block_end = at + log.u('I', at + 10)
        body = bytearray()
        kept = Counter()
        begun = 0
        in_sample = False
        i += 1
        while i < len(events) and events[i][0] < block_end:
            e_at, e_tag, e_n = events[i]
            i += 1
            if e_tag == HEAP_SAMPLE_BEGIN:
                begun += 1
                in_sample = begun <= samples
            if e_tag in (HEAP_SAMPLE_BEGIN, HEAP_SAMPLE_CC,
                         HEAP_SAMPLE_STRING, HEAP_SAMPLE_END):
                keep = in_sample
                if e_tag == HEAP_SAMPLE_END:
                    in_sample = False
            elif e_tag in DROP:
                keep = False
            elif e_tag in few:
                kept[e_tag] += 1
                keep = kept[e_tag] <= few[e_tag]
            else:
                keep = True
            if keep:
                body += data[e_at:e_at + e_n]
        marker = bytearray(data[at:at + n])
        struct.pack_into('>I', marker, 10, n + len(body))
        out += marker + body
    out += data[end:end + 2]
    return bytes(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('input')
    ap.add_argument('output')
    ap.add_argument('--samples', type=int, default=3)
    ap.add_argument('--ticks', type=int, default=40)
    a = ap.parse_args()
    with open(a.input, 'rb') as f:
        data = f.read()
    seed = cut(data, a.samples, a.ticks)
    with open(a.output, 'wb') as f:
        f.write(seed)
    print(f"{a.input}: {len(data)} bytes -> {a.output}: {len(seed)} bytes")


if __name__ == '__main__':
    main()
