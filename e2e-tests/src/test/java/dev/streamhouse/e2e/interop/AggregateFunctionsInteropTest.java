package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.TableSpec;

import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.theta.UpdateSketch;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An aggregation table with one column per aggregate function of Apache Paimon 1.3.1, between our
 * store and Paimon, both ways: one side writes several commits and compacts part of them, the other
 * reads, continues and compacts (fully at the end), and both read the same rows after every step,
 * bitmaps and sketches byte for byte.
 */
class AggregateFunctionsInteropTest extends InteropTestBase {
    private static final String DB = "aggs";
    private static final String[][] COLUMNS = {
        {"f_sum", "BIGINT", "sum"}, {"f_product", "INT", "product"}, {"f_max", "INT", "max"},
        {"f_min", "STRING", "min"}, {"f_last", "INT", "last_value"}, {"f_last_nn", "STRING", "last_non_null_value"},
        {"f_first", "INT", "first_value"}, {"f_first_nn", "STRING", "first_non_null_value"},
        {"f_first_legacy", "INT", "first_not_null_value"}, {"f_listagg", "STRING", "listagg"},
        {"f_and", "BOOLEAN", "bool_and"}, {"f_or", "BOOLEAN", "bool_or"}, {"f_collect", "ARRAY<INT>", "collect"},
        {"f_map", "MAP<STRING, INT>", "merge_map"}, {"f_nested", "ARRAY<ROW<k INT, v STRING>>", "nested_update"},
        {"f_rbm32", "BYTES", "rbm32"}, {"f_rbm64", "BYTES", "rbm64"}, {"f_hll", "BYTES", "hll_sketch"},
        {"f_theta", "BYTES", "theta_sketch"}};

    AggregateFunctionsInteropTest() {
        super(DB);
    }

    private static TableSpec spec() {
        List<String> nameTypes = new ArrayList<>(List.of("id", "INT"));
        for (String[] c : COLUMNS) {
            nameTypes.add(c[0]);
            nameTypes.add(c[1]);
        }
        TableSpec spec = TableSpec.of(nameTypes.toArray(new String[0])).withPrimaryKeys("id")
                .withOption("bucket", "2").withOption("merge-engine", "aggregation")
                .withOption("fields.f_listagg.list-agg-delimiter", ";")
                .withOption("fields.f_collect.distinct", "true")
                .withOption("fields.f_nested.nested-key", "k");
        for (String[] c : COLUMNS) {
            spec = spec.withOption("fields." + c[0] + ".aggregate-function", c[2]);
        }
        return spec;
    }

    private static List<CanonicalRow> batch(Random random, int size) throws IOException {
        List<CanonicalRow> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            List<Object> v = new ArrayList<>();
            v.add(random.nextInt(12));
            v.add(nullOr(random, (long) random.nextInt(100)));
            v.add(nullOr(random, 1 + random.nextInt(3)));
            v.add(nullOr(random, random.nextInt(100)));
            v.add(nullOr(random, "s" + random.nextInt(100)));
            v.add(nullOr(random, random.nextInt(100)));
            v.add(nullOr(random, "s" + random.nextInt(100)));
            v.add(nullOr(random, random.nextInt(100)));
            v.add(nullOr(random, "s" + random.nextInt(100)));
            v.add(nullOr(random, random.nextInt(100)));
            v.add(nullOr(random, "w" + random.nextInt(10)));
            v.add(nullOr(random, random.nextBoolean()));
            v.add(nullOr(random, random.nextInt(5) > 0));
            v.add(nullOr(random, Arrays.asList(random.nextInt(5), random.nextInt(5))));
            Map<String, Integer> map = new TreeMap<>();
            map.put("m" + random.nextInt(4), random.nextInt(100));
            v.add(nullOr(random, map));
            v.add(nullOr(random, List.of(Arrays.asList(random.nextInt(4), "n" + random.nextInt(100)))));
            v.add(nullOr(random, rbm32(random)));
            v.add(nullOr(random, rbm64(random)));
            v.add(nullOr(random, hll(random)));
            v.add(nullOr(random, theta(random)));
            out.add(CanonicalRow.of(v.toArray()));
        }
        return out;
    }

    private static <T> T nullOr(Random random, T value) {
        return random.nextInt(5) == 0 ? null : value;
    }

    private static String rbm32(Random random) {
        RoaringBitmap bitmap = RoaringBitmap.bitmapOf(random.nextInt(1000), random.nextInt(1000), 70_000 + random.nextInt(10));
        ByteBuffer buffer = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
        bitmap.serialize(buffer);
        return Canon.hex(buffer.array());
    }

    private static String rbm64(Random random) throws IOException {
        Roaring64Bitmap bitmap = new Roaring64Bitmap();
        bitmap.addLong(random.nextInt(1000));
        bitmap.addLong(1L << 40 | random.nextInt(1000));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bitmap.serialize(new DataOutputStream(bytes));
        return Canon.hex(bytes.toByteArray());
    }

    private static String hll(Random random) {
        HllSketch sketch = new HllSketch();
        for (int i = 0; i < 5; i++) {
            sketch.update(random.nextInt(200));
        }
        return Canon.hex(sketch.toCompactByteArray());
    }

    private static String theta(Random random) {
        UpdateSketch sketch = UpdateSketch.builder().build();
        for (int i = 0; i < 5; i++) {
            sketch.update(random.nextInt(200));
        }
        return Canon.hex(sketch.compact().toByteArray());
    }

    private void assertBothRead(String step, String table) throws Exception {
        List<CanonicalRow> ourRows = ours.readAll(DB, table);
        Canon.assertSameRowsIgnoringKind(step, paimon.readAll(DB, table), ourRows);
        assertThat(ourRows).as(step).hasSizeGreaterThan(5);
    }

    @Test
    void paimonReadsContinuesAndCompactsOurTable() throws Exception {
        Random random = new Random(31);
        ours.createTable(DB, "ours", spec());
        for (int i = 0; i < 3; i++) {
            ours.write(DB, "ours", batch(random, 40));
        }
        assertBothRead("our writes", "ours");
        ours.compactAll(DB, "ours", false);
        ours.write(DB, "ours", batch(random, 40));
        assertBothRead("our partial compaction", "ours");
        paimon.write(DB, "ours", batch(random, 40));
        paimon.compactAll(DB, "ours", false);
        assertBothRead("Paimon continued and compacted", "ours");
        ours.write(DB, "ours", batch(random, 40));
        paimon.compactAll(DB, "ours", true);
        assertBothRead("Paimon fully compacted", "ours");
    }

    @Test
    void weReadContinueAndCompactPaimonsTable() throws Exception {
        Random random = new Random(37);
        paimon.createTable(DB, "theirs", spec());
        for (int i = 0; i < 3; i++) {
            paimon.write(DB, "theirs", batch(random, 40));
        }
        assertBothRead("Paimon's writes", "theirs");
        paimon.compactAll(DB, "theirs", false);
        paimon.write(DB, "theirs", batch(random, 40));
        assertBothRead("Paimon's partial compaction", "theirs");
        ours.write(DB, "theirs", batch(random, 40));
        ours.compactAll(DB, "theirs", false);
        assertBothRead("we continued and compacted", "theirs");
        paimon.write(DB, "theirs", batch(random, 40));
        ours.compactAll(DB, "theirs", true);
        assertBothRead("we fully compacted", "theirs");
    }
}
