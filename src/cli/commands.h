/*
 * The one place a command is registered: its name, the function that runs
 * it (cmd_NAME in cmd_NAME.c) and its line in 'heapscope --help'. main.c
 * builds the dispatch table and the command list from it, cli.h the
 * prototypes. A new command is a cmd_NAME.c, a line here and its name in
 * src/cli/meson.build.
 */
#define HS_CLI_COMMANDS(X) \
    X(report,  "the interactive page, chart, .hp, CSV and folded stacks at once") \
    X(chart,   "a stacked-area chart as SVG, PDF or PNG") \
    X(hp,      "a .hp file as the runtime writes it (hp2ps reads it)") \
    X(csv,     "census tables as CSV") \
    X(folded,  "folded stacks for flamegraph.pl, inferno and speedscope") \
    X(top,     "the cost-centre table of a time profile, as in .prof") \
    X(ticky,   "ticky-ticky counters: entries and allocation per closure") \
    X(summary, "garbage-collector statistics as +RTS -s prints them") \
    X(diff,    "two runs compared band by band (BEFORE AFTER)") \
    X(info,    "what a log holds: program, profile, samples, completeness") \
    X(events,  "every event, one line each (--count: events per type)") \
    X(watch,   "follow a running program: status lines, report, HTTP")
