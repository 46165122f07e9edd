package dev.streamhouse.storage.fs;

import java.io.BufferedOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
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
 * <p>{@link #createIfAbsent} (and {@link #rename}) writes a hidden temp file and publishes it with a
 * hard link, which the kernel refuses atomically when the target exists, so of several threads or
 * processes racing for one name exactly one wins. Where the file system refuses hard links, the
 * fallback holds across processes too: an exclusive {@link FileChannel#lock() file lock} on a hidden
 * {@code .<name>.lock} file next to the target is held around "target absent? then move" (and a
 * JVM-wide monitor, as file locks are per process), and the lock file is deleted once the target
 * exists. A file system that supports neither hard links nor file locks is refused with an
 * {@link IOException} rather than risk two winners. Both guarantees are only as good as the file
 * system's link and lock semantics: full on local disks, as the server implements them on network
 * file systems.
 */
public final class LocalFileIO implements FileIO {
    private static final long serialVersionUID = 1L;
    private static final Object RENAME_LOCK = new Object();

    public static final LocalFileIO INSTANCE = new LocalFileIO(false);

    /** Whether to publish without hard links, as on file systems that have none (tests of the fallback). */
    private final boolean withoutHardLinks;

    public LocalFileIO() {
        this(false);
    }

    private LocalFileIO(boolean withoutHardLinks) {
        this.withoutHardLinks = withoutHardLinks;
    }

    /** A local file IO that never tries hard links, so it always takes the file-lock fallback (for tests). */
    static LocalFileIO withoutHardLinks() {
        return new LocalFileIO(true);
    }

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
        if (withoutHardLinks) {
            return moveIfAbsentLocked(s, d);
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
            return moveIfAbsentLocked(s, d);
        }
    }

    /**
     * Moves {@code s} to {@code d} unless {@code d} exists, under an exclusive lock on {@code .<d>.lock}
     * that every process publishing {@code d} this way takes. The lock file is deleted (by whoever
     * holds it) only once {@code d} exists: a process that then locks an older, already unlinked lock
     * file, or a new one, finds {@code d} and gives up, so no two processes ever both see it absent.
     * After a failed move the lock file stays (hidden; the next create of {@code d} deletes it).
     */
    private static boolean moveIfAbsentLocked(java.nio.file.Path s, java.nio.file.Path d) throws IOException {
        java.nio.file.Path lockFile = d.resolveSibling("." + d.getFileName() + ".lock");
        // File locks are held per process: threads of one JVM must not lock the same file twice.
        synchronized (RENAME_LOCK) {
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock ignored = lock(channel, d)) {
                if (Files.exists(d)) {
                    Files.deleteIfExists(lockFile);
                    return false;
                }
                try {
                    Files.move(s, d, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    try {
                        Files.move(s, d);
                    } catch (FileAlreadyExistsException lost) {
                        return false;
                    }
                }
                Files.deleteIfExists(lockFile);
                return true;
            }
        }
    }

    private static FileLock lock(FileChannel channel, java.nio.file.Path target) throws IOException {
        try {
            return channel.lock();
        } catch (IOException e) {
            throw new IOException("Cannot create " + target + " if absent: the file system supports neither hard "
                    + "links nor file locks (" + e.getMessage() + "), so two committers could both publish it; put "
                    + "the warehouse on a file system with hard links or file locks (a local disk, HDFS or S3)", e);
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
