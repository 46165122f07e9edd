package dev.streamhouse.storage.fs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.fs.SeekableInputStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every call into a shared Hadoop file system, and into its streams, runs with the loader that loaded
 * Hadoop as the context class loader, whatever the calling thread had (a Flink job's, closed when the
 * job ends): threads the file system starts inside a call never inherit a job's class loader.
 */
class HadoopContextClassLoaderTest {
    /** Context class loaders seen inside the file system's calls. */
    static final List<ClassLoader> SEEN = new CopyOnWriteArrayList<>();

    @TempDir
    java.nio.file.Path dir;

    @Test
    void callsIntoHadoopRunWithHadoopsClassLoaderAndRestoreTheCallers() throws Exception {
        HadoopFileIO io = new HadoopFileIO(URI.create("recording:///"),
                HadoopSettings.of(Map.of("fs.recording.impl", RecordingFileSystem.class.getName())));
        Path base = new Path("recording://" + dir.toAbsolutePath());
        Path file = new Path(base + "/d/f");
        ClassLoader jobs = new URLClassLoader(new URL[0], null);
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(jobs);
        try {
            io.mkdirs(new Path(base + "/d"));
            try (PositionOutputStream out = io.newOutputStream(file, false)) {
                out.write(new byte[] {1, 2, 3}, 0, 3);
                out.write(4);
                out.flush();
            }
            assertThat(io.exists(file)).isTrue();
            assertThat(io.status(file).length()).isEqualTo(4);
            assertThat(io.list(new Path(base + "/d"))).hasSize(1);
            try (SeekableInputStream in = io.newInputStream(file)) {
                in.seek(1);
                assertThat(in.read()).isEqualTo(2);
                byte[] rest = new byte[2];
                in.readFully(rest, 0, 2);
                assertThat(rest).containsExactly(3, 4);
            }
            assertThat(io.rename(file, new Path(base + "/d/g"))).isTrue();
            assertThat(io.delete(new Path(base + "/d"), true)).isTrue();
            assertThat(thread.getContextClassLoader()).isSameAs(jobs);
        } finally {
            thread.setContextClassLoader(before);
        }
        ClassLoader hadoops = HadoopFileIO.class.getClassLoader();
        assertThat(SEEN).hasSizeGreaterThan(10).allMatch(loader -> loader == hadoops,
                "the class loader that loaded Hadoop");
    }

    /** A local file system under scheme {@code recording} that notes the context class loader of each call. */
    public static final class RecordingFileSystem extends RawLocalFileSystem {
        private static void note() {
            SEEN.add(Thread.currentThread().getContextClassLoader());
        }

        @Override
        public URI getUri() {
            return URI.create("recording:///");
        }

        @Override
        public FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize) throws IOException {
            note();
            return new FSDataInputStream(new RecordingInput(super.open(f, bufferSize)));
        }

        @Override
        public FSDataOutputStream create(org.apache.hadoop.fs.Path f, FsPermission permission, boolean overwrite,
                int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
            note();
            FSDataOutputStream out = super.create(f, permission, overwrite, bufferSize, replication, blockSize,
                    progress);
            return new FSDataOutputStream(new java.io.OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    note();
                    out.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    note();
                    out.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    note();
                    out.close();
                }
            }, null);
        }

        @Override
        public FileStatus getFileStatus(org.apache.hadoop.fs.Path f) throws IOException {
            note();
            return super.getFileStatus(f);
        }

        @Override
        public FileStatus[] listStatus(org.apache.hadoop.fs.Path f) throws IOException {
            note();
            return super.listStatus(f);
        }

        @Override
        public boolean mkdirs(org.apache.hadoop.fs.Path f, FsPermission permission) throws IOException {
            note();
            return super.mkdirs(f, permission);
        }

        @Override
        public boolean rename(org.apache.hadoop.fs.Path src, org.apache.hadoop.fs.Path dst) throws IOException {
            note();
            return super.rename(src, dst);
        }

        @Override
        public boolean delete(org.apache.hadoop.fs.Path p, boolean recursive) throws IOException {
            note();
            return super.delete(p, recursive);
        }
    }

    /** Notes the context class loader of each read, seek and close. */
    private static final class RecordingInput extends FSInputStream {
        private final FSDataInputStream in;

        RecordingInput(FSDataInputStream in) {
            this.in = in;
        }

        @Override
        public void seek(long pos) throws IOException {
            RecordingFileSystem.note();
            in.seek(pos);
        }

        @Override
        public long getPos() throws IOException {
            return in.getPos();
        }

        @Override
        public boolean seekToNewSource(long targetPos) {
            return false;
        }

        @Override
        public int read() throws IOException {
            RecordingFileSystem.note();
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            RecordingFileSystem.note();
            return in.read(b, off, len);
        }

        @Override
        public void close() throws IOException {
            RecordingFileSystem.note();
            in.close();
        }
    }
}
