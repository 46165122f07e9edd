package dev.streamhouse.storage.maintenance.consumer;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.system.SystemTable;
import dev.streamhouse.storage.table.system.SystemTables;
import dev.streamhouse.storage.testutils.TestTables;

import static dev.streamhouse.storage.testutils.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Consumer maintenance and {@code t$consumers} over real consumer files. */
class TableConsumersTest {
    @TempDir
    java.nio.file.Path dir;

    private List<String> consumersTable(Table table) throws Exception {
        SystemTable consumers = SystemTables.of(table, "consumers").orElseThrow();
        assertThat(consumers.rowType().fieldNames()).containsExactly("consumer_id", "next_snapshot_id");
        assertThat(consumers.rowType().fields()).allMatch(f -> !f.type().isNullable());
        List<String> out = new ArrayList<>();
        consumers.newRead().createReader().forEachRemaining(
                (InternalRow r) -> out.add(r.stringAt(0) + "=" + r.longAt(1)));
        return out;
    }

    @Test
    void resetDeleteAndClearChangeTheConsumerFiles() throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(dir.toString() + "/db.db/t"),
                TestTables.simpleSchema());
        TestTables.write(table, List.of(row(1, "a", "x")));
        TestTables.write(table, List.of(row(2, "b", "x")));
        TableConsumers consumers = TableConsumers.of(table);
        assertThat(consumersTable(table)).isEmpty();

        consumers.reset("job-a", 2);
        consumers.reset("job-b", 1);
        consumers.reset("keep", 1);
        assertThat(consumersTable(table)).containsExactly("job-a=2", "job-b=1", "keep=1");
        assertThat(Files.readString(dir.resolve("db.db/t/consumer/consumer-job-a"))).isEqualTo("{\n  \"nextSnapshot\" : 2\n}");
        assertThatThrownBy(() -> consumers.reset("job-a", 3)).hasMessageContaining("snapshot 3")
                .hasMessageContaining("does not exist");

        consumers.delete("job-b");
        consumers.delete("never-there");
        assertThat(consumers.list()).isEqualTo(Map.of("job-a", 2L, "keep", 1L));

        consumers.reset("job-c", 2);
        assertThat(consumers.clear(Pattern.compile("job-.*"), Pattern.compile("job-c"))).containsExactly("job-a");
        assertThat(consumers.clear(Pattern.compile(".*"), null)).containsExactly("job-c", "keep");
        assertThat(consumersTable(table)).isEmpty();
    }
}
