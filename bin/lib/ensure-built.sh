# Shared by bin/flink-sql and bin/datastream-example: (re)builds the modules the embedded Flink runs
# when a pom.xml or a main source is newer than the last build. Expects ROOT and RUNNER to be set.
# FLINK_SQL_SKIP_BUILD=1 runs what is built.
FLINK_CLASSPATH="$RUNNER/target/classpath-flink.txt"
STREAMHOUSE_CLASSPATH="$RUNNER/target/classpath-streamhouse.txt"
STAMP="$RUNNER/target/flink-sql.stamp"
# The modules `mvn -pl paimon-sql-runner -am` builds: a change under any of them triggers a rebuild.
MODULES=(paimon-storage paimon-flink-common paimon-flink-sink paimon-flink-source paimon-flink-catalog paimon-flink-cdc paimon-sql-runner)
CATALOG_SERVICES="$ROOT/paimon-flink-catalog/target/classes/META-INF/services/org.apache.flink.table.factories.Factory"

say() { echo "flink-sql: $*" >&2; }

is_stale() {
  [ -f "$STAMP" ] && [ -f "$FLINK_CLASSPATH" ] && [ -f "$STREAMHOUSE_CLASSPATH" ] \
    && [ -d "$RUNNER/target/classes" ] || return 0
  local watched=("$ROOT/pom.xml")
  local m
  for m in "${MODULES[@]}"; do
    watched+=("$ROOT/$m/pom.xml")
    [ -d "$ROOT/$m/src/main" ] && watched+=("$ROOT/$m/src/main")
  done
  [ -n "$(find "${watched[@]}" -newer "$STAMP" -type f -print -quit 2>/dev/null)" ]
}

build() {
  if [ -f "$FLINK_CLASSPATH" ]; then
    say "sources changed since the last build; rebuilding (mvn -q -DskipTests -Dbundle.skip=true package -pl paimon-sql-runner -am)"
  else
    say "first run: building (mvn -q -DskipTests -Dbundle.skip=true package -pl paimon-sql-runner -am);" \
      "on a fresh machine this downloads Flink from Maven Central and takes a few minutes"
  fi
  local started
  started=$(date +%s)
  touch "$STAMP.next" 2>/dev/null || { mkdir -p "$RUNNER/target" && touch "$STAMP.next"; }
  (cd "$ROOT" && mvn -q -B -DskipTests -Dbundle.skip=true package -pl paimon-sql-runner -am) >&2
  # Stamp with the time the build started, so edits made during the build count as newer.
  mv -f "$STAMP.next" "$STAMP"
  say "built in $(( $(date +%s) - started )) s"
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
fi
