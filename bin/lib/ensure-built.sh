# Shared by bin/flink-sql and bin/datastream-example: (re)builds the modules the embedded Flink runs
# when a pom.xml or a main source is newer than the last build. Expects ROOT and RUNNER to be set.
# FLINK_SQL_SKIP_BUILD=1 runs what is built. FLINK_LINE (lib/flink-line.sh) picks the Flink line: the
# modules of both lines share target/, so a build for another line than the last one starts from clean.
# shellcheck source=flink-line.sh
. "$ROOT/bin/lib/flink-line.sh"
FLINK_CLASSPATH="$RUNNER/target/classpath-flink.txt"
STREAMHOUSE_CLASSPATH="$RUNNER/target/classpath-streamhouse.txt"
STAMP="$RUNNER/target/flink-sql.stamp"
# The modules `mvn -pl paimon-sql-runner -am` builds: a change under any of them triggers a rebuild.
MODULES=(paimon-storage paimon-flink-common paimon-flink-sink paimon-flink-source paimon-flink-catalog paimon-flink-cdc paimon-sql-runner)
CATALOG_SERVICES="$ROOT/paimon-flink-catalog/target/classes/META-INF/services/org.apache.flink.table.factories.Factory"

say() { echo "flink-sql: $*" >&2; }

# The line the modules were last built for (Maven writes it, whoever runs Maven).
built_line() { flink_line_built "${MODULES[@]}"; }

is_stale() {
  [ -f "$STAMP" ] && [ -f "$FLINK_CLASSPATH" ] && [ -f "$STREAMHOUSE_CLASSPATH" ] \
    && [ -d "$RUNNER/target/classes" ] && [ "$(built_line)" = "$FLINK_LINE" ] || return 0
  local watched=("$ROOT/pom.xml")
  local m
  for m in "${MODULES[@]}"; do
    watched+=("$ROOT/$m/pom.xml")
    [ -d "$ROOT/$m/src/main" ] && watched+=("$ROOT/$m/src/main")
  done
  [ -n "$(find "${watched[@]}" -newer "$STAMP" -type f -print -quit 2>/dev/null)" ]
}

build() {
  local goals=(package) built
  built="$(built_line)"
  local mvn_args=(-q -B -DskipTests -Dbundle.skip=true ${FLINK_LINE_ARGS[@]+"${FLINK_LINE_ARGS[@]}"})
  if [ -f "$FLINK_CLASSPATH" ] && [ "$built" != "$FLINK_LINE" ]; then
    goals=(clean package)
    say "the last build was for Flink ${built:-(unknown line)}, FLINK_LINE is $FLINK_LINE; rebuilding from clean" \
      "(mvn ${mvn_args[*]} clean package -pl paimon-sql-runner -am)"
  elif [ -f "$FLINK_CLASSPATH" ]; then
    say "sources changed since the last build; rebuilding (mvn ${mvn_args[*]} package -pl paimon-sql-runner -am)"
  else
    say "first run: building for Flink $FLINK_LINE (mvn ${mvn_args[*]} package -pl paimon-sql-runner -am);" \
      "on a fresh machine this downloads Flink from Maven Central and takes a few minutes"
  fi
  local started next
  started=$(date +%s)
  # Outside target/, which a clean build deletes; its time is the build's start, so edits made during
  # the build count as newer.
  next="$(mktemp "${TMPDIR:-/tmp}/flink-sql-stamp.XXXXXX")"
  (cd "$ROOT" && mvn "${mvn_args[@]}" "${goals[@]}" -pl paimon-sql-runner -am) >&2 || { rm -f "$next"; return 1; }
  mv -f "$next" "$STAMP"
  if [ "$(built_line)" != "$FLINK_LINE" ]; then
    say "the build did not record Flink line $FLINK_LINE in each module's target/flink-line"
    return 1
  fi
  say "built for Flink $FLINK_LINE in $(( $(date +%s) - started )) s"
}

if [ "${FLINK_SQL_SKIP_BUILD:-0}" != 1 ]; then
  mkdir -p "$RUNNER/target"
  if command -v flock >/dev/null 2>&1; then
    # Two runners started together must not run two Maven builds into the same target/.
    exec 9>"$RUNNER/target/.flink-sql.lock"
    flock 9
  fi
  if is_stale; then build; fi
  if command -v flock >/dev/null 2>&1; then exec 9>&-; fi
elif [ -f "$FLINK_CLASSPATH" ] && [ "$(built_line)" != "$FLINK_LINE" ]; then
  built="$(built_line)"
  say "cannot start: what is built is for Flink ${built:-(an unknown line)}, FLINK_LINE is $FLINK_LINE;" \
    "run without FLINK_SQL_SKIP_BUILD=1 to rebuild, or set FLINK_LINE to the built line"
  exit 2
fi
