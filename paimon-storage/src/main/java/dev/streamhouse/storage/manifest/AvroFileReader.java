package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.SeekableInputStream;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * Reads every record of an Avro object container file with the file's own writer schema (no schema
 * resolution) and maps each to a value. The file is loaded whole (metadata files are small).
 *
 * <p>Integrity: Avro's reader silently stops at a truncated block, so the file must end with its
 * header's sync marker (every complete container file does) and, when {@code expectedSize} is given,
 * have exactly that length. A file cut exactly at a block boundary is only caught by the size check.
 *
 * <p>Newer layouts: a file whose writer schema has a field the expected layout lacks (one a newer
 * Paimon added) is refused with an {@link UnsupportedTableFeatureException} naming the file and the
 * field, since its meaning is unknown and ignoring it could misread the table. The only exceptions are
 * the {@code skippable} fields a caller names (see {@link dev.streamhouse.storage.NewerPaimonFeatures}):
 * top-level fields that are nullable unions and come after every field of the layout. They are read
 * past; mappers see them in the record and may note them.
 *
 * <p>Failures are classified: the file store failing is an {@link IOException} (a missing file a
 * {@link FileNotFoundException}); anything wrong with the bytes — not Avro, truncated, a wrong length,
 * or the mapper rejecting a record with an {@link IllegalArgumentException} — is a
 * {@link CorruptManifestException}. Messages name the file and the table. Nothing is deleted.
 */
public final class AvroFileReader {
    private static final byte[] MAGIC = DataFileConstants.MAGIC;

    private AvroFileReader() {}

    /**
     * @param kind what the file is, for messages, e.g. "manifest file"
     * @param expectedSize the recorded byte size, checked against the file; null to skip the check
     * @param layout the newest layout this store knows for such files; the writer schema may lack fields
     *     of it (older files) but not have fields it lacks
     */
    public static <T> List<T> readAll(FileIO fileIO, Path path, Long expectedSize, String kind, Path tableRoot,
            Schema layout, Function<GenericRecord, T> mapper) throws IOException {
        return readAll(fileIO, path, expectedSize, kind, tableRoot, layout, Map.of(), mapper);
    }

    /**
     * As {@link #readAll(FileIO, Path, Long, String, Path, Schema, Function)}, reading past the
     * {@code skippable} top-level fields when they are trailing and nullable.
     *
     * @param skippable names of fields a newer Paimon added that do not change what the file means,
     *     each with the release that added it
     */
    public static <T> List<T> readAll(FileIO fileIO, Path path, Long expectedSize, String kind, Path tableRoot,
            Schema layout, Map<String, String> skippable, Function<GenericRecord, T> mapper) throws IOException {
        String context = context(kind, path, tableRoot);
        byte[] bytes = loadBytes(fileIO, path, expectedSize, context);
        try {
            checkComplete(bytes);
            List<T> out = new ArrayList<>();
            try (DataFileStream<GenericRecord> stream = new DataFileStream<>(new ByteArrayInputStream(bytes),
                    new GenericDatumReader<>())) {
                checkKnownFields(stream.getSchema(), layout, skippable, kind, path, tableRoot);
                GenericRecord reuse = null;
                while (stream.hasNext()) {
                    GenericRecord record = stream.next(reuse);
                    out.add(mapper.apply(record));
                    reuse = record;
                }
            }
            return out;
        } catch (UnsupportedTableFeatureException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw corrupt(path, context, e);
        }
    }

    /**
     * As {@link #readAll(FileIO, Path, Long, String, Path, Schema, Function)}, leaving out the records
     * {@code gate} rejects before their remaining fields are decoded (see {@link GatedRecordReader}),
     * block by block: reads only the blocks that start at {@code
     * positions} (sync positions an earlier read reported, in file order), or every block when null,
     * and tells {@code blockStarted} each block's position before its records are read (so a gate can
     * attribute the records it sees to their block). The whole file is still loaded and checked.
     */
    static <T> List<T> readBlocks(FileIO fileIO, Path path, Long expectedSize, String kind, Path tableRoot,
            Schema layout, Function<GenericRecord, T> mapper, GatedRecordReader gate, long[] positions,
            LongConsumer blockStarted) throws IOException {
        String context = context(kind, path, tableRoot);
        byte[] bytes = loadBytes(fileIO, path, expectedSize, context);
        try {
            checkComplete(bytes);
            List<T> out = new ArrayList<>();
            try (DataFileReader<GenericRecord> reader = new DataFileReader<>(new SeekableByteArrayInput(bytes), gate)) {
                checkKnownFields(reader.getSchema(), layout, Map.of(), kind, path, tableRoot);
                if (positions == null) {
                    while (true) {
                        long position = reader.previousSync();
                        if (!reader.hasNext()) {
                            break;
                        }
                        readBlock(reader, position, mapper, blockStarted, out);
                    }
                } else {
                    for (long position : positions) {
                        if (position < 0 || position >= bytes.length) {
                            throw new IllegalArgumentException("it has no block at position " + position);
                        }
                        reader.seek(position);
                        if (!reader.hasNext()) {
                            throw new IllegalArgumentException("it has no block at position " + position);
                        }
                        readBlock(reader, position, mapper, blockStarted, out);
                    }
                }
            }
            return out;
        } catch (UnsupportedTableFeatureException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw corrupt(path, context, e);
        }
    }

    /**
     * As {@link #readBlocks} for blocks whose byte ranges an earlier read of the whole file found: reads
     * only the file's header ({@code headerLength} bytes) and the blocks in {@code ranges} ({@code start0,
     * end0, start1, end1, ...}, in file order, each block with its closing sync marker), and decodes them
     * as one container. A block that is not where the ranges say fails its sync check.
     */
    static <T> List<T> readRanges(FileIO fileIO, Path path, String kind, Path tableRoot, Schema layout,
            Function<GenericRecord, T> mapper, GatedRecordReader gate, long headerLength, long[] ranges)
            throws IOException {
        String context = context(kind, path, tableRoot);
        long total = headerLength;
        for (int i = 0; i < ranges.length; i += 2) {
            total += ranges[i + 1] - ranges[i];
        }
        byte[] bytes = new byte[Math.toIntExact(total)];
        try (SeekableInputStream in = fileIO.newInputStream(path)) {
            in.readFully(bytes, 0, (int) headerLength);
            int at = (int) headerLength;
            for (int i = 0; i < ranges.length; i += 2) {
                int length = (int) (ranges[i + 1] - ranges[i]);
                in.seek(ranges[i]);
                in.readFully(bytes, at, length);
                at += length;
            }
        } catch (FileNotFoundException e) {
            FileNotFoundException missing = new FileNotFoundException(context + "it does not exist");
            missing.initCause(e);
            throw missing;
        } catch (EOFException e) {
            throw corrupt(path, context, new IllegalArgumentException("it is shorter than its block index says ("
                    + e.getMessage() + "), so it is truncated or replaced"));
        } catch (IOException e) {
            throw new IOException(context + e.getMessage(), e);
        }
        try {
            checkComplete(bytes);
            List<T> out = new ArrayList<>();
            try (DataFileReader<GenericRecord> reader = new DataFileReader<>(new SeekableByteArrayInput(bytes), gate)) {
                checkKnownFields(reader.getSchema(), layout, Map.of(), kind, path, tableRoot);
                for (int i = 0; i < ranges.length; i += 2) {
                    if (!reader.hasNext()) {
                        throw new IllegalArgumentException("it has no block at position " + ranges[i]);
                    }
                    readBlock(reader, ranges[i], mapper, p -> { }, out);
                }
            }
            return out;
        } catch (UnsupportedTableFeatureException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw corrupt(path, context, e);
        }
    }

    /** Reads the block the reader has just loaded, and no further (its next block stays unread). */
    private static <T> void readBlock(DataFileReader<GenericRecord> reader, long position,
            Function<GenericRecord, T> mapper, LongConsumer blockStarted, List<T> out) throws IOException {
        blockStarted.accept(position);
        long count = reader.getBlockCount();
        for (long i = 0; i < count; i++) {
            GenericRecord record = reader.next(null);
            if (record != null) {
                out.add(mapper.apply(record));
            }
        }
    }

    private static String context(String kind, Path path, Path tableRoot) {
        return "Cannot read " + kind + " " + path + " of table " + tableRoot + ": ";
    }

    private static byte[] loadBytes(FileIO fileIO, Path path, Long expectedSize, String context) throws IOException {
        byte[] bytes;
        try {
            bytes = fileIO.readAllBytes(path);
        } catch (FileNotFoundException e) {
            FileNotFoundException missing = new FileNotFoundException(context + "it does not exist");
            missing.initCause(e);
            throw missing;
        } catch (IOException e) {
            throw new IOException(context + e.getMessage(), e);
        }
        if (expectedSize != null && expectedSize != bytes.length) {
            throw new CorruptManifestException(path, context + "its recorded size is " + expectedSize
                    + " bytes but it has " + bytes.length + " bytes (truncated or replaced)", null);
        }
        return bytes;
    }

    private static void checkKnownFields(Schema writerSchema, Schema layout, Map<String, String> skippable,
            String kind, Path path, Path tableRoot) {
        List<String> unknown = AvroSupport.unknownFields(writerSchema, layout, "");
        unknown.removeIf(name -> skippable.containsKey(name)
                && AvroSupport.isTrailingNullable(writerSchema, name, layout));
        if (!unknown.isEmpty()) {
            throw new UnsupportedTableFeatureException("Cannot read " + kind + " " + path + " of table "
                    + tableRoot + ": it has the fields " + unknown + ", which this store does not know (they "
                    + "were added by a newer version of Paimon than 1.3); reading it could misread the table");
        }
    }

    private static CorruptManifestException corrupt(Path path, String context, Exception e) {
        String why = e instanceof IllegalArgumentException ? e.getMessage() : "it is not a readable Avro file (" + e + ")";
        return new CorruptManifestException(path, context + why, e);
    }

    /** Fails unless the bytes start like an Avro container and end with the header's sync marker. */
    private static void checkComplete(byte[] bytes) throws IOException {
        if (bytes.length < MAGIC.length + DataFileConstants.SYNC_SIZE
                || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new IllegalArgumentException("it is not an Avro container file (" + bytes.length + " bytes, wrong magic)");
        }
        BinaryDecoder header = DecoderFactory.get().binaryDecoder(bytes, MAGIC.length, bytes.length - MAGIC.length, null);
        for (long n = header.readMapStart(); n != 0; n = header.mapNext()) {
            for (long i = 0; i < n; i++) {
                header.skipString();
                header.skipBytes();
            }
        }
        byte[] sync = new byte[DataFileConstants.SYNC_SIZE];
        header.readFixed(sync);
        if (!Arrays.equals(bytes, bytes.length - sync.length, bytes.length, sync, 0, sync.length)) {
            throw new IllegalArgumentException("it does not end with its sync marker, so it is truncated");
        }
    }
}
