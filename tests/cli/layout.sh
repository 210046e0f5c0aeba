# The layout of docs/architecture.md, checked: which folder may include
# which, and that only the runner starts processes.
set -u
fail() { echo "FAIL: $*"; exit 1; }

# includes DIR ALLOWED-REGEX: every #include "x/..." of DIR's sources
# names a folder matching ALLOWED
includes() {
	bad=$(grep -rn '^#include "' "$1" --include='*.c' --include='*.h' |
		grep -Ev "#include \"($2)/" || true)
	[ -z "$bad" ] || fail "$1 may include only $2:
$bad"
}
includes common 'common'
# the commands sit on top: nothing below them includes builtin.h or a
# file of builtin/
bad=$(grep -rn '^#include "builtin' common stress predictor profiler \
	workloads --include='*.c' --include='*.h' || true)
[ -z "$bad" ] || fail "only pandia.c and builtin/ include the commands:
$bad"
# common/ declares no command and prints nothing: it reports through
# the caller (common/report.h)
bad=$(grep -rnE '\b(stderr|stdout)\b|\b(printf|puts)[[:space:]]*\(' common \
	--include='*.c' | grep -v '^[^:]*:[0-9]*:[[:space:]]*\*' || true)
[ -z "$bad" ] || fail "common/ prints nothing:
$bad"
bad=$(grep -rln '^int cmd_' common stress predictor profiler --include='*.[ch]' || true)
[ -z "$bad" ] || fail "commands live in builtin/:
$bad"
includes stress 'common|stress'
includes predictor 'common|predictor'
includes profiler 'common|stress|predictor|profiler'
includes workloads 'workloads'

# no model's header outside its model and the table: the rest of the
# library reaches a model through predictor/models.h only.  Exempt: the
# Check suites and helper programs (tests/), which test the model
# directly; bench/, which times its fast path; and, by name, the
# command files that still read the Pandia model's own parameters and
# workspace (predict's --trace and --explain and its checks, explain's
# predicted stacks, validate's ranking parameters): a new file in
# builtin/ may not include them
builtin_exempt='builtin/(predict\.[ch]|explain\.[ch]|explain_stacks\.c|validate\.c)'
bad=$(grep -rln '^#include "predictor/pandia/' . --include='*.c' \
	--include='*.h' | sed 's|^\./||' |
	grep -Ev "^(predictor/(pandia/|models\.c\$)|tests/|bench/)" |
	grep -Ev "^$builtin_exempt\$" || true)
[ -z "$bad" ] || fail "only predictor/pandia/ and the table (models.c)
include the Pandia model's headers:
$bad"

# only the runner starts processes: the command and its init
# (profiler/run/exec.c, namespace.c), the stressors (stressor.c), the
# co-running command (corun.c), and helper programs (profiler/tool.c);
# the pinning library (profiler/shim/) wraps the program's own fork and
# exec, starting none itself
bad=$(grep -rlE '\b(fork|vfork|clone|SYS_clone|execv|execvp|execvpe|execve|execl|execlp|posix_spawn|posix_spawnp|popen|system)[[:space:]]*\(' \
	common stress predictor profiler --include='*.c' |
	grep -Ev '^profiler/(run/(exec|namespace|stressor|corun)\.c|tool\.c|shim/)' ||
	true)
[ -z "$bad" ] || fail "only profiler/run/{exec,namespace,stressor,corun}.c and
profiler/tool.c start processes:
$bad"

# files and functions stay small: no source file outside tests/ over
# 1,000 lines, no function over 120 (kernel style: a function's body
# opens with "{" and closes with "}" in the first column)
src=$(git ls-files '*.c' '*.h' 2>/dev/null | grep -v '^tests/' ||
	find . -name '*.[ch]' ! -path './tests/*' ! -path './build/*' |
	sed 's|^\./||')
bad=$(for f in $src; do
	n=$(wc -l <"$f")
	[ "$n" -le 1000 ] || echo "$f: $n lines"
done)
[ -z "$bad" ] || fail "source files over 1,000 lines (split by concern):
$bad"
bad=$(for f in $src; do
	case $f in *.c) ;; *) continue ;; esac
	awk -v f="$f" '
		/^\{/ { start = NR }
		/^\}/ { if (start && NR - start + 1 > 120)
				printf "%s:%d: %d lines\n", f, start,
				       NR - start + 1
			 start = 0 }' "$f"
done)
[ -z "$bad" ] || fail "functions over 120 lines (split into named steps):
$bad"

# every model's table row names a file that exists, and the table has
# the Pandia model first
grep -q '&model_pandia,' predictor/models.c || fail "no pandia row"
echo "layout as docs/architecture.md says"
