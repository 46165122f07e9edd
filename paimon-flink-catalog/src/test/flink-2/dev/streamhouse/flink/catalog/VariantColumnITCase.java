package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.junit.jupiter.api.Test;

/**
 * Flink 2.1 added the VARIANT type; the Paimon 1.3 table format has none, so a table with a VARIANT
 * column, at any depth, is refused when it is created (Flink 2.x only: 1.20 cannot parse the type).
 */
class VariantColumnITCase extends CatalogITCaseBase {

    @Test
    void aVariantColumnIsRefusedAtCreateTable() {
        assertThatThrownBy(() -> sql("CREATE TABLE t (id INT, v VARIANT)"))
                .hasStackTraceContaining("Cannot store column 'v' of type VARIANT")
                .hasStackTraceContaining("the table format has no such type");
        assertThatThrownBy(() -> sql("CREATE TABLE t (id INT, r ROW<a INT, v VARIANT>)"))
                .hasStackTraceContaining("Cannot store column 'r.v' of type VARIANT");
        assertThatThrownBy(() -> sql("CREATE TABLE t (id INT, vs ARRAY<VARIANT>)"))
                .hasStackTraceContaining("of type VARIANT");
        assertThat(rows("SHOW TABLES")).isEmpty();
    }

    @Test
    void addingAVariantColumnIsRefused() throws Exception {
        sql("CREATE TABLE t (id INT)");
        sql("INSERT INTO t VALUES (1)").await();
        assertThatThrownBy(() -> sql("ALTER TABLE t ADD v VARIANT"))
                .hasStackTraceContaining("Cannot store column 'v' of type VARIANT");
        assertThat(rows("SELECT * FROM t")).containsExactly("+I[1]");
    }
}
