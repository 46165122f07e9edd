package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.fs.SeekableInputStream;
import dev.streamhouse.storage.schema.SchemaChange.Move;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ALTER TABLE through {@link SchemaManager#commitChanges}: ids, positions, rules and refusals. */
class SchemaEvolutionTest {
    @TempDir
    java.nio.file.Path tmp;

    private final LocalFileIO fileIO = LocalFileIO.INSTANCE;
    private Path root;
    private SchemaManager manager;

    @BeforeEach
    void setUp() {
        root = new Path(tmp.toString() + "/default.db/t");
        manager = new SchemaManager(fileIO, root, "default.t");
    }

    /** Partitioned primary-key table: dt (partition), id (key), v, s, r ROW&lt;x, y&gt;. */
    private TableSchema createPk(String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.BIGINT())
                .column("s", DataTypes.STRING())
                .column("r", DataTypes.ROW(DataTypes.FIELD(0, "x", DataTypes.INT()), DataTypes.FIELD(0, "y", DataTypes.STRING())))
                .partitionKeys("dt")
                .primaryKey("dt", "id");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return manager.createTable(b.build());
    }

    private TableSchema alter(SchemaChange... changes) throws Exception {
        return manager.commitChanges(List.of(changes));
    }

    private static List<String> describe(TableSchema s) {
        List<String> out = new ArrayList<>();
        for (DataField f : s.fields()) {
            out.add(f.id() + ":" + f.name() + " " + f.type() + (f.description() == null ? "" : " '" + f.description() + "'"));
        }
        return out;
    }

    @Test
    void newColumnsGetFreshIdsNestedFieldsFollowAndDroppedIdsAreNeverReused() throws Exception {
        TableSchema created = createPk();
        // dt=0, id=1, v=2, s=3, r=4 with x=5, y=6
        assertThat(created.highestFieldId()).isEqualTo(6);

        TableSchema added = alter(SchemaChange.addColumn("n", DataTypes.ROW(DataTypes.FIELD(0, "p", DataTypes.INT()),
                DataTypes.FIELD(0, "q", DataTypes.DOUBLE())), "nested", Move.after("id")));
        assertThat(added.id()).isEqualTo(1);
        assertThat(added.fieldNames()).containsExactly("dt", "id", "n", "v", "s", "r");
        DataField n = added.fields().get(2);
        assertThat(n.id()).isEqualTo(7);
        assertThat(((RowType) n.type()).fields()).extracting(DataField::id).containsExactly(8, 9);
        assertThat(n.description()).isEqualTo("nested");
        assertThat(added.highestFieldId()).isEqualTo(9);

        TableSchema dropped = alter(SchemaChange.dropColumn("n"));
        assertThat(dropped.highestFieldId()).isEqualTo(9);
        TableSchema readded = alter(SchemaChange.addColumn("n", DataTypes.INT()));
        assertThat(readded.fields().get(readded.fields().size() - 1).id()).isEqualTo(10);
        assertThat(readded.highestFieldId()).isEqualTo(10);

        String json = fileIO.readUtf8(new Path(root, "schema/schema-3"));
        assertThat(json).contains("\"highestFieldId\" : 10").contains("\"id\" : 10,\n    \"name\" : \"n\"")
                .contains("\"id\" : 3,").contains("\"version\" : 3");
        assertThat(manager.listIds()).containsExactly(0L, 1L, 2L, 3L);
        assertThat(manager.schema(3)).isEqualTo(readded);
    }

    @Test
    void renameReorderRetypeAndCommentKeepIds() throws Exception {
        createPk();
        TableSchema s = alter(
                SchemaChange.renameColumn("s", "label"),
                SchemaChange.updateColumnPosition("label", Move.first()),
                SchemaChange.updateColumnType("v", DataTypes.DECIMAL(25, 2)),
                SchemaChange.updateColumnComment("v", "amount"),
                SchemaChange.updateColumnPosition("v", Move.last()),
                SchemaChange.updateColumnType("r", DataTypes.ROW(DataTypes.FIELD(0, "x", DataTypes.INT()),
                        DataTypes.FIELD(0, "y", DataTypes.STRING()), DataTypes.FIELD(0, "z", DataTypes.BIGINT()))),
                SchemaChange.updateComment("evolved"),
                SchemaChange.setOption("snapshot.num-retained.max", "50"));
        assertThat(describe(s)).containsExactly(
                "3:label STRING",
                "0:dt STRING NOT NULL",
                "1:id INT NOT NULL",
                "4:r ROW<`x` INT, `y` STRING, `z` BIGINT>",
                "2:v DECIMAL(25, 2) 'amount'");
        RowType r = (RowType) s.fields().get(3).type();
        assertThat(r.fields()).extracting(DataField::id).containsExactly(5, 6, 7);
        assertThat(s.highestFieldId()).isEqualTo(7);
        assertThat(s.comment()).isEqualTo("evolved");
        assertThat(s.options()).containsEntry("snapshot.num-retained.max", "50");
        assertThat(s.id()).isEqualTo(1);
        assertThat(manager.listIds()).containsExactly(0L, 1L);
    }

    @Test
    void perColumnOptionsFollowRenamesAndDisappearWithDroppedColumns() throws Exception {
        createPk("fields.s.stats-mode", "full", "fields.v.stats-mode", "none");
        alter(SchemaChange.addColumn("sx", DataTypes.STRING()), SchemaChange.setOption("fields.sx.stats-mode", "counts"));
        TableSchema s = alter(SchemaChange.renameColumn("s", "label"), SchemaChange.dropColumn("v"));
        assertThat(s.options()).containsOnly(java.util.Map.entry("fields.label.stats-mode", "full"),
                java.util.Map.entry("fields.sx.stats-mode", "counts"));
    }

    @Test
    void updateColumnTypeKeepsNullabilityAndNullabilityHasItsOwnChange() throws Exception {
        manager.createTable(Schema.newBuilder()
                .column("a", DataTypes.INT().notNull())
                .column("b", DataTypes.INT())
                .build());
        TableSchema s = alter(SchemaChange.updateColumnType("a", DataTypes.BIGINT()),
                SchemaChange.updateColumnType("b", DataTypes.BIGINT().notNull()));
        assertThat(describe(s)).containsExactly("0:a BIGINT NOT NULL", "1:b BIGINT");
        s = alter(SchemaChange.updateColumnNullability("a", true));
        assertThat(describe(s)).containsExactly("0:a BIGINT", "1:b BIGINT");
        assertThatThrownBy(() -> alter(SchemaChange.updateColumnNullability("b", false)))
                .isInstanceOf(SchemaChangeException.class)
                .hasMessage("Cannot make column 'b' of table default.t NOT NULL: files written before may hold NULLs "
                        + "in it, and changing a nullable column to NOT NULL is not supported");
    }

    @Test
    void changesThatLeaveTheSchemaAsItIsWriteNothing() throws Exception {
        createPk("merge-engine", "deduplicate");
        TableSchema same = alter(SchemaChange.setOption("merge-engine", "deduplicate"),
                SchemaChange.removeOption("not-set"), SchemaChange.updateColumnType("v", DataTypes.BIGINT()),
                SchemaChange.renameColumn("v", "v"), SchemaChange.updateColumnNullability("v", true));
        assertThat(same.id()).isEqualTo(0);
        assertThat(manager.listIds()).containsExactly(0L);
        assertThat(alter().id()).isEqualTo(0);
    }

    @Test
    void aRefusedChangeInAListWritesNothing() throws Exception {
        createPk();
        assertThatThrownBy(() -> alter(SchemaChange.addColumn("ok", DataTypes.INT()), SchemaChange.dropColumn("dt")))
                .isInstanceOf(SchemaChangeException.class);
        assertThat(manager.listIds()).containsExactly(0L);
        assertThat(manager.latest().orElseThrow().fieldNames()).doesNotContain("ok");
    }

    @Test
    void columnChangesAreRefusedWithTheirReason() throws Exception {
        createPk("bucket", "2", "sequence.field", "v", "bucket-key", "id");
        String t = "table default.t";
        assertRefused(SchemaChange.addColumn("v", DataTypes.INT()), SchemaChangeException.ColumnAlreadyExist.class,
                "Cannot add column 'v' to " + t + ": a column with that name already exists");
        assertRefused(SchemaChange.addColumn("w", DataTypes.INT().notNull()), SchemaChangeException.class,
                "Cannot add column 'w' to " + t + ": a new column must be nullable, since rows written before have "
                        + "no value for it; add it as INT");
        assertRefused(SchemaChange.addColumn("_KEY_w", DataTypes.INT()), SchemaChangeException.class,
                "Cannot add column '_KEY_w' to " + t + ": the name '_KEY_w' is reserved");
        assertRefused(SchemaChange.addColumn("w", DataTypes.INT(), null, Move.after("zz")),
                SchemaChangeException.ColumnNotExist.class,
                "Cannot add column 'w' to " + t + ": reference column 'zz' of AFTER does not exist; columns are "
                        + "[dt, id, v, s, r]");
        assertRefused(SchemaChange.dropColumn("zz"), SchemaChangeException.ColumnNotExist.class,
                "Cannot drop column 'zz' of " + t + ": it does not exist; columns are [dt, id, v, s, r]");
        assertRefused(SchemaChange.dropColumn("dt"), SchemaChangeException.class,
                "Cannot drop column 'dt' of " + t + ": it is a partition key, and altering partition keys is not "
                        + "supported yet");
        assertRefused(SchemaChange.dropColumn("id"), SchemaChangeException.class,
                "Cannot drop column 'id' of " + t + ": it is part of the primary key, and altering the primary key "
                        + "is not supported yet");
        assertRefused(SchemaChange.dropColumn("v"), SchemaChangeException.class,
                "Cannot drop column 'v' of " + t + ": it is a sequence field (option 'sequence.field')");
        assertRefused(SchemaChange.renameColumn("dt", "day"), SchemaChangeException.class,
                "Cannot rename column 'dt' of " + t + ": it is a partition key");
        assertRefused(SchemaChange.renameColumn("id", "key"), SchemaChangeException.class,
                "Cannot rename column 'id' of " + t + ": it is part of the primary key");
        assertRefused(SchemaChange.renameColumn("s", "r"), SchemaChangeException.ColumnAlreadyExist.class,
                "Cannot rename column 's' of " + t + " to 'r': a column with that name already exists");
        assertRefused(SchemaChange.renameColumn("nope", "x"), SchemaChangeException.ColumnNotExist.class,
                "Cannot rename column 'nope' of " + t + ": it does not exist");
        assertRefused(SchemaChange.updateColumnType("v", DataTypes.INT()), SchemaChangeException.class,
                "Cannot change column 'v' of " + t + " from BIGINT to INT: it would narrow the integer type; "
                        + "old values might not fit");
        assertRefused(SchemaChange.updateColumnType("s", DataTypes.INT()), SchemaChangeException.class,
                "Cannot change column 's' of " + t + " from STRING to INT: a character string column can only "
                        + "become VARCHAR(m) or STRING");
        assertRefused(SchemaChange.updateColumnType("id", DataTypes.BIGINT()), SchemaChangeException.class,
                "Cannot change column 'id' of " + t + " from INT to BIGINT: it is part of the primary key");
        assertRefused(SchemaChange.updateColumnType("dt", DataTypes.VARCHAR(10)), SchemaChangeException.class,
                "Cannot change column 'dt' of " + t + " from STRING to VARCHAR(10): it is a partition key");
        assertRefused(SchemaChange.updateColumnType("r", DataTypes.ROW(DataTypes.FIELD(0, "x", DataTypes.BIGINT()),
                        DataTypes.FIELD(0, "y", DataTypes.STRING()))), SchemaChangeException.class,
                "Cannot change column 'r' of " + t + " from ROW<`x` INT, `y` STRING> to ROW<`x` BIGINT, `y` STRING>: "
                        + "the existing fields of a ROW column must stay as they are");
        assertRefused(SchemaChange.updateColumnNullability("id", true), SchemaChangeException.class,
                "Cannot make column 'id' of " + t + " nullable: it is part of the primary key, whose columns are "
                        + "always NOT NULL");
        assertRefused(SchemaChange.updateColumnPosition("s", Move.after("s")), SchemaChangeException.class,
                "Cannot move column 's' of " + t + ": it cannot be placed after itself");
        assertThat(manager.listIds()).containsExactly(0L);
    }

    @Test
    void bucketKeyAndLastColumnAreProtected() throws Exception {
        manager.createTable(Schema.newBuilder()
                .column("k", DataTypes.INT())
                .option("bucket", "2")
                .option("bucket-key", "k")
                .build());
        assertRefused(SchemaChange.dropColumn("k"), SchemaChangeException.class,
                "Cannot drop column 'k' of table default.t: it is a bucket key (option 'bucket-key')");
        assertRefused(SchemaChange.updateColumnType("k", DataTypes.BIGINT()), SchemaChangeException.class,
                "Cannot change column 'k' of table default.t from INT to BIGINT: it is a bucket key");
        manager.commitChanges(List.of(SchemaChange.addColumn("a", DataTypes.INT())));
        Path other = new Path(tmp.toString() + "/default.db/single");
        SchemaManager single = new SchemaManager(fileIO, other, "default.single");
        single.createTable(Schema.newBuilder().column("only", DataTypes.INT()).build());
        assertThatThrownBy(() -> single.commitChanges(List.of(SchemaChange.dropColumn("only"))))
                .hasMessage("Cannot drop column 'only' of table default.single: it is the only column; a table "
                        + "needs at least one");
    }

    @Test
    void immutableOptionsAndBucketModesAreRefused() throws Exception {
        createPk("bucket", "2", "merge-engine", "deduplicate");
        assertRefused(SchemaChange.setOption("merge-engine", "first-row"), SchemaChangeException.class,
                "Cannot set option 'merge-engine' of table default.t to 'first-row': it is fixed when the table is "
                        + "created; immutable options are [");
        assertRefused(SchemaChange.removeOption("merge-engine"), SchemaChangeException.class,
                "Cannot reset option 'merge-engine' of table default.t: it is fixed when the table is created");
        assertRefused(SchemaChange.setOption("primary-key", "id"), SchemaChangeException.class,
                "Cannot set option 'primary-key' of table default.t to 'id': altering primary key / partition keys "
                        + "is not supported yet");
        assertRefused(SchemaChange.setOption("sequence.field", "v"), SchemaChangeException.class,
                "Cannot set option 'sequence.field'");
        assertRefused(SchemaChange.setOption("bucket-key", "id"), SchemaChangeException.class,
                "Cannot set option 'bucket-key'");
        assertRefused(SchemaChange.setOption("partial-update.remove-record-on-delete", "true"),
                SchemaChangeException.class, "Cannot set option 'partial-update.remove-record-on-delete'");
        assertRefused(SchemaChange.setOption("partition.default-name", "NULL"), SchemaChangeException.class,
                "Cannot set option 'partition.default-name'");
        assertRefused(SchemaChange.setOption("bucket", "-1"), SchemaChangeException.class,
                "Cannot set option 'bucket' of table default.t from 2 to -1: a fixed-bucket table can only get "
                        + "another positive bucket count");
        assertRefused(SchemaChange.setOption("bucket", "-2"), SchemaChangeException.class,
                "Cannot set option 'bucket' of table default.t from 2 to -2");
        assertRefused(SchemaChange.setOption("bucket", "many"), SchemaChangeException.class,
                "Cannot set option 'bucket' of table default.t to 'many': it must be an integer");
        assertRefused(SchemaChange.removeOption("bucket"), SchemaChangeException.class,
                "Cannot reset option 'bucket' of table default.t: that would change the bucket count from 2 to the "
                        + "default -1");
        assertThat(manager.listIds()).containsExactly(0L);

        TableSchema rescaled = alter(SchemaChange.setOption("bucket", "4"), SchemaChange.setOption("write-only", "true"),
                SchemaChange.removeOption("write-only"));
        assertThat(rescaled.numBuckets()).isEqualTo(4);
        assertThat(rescaled.options()).doesNotContainKey("write-only");
    }

    @Test
    void dynamicBucketTablesKeepTheirBucketMode() throws Exception {
        createPk();
        assertRefused(SchemaChange.setOption("bucket", "4"), SchemaChangeException.class,
                "Cannot set option 'bucket' of table default.t from -1 to 4: a table with dynamic or unaware "
                        + "buckets (-1) cannot switch to another bucket mode");
        assertThat(alter(SchemaChange.setOption("bucket", "-1")).options()).containsEntry("bucket", "-1");
    }

    @Test
    void alteringATableWithoutSchemaFails() {
        assertThatThrownBy(() -> alter(SchemaChange.addColumn("a", DataTypes.INT())))
                .isInstanceOf(SchemaChangeException.class)
                .hasMessageStartingWith("Cannot alter table default.t: it has no schema file under");
    }

    @Test
    void concurrentChangesAllLandOnContiguousVersions() throws Exception {
        createPk();
        int threads = 4;
        int perThread = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            futures.add(pool.submit(() -> {
                SchemaManager own = new SchemaManager(fileIO, root, "default.t");
                start.await();
                for (int i = 0; i < perThread; i++) {
                    own.commitChanges(List.of(SchemaChange.addColumn("c" + thread + "_" + i, DataTypes.INT())));
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();
        TableSchema latest = manager.latest().orElseThrow();
        assertThat(latest.id()).isEqualTo(threads * perThread);
        assertThat(latest.fields()).hasSize(5 + threads * perThread);
        Set<Integer> ids = new HashSet<>();
        latest.fields().forEach(f -> ids.add(f.id()));
        assertThat(ids).hasSize(latest.fields().size());
        assertThat(latest.highestFieldId()).isEqualTo(6 + threads * perThread);
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i <= threads * perThread; i++) {
            expected.add(i);
        }
        assertThat(manager.listIds()).isEqualTo(expected);
    }

    @Test
    void aChangeThatLosesTheRaceIsReappliedOnTheWinnersSchema() throws Exception {
        createPk();
        SchemaManager other = new SchemaManager(fileIO, root, "default.t");
        SchemaManager racing = new SchemaManager(new InterleavingFileIO(fileIO,
                () -> other.commitChanges(List.of(SchemaChange.addColumn("c", DataTypes.INT())))), root, "default.t");
        TableSchema ours = racing.commitChanges(List.of(SchemaChange.addColumn("d", DataTypes.INT())));
        assertThat(ours.id()).isEqualTo(2);
        assertThat(ours.fieldNames()).containsExactly("dt", "id", "v", "s", "r", "c", "d");
        assertThat(manager.schema(1).fieldNames()).containsExactly("dt", "id", "v", "s", "r", "c");
        assertThat(ours.fields().get(6).id()).isEqualTo(8);
    }

    @Test
    void aChangeThatConflictsWithTheRaceWinnerFailsWithItsReason() throws Exception {
        createPk();
        SchemaManager other = new SchemaManager(fileIO, root, "default.t");
        SchemaManager racing = new SchemaManager(new InterleavingFileIO(fileIO,
                () -> other.commitChanges(List.of(SchemaChange.addColumn("c", DataTypes.INT())))), root, "default.t");
        assertThatThrownBy(() -> racing.commitChanges(List.of(SchemaChange.addColumn("c", DataTypes.BIGINT()))))
                .isInstanceOf(SchemaChangeException.ColumnAlreadyExist.class)
                .hasMessageContaining("'c'");
        assertThat(manager.listIds()).containsExactly(0L, 1L);
        assertThat(manager.latest().orElseThrow().fields().get(5).type()).isEqualTo(DataTypes.INT());
    }

    /** Runs {@code interleaved} once, right before the first create-if-absent, as a concurrent writer would. */
    private static final class InterleavingFileIO implements FileIO {
        private final FileIO delegate;
        private transient Interleaved interleaved;

        interface Interleaved {
            void run() throws Exception;
        }

        InterleavingFileIO(FileIO delegate, Interleaved interleaved) {
            this.delegate = delegate;
            this.interleaved = interleaved;
        }

        @Override
        public boolean createIfAbsent(Path path, byte[] content) throws IOException {
            if (interleaved != null) {
                Interleaved once = interleaved;
                interleaved = null;
                try {
                    once.run();
                } catch (Exception e) {
                    throw new IOException(e);
                }
            }
            return delegate.createIfAbsent(path, content);
        }

        @Override
        public SeekableInputStream newInputStream(Path path) throws IOException {
            return delegate.newInputStream(path);
        }

        @Override
        public PositionOutputStream newOutputStream(Path path, boolean overwrite)
                throws IOException {
            return delegate.newOutputStream(path, overwrite);
        }

        @Override
        public FileStatus status(Path path) throws IOException {
            return delegate.status(path);
        }

        @Override
        public List<FileStatus> list(Path directory) throws IOException {
            return delegate.list(directory);
        }

        @Override
        public boolean exists(Path path) throws IOException {
            return delegate.exists(path);
        }

        @Override
        public boolean delete(Path path, boolean recursive) throws IOException {
            return delegate.delete(path, recursive);
        }

        @Override
        public void mkdirs(Path path) throws IOException {
            delegate.mkdirs(path);
        }

        @Override
        public boolean rename(Path src, Path dst) throws IOException {
            return delegate.rename(src, dst);
        }
    }

    private void assertRefused(SchemaChange change, Class<? extends Throwable> type, String messageStart) {
        assertThatThrownBy(() -> alter(change)).isInstanceOf(type).hasMessageStartingWith(messageStart);
    }
}
