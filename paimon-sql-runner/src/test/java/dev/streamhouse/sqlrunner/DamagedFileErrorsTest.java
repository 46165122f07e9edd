package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.read.CorruptDataFileException;
import org.apache.flink.table.client.gateway.SqlExecutionException;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.io.IOException;

/** Which error a failing statement shows: the one naming a damaged file, whether local or in the gateway's text. */
class DamagedFileErrorsTest {
    private static final String NAMED = "Cannot read data file file:/w/t/dt=1/bucket-0/data-1.parquet of table db.t "
            + "(partition dt=1, bucket 0): it has 5 bytes but 10 were written (truncated)";

    @Test
    void localChainShowsTheOutermostDamagedFileError() {
        RuntimeException failure = new SqlExecutionException("Failed to fetch",
                new RuntimeException("fetcher", new CorruptDataFileException(new Path("file:/w/t"), NAMED,
                        new IOException("parquet", new EOFException()))));

        RuntimeException shown = DamagedFileErrors.reveal(failure);

        assertThat(shown).isInstanceOf(SqlExecutionException.class).hasNoCause()
                .hasMessage(CorruptDataFileException.class.getName() + ": " + NAMED);
        assertThat(shown.getSuppressed()).as("the whole failure is kept for the log").containsExactly(failure);
    }

    @Test
    void gatewayTextShowsTheDamagedFileErrorNotTheLastCause() {
        String remote = "org.apache.flink.runtime.rest.util.RestClientException: [Internal server error., <Exception on "
                + "server side:\norg.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n"
                + "\tat org.apache.flink.X.y(X.java:1)\n"
                + "Caused by: java.lang.RuntimeException: SplitFetcher thread 0 received unexpected exception\n"
                + "\tat org.apache.flink.X.y(X.java:1)\n"
                + "Caused by: " + CorruptDataFileException.class.getName() + ": " + NAMED + "\n"
                + "\tat dev.streamhouse.X.y(X.java:1)\n"
                + "Caused by: java.io.EOFException\n\tat java.X.y(X.java:1)\n";
        RuntimeException failure = new SqlExecutionException("Failed to get response.", new IOException(remote));

        assertThat(DamagedFileErrors.reveal(failure)).hasMessage(CorruptDataFileException.class.getName() + ": " + NAMED);
    }

    @Test
    void otherFailuresPassUnchanged() {
        RuntimeException failure = new SqlExecutionException("x", new IOException(
                "Caused by: java.lang.NumberFormatException: For input string: 'abc'\n"
                        + "Caused by: dev.streamhouse.NoSuchClassException: not a class on this path\n"));

        assertThat(DamagedFileErrors.reveal(failure)).isSameAs(failure);
    }
}
