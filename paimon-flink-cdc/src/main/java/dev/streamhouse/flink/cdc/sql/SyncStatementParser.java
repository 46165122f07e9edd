package dev.streamhouse.flink.cdc.sql;

import dev.streamhouse.flink.cdc.sql.SqlTokens.Kind;
import dev.streamhouse.flink.cdc.sql.SqlTokens.Token;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Recognises the two statements Flink's parser lacks, in Alibaba VVR's syntax, and reads them into
 * {@link SyncStatement}s:
 *
 * <pre>
 * CREATE TABLE [IF NOT EXISTS] [catalog.][db.]table [(PRIMARY KEY (k, ...) NOT ENFORCED)]
 *     [PARTITIONED BY (p, ...)] [WITH ('k' = 'v', ...)]
 *     AS TABLE [catalog.][db.]table [/*+ OPTIONS('k' = 'v', ...) *&#47;]
 * CREATE DATABASE [IF NOT EXISTS] [catalog.]db [WITH ('k' = 'v', ...)]
 *     AS DATABASE [catalog.]db INCLUDING { ALL TABLES | TABLE 'regex' } [EXCLUDING TABLE 'regex']
 *     [/*+ OPTIONS('k' = 'v', ...) *&#47;]
 * </pre>
 *
 * A statement is one of them when it starts with {@code CREATE TABLE} (or {@code CREATE DATABASE}) and
 * its first {@code AS} outside parentheses is followed by {@code TABLE} (or {@code DATABASE});
 * everything else, Flink's own {@code CREATE TABLE ... AS SELECT} included, is not, and is left to
 * Flink. A recognised statement that does not follow the syntax, or uses VVR clauses not supported
 * here ({@code COMMENT}, {@code ADD COLUMN}, column definitions), fails with a message saying what was
 * expected where.
 */
public final class SyncStatementParser {
    private final List<Token> tokens;
    private final String kind;
    private int next;

    private SyncStatementParser(List<Token> tokens, String kind) {
        this.tokens = tokens;
        this.kind = kind;
    }

    /**
     * The sync statement {@code sql} is, or empty when it is none.
     *
     * @throws IllegalArgumentException when it is one but does not follow the syntax
     */
    public static Optional<SyncStatement> parse(String sql) {
        List<Token> tokens;
        try {
            tokens = SqlTokens.of(sql);
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // not ours to judge: Flink reports it
        }
        String leading = SqlTokens.leadingWords(tokens, 2);
        if (leading.equals("CREATE TABLE") && asIsFollowedBy(tokens, "TABLE")) {
            return Optional.of(new SyncStatementParser(tokens, "CREATE TABLE ... AS TABLE").createTableAsTable());
        }
        if (leading.equals("CREATE DATABASE") && asIsFollowedBy(tokens, "DATABASE")) {
            return Optional.of(new SyncStatementParser(tokens, "CREATE DATABASE ... AS DATABASE")
                    .createDatabaseAsDatabase());
        }
        return Optional.empty();
    }

    /** Whether the first {@code AS} outside parentheses is followed by {@code keyword}. */
    private static boolean asIsFollowedBy(List<Token> tokens, String keyword) {
        int depth = 0;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.isSymbol('(')) {
                depth++;
            } else if (t.isSymbol(')')) {
                depth--;
            } else if (depth == 0 && t.isWord("AS")) {
                return i + 1 < tokens.size() && tokens.get(i + 1).isWord(keyword);
            }
        }
        return false;
    }

    private SyncStatement createTableAsTable() {
        expectWords("CREATE", "TABLE");
        boolean ifNotExists = ifNotExists();
        List<String> target = name("the target table's name");
        List<String> primaryKeys = List.of();
        if (peek() != null && peek().isSymbol('(')) {
            primaryKeys = primaryKeyConstraint();
        }
        refuse("COMMENT", "a table comment is not supported here yet");
        List<String> partitionKeys = List.of();
        if (acceptWord("PARTITIONED")) {
            expectWords("BY");
            partitionKeys = nameList("a partition column");
        }
        Map<String, String> options = acceptWord("WITH") ? options("the table's options") : Map.of();
        expectWords("AS", "TABLE");
        List<String> source = name("the source table's name ([catalog.][database.]table)");
        Map<String, String> sourceOptions = hint();
        refuse("ADD", "ADD COLUMN (computed columns) is not supported yet");
        end();
        return new SyncStatement.CreateTableAsTable(ifNotExists, target, primaryKeys, partitionKeys, options, source,
                sourceOptions);
    }

    private SyncStatement createDatabaseAsDatabase() {
        expectWords("CREATE", "DATABASE");
        boolean ifNotExists = ifNotExists();
        List<String> target = name("the target database's name");
        refuse("COMMENT", "a database comment is not supported here (the catalog stores none)");
        Map<String, String> options = acceptWord("WITH") ? options("the options of the tables") : Map.of();
        expectWords("AS", "DATABASE");
        List<String> source = name("the source database's name ([catalog.]database)");
        Map<String, String> sourceOptions = hint();
        expectWords("INCLUDING");
        String including = null;
        if (acceptWord("ALL")) {
            expectWords("TABLES");
        } else {
            expectWords("TABLE");
            including = string("the regular expression of the tables to include, in quotes");
        }
        String excluding = null;
        if (acceptWord("EXCLUDING")) {
            expectWords("TABLE");
            excluding = string("the regular expression of the tables to exclude, in quotes");
        }
        if (sourceOptions.isEmpty()) {
            sourceOptions = hint();
        }
        end();
        return new SyncStatement.CreateDatabaseAsDatabase(ifNotExists, target, options, source, including, excluding,
                sourceOptions);
    }

    private boolean ifNotExists() {
        if (acceptWord("IF")) {
            expectWords("NOT", "EXISTS");
            return true;
        }
        return false;
    }

    /** {@code ([CONSTRAINT name] PRIMARY KEY (k, ...) NOT ENFORCED)}. */
    private List<String> primaryKeyConstraint() {
        expectSymbol('(');
        if (acceptWord("CONSTRAINT")) {
            name("the constraint's name");
        }
        Token t = peek();
        if (t == null || !t.isWord("PRIMARY")) {
            throw error("only a PRIMARY KEY constraint may be given in parentheses (the table has the source's "
                    + "columns), not " + shown(t));
        }
        expectWords("PRIMARY", "KEY");
        List<String> keys = nameList("a primary key column");
        expectWords("NOT", "ENFORCED");
        expectSymbol(')');
        return keys;
    }

    /** {@code (a, b, ...)} of simple names. */
    private List<String> nameList(String what) {
        expectSymbol('(');
        List<String> names = new ArrayList<>();
        do {
            names.add(part(what));
        } while (acceptSymbol(','));
        expectSymbol(')');
        return names;
    }

    /** A name of one or more parts joined by dots. */
    private List<String> name(String what) {
        List<String> parts = new ArrayList<>();
        parts.add(part(what));
        while (acceptSymbol('.')) {
            parts.add(part(what));
        }
        if (parts.size() > 3) {
            throw error(what + " has " + parts.size() + " parts: " + String.join(".", parts));
        }
        return List.copyOf(parts);
    }

    private String part(String what) {
        Token t = peek();
        if (t == null || (t.kind() != Kind.WORD && t.kind() != Kind.QUOTED_NAME)) {
            throw expected(what, t);
        }
        next++;
        return t.text();
    }

    /** {@code ('k' = 'v', ...)}. */
    private Map<String, String> options(String what) {
        expectSymbol('(');
        Map<String, String> options = new LinkedHashMap<>();
        if (acceptSymbol(')')) {
            return options;
        }
        do {
            String key = string("an option key in quotes, in " + what);
            expectSymbol('=');
            String value = string("the value of option '" + key + "' in quotes");
            if (options.put(key, value) != null) {
                throw error("option '" + key + "' is given twice in " + what);
            }
        } while (acceptSymbol(','));
        expectSymbol(')');
        return options;
    }

    /** The options of an {@code OPTIONS(...)} hint, if one comes next. */
    private Map<String, String> hint() {
        Token t = peek();
        if (t == null || t.kind() != Kind.HINT) {
            return Map.of();
        }
        next++;
        SyncStatementParser inner;
        try {
            inner = new SyncStatementParser(SqlTokens.of(t.text()), kind + " (its hint)");
        } catch (IllegalArgumentException e) {
            throw error("cannot read the hint " + t.shown() + ": " + e.getMessage());
        }
        if (!inner.acceptWord("OPTIONS")) {
            throw error("the only hint taken here is /*+ OPTIONS('key' = 'value', ...) */, not " + t.shown());
        }
        Map<String, String> options = inner.options("the source's OPTIONS hint");
        if (inner.peek() != null) {
            throw error("the only hint taken here is /*+ OPTIONS('key' = 'value', ...) */, not " + t.shown());
        }
        return options;
    }

    private String string(String what) {
        Token t = peek();
        if (t == null || t.kind() != Kind.STRING) {
            throw expected(what, t);
        }
        next++;
        return t.text();
    }

    private void refuse(String keyword, String why) {
        Token t = peek();
        if (t != null && t.isWord(keyword)) {
            throw error(why);
        }
    }

    private void end() {
        acceptSymbol(';');
        if (peek() != null) {
            throw expected("the end of the statement", peek());
        }
    }

    private Token peek() {
        return next < tokens.size() ? tokens.get(next) : null;
    }

    private boolean acceptWord(String keyword) {
        Token t = peek();
        if (t != null && t.isWord(keyword)) {
            next++;
            return true;
        }
        return false;
    }

    private boolean acceptSymbol(char symbol) {
        Token t = peek();
        if (t != null && t.isSymbol(symbol)) {
            next++;
            return true;
        }
        return false;
    }

    private void expectWords(String... keywords) {
        for (String keyword : keywords) {
            if (!acceptWord(keyword)) {
                throw expected(keyword, peek());
            }
        }
    }

    private void expectSymbol(char symbol) {
        if (!acceptSymbol(symbol)) {
            throw expected("'" + symbol + "'", peek());
        }
    }

    private IllegalArgumentException expected(String what, Token found) {
        return error("expected " + what + " " + (found == null ? "at the end of the statement"
                : "at position " + (found.position() + 1) + ", found " + shown(found)));
    }

    private static String shown(Token t) {
        return t == null ? "the end of the statement" : t.shown();
    }

    private IllegalArgumentException error(String message) {
        return new IllegalArgumentException("Cannot parse " + kind + ": " + message);
    }
}
