package dev.streamhouse.testing.hive;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The main class of the metastore's JVM: prepares the lock tables in the embedded Derby database, then
 * runs Hive's {@code HiveMetaStore}. The metastore creates its object tables itself
 * ({@code datanucleus.schema.autoCreateAll}) but not those of its lock API ({@code lock}, {@code checkLock},
 * {@code unlock}), and no jar on Maven Central carries Hive's Derby schema scripts; the columns below are
 * those of Hive's Derby schema for {@code HIVE_LOCKS} and {@code NEXT_LOCK_ID}.
 *
 * <p>Arguments: the Derby database directory, then the metastore's own arguments.
 */
public final class MetastoreLauncher {
    private static final String[] LOCK_TABLES = {
        "CREATE TABLE HIVE_LOCKS (HL_LOCK_EXT_ID BIGINT NOT NULL, HL_LOCK_INT_ID BIGINT NOT NULL, "
            + "HL_TXNID BIGINT NOT NULL, HL_DB VARCHAR(128) NOT NULL, HL_TABLE VARCHAR(256), "
            + "HL_PARTITION VARCHAR(767), HL_LOCK_STATE CHAR(1) NOT NULL, HL_LOCK_TYPE CHAR(1) NOT NULL, "
            + "HL_LAST_HEARTBEAT BIGINT NOT NULL, HL_ACQUIRED_AT BIGINT, HL_USER VARCHAR(128) NOT NULL, "
            + "HL_HOST VARCHAR(128) NOT NULL, HL_HEARTBEAT_COUNT INTEGER, HL_AGENT_INFO VARCHAR(128), "
            + "HL_BLOCKEDBY_EXT_ID BIGINT, HL_BLOCKEDBY_INT_ID BIGINT, PRIMARY KEY (HL_LOCK_EXT_ID, HL_LOCK_INT_ID))",
        "CREATE TABLE NEXT_LOCK_ID (NL_NEXT BIGINT NOT NULL)",
        "INSERT INTO NEXT_LOCK_ID VALUES (1)",
    };

    private MetastoreLauncher() {}

    public static void main(String[] args) throws Exception {
        createLockTables(args[0]);
        String[] metastoreArgs = java.util.Arrays.copyOfRange(args, 1, args.length);
        Method main = Class.forName("org.apache.hadoop.hive.metastore.HiveMetaStore").getMethod("main", String[].class);
        main.invoke(null, (Object) metastoreArgs);
    }

    private static void createLockTables(String database) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:derby:;databaseName=" + database + ";create=true",
                "APP", "APP"); Statement s = c.createStatement()) {
            for (String statement : LOCK_TABLES) {
                s.execute(statement);
            }
        }
    }
}
