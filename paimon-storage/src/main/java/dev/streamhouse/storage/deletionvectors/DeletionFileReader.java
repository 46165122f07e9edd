package dev.streamhouse.storage.deletionvectors;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.SeekableInputStream;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Reads the deletion vector a {@link DeletionFile} points to: the index file's version byte and the
 * one frame at the recorded offset, nothing else of the file. Checks what
 * {@link DeletionVectorIndexFile#read} checks of a vector: the version byte, the CRC32 of the blob,
 * the recorded length against the stored frame's, and the recorded cardinality. Errors name the index
 * file, the data file and the table: {@link IOException} for I/O failures,
 * {@link CorruptDeletionVectorException} for content that contradicts the range. Thread-safe.
 */
public final class DeletionFileReader {
    private final FileIO fileIO;
    private final String tableName;

    public DeletionFileReader(FileIO fileIO, String tableName) {
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.tableName = Objects.requireNonNull(tableName, "tableName");
    }

    /** The vector of data file {@code dataFileName} stored where {@code file} points. */
    public BitmapDeletionVector read(DeletionFile file, String dataFileName) throws IOException {
        Path path = new Path(file.path());
        if (file.offset() < 1 || file.offset() > Integer.MAX_VALUE || file.length() < 4
                || file.length() > Integer.MAX_VALUE - DeletionVectorSerializer.FRAME_OVERHEAD) {
            throw corrupt(path, dataFileName, "its range (offset " + file.offset() + ", length " + file.length()
                    + ") cannot hold a deletion vector", null);
        }
        try (SeekableInputStream in = fileIO.newInputStream(path)) {
            int version = in.read();
            if (version != DeletionVectorIndexFile.VERSION) {
                throw corrupt(path, dataFileName, "its version byte is " + (version < 0 ? "missing" : version)
                        + "; this reader knows version " + DeletionVectorIndexFile.VERSION, null);
            }
            in.seek(file.offset());
            byte[] sizeField = new byte[4];
            in.readFully(sizeField, 0, 4);
            int blobSize = ByteBuffer.wrap(sizeField).getInt();
            // 32-bit bitmaps record the blob's size, 64-bit ones the frame's: anything else is not this vector.
            long frameLength = (long) blobSize + DeletionVectorSerializer.FRAME_OVERHEAD;
            if (blobSize != file.length() && frameLength != file.length()) {
                throw corrupt(path, dataFileName, "its range records length " + file.length() + ", but the vector "
                        + "stored at offset " + file.offset() + " has size field " + blobSize, null);
            }
            byte[] frame = new byte[blobSize + DeletionVectorSerializer.FRAME_OVERHEAD];
            System.arraycopy(sizeField, 0, frame, 0, 4);
            in.readFully(frame, 4, frame.length - 4);
            return checked(DeletionVectorSerializer.read(frame, 0, frame.length), file, path, dataFileName);
        } catch (EOFException e) {
            throw corrupt(path, dataFileName, "the file ends inside the range at offset " + file.offset()
                    + " (truncated)", e);
        } catch (IllegalArgumentException e) {
            throw corrupt(path, dataFileName, "the vector at offset " + file.offset() + " is unusable: "
                    + e.getMessage(), e);
        } catch (CorruptDeletionVectorException e) {
            throw e;
        } catch (IOException e) {
            throw new IOException("Cannot read the deletion vector of data file " + dataFileName + " from index file "
                    + path + " of table " + tableName + ": " + e.getMessage(), e);
        }
    }

    private BitmapDeletionVector checked(DeletionVectorSerializer.Frame frame, DeletionFile file, Path path,
            String dataFileName) {
        int expected = frame.layout().recordedLength(frame.blobSize());
        if (file.length() != expected) {
            throw corrupt(path, dataFileName, "its range records length " + file.length() + ", but the "
                    + frame.layout() + " vector stored at offset " + file.offset() + " has length " + expected, null);
        }
        if (file.cardinality() != null && file.cardinality() != frame.vector().cardinality()) {
            throw corrupt(path, dataFileName, "its range records " + file.cardinality() + " deleted rows, but the "
                    + "stored vector has " + frame.vector().cardinality(), null);
        }
        return frame.vector();
    }

    private CorruptDeletionVectorException corrupt(Path path, String dataFile, String why, Throwable cause) {
        return new CorruptDeletionVectorException(path, "Cannot read the deletion vector of data file " + dataFile
                + " from index file " + path + " of table " + tableName + ": " + why + "; the index file is corrupt",
                cause);
    }
}
