package dev.streamhouse.storage.mergetree.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.io.KvTestTable.Kv;
import dev.streamhouse.storage.mergetree.lookup.LookupTestTable.Version;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

class LevelLookupTest {
    private static final int KEYS = 240;
    /** Keys {@code KEYS..KEYS+19} are never written: beyond the key range of some shapes, inside it for others. */
    private static final int ASKED = KEYS + 20;
    private static final int[] LEVELS = {1, 2, 4};

    @TempDir
    Path tmp;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        long seed = 1;
        for (KeyShape shape : KeyShape.values()) {
            for (LookupFileType type : LookupFileType.values()) {
                out.add(Arguments.of(shape, LookupFileSettings.defaults().withFileType(type), seed++));
                out.add(Arguments.of(shape,
                        LookupFileSettings.defaults().withFileType(type).withoutBloomFilter().withBlockSizeBytes(300),
                        seed++));
            }
        }
        return out.stream();
    }

    /** Random versions on several levels; the newest version of a key is the one on the smallest level. */
    @ParameterizedTest(name = "{0} {1} seed {2}")
    @MethodSource("cases")
    void findsTheVersionOnTheSmallestLevelLikeABruteForceModel(KeyShape shape, LookupFileSettings settings, long seed)
            throws IOException {
        Random random = new Random(seed);
        LookupTestTable table = new LookupTestTable(tmp.resolve("table"), shape);
        RowKind[] kinds = {RowKind.INSERT, RowKind.INSERT, RowKind.UPDATE_AFTER, RowKind.DELETE, RowKind.UPDATE_BEFORE};
        // level -> key number -> version; higher levels hold older data, so they are written first
        Map<Integer, Map<Integer, Version>> model = new TreeMap<>();
        List<DataFileMeta> files = new ArrayList<>();
        long seq = 0;
        for (int l = LEVELS.length - 1; l >= 0; l--) {
            Map<Integer, Version> level = new HashMap<>();
            for (int i = 0; i < KEYS; i++) {
                if (random.nextInt(100) < 45) {
                    level.put(i, table.version(i, seq++, kinds[random.nextInt(kinds.length)], random));
                }
            }
            model.put(LEVELS[l], level);
            files.addAll(table.writeRun(LEVELS[l], new ArrayList<>(level.values()), 1 + random.nextInt(4)));
        }
        Collections.shuffle(files, random);
        Map<String, List<Kv>> fileContents = new HashMap<>();
        for (DataFileMeta f : files) {
            fileContents.put(f.fileName(), table.readAll(f));
        }

        try (LookupFileCache cache = new LookupFileCache(tmp.resolve("cache"), settings, Long.MAX_VALUE,
                Duration.ofHours(1));
                LevelLookup lookup = new LevelLookup(cache, table.readers, BinaryRow.EMPTY_ROW, LookupTestTable.BUCKET,
                        files)) {
            assertThat(lookup.levelCount()).isEqualTo(LEVELS.length);
            List<Integer> asked = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < ASKED; i++) {
                    asked.add(i);
                }
            }
            Collections.shuffle(asked, random);
            for (int i : asked) {
                InternalRow key = random.nextBoolean() ? table.binaryKey(i) : table.key(i);
                Version expected = null;
                int expectedLevel = -1;
                for (Map.Entry<Integer, Map<Integer, Version>> level : model.entrySet()) {
                    expected = level.getValue().get(i);
                    if (expected != null) {
                        expectedLevel = level.getKey();
                        break;
                    }
                }
                LookupResult got = lookup.locate(key);
                if (expected == null) {
                    assertThat(got).as("key %s", i).isNull();
                    assertThat(lookup.lookup(key)).isNull();
                    assertThat(lookup.contains(key)).isFalse();
                    continue;
                }
                assertThat(got).as("key %s", i).isNotNull();
                Kv want = table.copy(expected.toKeyValue().setLevel(expectedLevel));
                assertThat(table.copy(got.keyValue())).as("key %s", i).isEqualTo(want);
                assertThat(table.copy(lookup.lookup(key))).isEqualTo(want);
                assertThat(lookup.contains(key)).isTrue();
                assertThat(got.file().level()).isEqualTo(expectedLevel);
                Kv atPosition = fileContents.get(got.fileName()).get((int) got.rowPosition());
                assertThat(atPosition).as("the record at the returned row position").isEqualTo(want);
            }
            assertThat(cache.filesBuilt()).isLessThanOrEqualTo(files.size());
        }
    }

    @Test
    void returnedVersionsAreFreshObjects() throws IOException {
        LookupTestTable table = new LookupTestTable(tmp, KeyShape.INT_KEY);
        Random random = new Random(3);
        DataFileMeta file = table.writeFile(1, List.of(table.version(1, 5, RowKind.INSERT, random),
                table.version(2, 6, RowKind.DELETE, random)));
        try (LookupFileCache cache = cache(Long.MAX_VALUE);
                LevelLookup lookup = new LevelLookup(cache, table.readers, BinaryRow.EMPTY_ROW, 0, List.of(file))) {
            KeyValue first = lookup.lookup(table.key(1));
            Kv firstCopy = table.copy(first);
            KeyValue second = lookup.lookup(table.key(2));
            assertThat(second).isNotSameAs(first);
            assertThat(table.copy(first)).isEqualTo(firstCopy);
            assertThat(second.valueKind()).isEqualTo(RowKind.DELETE);
            assertThat(second.isRetract()).isTrue();
            assertThat(second.level()).isEqualTo(1);
        }
    }

    @Test
    void levelZeroFilesAreRefused() throws IOException {
        LookupTestTable table = new LookupTestTable(tmp, KeyShape.INT_KEY);
        Random random = new Random(4);
        DataFileMeta level0 = table.writeFile(0, List.of(table.version(1, 5, RowKind.INSERT, random)));
        DataFileMeta level1 = table.writeFile(1, List.of(table.version(2, 1, RowKind.INSERT, random)));
        try (LookupFileCache cache = cache(Long.MAX_VALUE)) {
            assertThatThrownBy(() -> new LevelLookup(cache, table.readers, BinaryRow.EMPTY_ROW, 0,
                    List.of(level1, level0)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("level-0 file " + level0.fileName())
                    .hasMessageContaining("only the sorted runs above level 0");
        }
    }

    @Test
    void overlappingFilesOfALevelAreRefused() throws IOException {
        LookupTestTable table = new LookupTestTable(tmp, KeyShape.INT_KEY);
        Random random = new Random(5);
        DataFileMeta a = table.writeFile(2, List.of(table.version(1, 1, RowKind.INSERT, random),
                table.version(5, 2, RowKind.INSERT, random)));
        DataFileMeta b = table.writeFile(2, List.of(table.version(5, 3, RowKind.INSERT, random),
                table.version(9, 4, RowKind.INSERT, random)));
        DataFileMeta c = table.writeFile(3, List.of(table.version(3, 0, RowKind.INSERT, random)));
        try (LookupFileCache cache = cache(Long.MAX_VALUE)) {
            assertThatThrownBy(() -> new LevelLookup(cache, table.readers, BinaryRow.EMPTY_ROW, 0, List.of(b, c, a)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("level 2")
                    .hasMessageContaining(a.fileName())
                    .hasMessageContaining(b.fileName());
        }
    }

    @Test
    void noFilesNoVersions() throws IOException {
        LookupTestTable table = new LookupTestTable(tmp, KeyShape.INT_KEY);
        try (LookupFileCache cache = cache(Long.MAX_VALUE);
                LevelLookup lookup = new LevelLookup(cache, table.readers, BinaryRow.EMPTY_ROW, 0, List.of())) {
            assertThat(lookup.lookup(table.key(1))).isNull();
            assertThat(lookup.contains(table.key(1))).isFalse();
            assertThat(cache.filesBuilt()).isZero();
        }
    }

    /** A lookup keeps the files it used from eviction until it is closed, and only builds files it needs. */
    @Test
    void filesInUseByAnOpenLookupAreKeptAndReleasedOnClose() throws IOException {
        LookupTestTable table = new LookupTestTable(tmp, KeyShape.INT_KEY);
        Random random = new Random(6);
        DataFileMeta low = table.writeFile(1, List.of(table.version(1, 1, RowKind.INSERT, random)));
        DataFileMeta high = table.writeFile(1, List.of(table.version(9, 2, RowKind.INSERT, random)));
        try (LookupFileCache cache = cache(0)) {
            LevelLookup lookup = new LevelLookup(cache, table.readers, BinaryRow.EMPTY_ROW, 0, List.of(high, low));
            assertThat(lookup.contains(table.key(1))).isTrue();
            assertThat(lookup.contains(table.key(5))).as("between the files: no file is opened").isFalse();
            assertThat(cache.filesBuilt()).isEqualTo(1);
            assertThat(cache.fileCount()).as("in use, so kept over the disk limit of 0").isEqualTo(1);
            assertThat(lookup.lookup(table.key(1))).isNotNull();
            assertThat(cache.filesBuilt()).as("built once").isEqualTo(1);
            lookup.close();
            assertThat(cache.fileCount()).isZero();
            assertThat(cache.diskBytes()).isZero();
            assertThatThrownBy(() -> lookup.lookup(table.key(1))).isInstanceOf(IllegalStateException.class);
        }
    }

    private LookupFileCache cache(long maxDiskBytes) throws IOException {
        return new LookupFileCache(tmp.resolve("cache"), LookupFileSettings.defaults(), maxDiskBytes,
                Duration.ofHours(1));
    }
}
