# Shared by bin/datastream-example and bin/kafka-example: compiles one file of examples/ against the
# embedded Flink's classpath and runs its class, Flink's INFO logging going to a file.
# Usage: run_example <path under examples/> <main class> <log name> [args...]. Expects ROOT and RUNNER.
run_example() {
  local source="$1" main="$2" log="$3"
  shift 3
  local cp out opens
  cp="$(cat "$FLINK_CLASSPATH"):$(cat "$STREAMHOUSE_CLASSPATH")"
  out="$RUNNER/target/examples-classes"
  mkdir -p "$out" "$RUNNER/target/logs"
  javac -d "$out" -cp "$cp" "$ROOT/examples/$source"
  opens=$(sed -n 's:.*<flink.jdk17.opens>\(.*\)</flink.jdk17.opens>.*:\1:p' "$ROOT/pom.xml")
  # shellcheck disable=SC2086
  exec java $opens -Dlog4j.configurationFile="file:$ROOT/conf/local/log4j.properties" \
    -Dlog.file="$RUNNER/target/logs/$log.log" -cp "$out:$cp" "$main" "$@"
}
