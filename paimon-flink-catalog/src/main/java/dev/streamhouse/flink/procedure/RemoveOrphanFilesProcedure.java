package dev.streamhouse.flink.procedure;

import dev.streamhouse.flink.sink.orphan.RemoveOrphanFilesJob;
import dev.streamhouse.storage.maintenance.orphan.TableOrphanFiles;
import dev.streamhouse.storage.table.Table;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code CALL sys.remove_orphan_files(`table` => 'db.t', older_than => '2024-01-01 00:00:00', dry_run =>
 * true)}: removes the files of a table (or of every table of a database, {@code 'db.*'}) that no
 * snapshot, tag or changelog entry references and that are older than {@code older_than} (a local
 * date-time; default: one day ago), see {@link TableOrphanFiles}. Output as Apache Paimon's: two
 * rows, the number of files removed and their total bytes (with {@code dry_run}: that would be
 * removed); every file is logged.
 *
 * <p>{@code mode} is {@code distributed} (the default, as in Paimon) or {@code local}. Distributed runs a
 * Flink batch job on the CALL's execution environment ({@link RemoveOrphanFilesJob}): {@code parallelism}
 * (default: the environment's) subtasks share the tables' directories (partitions or buckets, and the
 * manifest, index and statistics directories), each lists and removes the orphans of its directories
 * and reads the metadata of their tables itself; the caller only lists the table directories. Local
 * runs everything in the caller ({@link TableOrphanFiles#clean}); {@code parallelism} has no effect
 * there.
 */
public final class RemoveOrphanFilesProcedure implements Procedure {
    static final String NAME = "remove_orphan_files";

    private final ProcedureCatalog catalog;

    public RemoveOrphanFilesProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "older_than", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "dry_run", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "parallelism", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "mode", type = @DataTypeHint("STRING"), isOptional = true)
    })
    public String[] call(ProcedureContext context, String table, String olderThan, Boolean dryRun,
            Integer parallelism, String mode) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        if (!ProcedureArguments.isBlank(mode)) {
            String m = mode.trim().toUpperCase(Locale.ROOT);
            if (!m.equals("DISTRIBUTED") && !m.equals("LOCAL")) {
                throw args.error("mode", mode, "Only 'DISTRIBUTED' and 'LOCAL' are supported");
            }
        }
        if (parallelism != null && parallelism < 1) {
            throw args.error("parallelism", String.valueOf(parallelism), "it must be positive");
        }
        long olderThanMillis = olderThanMillis(args, olderThan);
        boolean dry = Boolean.TRUE.equals(dryRun);
        boolean local = !ProcedureArguments.isBlank(mode) && mode.trim().equalsIgnoreCase("LOCAL");
        List<Table> tables = new ArrayList<>();
        for (ObjectPath path : tables(args, table)) {
            tables.add(catalog.table(path));
        }
        long files = 0;
        long bytes = 0;
        if (local) {
            for (Table t : tables) {
                TableOrphanFiles.Result result = TableOrphanFiles.of(t).clean(olderThanMillis, dry);
                files += result.deletedFileCount();
                bytes += result.deletedBytes();
            }
        } else if (!tables.isEmpty()) {
            int p = parallelism != null ? parallelism : Math.max(1, context.getExecutionEnvironment().getParallelism());
            RemoveOrphanFilesJob.Result result = RemoveOrphanFilesJob.of(tables, olderThanMillis, dry).parallelism(p)
                    .run(context.getExecutionEnvironment());
            files = result.files();
            bytes = result.bytes();
        }
        return new String[] {String.valueOf(files), String.valueOf(bytes)};
    }

    private List<ObjectPath> tables(ProcedureArguments args, String table) throws Exception {
        if (table != null && table.trim().endsWith(".*")) {
            String database = table.trim().substring(0, table.trim().length() - 2);
            if (database.isEmpty()) {
                throw args.error("table", table, "expected 'database.*' or 'database.table'");
            }
            List<ObjectPath> out = new ArrayList<>();
            for (String name : catalog.listTables(database)) {
                out.add(new ObjectPath(database, name));
            }
            return out;
        }
        return List.of(args.table(table, catalog.defaultDatabase()));
    }

    /** A local date-time ({@code yyyy-MM-dd HH:mm:ss[.fraction]} or a date), or one day ago. */
    static long olderThanMillis(ProcedureArguments args, String olderThan) {
        if (ProcedureArguments.isBlank(olderThan)) {
            return System.currentTimeMillis() - TimeUnit.DAYS.toMillis(1);
        }
        String text = olderThan.trim();
        LocalDateTime time;
        try {
            time = LocalDateTime.parse(text.replace(' ', 'T'));
        } catch (DateTimeParseException e) {
            try {
                time = LocalDate.parse(text).atStartOfDay();
            } catch (DateTimeParseException e2) {
                throw args.error("older_than", olderThan, "expected a time 'yyyy-MM-dd HH:mm:ss' (local time zone)");
            }
        }
        long millis = time.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        if (millis >= System.currentTimeMillis()) {
            throw args.error("older_than", olderThan, "it must be in the past: files being written now that no "
                    + "snapshot references yet would be deleted");
        }
        return millis;
    }
}
