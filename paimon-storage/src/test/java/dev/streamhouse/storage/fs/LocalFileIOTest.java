package dev.streamhouse.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local file system FileIO, in particular the create-if-absent commit primitive (docs/format.md §2.2). */
class LocalFileIOTest {
    private static final int RACERS = 8;

    @TempDir
    java.nio.file.Path tmp;

    private final FileIO io = LocalFileIO.INSTANCE;
    private Path dir;
    private ExecutorService pool;

    @BeforeEach
    void setUp() {
        dir = new Path(tmp.toString());
        pool = Executors.newFixedThreadPool(RACERS);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Content large enough to span several writes, different per racer. */
    private static byte[] contentOf(int racer) {
        byte[] content = new byte[256 * 1024 + racer];
        Arrays.fill(content, (byte) ('a' + racer));
        return content;
    }

    private List<String> namesIn(Path directory) throws IOException {
        List<String> names = new ArrayList<>();
        for (FileStatus s : io.list(directory)) {
            names.add(s.path().name());
        }
        return names;
    }

    // ---- create if absent ----

    @Test
    void exactlyOneOfEightRacersCreatesTheFile() throws Exception {
        for (int round = 0; round < 20; round++) {
            Path target = new Path(dir, "snapshot/snapshot-" + round);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int racer = 0; racer < RACERS; racer++) {
                byte[] content = contentOf(racer);
                Callable<Boolean> race = () -> {
                    start.await();
                    return io.createIfAbsent(target, content);
                };
                results.add(pool.submit(race));
            }
            start.countDown();

            List<Integer> winners = new ArrayList<>();
            for (int racer = 0; racer < RACERS; racer++) {
                if (results.get(racer).get(30, TimeUnit.SECONDS)) {
                    winners.add(racer);
                }
            }

            assertThat(winners).as("round %d", round).hasSize(1);
            assertThat(io.readAllBytes(target)).as("round %d", round).isEqualTo(contentOf(winners.get(0)));
        }
        assertThat(namesIn(new Path(dir, "snapshot"))).hasSize(20).allMatch(n -> n.startsWith("snapshot-"));
    }

    @Test
    void createIfAbsentDoesNotTouchAnExistingFile() throws IOException {
        Path target = new Path(dir, "schema/schema-0");

        assertThat(io.createIfAbsent(target, bytes("first"))).isTrue();
        assertThat(io.createIfAbsent(target, bytes("second"))).isFalse();

        assertThat(io.readUtf8(target)).isEqualTo("first");
        assertThat(namesIn(target.parent())).containsExactly("schema-0");
    }

    @Test
    void createIfAbsentCreatesParentDirectoriesAndLeavesNoTempFile() throws IOException {
        Path target = new Path(dir, "a/b/c/file");

        assertThat(io.createIfAbsent(target, new byte[0])).isTrue();

        assertThat(io.exists(target)).isTrue();
        assertThat(io.size(target)).isZero();
        assertThat(namesIn(target.parent())).containsExactly("file");
    }

    // ---- rename ----

    @Test
    void renameRefusesAnExistingTarget() throws IOException {
        Path src = new Path(dir, "src");
        Path dst = new Path(dir, "dst");
        io.overwrite(src, bytes("new"));
        io.overwrite(dst, bytes("old"));

        assertThat(io.rename(src, dst)).isFalse();

        assertThat(io.readUtf8(dst)).isEqualTo("old");
        assertThat(io.readUtf8(src)).isEqualTo("new");
    }

    @Test
    void renameMovesTheFile() throws IOException {
        Path src = new Path(dir, "src");
        Path dst = new Path(dir, "sub/dst");
        io.overwrite(src, bytes("content"));

        assertThat(io.rename(src, dst)).isTrue();

        assertThat(io.exists(src)).isFalse();
        assertThat(io.readUtf8(dst)).isEqualTo("content");
    }

    @Test
    void renameMovesADirectory() throws IOException {
        Path src = new Path(dir, "d1");
        io.overwrite(new Path(src, "f"), bytes("x"));
        Path dst = new Path(dir, "d2");

        assertThat(io.rename(src, dst)).isTrue();

        assertThat(io.exists(src)).isFalse();
        assertThat(io.readUtf8(new Path(dst, "f"))).isEqualTo("x");
    }

    @Test
    void renameOfAMissingSourceFails() throws IOException {
        assertThatThrownBy(() -> io.rename(new Path(dir, "missing"), new Path(dir, "dst")))
                .isInstanceOf(IOException.class);
        assertThat(io.exists(new Path(dir, "dst"))).isFalse();
    }

    // ---- listing, status, delete ----

    @Test
    void listOfAMissingDirectoryIsEmpty() throws IOException {
        assertThat(io.list(new Path(dir, "does/not/exist"))).isEmpty();
    }

    @Test
    void listShowsDirectChildrenWithSizesAndKinds() throws IOException {
        io.overwrite(new Path(dir, "t/f1"), bytes("12345"));
        io.mkdirs(new Path(dir, "t/sub"));
        io.overwrite(new Path(dir, "t/sub/nested"), bytes("x"));

        List<FileStatus> listed = new ArrayList<>(io.list(new Path(dir, "t")));
        listed.sort((a, b) -> a.path().compareTo(b.path()));

        assertThat(listed).hasSize(2);
        assertThat(listed.get(0).path()).isEqualTo(new Path(dir, "t/f1"));
        assertThat(listed.get(0).length()).isEqualTo(5);
        assertThat(listed.get(0).isDirectory()).isFalse();
        assertThat(listed.get(1).path()).isEqualTo(new Path(dir, "t/sub"));
        assertThat(listed.get(1).isDirectory()).isTrue();
    }

    @Test
    void statusOfAMissingFileIsFileNotFound() throws IOException {
        assertThatThrownBy(() -> io.status(new Path(dir, "missing"))).isInstanceOf(FileNotFoundException.class);
        io.overwrite(new Path(dir, "f"), bytes("abc"));
        assertThat(io.status(new Path(dir, "f")).length()).isEqualTo(3);
        assertThat(io.status(dir).isDirectory()).isTrue();
    }

    @Test
    void deleteReportsWhetherSomethingWasThere() throws IOException {
        Path f = new Path(dir, "f");
        io.overwrite(f, bytes("x"));

        assertThat(io.delete(f, false)).isTrue();
        assertThat(io.delete(f, false)).isFalse();
        assertThat(io.exists(f)).isFalse();
    }

    @Test
    void nonEmptyDirectoriesAreDeletedOnlyRecursively() throws IOException {
        Path d = new Path(dir, "d");
        io.overwrite(new Path(d, "a/b"), bytes("x"));

        assertThatThrownBy(() -> io.delete(d, false)).isInstanceOf(IOException.class);
        assertThat(io.exists(new Path(d, "a/b"))).isTrue();
        assertThat(io.delete(d, true)).isTrue();
        assertThat(io.exists(d)).isFalse();
    }

    @Test
    void mkdirsIsIdempotent() throws IOException {
        Path d = new Path(dir, "x/y");
        io.mkdirs(d);
        io.mkdirs(d);

        assertThat(io.status(d).isDirectory()).isTrue();
    }

    // ---- streams ----

    @Test
    void newOutputStreamWithoutOverwriteFailsOnAnExistingFile() throws IOException {
        Path f = new Path(dir, "data-1.parquet");
        io.overwrite(f, bytes("original"));

        assertThatThrownBy(() -> io.newOutputStream(f, false).close()).isInstanceOf(IOException.class);

        assertThat(io.readUtf8(f)).isEqualTo("original");
    }

    @Test
    void newOutputStreamWithOverwriteReplacesTheContent() throws IOException {
        Path f = new Path(dir, "hint/LATEST");
        io.overwrite(f, bytes("12345"));

        try (PositionOutputStream out = io.newOutputStream(f, true)) {
            out.write('7');
            out.write(bytes("89"), 0, 2);
            assertThat(out.position()).isEqualTo(3);
        }

        assertThat(io.readUtf8(f)).isEqualTo("789");
    }

    @Test
    void inputStreamsSeekAndReadFully() throws IOException {
        Path f = new Path(dir, "f");
        io.overwrite(f, bytes("0123456789"));

        try (SeekableInputStream in = io.newInputStream(f)) {
            in.seek(6);
            assertThat(in.position()).isEqualTo(6);
            byte[] buf = new byte[3];
            in.readFully(buf, 0, 3);
            assertThat(new String(buf, StandardCharsets.UTF_8)).isEqualTo("678");
            in.seek(2);
            assertThat(in.read()).isEqualTo('2');
            in.seek(8);
            assertThatThrownBy(() -> in.readFully(new byte[5], 0, 5)).isInstanceOf(EOFException.class);
        }
    }

    @Test
    void readingAMissingFileIsFileNotFound() {
        assertThatThrownBy(() -> io.newInputStream(new Path(dir, "missing"))).isInstanceOf(FileNotFoundException.class);
        assertThatThrownBy(() -> io.newInputStream(dir)).isInstanceOf(FileNotFoundException.class);
    }

    // ---- paths ----

    @Test
    void fileSchemePathsAndPercentEscapesReachTheFileSystemUnchanged() throws IOException {
        Path viaUri = new Path("file://" + tmp + "/t/dt=2024%2F01");
        Path viaScheme = new Path("file:" + tmp + "/t/dt=2024%2F01");

        io.overwrite(new Path(viaUri, "f"), bytes("x"));

        assertThat(Files.exists(tmp.resolve("t").resolve("dt=2024%2F01").resolve("f"))).isTrue();
        assertThat(io.readUtf8(new Path(viaScheme, "f"))).isEqualTo("x");
        assertThat(namesIn(new Path(tmp + "/t"))).containsExactly("dt=2024%2F01");
    }

    @Test
    void otherSchemesAreRejected() {
        assertThatThrownBy(() -> io.exists(new Path("s3://bucket/x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s3://bucket/x");
    }

    @Test
    void survivesJavaSerialization() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(io);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            FileIO copy = (FileIO) in.readObject();
            Path f = new Path(dir, "f");
            copy.overwrite(f, bytes("via copy"));
            assertThat(io.readUtf8(f)).isEqualTo("via copy");
        }
    }

    @Test
    void concurrentOverwritesNeverMixTheirBytes() throws Exception {
        Path hint = new Path(dir, "LATEST");
        io.overwrite(hint, bytes("31"));
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> writers = new ArrayList<>();
        for (String value : new String[] {"7", "31"}) {
            writers.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < 2000; i++) {
                    io.overwrite(hint, bytes(value));
                }
                return null;
            }));
        }
        go.countDown();
        List<String> seen = new ArrayList<>();
        while (!writers.stream().allMatch(Future::isDone)) {
            seen.add(io.readUtf8(hint));
        }
        for (Future<?> w : writers) {
            w.get();
        }
        seen.add(io.readUtf8(hint));
        assertThat(seen).allMatch(v -> v.equals("7") || v.equals("31"), "only whole values");
        assertThat(io.list(dir)).extracting(f -> f.path().name()).containsExactly("LATEST");
    }
}
