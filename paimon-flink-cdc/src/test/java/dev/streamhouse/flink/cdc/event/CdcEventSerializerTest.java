package dev.streamhouse.flink.cdc.event;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CdcEventSerializerTest {
    private static final CdcSchema SCHEMA = new CdcSchema(new CdcTableId("shop", "orders"),
            List.of(new CdcColumn("id", MySqlType.of("BIGINT UNSIGNED", 20, -1), false, null),
                    new CdcColumn("note", MySqlType.of("VARCHAR", 10, -1), true, "a comment")),
            List.of("id"), 3);

    private static CdcEvent roundTrip(CdcEvent event) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        CdcEventSerializer.INSTANCE.serialize(event, out);
        return CdcEventSerializer.INSTANCE.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }

    @Test
    void recordsWithEveryValueTypeAndSchemaChangesComeBackEqual() throws Exception {
        Object[] before = {new BigDecimal("18446744073709551615"), "héllo"};
        Object[] after = {true, 42L, 1.5f, 2.25d, new byte[] {1, 2}, LocalDate.of(2024, 2, 29),
                Duration.ofHours(-838).minusMinutes(59), LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123456000),
                Instant.ofEpochSecond(1_700_000_000L, 678_000_000), null, new BigDecimal("-0.001")};
        CdcRecord update = new CdcRecord(SCHEMA, CdcRecord.Op.UPDATE, before, after, 1234L, false);
        CdcRecord insert = new CdcRecord(SCHEMA, CdcRecord.Op.INSERT, null, new Object[] {1L, null}, 5L, true);
        CdcSchemaChange change = new CdcSchemaChange(SCHEMA, "ALTER TABLE orders ADD note VARCHAR(10)");

        assertThat(roundTrip(update)).isEqualTo(update);
        assertThat(roundTrip(insert)).isEqualTo(insert);
        assertThat(roundTrip(change)).isEqualTo(change);
        assertThat(roundTrip(new CdcSchemaChange(SCHEMA, null))).isEqualTo(new CdcSchemaChange(SCHEMA, null));
        assertThat(((CdcRecord) roundTrip(update)).schema().columns().get(1).comment()).isEqualTo("a comment");
    }
}
