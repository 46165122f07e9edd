package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * {@code CALL} of an Apache Paimon procedure this catalog does not have yet fails naming it, whatever
 * the arguments, and a name Paimon does not know fails saying it does not exist; neither reaches
 * Calcite's "No match found for function signature".
 */
class UnsupportedProceduresITCase extends CatalogITCaseBase {
    private static final String NOT_SUPPORTED_TAIL = " is not supported yet; SHOW PROCEDURES FROM sys lists"
            + " the procedures catalog 'paimon' supports";

    @BeforeEach
    void createTable() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')");
        sql("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
        sql("INSERT INTO t VALUES (1, 'a2')");
    }

    /** The message of the exception a user sees: the root cause of what {@code executeSql} threw. */
    private String failure(String statement) {
        Throwable thrown = catchThrowable(() -> tEnv.executeSql(statement));
        assertThat(thrown).as(statement).isInstanceOf(ValidationException.class);
        Throwable root = thrown;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        assertThat(thrown.getMessage()).as(statement).contains(root.getMessage());
        return root.getMessage();
    }

    private static String notSupported(String name) {
        return "Procedure sys." + name + NOT_SUPPORTED_TAIL;
    }

    @Test
    void positionalCallsOfUnsupportedProceduresNameTheProcedure() {
        assertThat(failure("CALL sys.create_branch('default.t', 'b1', 1)")).isEqualTo(notSupported("create_branch"));
        assertThat(failure("CALL sys.fast_forward('default.t', CAST(1 AS BIGINT))"))
                .isEqualTo(notSupported("fast_forward"));
        assertThat(failure("CALL sys.migrate_table('hive', 'default.t', TIMESTAMP '2024-01-01 00:00:00', 10)"))
                .isEqualTo(notSupported("migrate_table"));
        assertThat(failure("CALL sys.delete_branch('default.t', 'a', TRUE, DATE '2024-01-01', 1.5, NULL)"))
                .isEqualTo(notSupported("delete_branch"));
        assertThat(failure("CALL sys.purge_files()")).isEqualTo(notSupported("purge_files"));
    }

    @Test
    void namedCallsOfUnsupportedProceduresNameTheProcedure() {
        assertThat(failure("CALL sys.create_branch(`table` => 'default.t', branch => 'x')"))
                .isEqualTo(notSupported("create_branch"));
        assertThat(failure("CALL sys.create_branch(`table` => 'default.t', branch => 'x', tag => 'y')"))
                .isEqualTo(notSupported("create_branch"));
        // argument names Paimon does not have either: the name is refused before the arguments are read
        assertThat(failure("CALL sys.rewrite_file_index(`table` => 'default.t', no_such_argument => 3)"))
                .isEqualTo(notSupported("rewrite_file_index"));
        assertThat(failure("CALL sys.remove_unexisting_files(`table` => 'default.*', dry_run => TRUE)"))
                .isEqualTo(notSupported("remove_unexisting_files"));
    }

    @Test
    void theCatalogPrefixChangesNothingAndCompactStillRuns() {
        assertThat(failure("CALL paimon.sys.create_branch('default.t', 'b1')")).isEqualTo(notSupported("create_branch"));
        assertThat(failure("CALL `paimon`.`sys`.`merge_into`(target_table => 'default.t')"))
                .isEqualTo(notSupported("merge_into"));

        assertThat(rows("CALL sys.compact('default.t')")).singleElement().asString()
                .contains("Compacted").contains("default.t");
        assertThat(rows("CALL paimon.sys.compact(`table` => 'default.t')")).singleElement().asString()
                .startsWith("+I[Nothing to compact");
    }

    @Test
    void everyProcedureNotThereYetIsRefusedByNameAndNotListed() {
        java.util.List<String> listed = Procedures.names().stream().map(n -> "+I[" + n + "]")
                .collect(java.util.stream.Collectors.toList());
        assertThat(listed).contains("+I[compact]", "+I[remove_orphan_files]", "+I[reset_consumer]",
                "+I[create_tag]", "+I[rollback_to]", "+I[expire_snapshots]");
        assertThat(rows("SHOW PROCEDURES FROM sys")).containsExactlyInAnyOrderElementsOf(listed);
        assertThat(rows("SHOW PROCEDURES FROM paimon.sys")).containsExactlyInAnyOrderElementsOf(listed);
        assertThat(Procedures.notSupportedYet()).isNotEmpty().doesNotContainAnyElementsOf(Procedures.names());
        for (String name : Procedures.notSupportedYet()) {
            assertThat(failure("CALL sys." + name + "('default.t')")).isEqualTo(notSupported(name));
        }
    }

    @Test
    void unknownNamesDoNotExist() {
        assertThat(failure("CALL sys.no_such_procedure('default.t')"))
                .isEqualTo("Procedure sys.no_such_procedure does not exist in catalog 'paimon'; SHOW PROCEDURES"
                        + " FROM sys lists the procedures there are");
        assertThat(failure("CALL paimon.sys.no_such_procedure(`table` => 'default.t')"))
                .isEqualTo("Procedure sys.no_such_procedure does not exist in catalog 'paimon'; SHOW PROCEDURES"
                        + " FROM sys lists the procedures there are");
        // procedures are only in sys: the current database has none
        assertThat(failure("CALL compact('default.t')"))
                .isEqualTo("Procedure default.compact does not exist in catalog 'paimon'; SHOW PROCEDURES"
                        + " FROM sys lists the procedures there are");
    }
}
