package dev.streamhouse.storage.read;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.format.FileFormats;
import dev.streamhouse.storage.format.FormatReaderFactory;
import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.reader.ColumnarRecordReader;
import dev.streamhouse.storage.schema.TableSchema;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The one way data files of a table are opened for reading, by raw reads and merge reads alike: finds
 * the file, its format and its schema, reads the columns of a {@link DataFileReadPlan} as batches of
 * column vectors, converts widened columns to their current types ({@link
 * dev.streamhouse.storage.casting.CastedVector}) and leaves out the rows of the file's
 * {@link DeletionVector}. Every failure names the data file and the table. Thread-safe; each reader it
 * opens is single-threaded.
 */
public final class DataFileReaders {
    private final FileIO fileIO;
    private final TablePaths paths;
    private final SchemaCache schemas;
    private final String tableName;

    /** Errors name the table by its location. */
    public DataFileReaders(FileIO fileIO, TablePaths paths, SchemaCache schemas) {
        this(fileIO, paths, schemas, paths.root().toString());
    }

    /** @param tableName how errors name the table (e.g. its identifier) */
    public DataFileReaders(FileIO fileIO, TablePaths paths, SchemaCache schemas, String tableName) {
        this.fileIO = fileIO;
        this.paths = paths;
        this.schemas = schemas;
        this.tableName = tableName;
    }

    /** The table, as error messages name it. */
    public String tableName() {
        return tableName;
    }

    public Path path(BinaryRow partition, int bucket, DataFileMeta file) {
        return paths.dataFile(partition, bucket, file.fileName());
    }

    /** The schema {@code file} was written with. */
    public TableSchema schemaOf(DataFileMeta file, Path path) throws IOException {
        try {
            return schemas.schema(file.schemaId());
        } catch (UncheckedIOException e) {
            throw new IOException("Cannot read data file " + path + " of table " + tableName + ": its schema "
                    + file.schemaId() + " cannot be read: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * Opens {@code file} of {@code partition} and {@code bucket} (at {@code path}) and reads the columns
     * of {@code plan}, which must have been built for the file's schema. A file that is gone fails with a
     * {@link FileNotFoundException}; a file whose bytes are damaged, when opened or while read, with a
     * {@link CorruptDataFileException}; any other failure with an {@link IOException}. All name the table,
     * the file, the partition and the bucket, and keep the original failure as their cause.
     *
     * @param deletionVectors where the file's deleted rows come from; a damaged deletion-vector file fails
     *     with a {@link CorruptFileException} naming it and this data file's partition and bucket
     */
    public ColumnarRecordReader open(BinaryRow partition, int bucket, Path path, DataFileMeta file,
            DataFileReadPlan plan, DeletionVector.Source deletionVectors) throws IOException {
        DataFileFailures failures = new DataFileFailures(fileIO, path, file.fileSize(), tableName,
                paths.renderer().describe(partition, bucket));
        DeletionVector deletionVector;
        try {
            deletionVector = deletionVectors.of(partition, bucket, file);
        } catch (CorruptFileException e) {
            throw failures.deletionVectorDamaged(e);
        }
        FormatReaderFactory format = FileFormats.of(DataFilePathFactory.formatOf(file.fileName()))
                .readerFactory(plan.fileReadType(), plan.fileFilter());
        ColumnarRecordReader reader;
        try {
            reader = format.createReader(fileIO, path, file.fileSize());
        } catch (FileNotFoundException e) {
            throw gone(path, e);
        } catch (IOException | RuntimeException e) {
            if (e.getCause() instanceof FileNotFoundException missing) {
                throw gone(path, missing);
            }
            throw DataFileFailures.rethrow(failures.translate(e));
        }
        return new DataFileRecordReader(reader, plan, deletionVector, failures);
    }

    /**
     * A data file the read planned is gone: snapshot expiration, a rollback or orphan-file cleanup removed it
     * after the read was planned (or it was deleted by hand). Still a {@link FileNotFoundException}, so callers
     * that tell missing files apart keep doing so, but naming the file, the table and the way out.
     */
    private FileNotFoundException gone(Path path, FileNotFoundException cause) {
        FileNotFoundException gone = new FileNotFoundException("Cannot read data file " + path + " of table "
                + tableName + ": it no longer exists. The snapshot this read was planned from has probably expired "
                + "while it was read (or a rollback or 'remove_orphan_files' removed the file): keep snapshots "
                + "longer than the slowest read takes ('snapshot.time-retained', 'snapshot.num-retained.min'), "
                + "or give streaming reads a 'consumer-id' so expiration keeps what they still need");
        gone.initCause(cause);
        return gone;
    }
}
