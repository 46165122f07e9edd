package dev.streamhouse.storage.fs;

import java.io.BufferedOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@link FileIO} over the local file system ({@code file:} scheme or plain paths).
 *
 * <p>{@link #createIfAbsent} writes a hidden temp file and publishes it with a hard link, which the
 * kernel refuses atomically when the target exists, so it is safe across processes, not only
 * threads. File systems without hard links fall back to a JVM-wide lock around check-and-move.
 */
public final class LocalFileIO implements FileIO {
    private static final long serialVersionUID = 1L;
    private static final Object RENAME_LOCK = new Object();

    public static final LocalFileIO INSTANCE = new LocalFileIO();

    /** Converts a local {@link Path} to a NIO path. */
    public static java.nio.file.Path toNio(Path path) {
        String scheme = path.scheme();
        if (scheme != null && !scheme.equals("file")) {
            throw new IllegalArgumentException("Not a local path: " + path);
        }
        return java.nio.file.Paths.get(path.path());
    }

    @Override
    public SeekableInputStream newInputStream(Path path) throws IOException {
        java.nio.file.Path p = toNio(path);
        if (!Files.isRegularFile(p)) {
            throw new FileNotFoundException("File " + path + " does not exist");
        }
        return new LocalInputStream(new RandomAccessFile(p.toFile(), "r"));
    }

    @Override
    public PositionOutputStream newOutputStream(Path path, boolean overwrite) throws IOException {
        java.nio.file.Path p = toNio(path);
        if (p.getParent() != null) {
            Files.createDirectories(p.getParent());
        }
        OutputStream out = overwrite
                ? Files.newOutputStream(p, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE)
                : Files.newOutputStream(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new LocalOutputStream(new BufferedOutputStream(out, 64 * 1024));
    }

    @Override
    public FileStatus status(Path path) throws IOException {
        try {
            BasicFileAttributes a = Files.readAttributes(toNio(path), BasicFileAttributes.class);
            return new FileStatus(path, a.size(), a.isDirectory(), a.lastModifiedTime().toMillis());
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException("File " + path + " does not exist");
        }
    }

    @Override
    public List<FileStatus> list(Path directory) throws IOException {
        java.nio.file.Path dir = toNio(directory);
        List<FileStatus> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<java.nio.file.Path> children = Files.newDirectoryStream(dir)) {
            for (java.nio.file.Path child : children) {
                try {
                    BasicFileAttributes a = Files.readAttributes(child, BasicFileAttributes.class);
                    out.add(new FileStatus(new Path(directory, child.getFileName().toString()), a.size(),
                            a.isDirectory(), a.lastModifiedTime().toMillis()));
                } catch (NoSuchFileException concurrentlyDeleted) {
                    // listed, then deleted by someone else: not there
                }
            }
        }
        return out;
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(toNio(path));
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        java.nio.file.Path p = toNio(path);
        if (!Files.exists(p)) {
            return false;
        }
        if (Files.isDirectory(p) && recursive) {
            try (Stream<java.nio.file.Path> walk = Files.walk(p)) {
                for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(f);
                }
            }
            return true;
        }
        return Files.deleteIfExists(p);
    }

    @Override
    public void mkdirs(Path path) throws IOException {
        Files.createDirectories(toNio(path));
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        java.nio.file.Path s = toNio(src);
        java.nio.file.Path d = toNio(dst);
        if (d.getParent() != null) {
            Files.createDirectories(d.getParent());
        }
        try {
            Files.createLink(d, s);
            Files.delete(s);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (UnsupportedOperationException | java.nio.file.FileSystemException noHardLinks) {
            if (noHardLinks instanceof java.nio.file.FileSystemException && Files.exists(d)) {
                return false;
            }
            synchronized (RENAME_LOCK) {
                if (Files.exists(d)) {
                    return false;
                }
                try {
                    Files.move(s, d, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(s, d);
                }
                return true;
            }
        }
    }

    /**
     * Writes a hidden temp file and moves it over {@code path} atomically, so readers see the old or the
     * new content, never a mix of two concurrent writers' bytes.
     */
    @Override
    public void overwrite(Path path, byte[] content) throws IOException {
        Path tmp = TempFiles.writeNextTo(this, path, content);
        try {
            try {
                Files.move(toNio(tmp), toNio(path), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(toNio(tmp), toNio(path), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            deleteQuietly(tmp);
        }
    }

    @Override
    public boolean createIfAbsent(Path path, byte[] content) throws IOException {
        Path tmp = TempFiles.writeNextTo(this, path, content);
        try {
            return rename(tmp, path);
        } finally {
            deleteQuietly(tmp);
        }
    }

    private static final class LocalInputStream extends SeekableInputStream {
        private final RandomAccessFile file;

        LocalInputStream(RandomAccessFile file) {
            this.file = file;
        }

        @Override
        public void seek(long position) throws IOException {
            file.seek(position);
        }

        @Override
        public long position() throws IOException {
            return file.getFilePointer();
        }

        @Override
        public int read() throws IOException {
            return file.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return file.read(b, off, len);
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    private static final class LocalOutputStream extends PositionOutputStream {
        private final OutputStream out;
        private long position;

        LocalOutputStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            position++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            position += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
