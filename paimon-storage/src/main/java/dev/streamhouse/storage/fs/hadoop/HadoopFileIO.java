package dev.streamhouse.storage.fs.hadoop;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.fs.SeekableInputStream;
import dev.streamhouse.storage.fs.TempFiles;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link FileIO} over a Hadoop {@link FileSystem} ({@code hdfs://}, and the base of the S3 file IO).
 *
 * <p>{@link #createIfAbsent} writes a hidden temp file next to the target and renames it onto the
 * target; on HDFS a rename fails when the target exists and is atomic in the NameNode, so exactly one
 * of several racing committers wins. File systems whose rename may replace an existing file override
 * it (S3 uses a conditional write).
 *
 * <p>Serializable: it carries the file system's URI and its Hadoop settings (which may hold
 * credentials: never logged, {@link #toString} shows the URI only) and opens the file system lazily
 * on each JVM through {@link HadoopFileSystems}.
 */
public class HadoopFileIO implements FileIO {
    private static final long serialVersionUID = 1L;

    private final URI fileSystemUri;
    private final HadoopSettings settings;
    private transient volatile FileSystem fileSystem;

    public HadoopFileIO(URI fileSystemUri, HadoopSettings settings) {
        this.fileSystemUri = Objects.requireNonNull(fileSystemUri, "fileSystemUri");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** {@code scheme://authority/} of a path: the file system that holds it. */
    public static URI fileSystemUri(Path path) {
        return URI.create(path.scheme() + "://" + (path.authority() == null ? "" : path.authority()) + "/");
    }

    /** The file system, opened on first use in this JVM (shared by file IOs with the same URI and settings). */
    protected final FileSystem fileSystem() throws IOException {
        FileSystem fs = fileSystem;
        if (fs == null) {
            fs = OwnContextClassLoader.call(() -> HadoopFileSystems.get(fileSystemUri, settings));
            fileSystem = fs;
        }
        return fs;
    }

    protected final URI uri() {
        return fileSystemUri;
    }

    protected final HadoopSettings settings() {
        return settings;
    }

    protected static org.apache.hadoop.fs.Path toHadoop(Path path) {
        return new org.apache.hadoop.fs.Path(path.toString());
    }

    static Path fromHadoop(org.apache.hadoop.fs.Path path) {
        URI uri = path.toUri();
        StringBuilder sb = new StringBuilder();
        if (uri.getScheme() != null) {
            sb.append(uri.getScheme()).append(':');
        }
        if (uri.getAuthority() != null) {
            sb.append("//").append(uri.getAuthority());
        }
        return new Path(sb.append(uri.getPath()).toString());
    }

    @Override
    public SeekableInputStream newInputStream(Path path) throws IOException {
        return new HadoopInputStream(OwnContextClassLoader.call(() -> fileSystem().open(toHadoop(path))));
    }

    @Override
    public PositionOutputStream newOutputStream(Path path, boolean overwrite) throws IOException {
        return new HadoopOutputStream(OwnContextClassLoader.call(() -> create(toHadoop(path), overwrite)));
    }

    /** Creates the file; file systems with a cheaper way to create a file override this. */
    protected FSDataOutputStream create(org.apache.hadoop.fs.Path path, boolean overwrite) throws IOException {
        return fileSystem().create(path, overwrite);
    }

    @Override
    public FileStatus status(Path path) throws IOException {
        return toStatus(OwnContextClassLoader.call(() -> fileSystem().getFileStatus(toHadoop(path))));
    }

    private static FileStatus toStatus(org.apache.hadoop.fs.FileStatus s) {
        return new FileStatus(fromHadoop(s.getPath()), s.isDirectory() ? 0 : s.getLen(), s.isDirectory(),
                s.getModificationTime());
    }

    @Override
    public List<FileStatus> list(Path directory) throws IOException {
        org.apache.hadoop.fs.FileStatus[] children;
        try {
            children = OwnContextClassLoader.call(() -> fileSystem().listStatus(toHadoop(directory)));
        } catch (FileNotFoundException missing) {
            return List.of();
        }
        List<FileStatus> out = new ArrayList<>(children.length);
        for (org.apache.hadoop.fs.FileStatus child : children) {
            out.add(toStatus(child));
        }
        return out;
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return OwnContextClassLoader.call(() -> fileSystem().exists(toHadoop(path)));
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        return OwnContextClassLoader.call(() -> fileSystem().delete(toHadoop(path), recursive));
    }

    @Override
    public void mkdirs(Path path) throws IOException {
        if (!OwnContextClassLoader.call(() -> fileSystem().mkdirs(toHadoop(path)))) {
            throw new IOException("Cannot create directory " + path);
        }
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        return OwnContextClassLoader.call(() -> {
            FileSystem fs = fileSystem();
            if (fs.exists(toHadoop(dst))) {
                return false;
            }
            return fs.rename(toHadoop(src), toHadoop(dst));
        });
    }

    /** Temp file plus rename, which fails on HDFS when the target exists (see the class comment). */
    @Override
    public boolean createIfAbsent(Path path, byte[] content) throws IOException {
        Path tmp = TempFiles.writeNextTo(this, path, content);
        try {
            return OwnContextClassLoader.call(() -> fileSystem().rename(toHadoop(tmp), toHadoop(path)));
        } finally {
            deleteQuietly(tmp);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(" + fileSystemUri + ")";
    }

    /** {@link SeekableInputStream} over Hadoop's positioned stream. */
    private static final class HadoopInputStream extends SeekableInputStream {
        private final FSDataInputStream in;

        HadoopInputStream(FSDataInputStream in) {
            this.in = in;
        }

        @Override
        public void seek(long position) throws IOException {
            OwnContextClassLoader.run(() -> in.seek(position));
        }

        @Override
        public long position() throws IOException {
            return in.getPos();
        }

        @Override
        public int read() throws IOException {
            return OwnContextClassLoader.call(in::read);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return OwnContextClassLoader.call(() -> in.read(b, off, len));
        }

        @Override
        public void readFully(byte[] b, int off, int len) throws IOException {
            OwnContextClassLoader.run(() -> in.readFully(b, off, len));
        }

        @Override
        public long skip(long n) throws IOException {
            return OwnContextClassLoader.call(() -> in.skip(n));
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public void close() throws IOException {
            OwnContextClassLoader.run(in::close);
        }
    }

    /** {@link PositionOutputStream} over Hadoop's output stream; the file appears (on S3) at close. */
    private static final class HadoopOutputStream extends PositionOutputStream {
        private final FSDataOutputStream out;

        HadoopOutputStream(FSDataOutputStream out) {
            this.out = out;
        }

        @Override
        public long position() {
            return out.getPos();
        }

        @Override
        public void write(int b) throws IOException {
            OwnContextClassLoader.run(() -> out.write(b));
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            OwnContextClassLoader.run(() -> out.write(b, off, len));
        }

        @Override
        public void flush() throws IOException {
            OwnContextClassLoader.run(out::flush);
        }

        @Override
        public void close() throws IOException {
            OwnContextClassLoader.run(out::close);
        }
    }
}
