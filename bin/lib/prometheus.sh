# Shared by bin/flink-sql and bin/cdc: PROMETHEUS_PORT turns on Flink's Prometheus reporter
# (flink-metrics-prometheus, on paimon-sql-runner's Flink classpath). Sets PROMETHEUS_ARGS to the two
# Flink options it stands for, empty when PROMETHEUS_PORT is unset:
#   -D metrics.reporter.prom.factory.class=org.apache.flink.metrics.prometheus.PrometheusReporterFactory
#   -D metrics.reporter.prom.port=$PROMETHEUS_PORT
# The port may be a range such as 9249-9259: each job's MiniCluster takes the first free one.
# Expects PROGRAM (the script's name, for messages); exits with 2 on a value that is not a port.
PROMETHEUS_ARGS=()
if [ -n "${PROMETHEUS_PORT:-}" ]; then
  if ! [[ "$PROMETHEUS_PORT" =~ ^[0-9]{1,5}(-[0-9]{1,5})?$ ]]; then
    echo "$PROGRAM: cannot turn on the Prometheus reporter: PROMETHEUS_PORT='$PROMETHEUS_PORT' is neither a port" \
      "nor a range of ports; set it to e.g. 9249 or 9249-9259, or unset it" >&2
    exit 2
  fi
  PROMETHEUS_ARGS=(
    -D metrics.reporter.prom.factory.class=org.apache.flink.metrics.prometheus.PrometheusReporterFactory
    -D "metrics.reporter.prom.port=$PROMETHEUS_PORT")
  # Flink's reporter has no bind-address option: it listens on every interface.
  echo "$PROGRAM: metrics for Prometheus at http://localhost:${PROMETHEUS_PORT%%-*}/metrics while a job runs" \
    "(port $PROMETHEUS_PORT, all interfaces)" >&2
fi
