package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.SeekableInputStream;

import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;

import java.io.IOException;

/**
 * Presents a file of a {@link FileIO} as a Parquet {@link InputFile} of a known length (taken from
 * the manifest, so opening costs no status call). Its {@code toString} is the path, so Parquet's own
 * messages name the file.
 */
final class ParquetInputFile implements InputFile {
    private final FileIO fileIO;
    private final Path path;
    private final long length;

    ParquetInputFile(FileIO fileIO, Path path, long length) {
        this.fileIO = fileIO;
        this.path = path;
        this.length = length;
    }

    @Override
    public long getLength() {
        return length;
    }

    @Override
    public org.apache.parquet.io.SeekableInputStream newStream() throws IOException {
        SeekableInputStream in = fileIO.newInputStream(path);
        return new DelegatingSeekableInputStream(in) {
            @Override
            public long getPos() throws IOException {
                return in.position();
            }

            @Override
            public void seek(long newPos) throws IOException {
                in.seek(newPos);
            }
        };
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
