package dev.streamhouse.storage.fs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileIOs;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.fs.SeekableInputStream;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.testutils.CreateIfAbsentRace;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.testutils.TestTables;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.streamhouse.storage.testutils.MiniDfsExtension;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code hdfs://} warehouses on a real (in-process) HDFS: the file contract, the rename commit, tables. */
class HdfsWarehouseTest {
    @RegisterExtension
    static final MiniDfsExtension HDFS = new MiniDfsExtension();

    private static String root;

    @BeforeAll
    static void root() {
        root = HDFS.uri("").replaceAll("/$", "");
    }

    private static FileIO fileIO() {
        return FileIOs.forPath(new Path(root + "/"), new Options(Map.of()));
    }

    @Test
    void theFileContractHolds() throws Exception {
        FileIO io = fileIO();
        Path dir = new Path(root + "/contract/dt=2026-12-04%2F01");
        Path file = new Path(dir, "data-1.parquet");
        byte[] content = new byte[100_000];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 7);
        }
        try (PositionOutputStream out = io.newOutputStream(file, false)) {
            out.write(content);
            assertThat(out.position()).isEqualTo(content.length);
        }
        try (SeekableInputStream in = io.newInputStream(file)) {
            in.seek(90_000);
            assertThat((byte) in.read()).isEqualTo(content[90_000]);
            assertThat(in.position()).isEqualTo(90_001);
        }
        assertThat(io.list(new Path(root + "/contract")).stream().map(s -> s.path().name()))
                .containsExactly("dt=2026-12-04%2F01");
        assertThat(io.list(dir)).singleElement().satisfies(s -> {
            assertThat(s.path()).isEqualTo(file);
            assertThat(s.length()).isEqualTo(content.length);
        });
        assertThat(io.list(new Path(root + "/missing"))).isEmpty();
        Path moved = new Path(dir, "moved");
        Path other = new Path(dir, "other");
        io.overwrite(other, "other".getBytes(StandardCharsets.UTF_8));
        assertThat(io.rename(file, other)).as("rename onto an existing file").isFalse();
        assertThat(io.rename(file, moved)).isTrue();
        assertThat(io.exists(file)).isFalse();
        assertThat(io.readAllBytes(moved)).isEqualTo(content);
        assertThat(io.delete(moved, false)).isTrue();
        assertThat(io.delete(moved, false)).isFalse();
    }

    @Test
    void ofEightRacingWritersExactlyOneCreatesTheFileAndNoTempFileStays() throws Exception {
        FileIO io = fileIO();
        CreateIfAbsentRace.assertExactlyOneWinnerEachRound(io, r -> new Path(root + "/race/snapshot-" + r), 10, 8);
        assertThat(io.list(new Path(root + "/race"))).hasSize(10);
    }

    @Test
    void tablesAreWrittenCommittedAndReadOnHdfs() throws Exception {
        try (Catalog catalog = CatalogFactory.createCatalog(Options.of("warehouse", root + "/warehouse"))) {
            catalog.createDatabase("db", true);
            Identifier id = Identifier.of("db", "events");
            catalog.createTable(id, TestTables.simpleSchema(), false);
            Table table = catalog.getTable(id);
            List<InternalRow> first = TestTables.rows(0, 20, 3);
            List<InternalRow> second = TestTables.rows(20, 20, 3);
            TestTables.write(table, first);
            TestTables.write(table, second);
            List<InternalRow> all = new ArrayList<>(first);
            all.addAll(second);
            assertThat(TestTables.readAll(catalog.getTable(id))).isEqualTo(TestTables.show(all));
            assertThat(catalog.getTable(id).latestSnapshot().orElseThrow().id()).isEqualTo(2);
        }
    }
}
