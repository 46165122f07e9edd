package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.BinaryType;
import dev.streamhouse.storage.types.CharType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.PlainType;
import dev.streamhouse.storage.types.TimeType;
import dev.streamhouse.storage.types.TimestampType;
import dev.streamhouse.storage.types.VarBinaryType;
import dev.streamhouse.storage.types.VarCharType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses the SQL spelling of a type as stored in schema files (docs/format.md §3.3), e.g.
 * {@code DECIMAL(10, 2) NOT NULL}, {@code TIMESTAMP(3) WITH LOCAL TIME ZONE} or {@code ARRAY<INT>}.
 *
 * <p>Keywords are case-insensitive. Accepted aliases: {@code INTEGER}, {@code DOUBLE PRECISION},
 * {@code DEC}/{@code NUMERIC} (DECIMAL), {@code STRING} (max VARCHAR), {@code BYTES} (max VARBINARY),
 * {@code TIMESTAMP_LTZ(p)}, and {@code WITHOUT TIME ZONE} after TIME/TIMESTAMP. Omitted parameters take
 * the SQL defaults: DECIMAL (10, 0), CHAR/VARCHAR/BINARY/VARBINARY length 1, TIME precision 0,
 * TIMESTAMP precision 6. A trailing {@code NOT NULL} makes the type non-nullable, {@code NULL} is
 * accepted and ignored. {@code ROW} is not accepted in this form because its fields need ids; schema
 * files store rows as JSON objects (see {@link DataTypeJson}).
 *
 * <p>Failures are {@link IllegalArgumentException}s that quote the text.
 */
public final class DataTypeParser {
    private final String text;
    private final List<String> tokens;
    private int pos;

    private DataTypeParser(String text) {
        this.text = text;
        this.tokens = tokenize(text);
    }

    /** Parses one type; the whole text must be consumed. */
    public static DataType parse(String text) {
        DataTypeParser parser = new DataTypeParser(text);
        DataType type = parser.parseType();
        if (parser.pos < parser.tokens.size()) {
            throw parser.error("unexpected '" + parser.tokens.get(parser.pos) + "' after the type");
        }
        return type;
    }

    private static List<String> tokenize(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '<' || c == '>' || c == '(' || c == ')' || c == ',') {
                out.add(String.valueOf(c));
                i++;
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                int start = i;
                while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                    i++;
                }
                out.add(text.substring(start, i));
            } else {
                throw new IllegalArgumentException(
                        "Cannot parse type '" + text + "': unexpected character '" + c + "' at position " + i);
            }
        }
        return out;
    }

    private DataType parseType() {
        DataType type = parseBareType();
        if (acceptKeyword("NOT")) {
            expectKeyword("NULL");
            return type.notNull();
        }
        acceptKeyword("NULL");
        return type;
    }

    private DataType parseBareType() {
        String keyword = nextWord();
        switch (keyword) {
            case "BOOLEAN":
                return new PlainType(true, DataTypeRoot.BOOLEAN);
            case "TINYINT":
                return new PlainType(true, DataTypeRoot.TINYINT);
            case "SMALLINT":
                return new PlainType(true, DataTypeRoot.SMALLINT);
            case "INT":
            case "INTEGER":
                return new PlainType(true, DataTypeRoot.INTEGER);
            case "BIGINT":
                return new PlainType(true, DataTypeRoot.BIGINT);
            case "FLOAT":
                return new PlainType(true, DataTypeRoot.FLOAT);
            case "DOUBLE":
                acceptKeyword("PRECISION");
                return new PlainType(true, DataTypeRoot.DOUBLE);
            case "DATE":
                return new PlainType(true, DataTypeRoot.DATE);
            case "VARIANT":
                return new PlainType(true, DataTypeRoot.VARIANT);
            case "STRING":
                return new VarCharType(true, VarCharType.MAX_LENGTH);
            case "BYTES":
                return new VarBinaryType(true, VarBinaryType.MAX_LENGTH);
            case "DECIMAL":
            case "DEC":
            case "NUMERIC":
                return parseDecimal();
            case "CHAR":
                return new CharType(true, optionalLength(1));
            case "VARCHAR":
                return new VarCharType(true, optionalLength(1));
            case "BINARY":
                return new BinaryType(true, optionalLength(1));
            case "VARBINARY":
                return new VarBinaryType(true, optionalLength(1));
            case "TIME":
                return parseTime();
            case "TIMESTAMP":
                return parseTimestamp();
            case "TIMESTAMP_LTZ":
                return new TimestampType(true, optionalLength(6), true);
            case "ARRAY":
                return ArrayType.array(true, parseElementType());
            case "MULTISET":
                return ArrayType.multiset(true, parseElementType());
            case "MAP":
                return parseMap();
            default:
                throw error("unknown type '" + tokens.get(pos - 1) + "'");
        }
    }

    private DataType parseDecimal() {
        int[] precisionAndScale = {10, 0};
        if (acceptSymbol("(")) {
            precisionAndScale[0] = nextInt();
            if (acceptSymbol(",")) {
                precisionAndScale[1] = nextInt();
            }
            expectSymbol(")");
        }
        return guarded(() -> new DecimalType(true, precisionAndScale[0], precisionAndScale[1]));
    }

    private DataType parseTime() {
        int precision = optionalLength(0);
        acceptWithoutTimeZone();
        return guarded(() -> new TimeType(true, precision));
    }

    private DataType parseTimestamp() {
        int precision = optionalLength(6);
        if (acceptKeyword("WITH")) {
            if (!acceptKeyword("LOCAL")) {
                throw error("TIMESTAMP WITH TIME ZONE is not supported; use WITH LOCAL TIME ZONE");
            }
            expectKeyword("TIME");
            expectKeyword("ZONE");
            return guarded(() -> new TimestampType(true, precision, true));
        }
        acceptWithoutTimeZone();
        return guarded(() -> new TimestampType(true, precision, false));
    }

    private void acceptWithoutTimeZone() {
        if (acceptKeyword("WITHOUT")) {
            expectKeyword("TIME");
            expectKeyword("ZONE");
        }
    }

    private DataType parseElementType() {
        expectSymbol("<");
        DataType element = parseType();
        expectSymbol(">");
        return element;
    }

    private DataType parseMap() {
        expectSymbol("<");
        DataType key = parseType();
        expectSymbol(",");
        DataType value = parseType();
        expectSymbol(">");
        return new MapType(true, key, value);
    }

    private int optionalLength(int defaultValue) {
        if (!acceptSymbol("(")) {
            return defaultValue;
        }
        int value = nextInt();
        expectSymbol(")");
        return value;
    }

    private DataType guarded(java.util.function.Supplier<DataType> constructor) {
        try {
            return constructor.get();
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
    }

    private String nextWord() {
        if (pos >= tokens.size()) {
            throw error("unexpected end of text");
        }
        return tokens.get(pos++).toUpperCase(Locale.ROOT);
    }

    private int nextInt() {
        if (pos >= tokens.size()) {
            throw error("expected a number but reached the end");
        }
        String token = tokens.get(pos++);
        try {
            return Integer.parseInt(token);
        } catch (NumberFormatException e) {
            throw error("expected a number but found '" + token + "'");
        }
    }

    private boolean acceptKeyword(String keyword) {
        if (pos < tokens.size() && tokens.get(pos).equalsIgnoreCase(keyword)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expectKeyword(String keyword) {
        if (!acceptKeyword(keyword)) {
            throw error("expected " + keyword + (pos < tokens.size() ? " but found '" + tokens.get(pos) + "'" : ""));
        }
    }

    private boolean acceptSymbol(String symbol) {
        if (pos < tokens.size() && tokens.get(pos).equals(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expectSymbol(String symbol) {
        if (!acceptSymbol(symbol)) {
            throw error("expected '" + symbol + "'" + (pos < tokens.size() ? " but found '" + tokens.get(pos) + "'" : ""));
        }
    }

    private IllegalArgumentException error(String why) {
        return new IllegalArgumentException("Cannot parse type '" + text + "': " + why);
    }
}
