package dev.streamhouse.bench;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The change events of workload {@code kafka-sync}: what Debezium's MySQL connector with Kafka
 * Connect's JsonConverter ({@code schemas.enable=true}) writes for the tables of one database. Each
 * value is {@code {"schema": ..., "payload": {"before", "after", "source", "op", "ts_ms"}}}, each key
 * {@code {"schema": ..., "payload": {"id": ...}}}. The tables share one shape: {@code id} BIGINT (the
 * key), {@code account} INT, {@code qty} BIGINT, {@code name} VARCHAR, {@code amount} DECIMAL(12, 2)
 * (Connect's Decimal) and {@code updated_at} DATETIME(3) (Debezium's {@code
 * io.debezium.time.Timestamp}, epoch milliseconds).
 *
 * <p>The JsonConverter writes a Decimal as {@code decimal.format} says: {@code BASE64} (its default:
 * the unscaled value's bytes in Base64) or {@code NUMERIC} (a JSON number). Apache Paimon 1.3.1's
 * debezium-json reads only NUMERIC and streamhouse's only BASE64, so each implementation gets the one
 * it reads ({@code numericDecimals}); the events are otherwise the same, byte for byte.
 *
 * <p>Every event picks a table at random; three in four insert a new id, one in five updates a live
 * row (a new {@code qty}, {@code amount} and {@code updated_at}) and one in twenty deletes one. The
 * feed keeps each table's live rows, so it knows the row count, {@code SUM(qty)} and {@code
 * SUM(amount)} a correct sync ends with. An id's events always go to the same partition, in order.
 */
final class DebeziumFeed {
    static final String DATABASE = "shop";
    static final List<String> TABLES =
            List.of("orders", "customers", "products", "payments", "shipments", "reviews", "carts", "stock");
    private static final String SERVER = "dbserver1";
    private static final long START_MILLIS = 1_735_689_600_000L; // 2025-01-01T00:00:00Z
    private static final String[] WORDS = {"amber", "birch", "cedar", "delta", "ember", "fjord", "garnet", "harbor"};

    private final int partitions;
    private final boolean numericDecimals;
    private final SplittableRandom random;
    private final Table[] tables;
    private long events;
    private long binlogPosition = 4;

    /** One change event: the partition it goes to, its key and its value (JSON). */
    static final class Event {
        final int partition;
        final String key;
        final String value;

        Event(int partition, String key, String value) {
            this.partition = partition;
            this.key = key;
            this.value = value;
        }
    }

    DebeziumFeed(int partitions, long seed, boolean numericDecimals) {
        this.partitions = partitions;
        this.numericDecimals = numericDecimals;
        this.random = new SplittableRandom(seed);
        this.tables = new Table[TABLES.size()];
        for (int i = 0; i < tables.length; i++) {
            tables[i] = new Table(i, TABLES.get(i));
        }
    }

    /** The next event; the feed's expected state includes it. */
    Event next() {
        Table table = tables[random.nextInt(tables.length)];
        int dice = random.nextInt(100);
        long tsMillis = START_MILLIS + events++;
        if (table.live == 0 || dice < 75) {
            return table.insert(tsMillis);
        }
        return dice < 95 ? table.update(tsMillis) : table.delete(tsMillis);
    }

    /** Rows a correct sync leaves in {@code table}. */
    long expectedRows(String table) {
        return tables[TABLES.indexOf(table)].live;
    }

    /** {@code SUM(qty)} over those rows. */
    long expectedQtySum(String table) {
        return tables[TABLES.indexOf(table)].qtySum;
    }

    /** {@code SUM(amount)} over those rows, in cents. */
    long expectedAmountCentsSum(String table) {
        return tables[TABLES.indexOf(table)].amountCentsSum;
    }

    /** Events of each kind so far: inserts, updates, deletes. */
    long[] counts() {
        long[] counts = new long[3];
        for (Table t : tables) {
            counts[0] += t.inserts;
            counts[1] += t.updates;
            counts[2] += t.deletes;
        }
        return counts;
    }

    private final class Table {
        final String name;
        final int index;
        final String keyPrefix;
        final String valuePrefix;
        /** The source block around its two varying values, ts_ms and pos. */
        final String sourceHead;
        final String sourceMiddle;
        final String sourceTail;
        /** Live ids, in no order: updates and deletes pick one at random. */
        long[] liveIds = new long[1024];
        int live;
        /** Column values by id (ids start at 1). */
        int[] account = new int[1024];
        long[] qty = new long[1024];
        long[] amountCents = new long[1024];
        long[] updatedMillis = new long[1024];
        long nextId = 1;
        long qtySum;
        long amountCentsSum;
        long inserts;
        long updates;
        long deletes;

        Table(int index, String name) {
            this.index = index;
            this.name = name;
            this.keyPrefix = "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"int64\",\"optional\":false,"
                    + "\"field\":\"id\"}],\"optional\":false,\"name\":\"" + SERVER + "." + DATABASE + "." + name
                    + ".Key\"},\"payload\":{\"id\":";
            this.valuePrefix = "{\"schema\":" + envelopeSchema(name) + ",\"payload\":{\"before\":";
            this.sourceHead = ",\"source\":{\"version\":\"2.7.3.Final\",\"connector\":\"mysql\",\"name\":\""
                    + SERVER + "\",\"ts_ms\":";
            this.sourceMiddle = ",\"snapshot\":\"false\",\"db\":\"" + DATABASE + "\",\"sequence\":null,\"table\":\""
                    + name + "\",\"server_id\":223344,\"gtid\":null,\"file\":\"mysql-bin.000003\",\"pos\":";
            this.sourceTail = ",\"row\":0,\"thread\":12,\"query\":null}";
        }

        Event insert(long tsMillis) {
            long id = nextId++;
            grow(id);
            account[(int) id] = random.nextInt(1, 100_000);
            qty[(int) id] = random.nextInt(1, 1_000);
            amountCents[(int) id] = random.nextLong(1, 10_000_000);
            updatedMillis[(int) id] = tsMillis;
            if (live == liveIds.length) {
                liveIds = Arrays.copyOf(liveIds, live * 2);
            }
            liveIds[live++] = id;
            qtySum += qty[(int) id];
            amountCentsSum += amountCents[(int) id];
            inserts++;
            return event(id, null, row(id), "c", tsMillis);
        }

        Event update(long tsMillis) {
            long id = liveIds[random.nextInt(live)];
            String before = row(id);
            qtySum -= qty[(int) id];
            qty[(int) id] = random.nextInt(1, 1_000);
            qtySum += qty[(int) id];
            amountCentsSum -= amountCents[(int) id];
            amountCents[(int) id] = random.nextLong(1, 10_000_000);
            amountCentsSum += amountCents[(int) id];
            updatedMillis[(int) id] = tsMillis;
            updates++;
            return event(id, before, row(id), "u", tsMillis);
        }

        Event delete(long tsMillis) {
            int slot = random.nextInt(live);
            long id = liveIds[slot];
            liveIds[slot] = liveIds[--live];
            qtySum -= qty[(int) id];
            amountCentsSum -= amountCents[(int) id];
            deletes++;
            return event(id, row(id), null, "d", tsMillis);
        }

        private void grow(long id) {
            if (id >= account.length) {
                int size = account.length * 2;
                account = Arrays.copyOf(account, size);
                qty = Arrays.copyOf(qty, size);
                amountCents = Arrays.copyOf(amountCents, size);
                updatedMillis = Arrays.copyOf(updatedMillis, size);
            }
        }

        private String row(long id) {
            int i = (int) id;
            return "{\"id\":" + id + ",\"account\":" + account[i] + ",\"qty\":" + qty[i] + ",\"name\":\""
                    + WORDS[(int) (id % WORDS.length)] + " " + name + " no. " + id + "\",\"amount\":"
                    + decimal(amountCents[i]) + ",\"updated_at\":" + updatedMillis[i] + "}";
        }

        private String decimal(long cents) {
            return numericDecimals
                    ? BigDecimal.valueOf(cents, 2).toPlainString()
                    : "\"" + Base64.getEncoder().encodeToString(BigInteger.valueOf(cents).toByteArray()) + "\"";
        }

        private Event event(long id, String before, String after, String op, long tsMillis) {
            binlogPosition += 317;
            String value = valuePrefix + before + ",\"after\":" + after
                    + sourceHead + tsMillis + sourceMiddle + binlogPosition + sourceTail
                    + ",\"op\":\"" + op + "\",\"ts_ms\":" + (tsMillis + 5) + ",\"transaction\":null}}";
            int partition = Math.floorMod(Long.hashCode(id * 0x9E3779B97F4A7C15L + index), partitions);
            return new Event(partition, keyPrefix + id + "}}", value);
        }
    }

    /** The value's schema: the before and after rows, Debezium's MySQL source block, op and times. */
    private static String envelopeSchema(String table) {
        String rowFields = "[{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"},"
                + "{\"type\":\"int32\",\"optional\":true,\"field\":\"account\"},"
                + "{\"type\":\"int64\",\"optional\":true,\"field\":\"qty\"},"
                + "{\"type\":\"string\",\"optional\":true,\"field\":\"name\"},"
                + "{\"type\":\"bytes\",\"optional\":true,\"name\":\"org.apache.kafka.connect.data.Decimal\","
                + "\"version\":1,\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"12\"},"
                + "\"field\":\"amount\"},"
                + "{\"type\":\"int64\",\"optional\":true,\"name\":\"io.debezium.time.Timestamp\",\"version\":1,"
                + "\"field\":\"updated_at\"}]";
        String rowName = SERVER + "." + DATABASE + "." + table + ".Value";
        String sourceFields = "[" + String.join(",",
                field("string", false, "version"), field("string", false, "connector"),
                field("string", false, "name"), field("int64", false, "ts_ms"),
                "{\"type\":\"string\",\"optional\":true,\"name\":\"io.debezium.data.Enum\",\"version\":1,"
                        + "\"parameters\":{\"allowed\":\"true,last,false,incremental\"},\"default\":\"false\","
                        + "\"field\":\"snapshot\"}",
                field("string", false, "db"), field("string", true, "sequence"), field("string", true, "table"),
                field("int64", false, "server_id"), field("string", true, "gtid"), field("string", false, "file"),
                field("int64", false, "pos"), field("int32", false, "row"), field("int64", true, "thread"),
                field("string", true, "query")) + "]";
        String transactionFields = "[" + String.join(",", field("string", false, "id"),
                field("int64", false, "total_order"), field("int64", false, "data_collection_order")) + "]";
        return "{\"type\":\"struct\",\"fields\":["
                + "{\"type\":\"struct\",\"fields\":" + rowFields + ",\"optional\":true,\"name\":\"" + rowName
                + "\",\"field\":\"before\"},"
                + "{\"type\":\"struct\",\"fields\":" + rowFields + ",\"optional\":true,\"name\":\"" + rowName
                + "\",\"field\":\"after\"},"
                + "{\"type\":\"struct\",\"fields\":" + sourceFields
                + ",\"optional\":false,\"name\":\"io.debezium.connector.mysql.Source\",\"field\":\"source\"},"
                + field("string", false, "op") + "," + field("int64", true, "ts_ms") + ","
                + "{\"type\":\"struct\",\"fields\":" + transactionFields + ",\"optional\":true,"
                + "\"name\":\"event.block\",\"version\":1,\"field\":\"transaction\"}],"
                + "\"optional\":false,\"name\":\"" + SERVER + "." + DATABASE + "." + table + ".Envelope\","
                + "\"version\":1}";
    }

    private static String field(String type, boolean optional, String name) {
        return "{\"type\":\"" + type + "\",\"optional\":" + optional + ",\"field\":\"" + name + "\"}";
    }
}
