package dev.streamhouse.sqlrunner;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.table.api.SqlDialect;
import org.apache.flink.table.api.SqlParserEOFException;
import org.apache.flink.table.client.cli.parser.SqlClientParserState;
import org.apache.flink.table.client.cli.parser.SqlCommandParser;
import org.apache.flink.table.client.cli.parser.SqlCommandParserImpl;
import org.apache.flink.table.client.cli.parser.SqlMultiLineParser;
import org.apache.flink.table.client.gateway.SqlExecutionException;

/**
 * Cuts a script into the statements Flink 1.20's SQL client runs for {@code -f}, in order, with the
 * client's own rules and classes: the script is normalised by {@link SqlMultiLineParser#formatSqlFile},
 * then read line by line, and the lines read so far form a statement as soon as they end with
 * {@code ;} outside quotes and comments ({@link SqlClientParserState}) and the client's command parser
 * does not ask for more input. Comment and blank lines before a statement belong to it, as in the
 * client. (One difference: the client's line reader also drops tab characters, which stay here.)
 *
 * <p>Assumes Flink's default SQL dialect (the runner has no Hive dialect).
 */
final class ScriptStatements {
    private ScriptStatements() {}

    static List<String> split(String script) {
        String formatted = SqlMultiLineParser.formatSqlFile(script);
        // The client's line reader drops every \r (so \r\n ends a line as \n does, and a lone \r
        // ends none).
        String[] lines = formatted.replace("\r", "").split("\n", -1);
        SqlCommandParser commands = new SqlCommandParserImpl();
        List<String> statements = new ArrayList<>();
        StringBuilder pending = null;
        // The last element follows the final line break: an unterminated rest, which the client drops.
        for (int i = 0; i < lines.length - 1; i++) {
            if (pending == null) {
                pending = new StringBuilder(lines[i]);
            } else {
                pending.append('\n').append(lines[i]);
            }
            String candidate = pending.toString();
            if (isComplete(candidate, commands)) {
                statements.add(candidate);
                pending = null;
            }
        }
        return statements;
    }

    private static boolean isComplete(String lines, SqlCommandParser commands) {
        if (SqlClientParserState.computeCurrentStateAtTheEndOfLine(lines, SqlDialect.DEFAULT) != SqlClientParserState.DEFAULT
                || !lines.trim().endsWith(";")) {
            return false;
        }
        try {
            return commands.parseStatement(lines).isPresent();
        } catch (SqlExecutionException e) {
            // An incomplete statement makes the client read on; any other error is reported for it.
            return !(e.getCause() instanceof SqlParserEOFException);
        }
    }
}
