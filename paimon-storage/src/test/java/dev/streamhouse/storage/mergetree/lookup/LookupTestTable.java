package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.mergetree.io.KvTestTable;
import dev.streamhouse.storage.mergetree.io.RollingKeyValueFileWriter;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A primary-key table of one {@link KeyShape} whose bucket 0 gets real Parquet files on chosen levels. */
final class LookupTestTable {
    static final int BUCKET = 0;

    final KeyShape shape;
    final KvTestTable table;
    final KeyValueFileReaderFactory readers;
    final RowType keyType;
    final RowType valueType;
    final KeyRowComparator keyComparator;

    LookupTestTable(Path dir, KeyShape shape) throws IOException {
        this.shape = shape;
        this.table = KvTestTable.create(dir, shape.schema());
        this.readers = table.readerFactory(table.allColumns(), null);
        this.keyType = table.layout().keyType();
        this.valueType = readers.valueReadType();
        this.keyComparator = new KeyRowComparator(keyType);
    }

    /** A stored version of key number {@code i}. */
    record Version(int i, GenericRow key, long seq, RowKind kind, GenericRow value) {
        KeyValue toKeyValue() {
            return new KeyValue().replace(key, seq, kind, value);
        }
    }

    Version version(int i, long seq, RowKind kind, Random random) {
        return new Version(i, shape.key(i), seq, kind, shape.value(i, random));
    }

    /** Sorts {@code versions} by key and writes them as one file of {@code level}. */
    DataFileMeta writeFile(int level, List<Version> versions) throws IOException {
        List<Version> sorted = new ArrayList<>(versions);
        sorted.sort((a, b) -> keyComparator.compare(a.key(), b.key()));
        RollingKeyValueFileWriter writer = table.writerFactory(BinaryRow.EMPTY_ROW, BUCKET, 1L << 30)
                .newRollingWriter(level, FileSource.COMPACT);
        for (Version v : sorted) {
            writer.write(v.toKeyValue());
        }
        List<DataFileMeta> files = writer.close();
        if (files.size() != 1) {
            throw new IllegalStateException("expected one file, got " + files);
        }
        return files.get(0);
    }

    /** Sorts {@code versions} by key and writes them as a sorted run of {@code files} files of {@code level}. */
    List<DataFileMeta> writeRun(int level, List<Version> versions, int files) throws IOException {
        List<Version> sorted = new ArrayList<>(versions);
        sorted.sort((a, b) -> keyComparator.compare(a.key(), b.key()));
        List<DataFileMeta> out = new ArrayList<>();
        int n = sorted.size();
        for (int f = 0; f < files; f++) {
            List<Version> part = sorted.subList(f * n / files, (f + 1) * n / files);
            if (!part.isEmpty()) {
                out.add(writeFile(level, part));
            }
        }
        return out;
    }

    /** Key number {@code i} as a BinaryRow, as compactions hold keys. */
    BinaryRow binaryKey(int i) {
        return new dev.streamhouse.storage.data.BinaryRowConverter(keyType.fieldTypes()).toBinaryRow(shape.key(i));
    }

    InternalRow key(int i) {
        return shape.key(i);
    }

    /** Every record of {@code file}, copied, in file order. */
    List<KvTestTable.Kv> readAll(DataFileMeta file) throws IOException {
        return KvTestTable.readAll(readers.createReader(BinaryRow.EMPTY_ROW, BUCKET, file), keyType, valueType);
    }

    KvTestTable.Kv copy(KeyValue kv) {
        return KvTestTable.copy(kv, keyType, valueType);
    }
}
