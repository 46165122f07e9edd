package dev.streamhouse.flink.common.testutils;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Golden files of state serializers: the bytes of one serializer version for one fixed object, hex
 * on one line, in the test resources' {@code golden/} folder of the module. Checked in once and never
 * regenerated for an existing version, so that a format change fails a test.
 *
 * <p>The generator: run the module's golden tests with {@code -Dgolden.write=true}; every golden file
 * a test names that does not exist yet is written to {@code src/test/resources/golden/} (relative to
 * the module, where surefire runs) from the bytes the test supplies. Existing files are never
 * overwritten, so the property cannot hide a format change. Check the new file in and describe it in
 * the folder's README.
 */
public final class GoldenFiles {
    /** The system property that lets a test run write golden files that do not exist yet. */
    public static final String WRITE_PROPERTY = "golden.write";

    private static final Path SOURCE_FOLDER = Path.of("src", "test", "resources", "golden");

    private GoldenFiles() {}

    /**
     * The bytes of golden file {@code name}. If it does not exist and {@code -Dgolden.write=true} is
     * set, writes {@code generator}'s bytes as that file first; otherwise a missing file fails.
     */
    public static byte[] read(String name, Supplier<byte[]> generator) {
        byte[] golden = readResource(name);
        if (golden != null) {
            return golden;
        }
        if (!Boolean.getBoolean(WRITE_PROPERTY)) {
            throw new AssertionError("Golden file golden/" + name + " is missing: run the test once with -D"
                    + WRITE_PROPERTY + "=true to create it, then check it in and describe it in golden/README.md");
        }
        Path file = SOURCE_FOLDER.resolve(name);
        if (Files.exists(file)) { // written earlier in this run, not on the class path yet
            return parse(file);
        }
        byte[] bytes = generator.get();
        try {
            Files.createDirectories(SOURCE_FOLDER);
            Files.writeString(file, HexFormat.of().formatHex(bytes) + "\n", StandardCharsets.US_ASCII,
                    StandardOpenOption.CREATE_NEW);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write golden file " + file.toAbsolutePath(), e);
        }
        return bytes;
    }

    /** The bytes of golden file {@code name}, which must exist. */
    public static byte[] read(String name) {
        byte[] golden = readResource(name);
        assertThat(golden).as("golden file golden/" + name).isNotNull();
        return golden;
    }

    /**
     * Checks that {@code written}, what the serializer writes now, equals golden file {@code name}
     * (created from {@code written} under {@code -Dgolden.write=true} if it does not exist yet).
     * Compared as hex so that a failure shows where the bytes part.
     */
    public static void assertWrittenAs(String name, byte[] written) {
        byte[] golden = read(name, () -> written);
        assertThat(HexFormat.of().formatHex(written))
                .as("bytes written now vs golden file golden/%s: a changed format needs a new version "
                        + "(and a new golden file), never a changed one", name)
                .isEqualTo(HexFormat.of().formatHex(golden));
    }

    private static byte[] parse(Path file) {
        try {
            return HexFormat.of().parseHex(Files.readString(file, StandardCharsets.US_ASCII).trim());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read golden file " + file.toAbsolutePath(), e);
        }
    }

    private static byte[] readResource(String name) {
        try (InputStream in = GoldenFiles.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                return null;
            }
            return HexFormat.of().parseHex(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read golden file golden/" + name, e);
        }
    }
}
