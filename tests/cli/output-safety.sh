# -o never harms what it points at, and is checked before the work:
# a FIFO, a symbolic link and a directory are refused; a 0600 file
# keeps its mode; a character device (a null device this test makes)
# is written through, not replaced; a bad path fails at once.
set -u
P="$(pwd)/${B:-build}/pandia"
A="$(pwd)/tests/data/assume-full.json"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/err" 2>/dev/null; exit 1; }
cd "$T" || exit 1
topo() { "$P" machine --topology 'pack:1 core:2 pu:1' --assume "$A" -o "$1" \
	>/dev/null 2>"$T/err"; }

mkfifo fifo
topo fifo && fail "-o on a FIFO was accepted"
[ -p fifo ] || fail "the FIFO was replaced"
grep -q "not a regular file" err || fail "FIFO: no reason given"

echo kept >target
ln -s target link
topo link && fail "-o on a symbolic link was accepted"
[ -L link ] && [ "$(cat target)" = kept ] || fail "the link or its target changed"

echo old >secret
chmod 600 secret
topo secret || fail "-o on a 0600 file failed"
[ "$(stat -c %a secret)" = 600 ] || fail "mode 0600 became $(stat -c %a secret)"
grep -q pandia-machine/1 secret || fail "the 0600 file was not written"

umask 022
topo new.json || fail "-o on a new name failed"
[ "$(stat -c %a new.json)" = 644 ] || fail "a new file got mode $(stat -c %a new.json)"

topo . && fail "-o on a directory was accepted"
topo '' && fail "-o '' was accepted"
grep -q "empty" err || fail "-o '': no reason given"

# early: nothing is measured or run before a bad -o is refused
start=$(date +%s)
"$P" machine --quick -o /nonexistent/dir/m.json >/dev/null 2>err &&
	fail "machine -o into a missing directory was accepted"
[ $(( $(date +%s) - start )) -le 2 ] || fail "machine measured before refusing -o"
grep -q "/nonexistent/dir" err || fail "machine: the bad path is not named"
"$P" profile -m "$(pwd)/new.json" -o /nonexistent/dir/w.json -- \
	sh -c 'touch ran' >/dev/null 2>err &&
	fail "profile -o into a missing directory was accepted"
[ -e ran ] && fail "profile ran the command before refusing -o"

# a character device is written through, never replaced
if [ "$(id -u)" = 0 ] && mknod null c 1 3 2>/dev/null; then
	topo null || fail "-o on a character device failed"
	[ -c null ] || fail "the character device was replaced by a file"
else
	echo "note: not root or no mknod here: the character device case " \
		"is tested with /dev/null only"
fi
"$P" machine --topology 'pack:1 core:2 pu:1' --assume "$A" -o /dev/null \
	>/dev/null 2>err || fail "-o /dev/null failed"
[ -c /dev/null ] || fail "/dev/null is no longer a device"
# /dev/full takes no write: refused before any work, in every command
# with -o (within a second: nothing is run)
if [ -c /dev/full ]; then
	topo big.json || fail "cannot describe a machine"
	W="$(cd "$OLDPWD" && pwd)/tests/data/workload-bounds.json"
	for args in "machine --topology pack:1 -o /dev/full" \
		"profile -m big.json -o /dev/full -- sleep 2" \
		"extrapolate -m big.json -o /dev/full -- sleep 2" \
		"validate -m big.json -w $W --force -o /dev/full -- sleep 2" \
		"explain -m big.json -w $W --force -o /dev/full -- sleep 2"; do
		t0=$(date +%s%N)
		"$P" $args >/dev/null 2>err && fail "$args: accepted"
		t1=$(date +%s%N)
		grep -q "/dev/full" err || fail "$args: /dev/full not named"
		[ $(((t1 - t0) / 1000000)) -lt 1000 ] ||
			fail "$args: refused after $(((t1 - t0) / 1000000)) ms"
	done
fi
echo "output safety: FIFO, link, 0600, new, directory, '', early checks, device, /dev/full"
