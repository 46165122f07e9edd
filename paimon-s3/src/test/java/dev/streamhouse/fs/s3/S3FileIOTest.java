package dev.streamhouse.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileIOs;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.fs.SeekableInputStream;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.testutils.CreateIfAbsentRace;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The S3 file IO against an S3-compatible server: the file contract, and the conditional-write commit. */
class S3FileIOTest {
    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    private static FileIO fileIO(String root) {
        return FileIOs.forPath(new Path(S3.uri(root)), new Options(S3.s3Options()));
    }

    @Test
    void writesReadsSeeksListsAndDeletes() throws Exception {
        FileIO io = fileIO("contract");
        Path dir = new Path(S3.uri("contract/dt=2026-12-04%2F01"));
        Path file = new Path(dir, "data-1.parquet");
        byte[] content = new byte[300_000];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31);
        }
        try (PositionOutputStream out = io.newOutputStream(file, false)) {
            out.write(content, 0, 1000);
            assertThat(out.position()).isEqualTo(1000);
            out.write(content, 1000, content.length - 1000);
        }
        assertThat(io.exists(file)).isTrue();
        assertThat(io.size(file)).isEqualTo(content.length);
        try (SeekableInputStream in = io.newInputStream(file)) {
            in.seek(250_000);
            byte[] tail = new byte[100];
            in.readFully(tail, 0, tail.length);
            assertThat(tail[0]).isEqualTo(content[250_000]);
            assertThat(in.position()).isEqualTo(250_100);
            in.seek(10);
            assertThat((byte) in.read()).isEqualTo(content[10]);
        }
        assertThat(io.readAllBytes(file)).isEqualTo(content);
        // The escaped partition name reaches the store verbatim.
        assertThat(io.list(new Path(S3.uri("contract"))).stream().map(s -> s.path().name()))
                .containsExactly("dt=2026-12-04%2F01");
        List<FileStatus> listed = io.list(dir);
        assertThat(listed).singleElement().satisfies(s -> {
            assertThat(s.path()).isEqualTo(file);
            assertThat(s.length()).isEqualTo(content.length);
            assertThat(s.isDirectory()).isFalse();
        });
        assertThat(io.list(new Path(S3.uri("contract/missing")))).isEmpty();

        io.overwrite(file, "small".getBytes(StandardCharsets.UTF_8));
        assertThat(io.readUtf8(file)).isEqualTo("small");
        assertThat(io.delete(file, false)).isTrue();
        assertThat(io.exists(file)).isFalse();
        assertThat(io.delete(file, false)).isFalse();
        assertThatThrownBy(() -> io.newInputStream(file)).isInstanceOf(FileNotFoundException.class);
        assertThatThrownBy(() -> io.status(file)).isInstanceOf(FileNotFoundException.class);
    }

    @Test
    void createIfAbsentIsOneConditionalPutThatLosesToAnExistingObject() throws Exception {
        FileIO io = fileIO("once");
        Path snapshot = new Path(S3.uri("once/snapshot/snapshot-1"));
        assertThat(io.createIfAbsent(snapshot, "first".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(io.createIfAbsent(snapshot, "second".getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThat(io.readUtf8(snapshot)).isEqualTo("first");
        // No temp files, no probe objects left behind.
        assertThat(io.list(new Path(S3.uri("once/snapshot"))).stream().map(s -> s.path().name()))
                .containsExactly("snapshot-1");
        assertThat(io.list(new Path(S3.uri("once"))).stream().map(s -> s.path().name()))
                .containsExactly("snapshot");
    }

    @Test
    void ofEightRacingWritersExactlyOneCreatesTheFile() throws Exception {
        FileIO io = fileIO("race");
        CreateIfAbsentRace.assertExactlyOneWinnerEachRound(io, r -> new Path(S3.uri("race/snapshot-" + r)), 10, 8);
    }

    @Test
    void aLargeFileGoesUpInPartsAndAnUnfinishedUploadLeavesNoFile() throws Exception {
        java.util.Map<String, String> options = new java.util.HashMap<>(S3.s3Options());
        options.put("s3.multipart.size", "5M");
        options.put("s3.multipart.threshold", "5M");
        FileIO io = FileIOs.forPath(new Path(S3.uri("parts")), new Options(options));
        byte[] content = new byte[12 * 1024 * 1024 + 17];
        new java.util.Random(7).nextBytes(content);
        Path large = new Path(S3.uri("parts/data-large.parquet"));
        try (PositionOutputStream out = io.newOutputStream(large, false)) {
            for (int off = 0; off < content.length; off += 1 << 20) {
                out.write(content, off, Math.min(1 << 20, content.length - off));
            }
        }
        assertThat(io.size(large)).isEqualTo(content.length);
        assertThat(io.readAllBytes(large)).isEqualTo(content);

        // A writer that dies before closing its file (a crashed task) leaves nothing visible, also after a
        // part was already uploaded.
        Path unfinished = new Path(S3.uri("parts/data-unfinished.parquet"));
        PositionOutputStream abandoned = io.newOutputStream(unfinished, false);
        abandoned.write(content, 0, 6 * 1024 * 1024);
        abandoned.flush();
        assertThat(io.exists(unfinished)).isFalse();
        assertThat(io.list(new Path(S3.uri("parts"))).stream().map(s -> s.path().name()))
                .containsExactly("data-large.parquet");
    }

    @Test
    void newFilesTakeOnePutEachWithoutChecksForExistingObjects() throws Exception {
        S3FileIO io = (S3FileIO) fileIO("requests");
        io.overwrite(new Path(S3.uri("requests/warm-up")), new byte[] {1});
        java.util.Map<String, Long> before = io.requestCounts();
        for (int i = 0; i < 5; i++) {
            try (PositionOutputStream out = io.newOutputStream(new Path(S3.uri("requests/data-" + i + ".parquet")), false)) {
                out.write(new byte[] {(byte) i});
            }
        }
        java.util.Map<String, Long> after = io.requestCounts();
        assertThat(after.get("object_put_request") - before.get("object_put_request")).as("%s", after).isEqualTo(5);
        assertThat(after.get("object_metadata_request")).as("HEAD requests (%s)", after)
                .isEqualTo(before.get("object_metadata_request"));
        assertThat(after.get("object_list_request")).as("LIST requests (%s)", after)
                .isEqualTo(before.get("object_list_request"));

        // Without overwrite, an existing object is still never replaced.
        Path existing = new Path(S3.uri("requests/data-0.parquet"));
        assertThatThrownBy(() -> {
            try (PositionOutputStream out = io.newOutputStream(existing, false)) {
                out.write(new byte[] {42});
            }
        }).isInstanceOf(java.io.IOException.class);
        assertThat(io.readAllBytes(existing)).containsExactly(0);
    }

    @Test
    void travelsToTasksWithoutItsSecretsInItsName() throws Exception {
        FileIO io = fileIO("serialized");
        assertThat(io.toString()).doesNotContain(S3ProxyExtension.SECRET_KEY).doesNotContain(S3ProxyExtension.ACCESS_KEY);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(io);
        }
        FileIO copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (FileIO) in.readObject();
        }
        Path file = new Path(S3.uri("serialized/snapshot-1"));
        assertThat(copy.createIfAbsent(file, "x".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(copy.createIfAbsent(file, "y".getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThat(io.readUtf8(file)).isEqualTo("x");
    }

    @Test
    void theS3AndS3aSchemesAndSpellingsOfTheKeysAllReachTheStore() throws IOException {
        Options dashed = new Options(S3.s3Options());
        FileIO s3a = FileIOs.forPath(new Path("s3a://" + S3.bucket() + "/spelling"), dashed);
        Path file = new Path("s3a://" + S3.bucket() + "/spelling/f");
        s3a.overwrite(file, "a".getBytes(StandardCharsets.UTF_8));

        Options hadoopSpelling = new Options(java.util.Map.of(
                "fs.s3a.endpoint", S3.endpoint(),
                "fs.s3a.access.key", S3ProxyExtension.ACCESS_KEY,
                "fs.s3a.secret.key", S3ProxyExtension.SECRET_KEY,
                "fs.s3a.path.style.access", "true",
                "fs.s3a.endpoint.region", "us-east-1"));
        FileIO plain = FileIOs.forPath(new Path(S3.uri("spelling")), hadoopSpelling);
        assertThat(plain.readUtf8(new Path(S3.uri("spelling/f")))).isEqualTo("a");
        assertThat(plain.list(new Path(S3.uri("spelling"))).stream().map(s -> s.path().toString())
                .collect(Collectors.toList())).containsExactly(S3.uri("spelling/f"));
    }
}
