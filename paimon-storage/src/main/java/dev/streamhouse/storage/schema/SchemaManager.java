package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.UnsupportedTableFeatureException;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.VersionedFiles;
import dev.streamhouse.storage.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Reads and creates the schema versions of one table, {@code <table>/schema/schema-<id>} (docs/format.md §3).
 *
 * <p>New versions are published with {@link FileIO#createIfAbsent}, so of two concurrent creators of
 * the same id exactly one wins. Nothing here ever deletes or overwrites a schema file.
 *
 * <p>Errors: I/O failures are {@link IOException}s; a missing schema file that was asked for by id is
 * a {@link FileNotFoundException}; an unreadable one a {@link CorruptSchemaException}; both name the
 * file and the table. Thread-safe (stateless apart from its immutable fields).
 */
public final class SchemaManager {
    private static final String SCHEMA_PREFIX = "schema-";
    /** How often {@link #commitChanges} re-applies its changes after losing a race. */
    static final int MAX_CHANGE_ATTEMPTS = 50;
    private static final long MAX_RETRY_PAUSE_MILLIS = 20;

    private final FileIO fileIO;
    private final Path tableRoot;
    private final String tableName;
    private final LongSupplier clock;

    public SchemaManager(FileIO fileIO, Path tableRoot) {
        this(fileIO, tableRoot, tableRoot.toString());
    }

    /** @param tableName how messages name the table, e.g. {@code db.t} */
    public SchemaManager(FileIO fileIO, Path tableRoot, String tableName) {
        this(fileIO, tableRoot, tableName, System::currentTimeMillis);
    }

    /** For tests: {@code clock} supplies the {@code timeMillis} of created schemas. */
    SchemaManager(FileIO fileIO, Path tableRoot, LongSupplier clock) {
        this(fileIO, tableRoot, tableRoot.toString(), clock);
    }

    private SchemaManager(FileIO fileIO, Path tableRoot, String tableName, LongSupplier clock) {
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.tableRoot = Objects.requireNonNull(tableRoot, "tableRoot");
        this.tableName = Objects.requireNonNull(tableName, "tableName");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Path tableRoot() {
        return tableRoot;
    }

    public Path schemaDirectory() {
        return new Path(tableRoot, "schema");
    }

    public Path schemaPath(long id) {
        return new Path(schemaDirectory(), SCHEMA_PREFIX + id);
    }

    /** Ids of all schema files, ascending; empty if the table has none. Temp and foreign files are ignored. */
    public List<Long> listIds() throws IOException {
        return VersionedFiles.listIds(fileIO, schemaDirectory(), SCHEMA_PREFIX);
    }

    /** The schema with the highest id, or empty if the table has no schema (does not exist). */
    public Optional<TableSchema> latest() throws IOException {
        List<Long> ids = listIds();
        return ids.isEmpty() ? Optional.empty() : Optional.of(schema(ids.get(ids.size() - 1)));
    }

    /** Reads schema {@code id}. */
    public TableSchema schema(long id) throws IOException {
        Path path = schemaPath(id);
        String json;
        try {
            json = fileIO.readUtf8(path);
        } catch (FileNotFoundException e) {
            FileNotFoundException missing = new FileNotFoundException(
                    "Cannot read schema " + id + " of table " + tableRoot + ": file " + path + " does not exist");
            missing.initCause(e);
            throw missing;
        }
        TableSchema schema;
        try {
            schema = SchemaSerializer.fromJson(json);
        } catch (UnsupportedTableFeatureException e) {
            throw new UnsupportedTableFeatureException("Cannot read schema file " + path + " of table " + tableRoot
                    + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw corrupt(path, e.getMessage(), e);
        }
        if (schema.id() != id) {
            throw corrupt(path, "it holds schema id " + schema.id(), null);
        }
        return schema;
    }

    private CorruptSchemaException corrupt(Path path, String why, Throwable cause) {
        return new CorruptSchemaException(path,
                "Cannot read schema file " + path + " of table " + tableRoot + ": " + why
                        + "; the file is corrupt, restore it from a backup", cause);
    }

    /**
     * Validates {@code schema} (see {@link InitialSchemaFactory}) and writes it as {@code schema-0} with
     * version 3, its {@code highestFieldId} and the current time.
     *
     * @return the stored schema (primary-key columns NOT NULL, key options moved into the lists)
     * @throws IllegalArgumentException if the schema is invalid; the message names the column or option
     * @throws SchemaAlreadyExistsException if the table already has schema files
     */
    public TableSchema createTable(Schema schema) throws IOException {
        return createTable(schema, s -> {});
    }

    /**
     * Like {@link #createTable(Schema)}, running {@code check} on the validated schema before anything
     * is written (checks that need layers above this one, e.g. that the merge engine can be built).
     */
    public TableSchema createTable(Schema schema, Consumer<TableSchema> check) throws IOException {
        TableSchema initial = InitialSchemaFactory.create(schema, clock.getAsLong(), tableName);
        check.accept(initial);
        List<Long> existing = listIds();
        if (!existing.isEmpty()) {
            throw alreadyExists(schemaPath(existing.get(0)));
        }
        if (!commitNewVersion(initial)) {
            throw alreadyExists(schemaPath(0));
        }
        return initial;
    }

    private SchemaAlreadyExistsException alreadyExists(Path existing) {
        return new SchemaAlreadyExistsException(tableRoot,
                "Cannot create table " + tableRoot + ": schema file " + existing + " already exists, so the table "
                        + "exists; drop it first or use another name");
    }

    /**
     * Publishes {@code schema} as {@code schema-<schema.id()>} with create-if-absent.
     *
     * @return true if written, false if that id already exists (a concurrent change won; re-read and
     *     retry with the next id)
     * @throws IllegalArgumentException if {@code schema-(id-1)} does not exist (ids must be contiguous)
     */
    public boolean commitNewVersion(TableSchema schema) throws IOException {
        if (schema.id() < 0) {
            throw new IllegalArgumentException(
                    "Cannot commit schema of table " + tableRoot + ": id must not be negative, got " + schema.id());
        }
        if (schema.id() > 0 && !fileIO.exists(schemaPath(schema.id() - 1))) {
            throw new IllegalArgumentException("Cannot commit schema " + schema.id() + " of table " + tableRoot
                    + ": previous schema file " + schemaPath(schema.id() - 1) + " does not exist");
        }
        byte[] content = SchemaSerializer.toJson(schema).getBytes(StandardCharsets.UTF_8);
        return fileIO.createIfAbsent(schemaPath(schema.id()), content);
    }

    /**
     * Applies {@code changes} (ALTER TABLE) to the latest schema and publishes the result as the next
     * schema version, all changes or none. If a concurrent change publishes that version first, the
     * latest schema is re-read and the changes are applied to it again (bounded by
     * {@value #MAX_CHANGE_ATTEMPTS} attempts), so concurrent compatible changes all land and an
     * incompatible one fails with its reason. Changes that leave the schema as it is write nothing.
     *
     * <p>Rules:
     * <ul>
     *   <li>Field ids: a new column gets {@code highestFieldId + 1}, its nested ROW fields the ids after
     *       it; fields appended to a ROW column get fresh ids too. Renames keep the id; dropped ids are
     *       never reused, so a column dropped and re-added under the same name reads as NULL from old
     *       files. {@code highestFieldId} only grows.
     *   <li>Partition keys, primary key and bucket key columns cannot be dropped, renamed or change type;
     *       sequence-field and row-kind-field columns cannot be dropped or renamed; the key lists
     *       themselves never change. The last column cannot be dropped. Per-column options
     *       ({@code fields.<column>.*}) follow a rename and are removed with a dropped column.
     *   <li>A new column must be nullable and must not use a reserved name ({@code _KEY_*},
     *       {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}); positions are FIRST, AFTER a column or LAST.
     *   <li>Types may only widen as {@link dev.streamhouse.storage.casting.ColumnCast} lists; the column
     *       keeps its nullability. Old files are read with the written type and converted.
     *   <li>Nullability: NOT NULL → nullable is allowed except for primary-key columns; nullable → NOT
     *       NULL is refused (old files may hold NULLs).
     *   <li>Options: see {@link OptionChangeRules} (immutable options, {@code bucket} only between
     *       positive counts).
     * </ul>
     *
     * @return the new latest schema (or the unchanged latest one)
     * @throws SchemaChangeException if a change is invalid (nothing written; do not retry)
     * @throws SchemaChangeConflictException if concurrent changes kept winning the race
     * @throws IOException if reading or writing schema files failed; the change may be retried
     */
    public TableSchema commitChanges(List<SchemaChange> changes) throws IOException {
        return commitChanges(changes, s -> {});
    }

    /**
     * Like {@link #commitChanges(List)}, running {@code check} on each new schema before it is
     * written; a {@link RuntimeException} it throws is reported as a {@link SchemaChangeException}.
     */
    public TableSchema commitChanges(List<SchemaChange> changes, Consumer<TableSchema> check) throws IOException {
        List<SchemaChange> copy = List.copyOf(changes);
        for (int attempt = 1; ; attempt++) {
            TableSchema latest = latest().orElseThrow(() -> new SchemaChangeException("Cannot alter table " + tableName
                    + ": it has no schema file under " + schemaDirectory() + ", so it does not exist"));
            TableSchema next = SchemaEvolution.apply(latest, copy, clock.getAsLong(), tableName);
            if (next != latest) {
                try {
                    check.accept(next);
                } catch (SchemaChangeException e) {
                    throw e;
                } catch (RuntimeException e) {
                    throw new SchemaChangeException("Cannot alter table " + tableName + ": " + e.getMessage());
                }
            }
            if (next == latest || commitNewVersion(next)) {
                return next;
            }
            if (attempt >= MAX_CHANGE_ATTEMPTS) {
                throw new SchemaChangeConflictException("Cannot alter table " + tableName + ": concurrent schema "
                        + "changes won the race for the next schema version " + attempt + " times; retry later");
            }
            pauseBeforeRetry();
        }
    }

    private void pauseBeforeRetry() {
        try {
            Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(1, MAX_RETRY_PAUSE_MILLIS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaChangeConflictException("Cannot alter table " + tableName
                    + ": interrupted while waiting to retry after a concurrent schema change");
        }
    }
}
