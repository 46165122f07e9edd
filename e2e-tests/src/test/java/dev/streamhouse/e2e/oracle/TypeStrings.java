package dev.streamhouse.e2e.oracle;

import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses the neutral type strings of a {@link TableSpec} (Paimon's SQL spelling) into Paimon
 * {@link DataType}s. Paimon's own {@code DataTypeJsonParser.parseAtomicTypeSQLString} handles only
 * atomic types, so this small recursive-descent parser covers nested ones too.
 *
 * <p>Accepted: BOOLEAN, TINYINT, SMALLINT, INT/INTEGER, BIGINT, FLOAT, DOUBLE [PRECISION], DATE,
 * STRING, BYTES, VARIANT, CHAR[(n)], VARCHAR[(n)], BINARY[(n)], VARBINARY[(n)],
 * DECIMAL/DEC/NUMERIC[(p[, s])], TIME[(p)], TIMESTAMP[(p)] [WITHOUT TIME ZONE | WITH LOCAL TIME
 * ZONE], TIMESTAMP_LTZ[(p)], ARRAY&lt;T&gt;, MULTISET&lt;T&gt;, MAP&lt;K, V&gt;, ROW&lt;name T
 * ['comment'], ...&gt; (also {@code ROW(...)}; names may be back-quoted), each optionally followed by
 * {@code NOT NULL} or {@code NULL}. Defaults follow Paimon: CHAR/VARCHAR/BINARY/VARBINARY length 1,
 * DECIMAL(10, 0), TIME(0), TIMESTAMP(6).
 */
public final class TypeStrings {
    private final String text;
    private int pos;
    private int nextFieldId;

    private TypeStrings(String text) {
        this.text = text;
    }

    /** Parses one type string; fails with the position of the problem. */
    public static DataType parse(String typeString) {
        TypeStrings p = new TypeStrings(typeString);
        DataType t = p.type();
        p.skipSpaces();
        if (p.pos != p.text.length()) {
            throw p.error("unexpected trailing text");
        }
        return t;
    }

    private DataType type() {
        DataType base = baseType();
        if (acceptWord("NOT")) {
            expectWord("NULL");
            return base.copy(false);
        }
        acceptWord("NULL");
        return base;
    }

    private DataType baseType() {
        String word = word().toUpperCase(Locale.ROOT);
        switch (word) {
            case "BOOLEAN":
                return DataTypes.BOOLEAN();
            case "TINYINT":
                return DataTypes.TINYINT();
            case "SMALLINT":
                return DataTypes.SMALLINT();
            case "INT":
            case "INTEGER":
                return DataTypes.INT();
            case "BIGINT":
                return DataTypes.BIGINT();
            case "FLOAT":
                return DataTypes.FLOAT();
            case "DOUBLE":
                acceptWord("PRECISION");
                return DataTypes.DOUBLE();
            case "DATE":
                return DataTypes.DATE();
            case "STRING":
                return DataTypes.STRING();
            case "BYTES":
                return DataTypes.BYTES();
            case "VARIANT":
                return DataTypes.VARIANT();
            case "CHAR":
            case "CHARACTER":
                return DataTypes.CHAR(optionalLength(1));
            case "VARCHAR":
                return DataTypes.VARCHAR(optionalLength(1));
            case "BINARY":
                return DataTypes.BINARY(optionalLength(1));
            case "VARBINARY":
                return DataTypes.VARBINARY(optionalLength(1));
            case "DECIMAL":
            case "DEC":
            case "NUMERIC":
                return decimal();
            case "TIME": {
                int p = optionalLength(0);
                if (acceptWord("WITHOUT")) {
                    expectWord("TIME");
                    expectWord("ZONE");
                }
                return DataTypes.TIME(p);
            }
            case "TIMESTAMP":
                return timestamp();
            case "TIMESTAMP_LTZ":
                return new LocalZonedTimestampType(optionalLength(6));
            case "ARRAY": {
                expect('<');
                DataType element = type();
                expect('>');
                return DataTypes.ARRAY(element);
            }
            case "MULTISET": {
                expect('<');
                DataType element = type();
                expect('>');
                return new MultisetType(element);
            }
            case "MAP": {
                expect('<');
                DataType key = type();
                expect(',');
                DataType value = type();
                expect('>');
                return DataTypes.MAP(key, value);
            }
            case "ROW":
                return row();
            default:
                throw error("unknown type '" + word + "'");
        }
    }

    private DataType decimal() {
        int precision = 10;
        int scale = 0;
        if (accept('(')) {
            precision = number();
            if (accept(',')) {
                scale = number();
            }
            expect(')');
        }
        return DataTypes.DECIMAL(precision, scale);
    }

    private DataType timestamp() {
        int precision = optionalLength(6);
        if (acceptWord("WITHOUT")) {
            expectWord("TIME");
            expectWord("ZONE");
        } else if (acceptWord("WITH")) {
            if (!acceptWord("LOCAL")) {
                throw error("TIMESTAMP WITH TIME ZONE is not a Paimon type; use WITH LOCAL TIME ZONE");
            }
            expectWord("TIME");
            expectWord("ZONE");
            return new LocalZonedTimestampType(precision);
        }
        return new TimestampType(precision);
    }

    private DataType row() {
        char close;
        if (accept('<')) {
            close = '>';
        } else {
            expect('(');
            close = ')';
        }
        List<DataField> fields = new ArrayList<>();
        if (!accept(close)) {
            do {
                String name = identifier();
                DataType t = type();
                String comment = null;
                skipSpaces();
                if (pos < text.length() && text.charAt(pos) == '\'') {
                    comment = quoted('\'');
                }
                fields.add(new DataField(nextFieldId++, name, t, comment));
            } while (accept(','));
            expect(close);
        }
        return new RowType(fields);
    }

    private int optionalLength(int dflt) {
        if (!accept('(')) {
            return dflt;
        }
        int n = number();
        expect(')');
        return n;
    }

    // ---- lexer -------------------------------------------------------------------------------

    private void skipSpaces() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private String word() {
        skipSpaces();
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
            pos++;
        }
        if (start == pos) {
            throw error("expected a word");
        }
        return text.substring(start, pos);
    }

    private String identifier() {
        skipSpaces();
        if (pos < text.length() && text.charAt(pos) == '`') {
            return quoted('`');
        }
        return word();
    }

    /** A quoted token; a doubled quote char inside stands for one. */
    private String quoted(char quote) {
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated " + quote + "-quoted text");
            }
            char c = text.charAt(pos++);
            if (c == quote) {
                if (pos < text.length() && text.charAt(pos) == quote) {
                    sb.append(quote);
                    pos++;
                } else {
                    return sb.toString();
                }
            } else {
                sb.append(c);
            }
        }
    }

    private int number() {
        String w = word();
        try {
            return Integer.parseInt(w);
        } catch (NumberFormatException e) {
            throw error("expected a number, got '" + w + "'");
        }
    }

    private boolean acceptWord(String expected) {
        skipSpaces();
        int end = pos + expected.length();
        if (end <= text.length()
                && text.regionMatches(true, pos, expected, 0, expected.length())
                && (end == text.length() || !(Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_'))) {
            pos = end;
            return true;
        }
        return false;
    }

    private void expectWord(String expected) {
        if (!acceptWord(expected)) {
            throw error("expected " + expected);
        }
    }

    private boolean accept(char c) {
        skipSpaces();
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!accept(c)) {
            throw error("expected '" + c + "'");
        }
    }

    private IllegalArgumentException error(String why) {
        return new IllegalArgumentException(
                "Cannot parse type '" + text + "': " + why + " at position " + pos);
    }
}
