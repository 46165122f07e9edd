package dev.streamhouse.sqlrunner;

import dev.streamhouse.flink.cdc.sql.SessionCatalogs;
import org.apache.flink.table.client.gateway.Executor;
import org.apache.flink.table.client.gateway.SqlExecutionException;
import org.apache.flink.table.client.gateway.StatementResult;
import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SQL client's session as {@link SessionCatalogs}, asked through the session's own executor:
 * {@code SHOW CURRENT CATALOG}, {@code SHOW CURRENT DATABASE}, {@code SHOW CATALOGS} and
 * {@code DESCRIBE CATALOG EXTENDED} (a catalog's {@code type} and {@code option:*} rows, which Flink
 * keeps for catalogs made by {@code CREATE CATALOG}).
 */
final class GatewaySessionCatalogs implements SessionCatalogs {
    private static final String OPTION_PREFIX = "option:";

    private final Executor session;

    GatewaySessionCatalogs(Executor session) {
        this.session = session;
    }

    @Override
    public String currentCatalog() {
        return rows("SHOW CURRENT CATALOG").get(0).get(0);
    }

    @Override
    public String currentDatabase() {
        try {
            List<List<String>> rows = rows("SHOW CURRENT DATABASE");
            return rows.isEmpty() ? null : rows.get(0).get(0);
        } catch (SqlExecutionException noneSet) {
            return null;
        }
    }

    @Override
    public Optional<CatalogDefinition> catalog(String name) {
        if (rows("SHOW CATALOGS").stream().noneMatch(row -> row.get(0).equals(name))) {
            return Optional.empty();
        }
        List<List<String>> info;
        try {
            info = rows("DESCRIBE CATALOG EXTENDED `" + name.replace("`", "``") + "`");
        } catch (SqlExecutionException unknownOptions) {
            return Optional.of(new CatalogDefinition(null, Map.of()));
        }
        String type = null;
        Map<String, String> options = new HashMap<>();
        for (List<String> row : info) {
            if (row.get(0).equals("type")) {
                type = row.get(1);
            } else if (row.get(0).startsWith(OPTION_PREFIX)) {
                options.put(row.get(0).substring(OPTION_PREFIX.length()), row.get(1));
            }
        }
        return Optional.of(new CatalogDefinition(type == null || type.isEmpty() ? null : type, options));
    }

    /** The result rows of {@code statement}, every field as a string. */
    private List<List<String>> rows(String statement) {
        List<List<String>> rows = new ArrayList<>();
        try (StatementResult result = session.executeStatement(statement)) {
            while (result.hasNext()) {
                RowData row = result.next();
                List<String> fields = new ArrayList<>();
                for (int i = 0; i < row.getArity(); i++) {
                    fields.add(row.isNullAt(i) ? null : row.getString(i).toString());
                }
                rows.add(fields);
            }
        }
        return rows;
    }
}
