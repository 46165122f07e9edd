package dev.streamhouse.storage.catalog.jdbc;

import dev.streamhouse.storage.catalog.CatalogException;

import java.sql.SQLException;

/**
 * Turns a driver's {@link SQLException} into a {@link CatalogException} that names the metastore and the
 * operation, with the JDBC URL's parameters (which may hold a password) cut from every message, the
 * driver's own included.
 */
final class JdbcErrors {
    private final String uri;
    private final String safeUri;
    private final String where;

    JdbcErrors(String uri, String where) {
        this.uri = uri;
        this.safeUri = JdbcCatalogFactory.withoutParameters(uri);
        this.where = where;
    }

    String where() {
        return where;
    }

    /** "Cannot {what} in {where}: {driver's message} ({hint})". */
    CatalogException failed(String what, SQLException e, String hint) {
        SQLException safe = new SQLException(safe(e.getMessage()), e.getSQLState(), e.getErrorCode());
        safe.setStackTrace(e.getStackTrace());
        String preposition = what.equals("open") ? " " : " in ";
        // the driver's exception is kept as suppressed, not as the cause: tools that show the root cause
        // (Flink's SQL client) then show this message, which names the metastore and what to check
        CatalogException failure = new CatalogException("Cannot " + what + preposition + where + ": "
                + safe.getMessage() + (hint == null ? "" : " (" + hint + ")"));
        failure.addSuppressed(safe);
        return failure;
    }

    private String safe(String message) {
        return message == null ? "" : message.replace(uri, safeUri);
    }
}
