# Shared by the scripts that run the embedded Flink (through lib/ensure-built.sh): which Flink line
# they build and run, from the environment variable FLINK_LINE.
#   1.20 (default)  Maven's default profile (flink-1.20)
#   2.2             Maven profile flink-2.2 (-Pflink-2.2)
#   2.3             Maven profile flink-2.3 (-Pflink-2.3): a smoke line, not yet tested in full
# Sets FLINK_LINE and FLINK_LINE_ARGS (the Maven arguments that select it); refuses any other value.
FLINK_LINE="${FLINK_LINE:-1.20}"
case "$FLINK_LINE" in
  1.20) FLINK_LINE_ARGS=() ;;
  2.2) FLINK_LINE_ARGS=(-Pflink-2.2) ;;
  2.3) FLINK_LINE_ARGS=(-Pflink-2.3) ;;
  *)
    echo "$(basename "$0"): unsupported FLINK_LINE '$FLINK_LINE': use 1.20 (the default) or 2.2 (2.3: a smoke line)" >&2
    exit 2
    ;;
esac

# The Flink line the given modules were last built for (every build writes <module>/target/flink-line):
# empty if one of them has not been built, "several lines" if they differ. Expects ROOT to be set.
flink_line_built() {
  local m line first=""
  for m in "$@"; do
    line="$(cat "$ROOT/$m/target/flink-line" 2>/dev/null || true)"
    if [ -z "$line" ]; then echo ""; return; fi
    if [ -z "$first" ]; then first="$line"; elif [ "$line" != "$first" ]; then echo "several lines"; return; fi
  done
  echo "$first"
}
